"""Recursive dynamics of a kinematic tree: the public functions over (model, data).

* :func:`inverse_dynamics` — recursive Newton–Euler, RBDA table 5.1 (Luh, Walker & Paul 1980);
* :func:`forward_dynamics` — articulated-body algorithm, RBDA table 7.1 (Featherstone 1983);
* :func:`hybrid_dynamics` — each joint torque- or motion-given, RBDA ch. 9 (Tian et al. 2010);
* :func:`mass_matrix` — composite-rigid-body algorithm, RBDA ch. 6;
* :func:`center_of_mass`, :func:`momentum`.

Units and frames: docs/conventions.md; ``f_ext`` are spatial forces [n; f] on each body,
body coordinates, about the body origin.
"""
import numpy as np

from femdyn.errors import ModelError

from . import kernels
from .arguments import as_vector, base_acceleration, check_quaternions, external_forces, joint_mask
from .data import check_workspace


def _ready(model, data, gravity):
    """Check the workspace in full unless it was built for this very model, and set its ``a0`` for ``gravity``."""
    if getattr(data, "ready_for", None) is not model or gravity is not None:
        check_workspace(model, data)
        base_acceleration(model, data, gravity)
        data.ready_for = model if gravity is None else None


def kinematics(model, data, q, v=None):
    """Forward kinematics: body placements, world poses and spatial velocities, stored in ``data``.

    Fills ``data.Xup``, ``data.R_world``, ``data.p_world`` [m] and ``data.vel`` ([ω; v], body coordinates).

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree and its workspace.
    q : (nq,) array_like
        Joint coordinates [rad or m; free joints: position m and unit quaternion (x, y, z, w)].
    v : (nv,) array_like, optional
        Joint velocities [rad/s or m/s]; None: at rest.

    Raises
    ------
    ModelError
        For wrong sizes, a workspace of another model, or a free joint with a zero quaternion.
    """
    _ready(model, data, None)
    q = as_vector(q, model.nq, "q")
    v = np.zeros(model.nv) if v is None else as_vector(v, model.nv, "v")
    bad = kernels.packed_kinematics(*model.packed, *data.packed, q, v)
    if bad >= 0:
        check_quaternions(model, q, bad)


def inverse_dynamics(model, data, q, v, qdd, f_ext=None, gravity=None):
    """Joint forces τ that produce the accelerations q̈ at (q, v): recursive Newton–Euler.

    RBDA table 5.1 (Luh, Walker & Paul 1980). τ_i is the force the joint's actuator applies
    to body i (reaction on the parent), projected on the joint's motion subspace.

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree and its workspace (then ``data.force``: each joint's transmitted spatial force).
    q, v : (nq,), (nv,) array_like
        Joint coordinates and velocities.
    qdd : (nv,) array_like
        Joint accelerations [rad/s² or m/s²].
    f_ext : (n, 6) array_like, optional
        External spatial forces [n; f] (N·m, N) on each body, body coordinates, about the body origin.
    gravity : (3,) array_like, optional
        Gravity [m/s²], world frame (default: the model's).

    Returns
    -------
    (nv,) ndarray
        τ [N·m or N].

    Raises
    ------
    ModelError
        For wrong sizes or a workspace of another model.

    Examples
    --------
    Holding a 1 kg, 1 m rod horizontal against gravity (m g L/2 = 4.905 N·m):

    >>> from femdyn.solvers.recursive import Body, Data, Joint, TreeModel
    >>> rod = Body("rod", "world", Joint("revolute", (0, 1, 0)), mass=1.0, com=(0.5, 0, 0),
    ...            inertia=(1e-4, 1 / 12, 1 / 12, 0, 0, 0))
    >>> model = TreeModel([rod]); data = Data(model)
    >>> inverse_dynamics(model, data, [0.0], [0.0], [0.0]).round(12)
    array([-4.905])
    """
    _ready(model, data, gravity)
    q, v, qdd = as_vector(q, model.nq, "q"), as_vector(v, model.nv, "v"), as_vector(qdd, model.nv, "qdd")
    bad = kernels.packed_rnea(*model.packed, *data.packed, q, v, qdd,
                              data.no_force if f_ext is None else external_forces(model, data, f_ext))
    if bad >= 0:
        check_quaternions(model, q, bad)
    return data.tau.copy()


