"""Compiled sweeps over a kinematic tree (numba): RNEA, hybrid ABA, CRBA.

Loops in parent-first order as in RBDA tables 5.1 (RNEA), 7.1 (ABA), ch. 6 (CRBA) and ch. 9
(hybrid); body-i quantities in body-i coordinates; gravity as the base acceleration
a_0 = −[0; g] (RBDA ch. 5), so stored body accelerations are offset by −g.
"""
import numpy as np
from numba import njit

from .model import FREE, PRISMATIC, REVOLUTE
from .packing import view1, view2, view3
from .spatial import congruence_add, cross_force, cross_motion, force_transform_back, matvec6, plucker


@njit(cache=True, inline="always")
def _quaternion_matrix(x, y, z, w, R):
    """Rotation matrix of a quaternion (x, y, z, w), normalised first."""
    norm2 = x * x + y * y + z * z + w * w
    if not (norm2 > 0.0 and norm2 < np.inf):
        for a in range(3):
            for b in range(3):
                R[a, b] = 1.0 if a == b else 0.0
        return False
    s = 1.0 / np.sqrt(norm2)
    x, y, z, w = x * s, y * s, z * s, w * s
    R[0, 0] = 1 - 2 * (y * y + z * z)
    R[0, 1] = 2 * (x * y - z * w)
    R[0, 2] = 2 * (x * z + y * w)
    R[1, 0] = 2 * (x * y + z * w)
    R[1, 1] = 1 - 2 * (x * x + z * z)
    R[1, 2] = 2 * (y * z - x * w)
    R[2, 0] = 2 * (x * z - y * w)
    R[2, 1] = 2 * (y * z + x * w)
    R[2, 2] = 1 - 2 * (x * x + y * y)
    return True


@njit(cache=True, inline="always")
def _joint_transform(kind, axis, q, qi, E, r):
    """(E, r) of the joint transform X_J(q) (RBDA table 4.1); E rotates joint- into body-coordinates."""
    for a in range(3):
        r[a] = 0.0
        for b in range(3):
            E[a, b] = 1.0 if a == b else 0.0
    if kind == REVOLUTE:
        s, c = np.sin(q[qi]), np.cos(q[qi])
        x, y, z = axis[0], axis[1], axis[2]
        t = 1.0 - c
        # transpose of Rodrigues' rotation by q about the axis
        E[0, 0], E[1, 0], E[2, 0] = c + t * x * x, t * x * y - s * z, t * x * z + s * y
        E[0, 1], E[1, 1], E[2, 1] = t * x * y + s * z, c + t * y * y, t * y * z - s * x
        E[0, 2], E[1, 2], E[2, 2] = t * x * z - s * y, t * y * z + s * x, c + t * z * z
    elif kind == PRISMATIC:
        for a in range(3):
            r[a] = axis[a] * q[qi]
    elif kind == FREE:
        R = np.empty((3, 3))
        valid = _quaternion_matrix(q[qi + 3], q[qi + 4], q[qi + 5], q[qi + 6], R)
        for a in range(3):
            r[a] = q[qi + a]
            for b in range(3):
                E[a, b] = R[b, a]
        return valid
    return True


@njit(cache=True, inline="always")
def body_transform(i, kind, axis, tree_E, tree_r, q, qi, EJ, rJ, E, r):
    """(E, r) of X_i = X_J X_T: parent coordinates to body-i coordinates; False as :func:`_joint_transform`."""
    valid = _joint_transform(kind, axis, q, qi, EJ, rJ)
    for a in range(3):
        s = tree_r[i, a]
        for b in range(3):
            s += tree_E[i, b, a] * rJ[b]
            t = 0.0
            for k in range(3):
                t += EJ[a, k] * tree_E[i, k, b]
            E[a, b] = t
        r[a] = s
    return valid


@njit(cache=True, inline="always")
def joint_velocity(S, nv, v, vi, out):
    """``out = S q̇`` for one joint."""
    for a in range(6):
        s = 0.0
        for k in range(nv):
            s += S[a, k] * v[vi + k]
        out[a] = s


@njit(cache=True, inline="always")
def joint_force(S, nv, f, vi, tau):
    """``tau[vi:vi + nv] = Sᵀ f``: the joint force of one joint from the spatial force it transmits."""
    for k in range(nv):
        s = 0.0
        for a in range(6):
            s += S[a, k] * f[a]
        tau[vi + k] = s


