"""Spatial (6-D) vector algebra in Featherstone's convention (RBDA ch. 2).

Motion vectors [ω; v], force vectors [n; f] about the frame origin; a Plücker transform
A → B is stored as (E, r), X = [[E, 0], [−E r×, E]] (RBDA table 2.5), X* = X⁻ᵀ; spatial
inertia I = [[I_c + m c× c×ᵀ, m c×], [m c×ᵀ, m 1]]. Numba kernels writing into ``out``.
"""
import numpy as np
from numba import njit

from femdyn.geometry import rotation_about, skew


def spatial_inertia(mass, com, inertia_com):
    """Spatial inertia about the body frame origin, I = [[I_c + m c× c×ᵀ, m c×], [m c×ᵀ, m 1]] (RBDA ch. 2)."""
    c = skew(np.asarray(com, float))
    out = np.empty((6, 6))
    out[:3, :3] = np.asarray(inertia_com, float) + mass * c @ c.T
    out[:3, 3:] = mass * c
    out[3:, :3] = mass * c.T
    out[3:, 3:] = mass * np.eye(3)
    return out


def rpy_matrix(rpy):
    """Rotation matrix from roll-pitch-yaw angles: Rz(yaw) Ry(pitch) Rx(roll)."""
    r, p, y = rpy
    return rotation_about([0, 0, 1], y) @ rotation_about([0, 1, 0], p) @ rotation_about([1, 0, 0], r)


@njit(cache=True, inline="always")
def plucker(E, r, out):
    """6×6 motion transform ``[[E, 0], [−E r×, E]]`` from (E, r), RBDA table 2.5."""
    for i in range(3):
        for j in range(3):
            out[i, j] = E[i, j]
            out[i + 3, j + 3] = E[i, j]
            out[i, j + 3] = 0.0
    # row i of −E r× is r × E[i, :]
    for i in range(3):
        e0, e1, e2 = E[i, 0], E[i, 1], E[i, 2]
        out[i + 3, 0] = -(e1 * r[2] - e2 * r[1])
        out[i + 3, 1] = -(e2 * r[0] - e0 * r[2])
        out[i + 3, 2] = -(e0 * r[1] - e1 * r[0])


@njit(cache=True, inline="always")
def matvec6(A, x, out):
    """``out = A x`` for a 6×6 matrix: a motion transform applied to a motion vector, or a
    (rigid or articulated) inertia applied to a velocity."""
    for i in range(6):
        s = 0.0
        for j in range(6):
            s += A[i, j] * x[j]
        out[i] = s


@njit(cache=True, inline="always")
def force_transform_back(X, f, out):
    """``out += Xᵀ f``: a force in child coordinates carried to the parent (RBDA table 2.5)."""
    for j in range(6):
        s = 0.0
        for i in range(6):
            s += X[i, j] * f[i]
        out[j] += s


@njit(cache=True, inline="always")
def cross_motion(v, m, out):
    """``out = v × m`` (RBDA table 2.5)."""
    w0, w1, w2, u0, u1, u2 = v[0], v[1], v[2], v[3], v[4], v[5]
    out[0] = w1 * m[2] - w2 * m[1]
    out[1] = w2 * m[0] - w0 * m[2]
    out[2] = w0 * m[1] - w1 * m[0]
    out[3] = w1 * m[5] - w2 * m[4] + u1 * m[2] - u2 * m[1]
    out[4] = w2 * m[3] - w0 * m[5] + u2 * m[0] - u0 * m[2]
    out[5] = w0 * m[4] - w1 * m[3] + u0 * m[1] - u1 * m[0]


@njit(cache=True, inline="always")
def cross_force(v, f, out):
    """``out = v ×* f`` (RBDA table 2.5)."""
    w0, w1, w2, u0, u1, u2 = v[0], v[1], v[2], v[3], v[4], v[5]
    out[0] = w1 * f[2] - w2 * f[1] + u1 * f[5] - u2 * f[4]
    out[1] = w2 * f[0] - w0 * f[2] + u2 * f[3] - u0 * f[5]
    out[2] = w0 * f[1] - w1 * f[0] + u0 * f[4] - u1 * f[3]
    out[3] = w1 * f[5] - w2 * f[4]
    out[4] = w2 * f[3] - w0 * f[5]
    out[5] = w0 * f[4] - w1 * f[3]


@njit(cache=True, inline="always")
def congruence_add(X, I, tmp, out):
    """``out += Xᵀ I X``: a symmetric inertia in child coordinates carried to the parent (RBDA table 2.5)."""
    for i in range(6):
        for j in range(3):                     # columns 0–2 of X: [E; −E r×]
            s = 0.0
            for k in range(6):
                s += I[i, k] * X[k, j]
            tmp[i, j] = s
        for j in range(3, 6):                  # columns 3–5 of X: [0; E]
            s = 0.0
            for k in range(3, 6):
                s += I[i, k] * X[k, j]
            tmp[i, j] = s
    for i in range(6):
        lo = 0 if i < 3 else 3
        for j in range(i, 6):
            s = 0.0
            for k in range(lo, 6):
                s += X[k, i] * tmp[k, j]
            out[i, j] += s
            if j != i:
                out[j, i] += s
