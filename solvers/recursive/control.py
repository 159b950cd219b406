"""Computed-torque (inverse-dynamics) control, Qiu et al.; Siciliano et al. 2009, *Robotics*, ch. 8.
"""
from femdyn.errors import ModelError

from .data import Data, check_workspace
from .arguments import as_vector
from .dynamics import forward_dynamics, inverse_dynamics
from .integrators import simulate


def computed_torque(model, data, q, v, q_des, v_des, a_des, kp, kd):
    """Joint forces of the computed-torque law τ = ID(q, v, q̈_d + K_d (v_d − v) + K_p (q_d − q)).

    Error dynamics ë + K_d ė + K_p e = 0 for an exact model (Siciliano et al. 2009, ch. 8; Qiu et al.).

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree (no free joints) and its workspace.
    q, v : (nv,) array_like
        Measured joint coordinates and velocities.
    q_des, v_des, a_des : (nv,) array_like
        Desired coordinates, velocities and accelerations.
    kp, kd : float or (nv,) array_like
        Gains K_p [1/s²] and K_d [1/s].

    Returns
    -------
    (nv,) ndarray
        τ [N·m or N].

    Raises
    ------
    ModelError
        For a model with free joints, or wrong sizes.
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
    """Closed-loop run of the computed-torque law on the forward dynamics (ABA, RK4).

    Parameters
    ----------
    model : TreeModel
        The tree (no free joints).
    desired : callable
        t ↦ (q_d, v_d, q̈_d), each (nv,).
    q0, v0 : (nv,) array_like
        Initial coordinates and velocities.
    t_end : float
        End time [s].
    h : float
        Step [s].
    kp, kd : float or (nv,) array_like
        Gains K_p [1/s²] and K_d [1/s].

    Returns
    -------
    Trajectory
    """
    data = Data(model)

    def acceleration(t, q, v):
        q_des, v_des, a_des = desired(t)
        return forward_dynamics(model, data, q, v, computed_torque(model, data, q, v, q_des, v_des, a_des, kp, kd))

    return simulate(acceleration, q0, v0, t_end, h)
