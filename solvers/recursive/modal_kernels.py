"""Compiled sweeps over a tree of flexible bodies with modal coordinates (numba).

Extended velocities ν_i = [V_i; η̇_i]; a child on an interface frame of its parent (origin
o_k + Φ_k η_p, axes exp([Ψ_k η_p]×)) moves as V_c = Φ_cp ν_p + S_c q̇_c — the operator
structure of Jain & Rodriguez's flexible SOA (Tian et al. 2010, eq. (1)). Each body's mass
matrix and quadratic-velocity forces are the exact floating-frame ones of a linear modal
field (Shabana 2005, §5.5; :func:`body_terms`). :func:`rnea` (Tian et al. 2010, eqs. 1–2;
RBDA table 5.1), :func:`hybrid_sweeps` (RBDA table 7.1, ch. 9) and :func:`crba` (RBDA ch. 6).
Derivation: docs/recursive-flexible.md.
"""
import numpy as np
from numba import njit

from .kernels import body_transform, joint_force, joint_velocity
from .packing import view1, view2, view3, view4, view5
from .spatial import cross_motion, plucker


# ---------------------------------------------------------------- SO(3) helpers

@njit(cache=True, inline="always")
def _so3_coefficients(t2):
    """(sin t/t, (1−cos t)/t², (t−sin t)/t³, a'(t)/t, b'(t)/t) at t² = |θ|²."""
    if t2 < 0.25:
        s = 1.0 - t2 / 6 * (1.0 - t2 / 20 * (1.0 - t2 / 42 * (1.0 - t2 / 72)))
        a = 0.5 - t2 / 24 * (1.0 - t2 / 30 * (1.0 - t2 / 56 * (1.0 - t2 / 90)))
        b = 1.0 / 6 - t2 / 120 * (1.0 - t2 / 42 * (1.0 - t2 / 72 * (1.0 - t2 / 110)))
        da = -1.0 / 12 + t2 / 180 - t2 * t2 / 6720 + t2 ** 3 / 453600 - t2 ** 4 / 47900160
        db = -1.0 / 60 + t2 / 1260 - t2 * t2 / 60480 + t2 ** 3 / 4989600 - t2 ** 4 / 622702080
        return s, a, b, da, db
    t = np.sqrt(t2)
    sn, cs = np.sin(t), np.cos(t)
    a = (1.0 - cs) / t2
    b = (t - sn) / (t2 * t)
    da = (t * sn - 2.0 * (1.0 - cs)) / (t2 * t2)
    db = (1.0 - cs) / (t2 * t2) - 3.0 * (t - sn) / (t2 * t2 * t)
    return sn / t, a, b, da, db


@njit(cache=True, inline="always")
def _cross3(a, b, out):
    """out = a × b (3-vectors, compiled)."""
    x = a[1] * b[2] - a[2] * b[1]
    y = a[2] * b[0] - a[0] * b[2]
    z = a[0] * b[1] - a[1] * b[0]
    out[0], out[1], out[2] = x, y, z


@njit(cache=True)
def interface_frame(o, T, P, m, eta, etad, R, pF, SF, w, sdot, sc=None):
    """Pose, modal subspace and bias of an interface frame on a flexible body (``sc``: 42 scratch floats)."""
    if sc is None:
        sc = np.empty(42)
    th, thd, K, K2 = sc[0:3], sc[3:6], sc[6:15].reshape((3, 3)), sc[15:24].reshape((3, 3))
    Jr = sc[24:33].reshape((3, 3))
    c1, c2, c3 = sc[33:36], sc[36:39], sc[39:42]
    for a in range(3):
        th[a] = 0.0
        thd[a] = 0.0
        for b in range(3):
            K[a, b] = 0.0
    for a in range(3):
        pF[a] = o[a]
        for k in range(m):
            th[a] += P[a, k] * eta[k]
            thd[a] += P[a, k] * etad[k]
            pF[a] += T[a, k] * eta[k]
    t2 = th[0] * th[0] + th[1] * th[1] + th[2] * th[2]
    s, ca, cb, da, db = _so3_coefficients(t2)
    K[0, 1], K[0, 2], K[1, 2] = -th[2], th[1], -th[0]
    K[1, 0], K[2, 0], K[2, 1] = th[2], -th[1], th[0]
    _mat_mul(K, K, 3, 3, 3, K2)
    for a in range(3):
        for b in range(3):
            e = 1.0 if a == b else 0.0
            R[a, b] = e + s * K[a, b] + ca * K2[a, b]
            Jr[a, b] = e - ca * K[a, b] + cb * K2[a, b]
    for k in range(m):
        for a in range(3):
            x, y = 0.0, 0.0
            for b in range(3):
                x += Jr[a, b] * P[b, k]
                y += R[b, a] * T[b, k]
            SF[a, k] = x
            SF[a + 3, k] = y
    for a in range(6):
        t = 0.0
        for k in range(m):
            t += SF[a, k] * etad[k]
        w[a] = t
    # J̇_r θ̇
    dot = th[0] * thd[0] + th[1] * thd[1] + th[2] * thd[2]
    _cross3(th, thd, c1)                 # θ × θ̇
    _cross3(th, c1, c2)                  # θ × (θ × θ̇)
    _cross3(thd, c1, c3)                 # θ̇ × (θ × θ̇)
    for a in range(3):
        sdot[a] = -da * dot * c1[a] + db * dot * c2[a] + cb * c3[a]
    _cross3(w[:3], w[3:], c1)
    for a in range(3):
        sdot[a + 3] = -c1[a]