@njit(cache=True)
def forward_kinematics(parent, kind, axis, tree_E, tree_r, S, q_index, v_index, joint_nv, q, v,
                       Xup, R_world, p_world, vel, bias):
    """Placements, world poses, body velocities, velocity-product terms c_i = v_i × S q̇ (RBDA table 5.1)."""
    E, r, EJ, rJ, vJ = np.empty((3, 3)), np.empty(3), np.empty((3, 3)), np.empty(3), np.empty(6)
    bad = -1
    for i in range(parent.shape[0]):
        if not body_transform(i, kind[i], axis[i], tree_E, tree_r, q, q_index[i], EJ, rJ, E, r) and bad < 0:
            bad = i
        plucker(E, r, Xup[i])
        joint_velocity(S[i], joint_nv[i], v, v_index[i], vJ)
        p = parent[i]
        if p >= 0:
            matvec6(Xup[i], vel[p], vel[i])
            for a in range(3):
                t = p_world[p, a]
                for b in range(3):
                    t += R_world[p, a, b] * r[b]
                    s = 0.0
                    for k in range(3):
                        s += R_world[p, a, k] * E[b, k]
                    R_world[i, a, b] = s
                p_world[i, a] = t
        else:
            for a in range(6):
                vel[i, a] = 0.0
            for a in range(3):
                p_world[i, a] = r[a]
                for b in range(3):
                    R_world[i, a, b] = E[b, a]
        for a in range(6):
            vel[i, a] += vJ[a]
        cross_motion(vel[i], vJ, bias[i])
    return bad


@njit(cache=True)
def rnea(parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv, q, v, qdd, a0, f_ext,
         Xup, R_world, p_world, vel, acc, bias, force, tau):
    """Recursive Newton–Euler inverse dynamics (RBDA table 5.1): τ = ID(q, q̇, q̈)."""
    bad = forward_kinematics(parent, kind, axis, tree_E, tree_r, S, q_index, v_index, joint_nv, q, v,
                       Xup, R_world, p_world, vel, bias)
    Iv, h = np.empty(6), np.empty(6)
    n = parent.shape[0]
    for i in range(n):
        p = parent[i]
        matvec6(Xup[i], acc[p] if p >= 0 else a0, acc[i])
        joint_velocity(S[i], joint_nv[i], qdd, v_index[i], h)
        for a in range(6):
            acc[i, a] += bias[i, a] + h[a]
        matvec6(inertia[i], acc[i], force[i])
        matvec6(inertia[i], vel[i], Iv)
        cross_force(vel[i], Iv, h)
        for a in range(6):
            force[i, a] += h[a] - f_ext[i, a]
    for i in range(n - 1, -1, -1):
        joint_force(S[i], joint_nv[i], force[i], v_index[i], tau)
        if parent[i] >= 0:
            force_transform_back(Xup[i], force[i], force[parent[i]])
    return bad


@njit(cache=True)
def _articulated_inertias(parent, inertia, S, v_index, joint_nv, prescribed, tau, qdd, f_ext,
                         Xup, vel, bias, IA, pA, U, Dinv, u, tmp6, Ia):
    """Backward sweep of the hybrid articulated-body algorithm (RBDA table 7.1 and ch. 9)."""
    n = parent.shape[0]
    Iv, h, D, UD = np.empty(6), np.empty(6), np.empty((6, 6)), np.empty((6, 6))
    for i in range(n):
        for a in range(6):
            for b in range(6):
                IA[i, a, b] = inertia[i, a, b]
        matvec6(inertia[i], vel[i], Iv)
        cross_force(vel[i], Iv, pA[i])
        for a in range(6):
            pA[i, a] -= f_ext[i, a]
    for i in range(n - 1, -1, -1):
        nv, vi = joint_nv[i], v_index[i]
        free = nv > 0 and not prescribed[i]
        if free:
            for k in range(nv):
                matvec6(IA[i], S[i, :, k], U[i, :, k])
            for k in range(nv):
                s = tau[vi + k]
                for a in range(6):
                    s -= S[i, a, k] * pA[i, a]
                u[i, k] = s
                for m in range(nv):
                    t = 0.0
                    for a in range(6):
                        t += S[i, a, k] * U[i, a, m]
                    D[k, m] = t
            if nv == 1:
                Dinv[i, 0, 0] = 1.0 / D[0, 0]
            else:
                Dinv[i, :nv, :nv] = np.linalg.inv(D[:nv, :nv])
        p = parent[i]
        if p < 0:
            continue
        for a in range(6):
            for b in range(6):
                Ia[a, b] = IA[i, a, b]
        if free:
            for a in range(6):
                for m in range(nv):
                    t = 0.0
                    for k in range(nv):
                        t += U[i, a, k] * Dinv[i, k, m]
                    UD[a, m] = t
            for a in range(6):
                for b in range(6):
                    t = 0.0
                    for m in range(nv):
                        t += UD[a, m] * U[i, b, m]
                    Ia[a, b] -= t
            for a in range(6):
                h[a] = bias[i, a]
            matvec6(Ia, h, Iv)
            for a in range(6):
                t = 0.0
                for m in range(nv):
                    t += UD[a, m] * u[i, m]
                h[a] = pA[i, a] + Iv[a] + t
        else:
            joint_velocity(S[i], nv, qdd, vi, Iv)
            for a in range(6):
                Iv[a] += bias[i, a]
            matvec6(Ia, Iv, h)
            for a in range(6):
                h[a] += pA[i, a]
        congruence_add(Xup[i], Ia, tmp6, IA[p])
        force_transform_back(Xup[i], h, pA[p])


