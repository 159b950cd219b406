"""Dynamics linear in the inertial parameters: momentum and joint-force regressors of a tree.

Every body's spatial inertia about its origin (RBDA ch. 2)

    I_i = [[Ī_i, h_i×], [h_i×ᵀ, m_i 1]],    h_i = m_i c_i,    Ī_i = I_c,i + m_i c_i×ᵀ c_i×,

is linear in the ten *inertial parameters*

    π_i = [m, h_x, h_y, h_z, Ī_xx, Ī_xy, Ī_yy, Ī_xz, Ī_yz, Ī_zz]            (kg, kg·m, kg·m²)

(body axes, about the body origin; Ī_xy is the matrix entry, −∫xy dm; the order of
Pinocchio's ``Inertia.toDynamicParameters``), so ``I_i v = A(v) π_i`` with the 6×10
matrix A of :func:`inertia_map` (Atkeson, An & Hollerbach 1986, "Estimation of inertial
parameters of manipulator loads and links", IJRR 5(3), eq. 9). Everything the recursions
compute from I_i v is then linear in π = [π_0; …; π_{n−1}]:

* system momentum ``h = Σ X*_i I_i v_i = Y_h(q, v) π`` (:func:`momentum_regressor`);
* joint forces of inverse dynamics ``τ = Y_τ(q, v, q̈) π`` (:func:`torque_regressor`):
  the body force ``f_i = I_i a_i + v_i ×* I_i v_i = B_i π_i`` and
  ``τ_j = S_jᵀ Σ_{i ∈ subtree(j)} ^jX*_i B_i π_i`` (the RNEA of RBDA table 5.1 with π
  factored out; Khalil & Dombre 2002, ch. 12);
* the system first moment ``Σ m_i r_i = Y_c(q) π`` (:func:`first_moment_regressor`).

The kinematic quantities come from the solver's own sweeps (:func:`.kinematics`,
:func:`.inverse_dynamics`), so the regressors reproduce the solver to round-off.
"""
import numpy as np

from femdyn.errors import ModelError

from .dynamics import as_vector, inverse_dynamics, kinematics

PARAMETERS = ("m", "hx", "hy", "hz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz")
N_PARAMETERS = len(PARAMETERS)


def skew_stack(w):
    """Cross-product matrices (…, 3, 3) of vectors (…, 3)."""
    out = np.zeros(w.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2], out[..., 1, 2] = -w[..., 2], w[..., 1], -w[..., 0]
    out[..., 1, 0], out[..., 2, 0], out[..., 2, 1] = w[..., 2], -w[..., 1], w[..., 0]
    return out


def inertia_map(v):
    """A(v) (…, 6, 10) with ``I(π) v = A(v) π`` for motion vectors v = [ω; u] (…, 6).

    Rows: [Ī ω + h × u ; m u + ω × h] (RBDA eq. 2.63 written in π; Atkeson et al. 1986 eq. 9).

    Example
    -------
    >>> A = inertia_map(np.array([0.0, 0.0, 1.0, 1.0, 0.0, 0.0]))
    >>> A.shape
    (6, 10)
    """
    w, u = v[..., :3], v[..., 3:]
    A = np.zeros(v.shape[:-1] + (6, N_PARAMETERS))
    A[..., :3, 1:4] = -skew_stack(u)            # h × u = −u× h
    A[..., 3:, 0] = u
    A[..., 3:, 1:4] = skew_stack(w)             # ω × h
    wx, wy, wz = w[..., 0], w[..., 1], w[..., 2]
    A[..., 0, 4], A[..., 0, 5], A[..., 0, 7] = wx, wy, wz          # Ī ω, columns Ixx Ixy Iyy Ixz Iyz Izz
    A[..., 1, 5], A[..., 1, 6], A[..., 1, 8] = wx, wy, wz
    A[..., 2, 7], A[..., 2, 8], A[..., 2, 9] = wx, wy, wz
    return A


def cross_force_stack(v):
    """Matrices (…, 6, 6) of ``v ×*`` (RBDA table 2.5) for motion vectors v (…, 6)."""
    W, U = skew_stack(v[..., :3]), skew_stack(v[..., 3:])
    out = np.zeros(v.shape[:-1] + (6, 6))
    out[..., :3, :3], out[..., :3, 3:], out[..., 3:, 3:] = W, U, W
    return out


def parameters_from_inertia(inertia):
    """π (…, 10) from spatial inertias (…, 6, 6) about the body origins (the inverse of :func:`inertia_from_parameters`)."""
    I = np.asarray(inertia, float)
    return np.stack([I[..., 3, 3], I[..., 2, 4], I[..., 0, 5], I[..., 1, 3], I[..., 0, 0], I[..., 0, 1],
                     I[..., 1, 1], I[..., 0, 2], I[..., 1, 2], I[..., 2, 2]], axis=-1)


def inertia_from_parameters(pi):
    """Spatial inertias (…, 6, 6) about the body origins from π (…, 10) (RBDA ch. 2)."""
    pi = np.asarray(pi, float)
    m, h = pi[..., 0], pi[..., 1:4]
    xx, xy, yy, xz, yz, zz = (pi[..., k] for k in range(4, 10))
    out = np.zeros(pi.shape[:-1] + (6, 6))
    out[..., :3, :3] = np.stack([np.stack([xx, xy, xz], -1), np.stack([xy, yy, yz], -1),
                                 np.stack([xz, yz, zz], -1)], -2)
    out[..., :3, 3:] = skew_stack(h)
    out[..., 3:, :3] = -skew_stack(h)
    out[..., 3:, 3:] = m[..., None, None] * np.eye(3)
    return out