# ---------------------------------------------------------------- small dense helpers

@njit(cache=True, inline="always")
def _mat_mul(A, B, rows, inner, cols, out):
    """out[:rows, :cols] = A[:rows, :inner] B[:inner, :cols]."""
    for a in range(rows):
        for b in range(cols):
            s = 0.0
            for k in range(inner):
                s += A[a, k] * B[k, b]
            out[a, b] = s


@njit(cache=True, inline="always")
def _mat_vec(A, x, rows, cols, out):
    """out[:rows] = A[:rows, :cols] x[:cols]."""
    for a in range(rows):
        s = 0.0
        for b in range(cols):
            s += A[a, b] * x[b]
        out[a] = s


@njit(cache=True, inline="always")
def _mat_t_vec_add(A, x, rows, cols, out):
    """out[:cols] += A[:rows, :cols]ᵀ x[:rows]."""
    for b in range(cols):
        s = 0.0
        for a in range(rows):
            s += A[a, b] * x[a]
        out[b] += s


@njit(cache=True, inline="always")
def _congruence6_add(Phi, P, dp, tmp, out):
    """out[:dp, :dp] += Φᵀ P Φ for Φ (6, dp) and a symmetric P (6, 6)."""
    for a in range(6):
        for j in range(dp):
            s = 0.0
            for k in range(6):
                s += P[a, k] * Phi[k, j]
            tmp[a, j] = s
    for i in range(dp):
        for j in range(i, dp):
            s = 0.0
            for a in range(6):
                s += Phi[a, i] * tmp[a, j]
            out[i, j] += s
            if j != i:
                out[j, i] += s


@njit(cache=True)
def _spd_inverse(A, n, out, L, Li):
    """out[:n, :n] = A[:n, :n]⁻¹ of a symmetric positive definite A by Cholesky (L, Li scratch); False if not SPD."""
    for a in range(n):
        for b in range(n):
            L[a, b] = 0.0
            Li[a, b] = 0.0
    for j in range(n):
        s = A[j, j]
        for k in range(j):
            s -= L[j, k] * L[j, k]
        if not s > 0.0:
            return False
        L[j, j] = np.sqrt(s)
        for i in range(j + 1, n):
            t = A[i, j]
            for k in range(j):
                t -= L[i, k] * L[j, k]
            L[i, j] = t / L[j, j]
                                                # Li = L⁻¹ by forward substitution
    for j in range(n):
        Li[j, j] = 1.0 / L[j, j]
        for i in range(j + 1, n):
            t = 0.0
            for k in range(j, i):
                t -= L[i, k] * Li[k, j]
            Li[i, j] = t / L[i, i]
    for i in range(n):
        for j in range(i, n):
            s = 0.0
            for k in range(j, n):
                s += Li[k, i] * Li[k, j]
            out[i, j] = s
            out[j, i] = s
    return True


# ---------------------------------------------------------------- one body