@njit(cache=True)
def accelerations(parent, S, v_index, joint_nv, prescribed, a0, Xup, bias, IA, pA, U, Dinv, u, acc, force, qdd, tau):
    """Forward sweep of the hybrid ABA: q̈ of torque-given joints, τ of motion-given ones (RBDA table 7.1, ch. 9)."""
    h = np.empty(6)
    for i in range(parent.shape[0]):
        p = parent[i]
        matvec6(Xup[i], acc[p] if p >= 0 else a0, acc[i])
        for a in range(6):
            acc[i, a] += bias[i, a]
        nv, vi = joint_nv[i], v_index[i]
        if nv > 0 and not prescribed[i]:
            for k in range(nv):
                s = u[i, k]
                for a in range(6):
                    s -= U[i, a, k] * acc[i, a]
                h[k] = s
            for k in range(nv):
                t = 0.0
                for m in range(nv):
                    t += Dinv[i, k, m] * h[m]
                qdd[vi + k] = t
        joint_velocity(S[i], nv, qdd, vi, h)
        for a in range(6):
            acc[i, a] += h[a]
        matvec6(IA[i], acc[i], force[i])
        for a in range(6):
            force[i, a] += pA[i, a]
        if prescribed[i]:
            joint_force(S[i], nv, force[i], vi, tau)


@njit(cache=True)
def crba(parent, inertia, S, v_index, joint_nv, Xup, Ic, tmp6, F, H):
    """Composite-rigid-body algorithm for the joint-space mass matrix H (RBDA ch. 6)."""
    n = parent.shape[0]
    for i in range(n):
        for a in range(6):
            for b in range(6):
                Ic[i, a, b] = inertia[i, a, b]
    for a in range(H.shape[0]):
        for b in range(H.shape[1]):
            H[a, b] = 0.0
    Fn = np.empty((6, 6))
    for i in range(n - 1, -1, -1):
        p = parent[i]
        if p >= 0:
            congruence_add(Xup[i], Ic[i], tmp6, Ic[p])
        nv, vi = joint_nv[i], v_index[i]
        if nv == 0:
            continue
        for k in range(nv):
            matvec6(Ic[i], S[i, :, k], F[:, k])
        j = i
        while j >= 0:
            nj, vj = joint_nv[j], v_index[j]
            for k in range(nv):
                for m in range(nj):
                    s = 0.0
                    for a in range(6):
                        s += F[a, k] * S[j, a, m]
                    H[vi + k, vj + m] = s
                    H[vj + m, vi + k] = s
            if parent[j] < 0:
                break
            for k in range(nv):
                for a in range(6):
                    Fn[a, k] = 0.0
                force_transform_back(Xup[j], F[:, k], Fn[:, k])
                for a in range(6):
                    F[a, k] = Fn[a, k]
            j = parent[j]


