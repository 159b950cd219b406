"""Dynamics linear in the inertial parameters: momentum and joint-force regressors of a tree.

π_i = [m, h_x, h_y, h_z, Ī_xx, Ī_xy, Ī_yy, Ī_xz, Ī_yz, Ī_zz] (kg, kg·m, kg·m²; body axes,
about the body origin, Pinocchio's order), with I_i v = A(v) π_i (:func:`inertia_map`;
Atkeson, An & Hollerbach 1986, IJRR 5(3), eq. 9). Hence h = Y_h π
(:func:`momentum_regressor`), τ = Y_τ π (:func:`torque_regressor`; Khalil & Dombre 2002,
ch. 12) and Σ m_i r_i = Y_c π (:func:`first_moment_regressor`), from the solver's own sweeps.
Derivation: docs/solvers.md ("Regressors").
"""
import numpy as np
from numba import njit

from femdyn.errors import ModelError
from femdyn.geometry import skew

from .arguments import as_vector
from .dynamics import inverse_dynamics, kinematics
from .spatial import cross_force

PARAMETERS = ("m", "hx", "hy", "hz", "Ixx", "Ixy", "Iyy", "Ixz", "Iyz", "Izz")
N_PARAMETERS = len(PARAMETERS)


@njit(cache=True, inline="always")
def _inertia_map_into(v, out):
    """``out`` (6, 10) = A(v) with ``I(π) v = A(v) π`` for a motion vector v = [ω; u] (6,)."""
    w0, w1, w2, u0, u1, u2 = v[0], v[1], v[2], v[3], v[4], v[5]
    for a in range(6):
        for b in range(10):
            out[a, b] = 0.0
    out[0, 2], out[0, 3], out[1, 1], out[1, 3], out[2, 1], out[2, 2] = u2, -u1, -u2, u0, u1, -u0     # h × u
    out[3, 0], out[4, 0], out[5, 0] = u0, u1, u2                                                    # m u
    out[3, 2], out[3, 3], out[4, 1], out[4, 3], out[5, 1], out[5, 2] = -w2, w1, w2, -w0, -w1, w0    # ω × h
    out[0, 4], out[0, 5], out[0, 7] = w0, w1, w2           # Ī ω, columns Ixx Ixy Iyy Ixz Iyz Izz
    out[1, 5], out[1, 6], out[1, 8] = w0, w1, w2
    out[2, 7], out[2, 8], out[2, 9] = w0, w1, w2


def inertia_map(v):
    """Matrix A(v) with I(π) v = A(v) π for a motion vector (Atkeson, An & Hollerbach 1986, eq. 9)."""
    out = np.empty((6, N_PARAMETERS))
    _inertia_map_into(np.ascontiguousarray(v, dtype=float), out)
    return out


@njit(cache=True)
def _momentum_rows(R_world, p_world, vel, point, Y):
    """Y (6, 10 n) = Σ_i X*_i A(v_i) in world coordinates about ``point``."""
    A, ang, lin = np.empty((6, 10)), np.empty(3), np.empty(3)
    for i in range(vel.shape[0]):
        _inertia_map_into(vel[i], A)
        r0, r1, r2 = p_world[i, 0] - point[0], p_world[i, 1] - point[1], p_world[i, 2] - point[2]
        for c in range(10):
            for a in range(3):
                s, t = 0.0, 0.0
                for b in range(3):
                    s += R_world[i, a, b] * A[b, c]
                    t += R_world[i, a, b] * A[b + 3, c]
                ang[a], lin[a] = s, t
            col = i * 10 + c
            Y[0, col] = ang[0] + r1 * lin[2] - r2 * lin[1]
            Y[1, col] = ang[1] + r2 * lin[0] - r0 * lin[2]
            Y[2, col] = ang[2] + r0 * lin[1] - r1 * lin[0]
            Y[3, col], Y[4, col], Y[5, col] = lin[0], lin[1], lin[2]