@njit(cache=True)
def body_terms(m, mass, fm, S2, Ct, Cx, Cpp, Mee, Kq, Dq, eta, etad, nu, Mb, bb, sc=None):
    """Generalized mass M (d×d) and forces b + [0; Kη + Dη̇] (d) of one flexible body, d = 6 + m.
    Shabana 2005, §5.5 (modal invariants); ``sc``: 36 + 9m scratch floats."""
    if sc is None:
        sc = np.empty(36 + 9 * m)
    w0, w1, w2 = nu[0], nu[1], nu[2]
    om = nu[:3]
    v = nu[3:6]
    cbar, S, wv, tmp, tmp2, Jw = sc[0:3], sc[3:12].reshape((3, 3)), sc[12:15], sc[15:18], sc[18:21], sc[21:24]
    N, Ctd, G = sc[24:33].reshape((3, 3)), sc[33:36], sc[36:36 + 9 * m].reshape((3, 3, m))
    for a in range(3):
        s = fm[a]
        for k in range(m):
            s += Ct[a, k] * eta[k]
        cbar[a] = s
    for a in range(3):
        for b in range(3):
            s = S2[a, b]
            for k in range(m):
                s += (Cx[a, b, k] + Cx[b, a, k]) * eta[k]
                for l in range(m):
                    s += Cpp[a, b, k, l] * eta[k] * eta[l]
            S[a, b] = s
    tr = S[0, 0] + S[1, 1] + S[2, 2]
    d = 6 + m
    for a in range(d):
        for b in range(d):
            Mb[a, b] = 0.0
    for a in range(3):
        for b in range(3):
            Mb[a, b] = -S[a, b]
        Mb[a, a] += tr
        Mb[a + 3, a + 3] = mass
    Mb[0, 4], Mb[0, 5], Mb[1, 5] = -cbar[2], cbar[1], -cbar[0]
    Mb[1, 3], Mb[2, 3], Mb[2, 4] = cbar[2], -cbar[1], cbar[0]
    for a in range(3):
        for b in range(3, 6):
            Mb[b, a] = Mb[a, b]
    # G_k = ∫ρ u Φ_kᵀ, then the modal columns
    for k in range(m):
        for a in range(3):
            for b in range(3):
                s = Cx[a, b, k]
                for l in range(m):
                    s += Cpp[a, b, l, k] * eta[l]
                G[a, b, k] = s
        Mb[0, 6 + k] = G[1, 2, k] - G[2, 1, k]
        Mb[1, 6 + k] = G[2, 0, k] - G[0, 2, k]
        Mb[2, 6 + k] = G[0, 1, k] - G[1, 0, k]
        for a in range(3):
            Mb[3 + a, 6 + k] = Ct[a, k]
        for a in range(6):
            Mb[6 + k, a] = Mb[a, 6 + k]
        for l in range(m):
            Mb[6 + k, 6 + l] = Mee[k, l]
    # velocity products
    _cross3(om, v, wv)
    for a in range(3):
        Jw[a] = tr * om[a] - (S[a, 0] * w0 + S[a, 1] * w1 + S[a, 2] * w2)
    for a in range(3):                # N[a, b] = Σ_k η̇_k G[b, a, k]
        Ctd[a] = 0.0
        for b in range(3):
            N[a, b] = 0.0
    for k in range(m):
        for a in range(3):
            Ctd[a] += Ct[a, k] * etad[k]
            for b in range(3):
                N[a, b] += etad[k] * G[b, a, k]
    trN = N[0, 0] + N[1, 1] + N[2, 2]
    _cross3(cbar, wv, tmp)
    _cross3(om, Jw, tmp2)
    for a in range(3):
        bb[a] = tmp[a] + tmp2[a] + 2.0 * (trN * om[a] - (N[a, 0] * w0 + N[a, 1] * w1 + N[a, 2] * w2))
    _cross3(om, cbar, tmp)
    _cross3(om, tmp, tmp2)
    _cross3(om, Ctd, tmp)
    for a in range(3):
        bb[3 + a] = mass * wv[a] + tmp2[a] + 2.0 * tmp[a]
    ww = w0 * w0 + w1 * w1 + w2 * w2
    for k in range(m):
        s = Ct[0, k] * wv[0] + Ct[1, k] * wv[1] + Ct[2, k] * wv[2]
        trG = G[0, 0, k] + G[1, 1, k] + G[2, 2, k]
        for a in range(3):
            for b in range(3):
                s += om[a] * G[a, b, k] * om[b]
        s -= ww * trG
        for l in range(m):
            # ω · ∫ρ Φ_l × Φ_k = ε_abc ω_a Cpp[b, c, l, k]
            c = (w0 * (Cpp[1, 2, l, k] - Cpp[2, 1, l, k]) + w1 * (Cpp[2, 0, l, k] - Cpp[0, 2, l, k])
                 + w2 * (Cpp[0, 1, l, k] - Cpp[1, 0, l, k]))
            s += 2.0 * etad[l] * c + Kq[k, l] * eta[l] + Dq[k, l] * etad[l]
        bb[6 + k] = s