def hybrid_dynamics(model, data, q, v, prescribed, tau, qdd, f_ext=None, gravity=None):
    """Hybrid dynamics in O(N): each joint torque-given or motion-given.

    RBDA ch. 9; Jain & Rodriguez's hybrid recursions (Tian et al. 2010).

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree and its workspace.
    q, v : (nq,), (nv,) array_like
        Joint coordinates and velocities.
    prescribed : sequence of bool, or str, or list of str
        The motion-given joints: one flag per joint (body order of the model), or body names.
    tau : (nv,) array_like
        Joint forces [N·m or N]; read for the torque-given joints.
    qdd : (nv,) array_like
        Joint accelerations; read for the motion-given joints.
    f_ext : (n, 6) array_like, optional
        External spatial forces per body, body coordinates.
    gravity : (3,) array_like, optional
        Gravity [m/s²], world frame.

    Returns
    -------
    qdd : (nv,) ndarray
        Complete accelerations (computed for the torque-given joints).
    tau : (nv,) ndarray
        Complete forces (computed for the motion-given joints).

    Raises
    ------
    ModelError
        For wrong sizes, bad ``prescribed`` flags or an unknown body name.
    """
    _ready(model, data, gravity)
    mask = joint_mask(model, prescribed)
    q, v = as_vector(q, model.nq, "q"), as_vector(v, model.nv, "v")
    tau, qdd = as_vector(tau, model.nv, "tau").copy(), as_vector(qdd, model.nv, "qdd").copy()
    _hybrid(model, data, q, v, mask, tau, qdd, f_ext)
    return qdd, tau


def forward_dynamics(model, data, q, v, tau, f_ext=None, gravity=None):
    """Joint accelerations q̈ under joint forces τ: articulated-body algorithm (RBDA table 7.1).

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree and its workspace.
    q, v : (nq,), (nv,) array_like
        Joint coordinates and velocities.
    tau : (nv,) array_like
        Joint forces [N·m or N].
    f_ext : (n, 6) array_like, optional
        External spatial forces per body [n; f], body coordinates, about the body origin.
    gravity : (3,) array_like, optional
        Gravity [m/s²], world frame (default: the model's).

    Returns
    -------
    (nv,) ndarray
        q̈ [rad/s² or m/s²]; for free joints the derivative of the body twist.

    Raises
    ------
    ModelError
        For wrong sizes or a workspace of another model.
    """
    _ready(model, data, gravity)
    q, v, tau = as_vector(q, model.nq, "q"), as_vector(v, model.nv, "v"), as_vector(tau, model.nv, "tau")
    _hybrid(model, data, q, v, data.none_prescribed, tau, data.qdd, f_ext)
    return data.qdd.copy()


def _hybrid(model, data, q, v, mask, tau, qdd, f_ext):
    """Run the hybrid-dynamics kernel (masked joints given q̈, the others τ) on a ready workspace."""
    bad = kernels.packed_hybrid(*model.packed, *data.packed, q, v, mask, tau, qdd,
                                data.no_force if f_ext is None else external_forces(model, data, f_ext))
    if bad >= 0:
        check_quaternions(model, q, bad)


def mass_matrix(model, data, q):
    """Joint-space mass matrix H(q): composite-rigid-body algorithm (RBDA ch. 6).

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree and its workspace.
    q : (nq,) array_like
        Joint coordinates.

    Returns
    -------
    (nv, nv) ndarray
        H [kg·m² for rotations, kg for translations, kg·m for couplings].
    """
    kinematics(model, data, q)
    kernels.packed_crba(*model.packed, *data.packed)
    return data.M.copy()


def center_of_mass(model, data, q):
    """Centre of mass of the whole tree.

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree and its workspace.
    q : (nq,) array_like
        Joint coordinates.

    Returns
    -------
    (3,) ndarray
        Centre of mass [m], world frame.
    """
    kinematics(model, data, q)
    c = data.p_world + np.einsum("iab,ib->ia", data.R_world, _body_com(model))
    return model.mass @ c / model.mass.sum()


def _body_com(model):
    """Centres of mass in body coordinates, read back from the spatial inertias (m)."""
    I = model.inertia
    return np.stack([I[:, 2, 4], I[:, 0, 5], I[:, 1, 3]], axis=1) / model.mass[:, None]


def momentum(model, data, q, v, about="origin"):
    """Spatial momentum [L; p] of the system in world coordinates.

    h = Σ X*_i I_i v_i (RBDA ch. 2).

    Parameters
    ----------
    model, data : TreeModel, Data
        The tree and its workspace.
    q, v : (nq,), (nv,) array_like
        Joint coordinates and velocities.
    about : {"origin", "com"} or (3,) array_like, optional
        Reference point of L: world origin, system centre of mass, or a world point [m].

    Returns
    -------
    (6,) ndarray
        [L (N·m·s); p (N·s)], world frame.

    Raises
    ------
    ModelError
        For an unknown ``about``.
    """
    kinematics(model, data, q, v)
    h = np.einsum("iab,ib->ia", model.inertia, data.vel)       # body momenta, body coordinates
    linear = np.einsum("iab,ib->ia", data.R_world, h[:, 3:])
    angular = np.einsum("iab,ib->ia", data.R_world, h[:, :3]) + np.cross(data.p_world, linear)
    L, p = angular.sum(axis=0), linear.sum(axis=0)
    if isinstance(about, str):
        if about == "origin":
            point = np.zeros(3)
        elif about == "com":
            c = data.p_world + np.einsum("iab,ib->ia", data.R_world, _body_com(model))
            point = model.mass @ c / model.mass.sum()
        else:
            raise ModelError(f"momentum: about='{about}' is not 'origin', 'com' or a point")
    else:
        point = as_vector(about, 3, "about")
    return np.concatenate([L - np.cross(point, p), p])
