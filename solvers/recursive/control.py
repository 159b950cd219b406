"""Computed-torque (inverse-dynamics) control, seed 001 (Qiu et al.); Siciliano et al. 2009, *Robotics*, ch. 8.

τ = ID(q, v, q̈_d + K_d (v_d − v) + K_p (q_d − q)): the inverse model in the inner loop
linearises the arm into decoupled double integrators with error dynamics
ë + K_d ė + K_p e = 0.
"""
import numpy as np

from .dynamics import inverse_dynamics


def computed_torque(model, data, q, v, q_des, v_des, a_des, kp, kd):
    """Joint forces (N·m, N) of the computed-torque law; kp (1/s²), kd (1/s) scalars or per joint.

    Models with only scalar joints: the position error is q_des − q.
    """
    a_ref = np.asarray(a_des, float) + kd * (np.asarray(v_des) - v) + kp * (np.asarray(q_des) - q)
    return inverse_dynamics(model, data, q, v, a_ref)