# ---------------------------------------------------------------- sweeps

@njit(cache=True)
def _column_map(S, v_index, joint_nv, nm, ev_index, i, joint_columns, G, index):
    """Columns of G_i = [[S_i, 0], [0, 1]] (d × n) and their positions in v; returns n."""
    d = 6 + nm[i]
    nb = 0
    if joint_columns:
        for k in range(joint_nv[i]):
            for a in range(d):
                G[a, nb] = S[i, a, k] if a < 6 else 0.0
            index[nb] = v_index[i] + k
            nb += 1
    for k in range(nm[i]):
        for a in range(d):
            G[a, nb] = 1.0 if a == 6 + k else 0.0
        index[nb] = ev_index[i] + k
        nb += 1
    return nb


@njit(cache=True)
def _transfer_operator(Xup_i, RF, pF, SF, mp, XF, Phi_i, EF, X):
    """X_F (6×6, parent body → interface frame F at (RF, pF)) and Φ_ip = X_i [X_F, S_F] (6 × (6 + mp))."""
    for a in range(3):
        for b in range(3):
            EF[a, b] = RF[b, a]
    plucker(EF, pF, XF)
    _mat_mul(Xup_i, XF, 6, 6, 6, X)
    for a in range(6):
        for b in range(6):
            Phi_i[a, b] = X[a, b]
        for k in range(mp):
            s = 0.0
            for b in range(6):
                s += Xup_i[a, b] * SF[b, k]
            Phi_i[a, 6 + k] = s


@njit(cache=True)
def _world_pose(R_parent, p_parent, RF, pF, E, r, R_out, p_out, RW, o):
    """Body pose in world: the interface frame (RF, pF) on the parent (R_parent, p_parent), then the body at
    origin r with axes Eᵀ in that frame (RW, o scratch)."""
    _mat_mul(R_parent, RF, 3, 3, 3, RW)
    for a in range(3):
        t = p_parent[a]
        for b in range(3):
            t += R_parent[a, b] * pF[b]
        o[a] = t
    for a in range(3):
        t = o[a]
        for b in range(3):
            t += RW[a, b] * r[b]
            s = 0.0
            for k in range(3):
                s += RW[a, k] * E[b, k]
            R_out[a, b] = s
        p_out[a] = t


@njit(cache=True)
def kinematics(parent, kind, axis, tree_E, tree_r, S, q_index, v_index, joint_nv, nm, eq_index, ev_index,
               at_o, at_T, at_P, q, v, Xup, Phi, R_world, p_world, vel, bias):
    """Transforms X_i, transfer operators Φ_ip (6 × d_p), world poses, extended velocities ν_i and the
    velocity-product accelerations c_i = X_i (V_F × S_F η̇_p + Ṡ_F η̇_p) + V_i × S_i q̇_i."""
    E, r, EJ, rJ, vJ = np.empty((3, 3)), np.empty(3), np.empty((3, 3)), np.empty(3), np.empty(6)
    RF, pF, I3, o3 = np.empty((3, 3)), np.empty(3), np.eye(3), np.zeros(3)
    M = at_T.shape[2]
    SF, w, sdot, VF, cF, t6 = np.zeros((6, M)), np.zeros(6), np.zeros(6), np.zeros(6), np.zeros(6), np.zeros(6)
    XF = np.zeros((6, 6))
    sc, EF, X, RW, o = np.empty(42), np.empty((3, 3)), np.empty((6, 6)), np.empty((3, 3)), np.empty(3)
    bad = -1
    for i in range(parent.shape[0]):
        if not body_transform(i, kind[i], axis[i], tree_E, tree_r, q, q_index[i], EJ, rJ, E, r) and bad < 0:
            bad = i
        plucker(E, r, Xup[i])
        p = parent[i]
        mp = nm[p] if p >= 0 else 0
        if mp > 0:
            interface_frame(at_o[i], at_T[i], at_P[i], mp, q[eq_index[p]:eq_index[p] + mp],
                            v[ev_index[p]:ev_index[p] + mp], RF, pF, SF, w, sdot, sc)
        else:                                   # a rigid parent or the world: a fixed frame
            RF[:, :] = I3
            pF[:] = at_o[i]
            w[:] = 0.0
            sdot[:] = 0.0
        _transfer_operator(Xup[i], RF, pF, SF, mp, XF, Phi[i], EF, X)
        joint_velocity(S[i], joint_nv[i], v, v_index[i], vJ)
        if p >= 0:
            _mat_vec(XF, vel[p], 6, 6, VF)
            for a in range(6):
                VF[a] += w[a]
            cross_motion(VF, w, cF)
            for a in range(6):
                cF[a] += sdot[a]
            _mat_vec(Xup[i], cF, 6, 6, bias[i])
            _mat_vec(Phi[i], vel[p], 6, 6 + mp, vel[i])
            _world_pose(R_world[p], p_world[p], RF, pF, E, r, R_world[i], p_world[i], RW, o)
        else:
            vel[i, :6] = 0.0
            bias[i, :] = 0.0
            _world_pose(I3, o3, RF, pF, E, r, R_world[i], p_world[i], RW, o)
        for a in range(6):
            vel[i, a] += vJ[a]
        cross_motion(vel[i], vJ, t6)
        for a in range(6):
            bias[i, a] += t6[a]
        for k in range(nm[i]):
            vel[i, 6 + k] = v[ev_index[i] + k]
    return bad