def inertial_parameters(model):
    """π of ``model`` (n·10,): the bodies' parameters in parent-first order (units in the module doc).

    Example
    -------
    >>> from femdyn.robots.serial import puma560
    >>> inertial_parameters(puma560()).shape
    (60,)
    """
    return parameters_from_inertia(model.inertia).ravel()


def _world_rows(data, body_rows, about):
    """Carry body-coordinate wrench rows (n, 6, k) to the world frame about ``about`` and sum over bodies."""
    R, p = data.R_world, data.p_world
    angular = np.einsum("iab,ibk->iak", R, body_rows[:, :3])
    linear = np.einsum("iab,ibk->iak", R, body_rows[:, 3:])
    angular += np.einsum("iab,ibk->iak", skew_stack(p - about), linear)
    return np.concatenate([angular, linear], axis=1)


def _about_point(model, data, q, about):
    if isinstance(about, str):
        if about == "origin":
            return np.zeros(3)
        raise ModelError(f"momentum_regressor: about='{about}' is not 'origin' or a point (3 numbers in m); the "
                         "momentum about the system centre of mass is not linear in π — use "
                         "femdyn.identification.centroidal_angular_momentum")
    return as_vector(about, 3, "about (m, world coordinates)")


def momentum_regressor(model, data, q, v, about="origin"):
    """Y_h (6, 10 n) with the system spatial momentum ``[L; p] = Y_h π`` (N·m·s, N·s), world coordinates.

    Parameters
    ----------
    model, data : TreeModel and its Data.
    q, v : configuration (nq,) and velocity (nv,) in the solver's conventions.
    about : 'origin' or a fixed point (3,) in m (world coordinates) for the angular part.

    Returns
    -------
    ndarray (6, 10 n): columns in the order of :func:`inertial_parameters`, so that
    ``Y_h @ inertial_parameters(model)`` equals :func:`.momentum` to round-off.

    Raises
    ------
    ModelError for malformed q, v or ``about``.

    Example
    -------
    >>> from femdyn.robots.serial import space_arm
    >>> from femdyn.solvers.recursive import Data, momentum
    >>> model = space_arm(floating=True); data = Data(model)
    >>> q, v = model.neutral_configuration(), np.ones(model.nv)
    >>> np.allclose(momentum_regressor(model, data, q, v) @ inertial_parameters(model), momentum(model, data, q, v))
    True
    """
    kinematics(model, data, q, v)
    point = _about_point(model, data, q, about)
    rows = _block_diagonal(inertia_map(data.vel))
    return _world_rows(data, rows, point).sum(axis=0)


def _block_diagonal(blocks):
    """(n, 6, 10) per-body blocks as (n, 6, 10 n) rows with body i's block in columns 10 i … 10 i + 9."""
    n = blocks.shape[0]
    out = np.zeros((n, 6, n * N_PARAMETERS))
    for i in range(n):
        out[i, :, i * N_PARAMETERS:(i + 1) * N_PARAMETERS] = blocks[i]
    return out


def first_moment_regressor(model, data, q):
    """Y_c (3, 10 n) with the system first moment ``Σ m_i r_i = M c = Y_c π`` (kg·m, world coordinates).

    Example
    -------
    >>> from femdyn.robots.serial import puma560
    >>> from femdyn.solvers.recursive import Data, center_of_mass
    >>> model = puma560(); data = Data(model); q = np.zeros(6); pi = inertial_parameters(model)
    >>> np.allclose(first_moment_regressor(model, data, q) @ pi / model.mass.sum(), center_of_mass(model, data, q))
    True
    """
    kinematics(model, data, q)
    n = model.n
    Y = np.zeros((3, n * N_PARAMETERS))
    for i in range(n):
        Y[:, i * N_PARAMETERS] = data.p_world[i]
        Y[:, i * N_PARAMETERS + 1:i * N_PARAMETERS + 4] = data.R_world[i]
    return Y


def torque_regressor(model, data, q, v, qdd, gravity=None):
    """Y_τ (nv, 10 n) with the inverse-dynamics joint forces ``τ = Y_τ(q, v, q̈) π`` (N·m or N).

    Gravity enters as the base acceleration −g (RBDA ch. 5), as in
    :func:`.inverse_dynamics`; external forces are not part of the regressor.

    Parameters
    ----------
    model, data : TreeModel and its Data.
    q, v, qdd : configuration (nq,), velocity (nv,), acceleration (nv,).
    gravity : optional override of the model's gravity (m/s², world frame).

    Returns
    -------
    ndarray (nv, 10 n): ``Y_τ @ inertial_parameters(model)`` equals :func:`.inverse_dynamics`.

    Example
    -------
    >>> from femdyn.robots.serial import puma560
    >>> from femdyn.solvers.recursive import Data, inverse_dynamics
    >>> model = puma560(); data = Data(model); q, v, a = np.ones(6), np.ones(6), np.ones(6)
    >>> Y = torque_regressor(model, data, q, v, a)
    >>> np.allclose(Y @ inertial_parameters(model), inverse_dynamics(model, data, q, v, a))
    True
    """
    inverse_dynamics(model, data, q, v, qdd, gravity=gravity)
    vel, acc = data.vel, data.acc
    B = inertia_map(acc) + cross_force_stack(vel) @ inertia_map(vel)       # f_i = B_i π_i, body coordinates
    Y = np.zeros((model.nv, model.n * N_PARAMETERS))
    for i in range(model.n):
        F, k = B[i], i
        cols = slice(i * N_PARAMETERS, (i + 1) * N_PARAMETERS)
        while k >= 0:
            nv, vi = model.joint_nv[k], model.v_index[k]
            if nv:
                Y[vi:vi + nv, cols] = model.S[k, :, :nv].T @ F
            F = data.Xup[k].T @ F
            k = model.parent[k]
    return Y
