"""Computed-torque (inverse-dynamics) control, Qiu et al.; Siciliano et al. 2009, *Robotics*, ch. 8.

τ = ID(q, v, q̈_d + K_d (v_d − v) + K_p (q_d − q)): the inverse model in the inner loop
linearises the arm into decoupled double integrators with error dynamics
ë + K_d ė + K_p e = 0.
"""
from femdyn.errors import ModelError

from .data import Data, check_workspace
from .dynamics import as_vector, forward_dynamics, inverse_dynamics
from .integrators import simulate


def computed_torque(model, data, q, v, q_des, v_des, a_des, kp, kd):
    """Joint forces (N·m, N) of the computed-torque law; kp (1/s²), kd (1/s) scalars or per joint.

    Models with only scalar joints: the position error is q_des − q.
    """
    check_workspace(model, data)
    if model.free_joints.size:
        raise ModelError("computed_torque: the position error q_des − q needs scalar joints; this model has free "
                         f"joints (bodies {[model.names[i] for i in model.free_joints]})")
    q, v = as_vector(q, model.nq, "q"), as_vector(v, model.nv, "v")
    a_ref = (as_vector(a_des, model.nv, "a_des") + kd * (as_vector(v_des, model.nv, "v_des") - v)
             + kp * (as_vector(q_des, model.nq, "q_des") - q))
    return inverse_dynamics(model, data, q, v, a_ref)


def track(model, desired, q0, v0, t_end, h, kp, kd):
    """Closed-loop run of the computed-torque law on the forward dynamics (ABA, RK4 with
    step ``h``, s): ``desired(t)`` returns (q_d, v_d, q̈_d). Returns the
    :class:`~femdyn.solvers.recursive.integrators.Trajectory`."""
    data = Data(model)

    def acceleration(t, q, v):
        q_des, v_des, a_des = desired(t)
        return forward_dynamics(model, data, q, v, computed_torque(model, data, q, v, q_des, v_des, a_des, kp, kd))

    return simulate(acceleration, q0, v0, t_end, h)