@njit(cache=True)
def all_body_terms(nm, mass, fm, S2, Ct, Cx, Cpp, Mee, Kq, Dq, eq_index, ev_index, q, v, f_ext, vel, Mb, bb):
    """:func:`body_terms` for every body, minus the external wrenches f_ext (body coordinates, about the origin)."""
    sc = np.empty(36 + 9 * Ct.shape[2])
    for i in range(nm.shape[0]):
        m = nm[i]
        body_terms(m, mass[i], fm[i], S2[i], Ct[i], Cx[i], Cpp[i], Mee[i], Kq[i], Dq[i],
                   q[eq_index[i]:eq_index[i] + m], v[ev_index[i]:ev_index[i] + m], vel[i], Mb[i], bb[i], sc)
        for a in range(6):
            bb[i, a] -= f_ext[i, a]


@njit(cache=True)
def rnea(parent, S, v_index, joint_nv, nm, ev_index, qdd, a0, Phi, bias, Mb, bb, acc, force, tau):
    """Inverse dynamics over extended bodies (Tian et al. 2010, eq. (1)–(2)): α_i = Φ_ip α_p + S q̈ + c_i,
    F_i = M_i α_i + b_i + Σ_c Φ_ciᵀ F_c[:6]; τ_i = S_iᵀ F_i[:6], modal forces F_i[6:]. Call after
    :func:`kinematics` and :func:`all_body_terms`."""
    n = parent.shape[0]
    h = np.empty(6)
    for i in range(n):
        p = parent[i]
        d = 6 + nm[i]
        if p >= 0:
            _mat_vec(Phi[i], acc[p], 6, 6 + nm[p], acc[i])
        else:
            _mat_vec(Phi[i], a0, 6, 6, acc[i])
        joint_velocity(S[i], joint_nv[i], qdd, v_index[i], h)
        for a in range(6):
            acc[i, a] += bias[i, a] + h[a]
        for k in range(nm[i]):
            acc[i, 6 + k] = qdd[ev_index[i] + k]
        _mat_vec(Mb[i], acc[i], d, d, force[i])
        for a in range(d):
            force[i, a] += bb[i, a]
    for i in range(n - 1, -1, -1):
        joint_force(S[i], joint_nv[i], force[i], v_index[i], tau)
        for k in range(nm[i]):
            tau[ev_index[i] + k] = force[i, 6 + k]
        p = parent[i]
        if p >= 0:
            _mat_t_vec_add(Phi[i], force[i], 6, 6 + nm[p], force[p])


