"""Free-floating base: inverse dynamics with a freely moving base (Qiu et al.).

One hybrid sweep (RBDA ch. 9) with the base torque-given and the arm joints motion-given
gives the joint forces and the base acceleration; the disturbance wrench on the base is the
RNEA force recursion (RBDA table 5.1) read from the base side.
"""
import numpy as np

from femdyn.errors import ModelError

from .data import check_workspace
from .arguments import as_vector
from .dynamics import hybrid_dynamics
from .model import FREE


def base_index(model):
    """Index of the single free-floating root body."""
    roots = np.flatnonzero(model.parent < 0)
    if len(roots) != 1 or model.joint_type[roots[0]] != FREE:
        raise ModelError("floating-base dynamics needs exactly one root body with a 'free' joint; "
                         f"roots are {[model.names[r] for r in roots]}")
    return int(roots[0])


def _arm_wrench_on_base(model, data, base):
    """Spatial force the children exert on the base, from the last dynamics sweep."""
    w = np.zeros(6)
    for c in np.flatnonzero(model.parent == base):
        w -= data.Xup[c].T @ data.force[c]
    return w


def floating_base_inverse_dynamics(model, data, q, v, qdd_joints, base_wrench=None, f_ext=None, gravity=None):
    """Joint forces, base acceleration and disturbance wrench for prescribed joint motions (Qiu et al.).

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree, with one free-floating root and its workspace.
    q, v : (nq,), (nv,) array_like
        Full coordinates and velocities, base first (free joint, see :class:`~.model.Joint`).
    qdd_joints : (nv − 6,) array_like
        Accelerations of the non-base joints.
    base_wrench : (6,) array_like, optional
        External spatial force [n; f] (N·m, N) on the base, base coordinates; default zero (free floating).
    f_ext : (n, 6) array_like, optional
        External spatial forces per body, body coordinates.
    gravity : (3,) array_like, optional
        Gravity [m/s²], world frame (default: the model's; zero for a space robot).

    Returns
    -------
    tau : (nv − 6,) ndarray
        Joint forces [N·m or N].
    base_acceleration : (6,) ndarray
        d/dt of the base twist [ω; v_o], base coordinates.
    wrench : (6,) ndarray
        [n; f] the arm exerts on the base, base coordinates, about its origin.

    Raises
    ------
    ModelError
        Without a single free-floating root, or for wrong sizes.
    """
    check_workspace(model, data)
    base = base_index(model)
    j = model.v_index[base]
    joints = np.ones(model.nv, bool)
    joints[j:j + 6] = False
    qdd, tau = np.zeros(model.nv), np.zeros(model.nv)
    qdd[joints] = as_vector(qdd_joints, model.nv - 6, "qdd_joints (accelerations of the non-base joints)")
    if base_wrench is not None:
        tau[j:j + 6] = as_vector(base_wrench, 6, "base_wrench ([n; f] in N·m, N, base coordinates)")
    prescribed = np.ones(model.n, bool)
    prescribed[base] = False
    qdd, tau = hybrid_dynamics(model, data, q, v, prescribed, tau, qdd, f_ext, gravity)
    return tau[joints], qdd[j:j + 6], _arm_wrench_on_base(model, data, base)