@njit(cache=True)
def hybrid(parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv, q, v, prescribed, tau, qdd,
           f_ext, a0, Xup, R_world, p_world, vel, bias, IA, pA, U, Dinv, u, tmp6, Ia, acc, force):
    """Hybrid articulated-body algorithm: kinematics, backward and forward sweeps in one call; returns as
    :func:`forward_kinematics`."""
    bad = forward_kinematics(parent, kind, axis, tree_E, tree_r, S, q_index, v_index, joint_nv, q, v,
                       Xup, R_world, p_world, vel, bias)
    _articulated_inertias(parent, inertia, S, v_index, joint_nv, prescribed, tau, qdd, f_ext,
                         Xup, vel, bias, IA, pA, U, Dinv, u, tmp6, Ia)
    accelerations(parent, S, v_index, joint_nv, prescribed, a0, Xup, bias, IA, pA, U, Dinv, u, acc, force, qdd, tau)
    return bad


# ---------------------------------------------------------------- packed entry points (model.TREE_*, data.DATA_FLOATS)

@njit(cache=True, inline="always")
def tree_views(floats, ints, layout):
    """(parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv) of a packed TreeModel."""
    return (view1(ints, layout, 5), view1(ints, layout, 6), view2(floats, layout, 0), view3(floats, layout, 1),
            view2(floats, layout, 2), view3(floats, layout, 3), view3(floats, layout, 4), view1(ints, layout, 7),
            view1(ints, layout, 8), view1(ints, layout, 9))


@njit(cache=True, inline="always")
def workspace_views(w, wl):
    """The arrays of a packed Data, in the order of data.DATA_FLOATS."""
    return (view3(w, wl, 0), view3(w, wl, 1), view2(w, wl, 2), view2(w, wl, 3), view2(w, wl, 4), view2(w, wl, 5),
            view2(w, wl, 6), view3(w, wl, 7), view2(w, wl, 8), view3(w, wl, 9), view3(w, wl, 10), view2(w, wl, 11),
            view2(w, wl, 12), view2(w, wl, 13), view2(w, wl, 14), view3(w, wl, 15), view2(w, wl, 16),
            view1(w, wl, 17), view1(w, wl, 18), view1(w, wl, 19))


@njit(cache=True)
def packed_kinematics(floats, ints, layout, w, wl, q, v):
    """:func:`forward_kinematics` on a packed model and workspace."""
    parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv = tree_views(floats, ints, layout)
    Xup, R_world, p_world, vel, acc, bias, force, IA, pA, U, Dinv, u, tmp6, Ia, F, Ic, M, qdd, tau, a0 = \
        workspace_views(w, wl)
    return forward_kinematics(parent, kind, axis, tree_E, tree_r, S, q_index, v_index, joint_nv, q, v,
                              Xup, R_world, p_world, vel, bias)


@njit(cache=True)
def packed_rnea(floats, ints, layout, w, wl, q, v, qdd, f_ext):
    """:func:`rnea` on a packed model and workspace (τ into the workspace's ``tau``)."""
    parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv = tree_views(floats, ints, layout)
    Xup, R_world, p_world, vel, acc, bias, force, IA, pA, U, Dinv, u, tmp6, Ia, F, Ic, M, qdd_w, tau, a0 = \
        workspace_views(w, wl)
    return rnea(parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv, q, v, qdd, a0, f_ext,
                Xup, R_world, p_world, vel, acc, bias, force, tau)


@njit(cache=True)
def packed_hybrid(floats, ints, layout, w, wl, q, v, prescribed, tau, qdd, f_ext):
    """:func:`hybrid` on a packed model and workspace."""
    parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv = tree_views(floats, ints, layout)
    Xup, R_world, p_world, vel, acc, bias, force, IA, pA, U, Dinv, u, tmp6, Ia, F, Ic, M, qdd_w, tau_w, a0 = \
        workspace_views(w, wl)
    return hybrid(parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv, q, v, prescribed, tau,
                  qdd, f_ext, a0, Xup, R_world, p_world, vel, bias, IA, pA, U, Dinv, u, tmp6, Ia, acc, force)


@njit(cache=True)
def packed_crba(floats, ints, layout, w, wl):
    """:func:`crba` on a packed model and workspace, after :func:`packed_kinematics` (H into ``M``)."""
    parent, kind, axis, tree_E, tree_r, inertia, S, q_index, v_index, joint_nv = tree_views(floats, ints, layout)
    Xup, R_world, p_world, vel, acc, bias, force, IA, pA, U, Dinv, u, tmp6, Ia, F, Ic, M, qdd, tau, a0 = \
        workspace_views(w, wl)
    crba(parent, inertia, S, v_index, joint_nv, Xup, Ic, tmp6, F, M)