@njit(cache=True)
def hybrid_sweeps(parent, S, v_index, joint_nv, nm, ev_index, prescribed, tau, qdd, a0, Phi, bias, Mb, bb,
                  IA, pA, U, Dinv, u, H, free_index, n_free, acc, force):
    """Hybrid articulated-body sweeps over extended bodies (Tian et al. 2010's hybrid recursions; RBDA ch. 9)."""
    n = parent.shape[0]
    bad = -1
    Pp, tmp = np.empty((6, 6)), np.empty((6, IA.shape[1]))
    y6, z6, Du = np.empty(6), np.empty(6), np.empty(IA.shape[1])
    Dm, L, Li = np.empty(IA.shape[1:]), np.empty(IA.shape[1:]), np.empty(IA.shape[1:])
    for i in range(n):
        d = 6 + nm[i]
        for a in range(d):
            pA[i, a] = bb[i, a]
            for b in range(d):
                IA[i, a, b] = Mb[i, a, b]
    for i in range(n - 1, -1, -1):
        d = 6 + nm[i]
        nf = _column_map(S, v_index, joint_nv, nm, ev_index, i, not prescribed[i], H[i], free_index[i])
        n_free[i] = nf
        for a in range(d):
            for j in range(nf):
                s = 0.0
                for b in range(d):
                    s += IA[i, a, b] * H[i, b, j]
                U[i, a, j] = s
        for j in range(nf):
            s = tau[free_index[i, j]]
            for a in range(d):
                s -= H[i, a, j] * pA[i, a]
            u[i, j] = s
            for k in range(nf):
                t = 0.0
                for a in range(d):
                    t += H[i, a, j] * U[i, a, k]
                Dm[j, k] = t
        if nf > 0 and not _spd_inverse(Dm, nf, Dinv[i], L, Li) and bad < 0:
            bad = i
        p = parent[i]
        if p < 0:
            continue
        for j in range(nf):
            t = 0.0
            for k in range(nf):
                t += Dinv[i, j, k] * u[i, k]
            Du[j] = t
        for a in range(6):
            for b in range(6):
                t = IA[i, a, b]
                for j in range(nf):
                    for k in range(nf):
                        t -= U[i, a, j] * Dinv[i, j, k] * U[i, b, k]
                Pp[a, b] = t
        for a in range(6):
            y6[a] = bias[i, a]
        if prescribed[i]:
            for k in range(joint_nv[i]):
                for a in range(6):
                    y6[a] += S[i, a, k] * qdd[v_index[i] + k]
        for a in range(6):
            t = pA[i, a]
            for b in range(6):
                t += Pp[a, b] * y6[b]
            for j in range(nf):
                t += U[i, a, j] * Du[j]
            z6[a] = t
        dp = 6 + nm[p]
        _congruence6_add(Phi[i], Pp, dp, tmp, IA[p])
        _mat_t_vec_add(Phi[i], z6, 6, dp, pA[p])
    rhs = np.empty(IA.shape[1])
    for i in range(n):
        p = parent[i]
        d = 6 + nm[i]
        if p >= 0:
            _mat_vec(Phi[i], acc[p], 6, 6 + nm[p], acc[i])
        else:
            _mat_vec(Phi[i], a0, 6, 6, acc[i])
        for a in range(6):
            acc[i, a] += bias[i, a]
        for a in range(6, d):
            acc[i, a] = 0.0
        if prescribed[i]:
            for k in range(joint_nv[i]):
                for a in range(6):
                    acc[i, a] += S[i, a, k] * qdd[v_index[i] + k]
        nf = n_free[i]
        for j in range(nf):
            s = u[i, j]
            for a in range(d):
                s -= U[i, a, j] * acc[i, a]
            rhs[j] = s
        for j in range(nf):
            t = 0.0
            for k in range(nf):
                t += Dinv[i, j, k] * rhs[k]
            qdd[free_index[i, j]] = t
        for j in range(nf):
            t = qdd[free_index[i, j]]
            for a in range(d):
                acc[i, a] += H[i, a, j] * t
        _mat_vec(IA[i], acc[i], d, d, force[i])
        for a in range(d):
            force[i, a] += pA[i, a]
        if prescribed[i]:
            joint_force(S[i], joint_nv[i], force[i], v_index[i], tau)
    return bad


@njit(cache=True)
def crba(parent, S, v_index, joint_nv, nm, ev_index, Phi, Mb, Ic, H):
    """Mass matrix in the generalized coordinates by composite inertias (RBDA ch. 6, extended bodies):
    IC_i = M_i + Σ_c Φ_ciᵀ IC_c[:6, :6] Φ_ci (a descendant's own modes are held), H_ii = G_iᵀ IC_i G_i,
    H_ji = G_jᵀ (Φᵀ…Φᵀ) IC_i G_i along the path to the root."""
    n = parent.shape[0]
    D = Mb.shape[1]
    tmp = np.empty((6, D))
    for i in range(n):
        d = 6 + nm[i]
        for a in range(d):
            for b in range(d):
                Ic[i, a, b] = Mb[i, a, b]
    for a in range(H.shape[0]):
        for b in range(H.shape[1]):
            H[a, b] = 0.0
    G = np.zeros((D, D))
    gi = np.zeros(D, np.int64)
    for i in range(n - 1, -1, -1):
        p = parent[i]
        if p >= 0:
            _congruence6_add(Phi[i], Ic[i][:6, :6].copy(), 6 + nm[p], tmp, Ic[p])
        nb = _column_map(S, v_index, joint_nv, nm, ev_index, i, True, G, gi)
        if nb == 0:
            continue
        d = 6 + nm[i]
        F = np.zeros((D, nb))
        for a in range(d):
            for k in range(nb):
                s = 0.0
                for b in range(d):
                    s += Ic[i, a, b] * G[b, k]
                F[a, k] = s
        cols = gi[:nb].copy()
        j = i
        while True:
            nj = _column_map(S, v_index, joint_nv, nm, ev_index, j, True, G, gi)
            dj = 6 + nm[j]
            for k in range(nb):
                for m in range(nj):
                    s = 0.0
                    for a in range(dj):
                        s += G[a, m] * F[a, k]
                    H[gi[m], cols[k]] = s
                    H[cols[k], gi[m]] = s
            pj = parent[j]
            if pj < 0:
                break
            Fn = np.zeros((D, nb))
            for k in range(nb):
                _mat_t_vec_add(Phi[j], F[:, k].copy(), 6, 6 + nm[pj], Fn[:, k])
            F = Fn
            j = pj