@njit(cache=True)
def _torque_rows(parent, S, v_index, joint_nv, Xup, vel, acc, Y):
    """Y (nv, 10 n): body forces B_i π_i = (A(a_i) + v_i ×* A(v_i)) π_i carried up the tree (RNEA backward sweep)."""
    A, F, Fn = np.empty((6, 10)), np.empty((6, 10)), np.empty((6, 10))
    col, out = np.empty(6), np.empty(6)
    for a in range(Y.shape[0]):
        for b in range(Y.shape[1]):
            Y[a, b] = 0.0
    for i in range(parent.shape[0]):
        _inertia_map_into(vel[i], A)
        for c in range(10):
            for a in range(6):
                col[a] = A[a, c]
            cross_force(vel[i], col, out)
            for a in range(6):
                F[a, c] = out[a]
        _inertia_map_into(acc[i], A)
        for a in range(6):
            for c in range(10):
                F[a, c] += A[a, c]
        k = i
        while k >= 0:
            for m in range(joint_nv[k]):
                for c in range(10):
                    s = 0.0
                    for a in range(6):
                        s += S[k, a, m] * F[a, c]
                    Y[v_index[k] + m, i * 10 + c] = s
            if parent[k] < 0:
                break
            for c in range(10):
                for a in range(6):
                    s = 0.0
                    for b in range(6):
                        s += Xup[k, b, a] * F[b, c]
                    Fn[a, c] = s
            for a in range(6):
                for c in range(10):
                    F[a, c] = Fn[a, c]
            k = parent[k]


def parameters_from_inertia(inertia):
    """Inertial parameters π from spatial inertias about the body origins."""
    I = np.asarray(inertia, float)
    return np.stack([I[..., 3, 3], I[..., 2, 4], I[..., 0, 5], I[..., 1, 3], I[..., 0, 0], I[..., 0, 1],
                     I[..., 1, 1], I[..., 0, 2], I[..., 1, 2], I[..., 2, 2]], axis=-1)


def inertia_from_parameters(pi):
    """Spatial inertias about the body origins from inertial parameters (RBDA ch. 2)."""
    pi = np.asarray(pi, float)
    m, h = pi[..., 0], pi[..., 1:4]
    xx, xy, yy, xz, yz, zz = (pi[..., k] for k in range(4, 10))
    out = np.zeros(pi.shape[:-1] + (6, 6))
    out[..., :3, :3] = np.stack([np.stack([xx, xy, xz], -1), np.stack([xy, yy, yz], -1),
                                 np.stack([xz, yz, zz], -1)], -2)
    out[..., :3, 3:] = skew(h)
    out[..., 3:, :3] = -skew(h)
    out[..., 3:, 3:] = m[..., None, None] * np.eye(3)
    return out


def inertial_parameters(model):
    """Inertial parameters π of a tree: the bodies' ten parameters in parent-first order."""
    return parameters_from_inertia(model.inertia).ravel()


def _about_point(about):
    """The reference point of the momentum regressor ("origin" or 3 numbers, m)."""
    if isinstance(about, str):
        if about == "origin":
            return np.zeros(3)
        raise ModelError(f"momentum_regressor: about='{about}' is not 'origin' or a point (3 numbers in m); the "
                         "momentum about the system centre of mass is not linear in π — use "
                         "femdyn.identification.centroidal_angular_momentum")
    return as_vector(about, 3, "about (m, world coordinates)")


def momentum_regressor(model, data, q, v, about="origin"):
    """Y_h with the system spatial momentum [L; p] = Y_h π, world coordinates."""
    kinematics(model, data, q, v)
    Y = np.empty((6, model.n * N_PARAMETERS))
    _momentum_rows(data.R_world, data.p_world, data.vel, _about_point(about), Y)
    return Y


def first_moment_regressor(model, data, q):
    """Y_c with the system first moment Σ m_i r_i = M c = Y_c π (kg·m, world coordinates)."""
    kinematics(model, data, q)
    n = model.n
    Y = np.zeros((3, n * N_PARAMETERS))
    for i in range(n):
        Y[:, i * N_PARAMETERS] = data.p_world[i]
        Y[:, i * N_PARAMETERS + 1:i * N_PARAMETERS + 4] = data.R_world[i]
    return Y


def torque_regressor(model, data, q, v, qdd, gravity=None):
    """Y_τ with the inverse-dynamics joint forces τ = Y_τ(q, v, q̈) π (N·m or N)."""
    inverse_dynamics(model, data, q, v, qdd, gravity=gravity)
    Y = np.empty((model.nv, model.n * N_PARAMETERS))
    _torque_rows(model.parent, model.S, model.v_index, model.joint_nv, data.Xup, data.vel, data.acc, Y)
    return Y