# ---------------------------------------------------------------- packed model and workspace, compiled runs

@njit(cache=True, inline="always")
def flexible_views(f, i, lay):
    """The arrays of a packed FlexibleTreeModel (flexible.FLEXIBLE_FLOATS then FLEXIBLE_INTS)."""
    return (view2(f, lay, 0), view3(f, lay, 1), view2(f, lay, 2), view3(f, lay, 3), view1(f, lay, 4),
            view2(f, lay, 5), view3(f, lay, 6), view3(f, lay, 7), view4(f, lay, 8), view5(f, lay, 9),
            view3(f, lay, 10), view3(f, lay, 11), view3(f, lay, 12), view2(f, lay, 13), view3(f, lay, 14),
            view3(f, lay, 15), view1(i, lay, 16), view1(i, lay, 17), view1(i, lay, 18), view1(i, lay, 19),
            view1(i, lay, 20), view1(i, lay, 21), view1(i, lay, 22), view1(i, lay, 23))


@njit(cache=True, inline="always")
def flexible_workspace_views(w, wi, wl):
    """The arrays of a packed FlexibleData (flexible_dynamics.FLEXIBLE_DATA_FLOATS, then free_index, n_free)."""
    return (view3(w, wl, 0), view3(w, wl, 1), view3(w, wl, 2), view2(w, wl, 3), view2(w, wl, 4), view2(w, wl, 5),
            view2(w, wl, 6), view2(w, wl, 7), view3(w, wl, 8), view2(w, wl, 9), view3(w, wl, 10), view2(w, wl, 11),
            view3(w, wl, 12), view3(w, wl, 13), view3(w, wl, 14), view2(w, wl, 15), view1(w, wl, 16),
            view2(wi, wl, 17), view1(wi, wl, 18))


@njit(cache=True)
def packed_hybrid(f, i, lay, w, wi, wl, q, v, prescribed, tau, qdd, f_ext):
    """Kinematics, body terms and :func:`hybrid_sweeps`, packed: (quaternion error body, inertia error body) or −1."""
    return _hybrid(flexible_views(f, i, lay), flexible_workspace_views(w, wi, wl), q, v, prescribed, tau, qdd, f_ext)


@njit(cache=True)
def _hybrid(model, work, q, v, prescribed, tau, qdd, f_ext):
    """:func:`packed_hybrid` on the views of a model and a workspace."""
    (axis, tree_E, tree_r, S, mass, fm, S2, Ct, Cx, Cpp, Mee, Kq, Dq, at_o, at_T, at_P,
     parent, kind, q_index, v_index, joint_nv, nm, eq_index, ev_index) = model
    (Xup, Phi, R_world, p_world, vel, acc, force, bias, Mb, bb, IA, pA, U, Dinv, H, u, a0,
     free_index, n_free) = work
    bad = kinematics(parent, kind, axis, tree_E, tree_r, S, q_index, v_index, joint_nv, nm, eq_index, ev_index,
                     at_o, at_T, at_P, q, v, Xup, Phi, R_world, p_world, vel, bias)
    all_body_terms(nm, mass, fm, S2, Ct, Cx, Cpp, Mee, Kq, Dq, eq_index, ev_index, q, v, f_ext, vel, Mb, bb)
    return bad, hybrid_sweeps(parent, S, v_index, joint_nv, nm, ev_index, prescribed, tau, qdd, a0, Phi, bias, Mb,
                              bb, IA, pA, U, Dinv, u, H, free_index, n_free, acc, force)


@njit(cache=True)
def _accelerations(model, work, prescribed, f_ext, given_tau, given_qdd, q, v, qdd, tau):
    """q̈ and τ at (q, v) from the given joint forces and accelerations (modal ones 0); errors as :func:`_hybrid`."""
    nj = given_tau.shape[0]
    for k in range(tau.shape[0]):
        tau[k] = given_tau[k] if k < nj else 0.0
        qdd[k] = given_qdd[k] if k < nj else 0.0
    return _hybrid(model, work, q, v, prescribed, tau, qdd, f_ext)


@njit(cache=True, inline="always")
def _failed(errors):
    """(error kind, body) of :func:`packed_hybrid`'s result: (0, −1) none, (1, i) quaternion, (2, i) inertia."""
    bad, singular = errors
    if bad >= 0:
        return 1, bad
    if singular >= 0:
        return 2, singular
    return 0, -1


@njit(cache=True)
def run(f, i, lay, w, wi, wl, prescribed, f_ext, rk4, h, psi, phi, TAU, QDD, Q, V, A, F):
    """RK4 or Zhai run without free joints, arithmetic of integrators.py; returns (last sample, error kind, body)."""
    # TAU, QDD (1 or 3, steps + 1, joint nv): given at the samples T_n, at T_n + h/2 and T_n + h (RK4 stages);
    # sample n's state, acceleration and joint forces go to Q, V, A, F[n]. Error kinds: 0 none, 1 quaternion,
    # 2 articulated inertia (at sample n), 3 state not finite (after sample n).
    steps, nv, nj = Q.shape[0] - 1, Q.shape[1], F.shape[1]
    model, work = flexible_views(f, i, lay), flexible_workspace_views(w, wi, wl)
    tau = np.empty(nv)
    q2, v2, a2, q3, v3, a3, q4, v4, a4 = (np.empty(nv), np.empty(nv), np.empty(nv), np.empty(nv), np.empty(nv),
                                          np.empty(nv), np.empty(nv), np.empty(nv), np.empty(nv))
    for n in range(steps + 1):
        if n > 0 and rk4:
            q, v, a = Q[n - 1], V[n - 1], A[n - 1]          # k1 = (v, a): the sample's own evaluation
            for k in range(nv):
                q2[k] = q[k] + h / 2 * v[k]
                v2[k] = v[k] + h / 2 * a[k]
            kind, body = _failed(_accelerations(model, work, prescribed, f_ext, TAU[1, n - 1],
                                                QDD[1, n - 1], q2, v2, a2, tau))
            for k in range(nv):
                q3[k] = q[k] + h / 2 * v2[k]
                v3[k] = v[k] + h / 2 * a2[k]
            if kind == 0:
                kind, body = _failed(_accelerations(model, work, prescribed, f_ext, TAU[1, n - 1],
                                                    QDD[1, n - 1], q3, v3, a3, tau))
            for k in range(nv):
                q4[k] = q[k] + h * v3[k]
                v4[k] = v[k] + h * a3[k]
            if kind == 0:
                kind, body = _failed(_accelerations(model, work, prescribed, f_ext, TAU[2, n - 1],
                                                    QDD[2, n - 1], q4, v4, a4, tau))
            if kind:
                return n, kind, body
            for k in range(nv):
                Q[n, k] = q[k] + h / 6 * (v[k] + 2 * v2[k] + 2 * v3[k] + v4[k])
                V[n, k] = v[k] + h / 6 * (a[k] + 2 * a2[k] + 2 * a3[k] + a4[k])
        elif n > 0:
            q, v, a = Q[n - 1], V[n - 1], A[n - 1]
            c, ap, d, dp = (0.5 + psi, psi, 1 + phi, phi) if n > 1 else (0.5 + 0.0, 0.0, 1 + 0.0, 0.0)
            for k in range(nv):
                prev = A[n - 2, k] if n > 1 else a[k]
                Q[n, k] = q[k] + (v[k] * h + c * a[k] * h * h - ap * prev * h * h)
                V[n, k] = v[k] + d * a[k] * h - dp * prev * h
        for k in range(nv if n > 0 else 0):
            if not (np.isfinite(Q[n, k]) and np.isfinite(V[n, k])):
                return n - 1, 3, -1
        kind, body = _failed(_accelerations(model, work, prescribed, f_ext, TAU[0, n], QDD[0, n], Q[n],
                                            V[n], A[n], tau))
        if kind:
            return n, kind, body
        for k in range(nj):
            F[n, k] = tau[k]
    return steps, 0, -1
