"""Compiled evaluations of the floating-frame body (numba, ``cache=True``): M(q), ∂(M a)/∂q,
the force Q(q, v), its tangents K and C, and the attachment rows (values, gradients, Hessians).

One call per evaluation with no Python cost per block. R = (r_ref, u, v, w, η) are the body's
coordinates, A = [u v w] (A[i, c] = R[3 + 3c + i]); invariants Ct, Cx, Cpp, T, Z as in
docs/floating-frame.md. The numpy forms they replace are kept as the reference of the tests
(tests/support/ffr_reference.py).
"""
import numpy as np
from numba import njit

from ..geometry import RODRIGUES_SERIES as SERIES


@njit(cache=True)
def _frame(R):
    """A (3, 3) with the columns u, v, w."""
    A = np.empty((3, 3))
    for c in range(3):
        for i in range(3):
            A[i, c] = R[3 + 3 * c + i]
    return A


@njit(cache=True)
def _T(eta, Ct, Cx, CppT):
    """T (4, 3, n): T_0 = Ct, T_c[j, k] = Cx[c, j, k] + Cpp[c, j, l, k] η_l, with CppT[c, j, k, l] = Cpp[c, j, l, k]."""
    T = np.empty((4, 3, eta.size))
    T[0] = Ct
    T[1:] = Cx + _contract_last(CppT, eta)
    return T


@njit(cache=True)
def _Tx(T, x):
    """(4, 3): T_b x."""
    return (T * x).sum(axis=2)


@njit(cache=True)
def _gram(A, B):
    """Aᵀ B of two 3 × 3 matrices (loops: no BLAS call for nine entries)."""
    G = np.empty((3, 3))
    for i in range(3):
        for j in range(3):
            G[i, j] = A[0, i] * B[0, j] + A[1, i] * B[1, j] + A[2, i] * B[2, j]
    return G


@njit(cache=True)
def _P(G, Cpp):
    """P (n, n) = Σ_ij G[i, j] Cpp[i, j]."""
    n = Cpp.shape[2]
    P = np.zeros((n, n))
    for i in range(3):
        for j in range(3):
            w = G[i, j]
            for k in range(n):
                for l in range(n):
                    P[k, l] += w * Cpp[i, j, k, l]
    return P


@njit(cache=True)
def _contract_last(Cpp, x):
    """V[i, j, k] = Cpp[i, j, k, l] x_l."""
    n = x.size
    V = np.zeros((3, 3, n))
    for i in range(3):
        for j in range(3):
            for k in range(n):
                s = 0.0
                for l in range(n):
                    s += Cpp[i, j, k, l] * x[l]
                V[i, j, k] = s
    return V


@njit(cache=True)
def mass_matrix(R, mass, first, second, Ct, Cx, Cpp, CppT):
    """M (12 + n, 12 + n) of one body at its coordinates R."""
    n = Ct.shape[1]
    N = 12 + n
    eta = R[12:]
    A = _frame(R)
    T = _T(eta, Ct, Cx, CppT)
    Z = np.empty((4, 4))
    Z[0, 0] = mass
    for c in range(3):
        s = first[c]
        for k in range(n):
            s += Ct[c, k] * eta[k]
        Z[0, 1 + c] = Z[1 + c, 0] = s
    Cxe = np.zeros((3, 3))
    for c in range(3):
        for d in range(3):
            for k in range(n):
                Cxe[c, d] += Cx[c, d, k] * eta[k]
    for c in range(3):
        for d in range(3):
            s = second[c, d] + Cxe[c, d] + Cxe[d, c]
            for k in range(n):
                t = 0.0
                for l in range(n):
                    t += Cpp[c, d, k, l] * eta[l]
                s += t * eta[k]
            Z[1 + c, 1 + d] = s
    M = np.zeros((N, N))
    for b in range(4):
        for bb in range(4):
            for i in range(3):
                M[3 * b + i, 3 * bb + i] = Z[b, bb]
        for i in range(3):
            for k in range(n):
                s = 0.0
                for c in range(3):
                    s += A[i, c] * T[b, c, k]
                M[3 * b + i, 12 + k] = s
                M[12 + k, 3 * b + i] = s
    M[12:, 12:] = _P(_gram(A, A), Cpp)
    return M


@njit(cache=True)
def mass_derivative(R, acc, Ct, Cx, Cpp, CppT):
    """∂(M a)/∂q (12 + n, 12 + n) of one body at R for the accelerations ``acc`` of its coordinates."""
    n = Ct.shape[1]
    N = 12 + n
    eta, eps = R[12:], acc[12:]
    A = _frame(R)
    alpha = acc[:12].reshape(4, 3)
    T = _T(eta, Ct, Cx, CppT)
    V = _contract_last(Cpp, eps)                     # V[i, j, k] = Cpp[i, j, k, l] ε_l = ∂(T_i ε)_j/∂η_k
    dZ = np.zeros((4, 4, n))
    for c in range(3):
        for k in range(n):
            dZ[0, 1 + c, k] = dZ[1 + c, 0, k] = Ct[c, k]
    Ve = _contract_last(Cpp, eta)
    for c in range(3):
        for d in range(3):
            for k in range(n):                       # Cx + Cxᵀ + (Cpp[c, d, k, l] + Cpp[c, d, l, k]) η_l
                dZ[1 + c, 1 + d, k] = Cx[d, c, k] + Ve[c, d, k] + T[1 + c, d, k]
    Te = _Tx(T, eps)
    D = np.zeros((N, N))
    for b in range(4):
        for i in range(3):
            for k in range(n):
                s = 0.0
                for c in range(4):
                    s += dZ[b, c, k] * alpha[c, i]
                if b:
                    for j in range(3):
                        s += A[i, j] * V[b - 1, j, k]
                D[3 * b + i, 12 + k] = s
            for p in range(3):
                D[3 * b + i, 3 + 3 * p + i] = Te[b, p]
    for p in range(3):
        for k in range(n):
            for i in range(3):
                s = 0.0
                for b in range(4):
                    s += T[b, p, k] * alpha[b, i]
                for j in range(3):
                    s += (V[p, j, k] + V[j, p, k]) * A[i, j]
                D[12 + k, 3 + 3 * p + i] = s
    w = np.zeros((3, 3))                             # w[c, j] = a_j · α_c
    for c in range(3):
        for j in range(3):
            for i in range(3):
                w[c, j] += alpha[1 + c, i] * A[i, j]
    for c in range(3):
        for j in range(3):
            x = w[c, j]
            for k in range(n):
                for l in range(n):
                    D[12 + k, 12 + l] += CppT[c, j, k, l] * x
    return D


@njit(cache=True)
def force(R, Rv, g, mass, first, Ct, Cx, Cpp, CppT, K, C):
    """Q (12 + n): quadratic-velocity, gravity, elastic and damping forces of one body."""
    n = Ct.shape[1]
    eta, eta_d = R[12:], Rv[12:]
    A, Ad = _frame(R), _frame(Rv)
    T = _T(eta, Ct, Cx, CppT)
    Q = np.zeros(12 + n)
    yhat = np.empty(4)
    yhat[0] = mass
    for c in range(3):
        s = first[c]
        for k in range(n):
            s += Ct[c, k] * eta[k]
        yhat[1 + c] = s
    for b in range(4):
        for c in range(3):
            s = 0.0
            for k in range(n):
                s += T[b, c, k] * eta_d[k]
            for i in range(3):
                Q[3 * b + i] -= 2.0 * Ad[i, c] * s
        for i in range(3):
            Q[3 * b + i] += yhat[b] * g[i]
    P = _P(_gram(A, Ad), Cpp)
    Atg = np.zeros(3)
    for c in range(3):
        for i in range(3):
            Atg[c] += A[i, c] * g[i]
    for k in range(n):
        s = 0.0
        for l in range(n):
            s -= 2.0 * P[k, l] * eta_d[l] + K[k, l] * eta[l] + C[k, l] * eta_d[l]
        for c in range(3):
            s += Ct[c, k] * Atg[c]
        Q[12 + k] = s
    return Q


@njit(cache=True)
def tangents(R, Rv, g, Ct, Cx, Cpp, CppT, K, C):
    """(−∂Q/∂q, −∂Q/∂v), each (12 + n, 12 + n), of one body."""
    n = Ct.shape[1]
    N = 12 + n
    eta, eta_d = R[12:], Rv[12:]
    A, Ad = _frame(R), _frame(Rv)
    T = _T(eta, Ct, Cx, CppT)
    V = _contract_last(Cpp, eta_d)                   # V[i, j, k] = Cpp[i, j, k, l] η̇_l
    Te = _Tx(T, eta_d)
    Kq, Cv = np.zeros((N, N)), np.zeros((N, N))
    for c in range(3):                               # the (a_c, η) blocks of K are each other's transposes
        for i in range(3):
            for k in range(n):
                s, t = 0.0, 0.0
                for j in range(3):
                    s += Ad[i, j] * V[c, j, k]
                    t += V[j, c, k] * A[i, j]
                Kq[3 + 3 * c + i, 12 + k] = Kq[12 + k, 3 + 3 * c + i] = 2.0 * s - g[i] * Ct[c, k]
                Cv[12 + k, 3 + 3 * c + i] = 2.0 * t
    for k in range(n):
        for l in range(n):
            Kq[12 + k, 12 + l] = K[k, l]
    for b in range(4):
        for i in range(3):
            for k in range(n):
                s = 0.0
                for c in range(3):
                    s += Ad[i, c] * T[b, c, k]
                Cv[3 * b + i, 12 + k] = 2.0 * s
            for p in range(3):
                Cv[3 * b + i, 3 + 3 * p + i] = 2.0 * Te[b, p]
    P = _P(_gram(A, Ad), Cpp)
    for k in range(n):
        for l in range(n):
            Cv[12 + k, 12 + l] = 2.0 * P[k, l] + C[k, l]
    return Kq, Cv


# --- attachment rows ----------------------------------------------------------------------
@njit(cache=True)
def _coefficients(s, series, out):
    """out (3, 3): α, β, γ of s = φ² (rows) and their first and second s-derivatives (geometry._rodrigues_coefficients)."""
    if s < 4.0:                                      # nine Horner chains side by side (latency, not flops, bound)
        out[:] = 0.0
        for c in range(series.shape[2]):
            for f in range(3):
                for o in range(3):
                    out[f, o] = out[f, o] * s + series[f, o, c]
        return
    phi = np.sqrt(s)
    a, b, g = np.cos(phi), np.sin(phi) / phi, (1 - np.cos(phi)) / s
    a1, b1, g1 = -b / 2, (a - b) / (2 * s), (b / 2 - g) / s
    out[0, 0], out[0, 1], out[0, 2] = a, a1, -b1 / 2
    out[1, 0], out[1, 1], out[1, 2] = b, b1, (a1 - 3 * b1) / (2 * s)
    out[2, 0], out[2, 1], out[2, 2] = g, g1, (b1 / 2 - 2 * g1) / s


@njit(cache=True)
def _rotated(theta, e, series, co, gx, Bx, f, df):
    """f = R(θ) e_e and df[c, a] = ∂f_c/∂θ_a (geometry.rotated_vector), in place; co, gx, Bx kept for :func:`_rotated_second`."""
    _coefficients(theta[0] ** 2 + theta[1] ** 2 + theta[2] ** 2, series, co)
    a1, b0, b1, g0, g1 = co[0, 1], co[1, 0], co[1, 1], co[2, 0], co[2, 1]
    e1, e2 = (e + 1) % 3, (e + 2) % 3
    gx[e], gx[e1], gx[e2] = 0.0, theta[e2], -theta[e1]          # θ × e_e
    Bx[:] = 0.0                                                   # ∂(θ × e_e)/∂θ = −[e_e]×
    Bx[e1, e2], Bx[e2, e1] = 1.0, -1.0
    h = theta[e]
    for c in range(3):
        bc = 1.0 if c == e else 0.0
        f[c] = co[0, 0] * bc + b0 * gx[c] + g0 * h * theta[c]
        for a in range(3):
            df[c, a] = (2 * a1 * bc * theta[a] + 2 * b1 * gx[c] * theta[a] + b0 * Bx[c, a]
                        + 2 * g1 * h * theta[c] * theta[a])
        df[c, e] += g0 * theta[c]
        df[c, c] += g0 * h


@njit(cache=True)
def _rotated_second(theta, e, co, gx, Bx, d2f):
    """d2f[c, a, b] = ∂²(R(θ) e_e)_c/∂θ_a∂θ_b from the coefficients left by :func:`_rotated`, in place."""
    a1, a2 = co[0, 1], co[0, 2]
    b1, b2 = co[1, 1], co[1, 2]
    g0, g1, g2 = co[2, 0], co[2, 1], co[2, 2]
    h = theta[e]
    for c in range(3):
        bc = 1.0 if c == e else 0.0
        for a in range(3):
            dh_ca = (theta[c] if a == e else 0.0) + (h if c == a else 0.0)
            for q in range(3):
                dh_cq = (theta[c] if q == e else 0.0) + (h if c == q else 0.0)
                tt = theta[a] * theta[q]
                same = a == q
                Ha = 4 * a2 * tt + (2 * a1 if same else 0.0)
                Hb = 4 * b2 * tt + (2 * b1 if same else 0.0)
                Hg = 4 * g2 * tt + (2 * g1 if same else 0.0)
                dd = (1.0 if (a == e and c == q) else 0.0) + (1.0 if (q == e and c == a) else 0.0)
                d2f[c, a, q] = (bc * Ha + gx[c] * Hb + 2 * b1 * (theta[a] * Bx[c, q] + theta[q] * Bx[c, a])
                                + h * theta[c] * Hg + 2 * g1 * (theta[a] * dh_cq + theta[q] * dh_ca) + g0 * dd)


@njit(cache=True)
def _row_state(X, m, n, Psi_k, eta, theta, d):
    """η, θ = Ψ_k η and d_c = x₀ · a_c of row m, in place."""
    for k in range(n):
        eta[k] = X[m, 5 + k // 3, k % 3]
    for a in range(3):
        s = 0.0
        for l in range(n):
            s += Psi_k[a, l] * eta[l]
        theta[a] = s
        t = 0.0
        for j in range(3):
            t += X[m, 0, j] * X[m, 2 + a, j]
        d[a] = t


@njit(cache=True)
def attachment_evaluate(X, params, target, origins, Phi, Psi, series):
    """(φ (m,), ∂φ/∂X (m, 3 arity)) of a batch of attachment rows."""
    m_rows, arity = X.shape[0], X.shape[1]
    n = Phi.shape[2]
    phi = np.zeros(m_rows)
    grad = np.zeros((m_rows, 3 * arity))
    eta, theta, d, y = np.empty(n), np.empty(3), np.empty(3), np.empty(3)
    co, gx, Bx, f, df = np.empty((3, 3)), np.empty(3), np.empty((3, 3)), np.empty(3), np.empty((3, 3))
    for m in range(m_rows):
        k, i = int(params[m, 0]), int(params[m, 2])
        _row_state(X, m, n, Psi[k], eta, theta, d)
        if params[m, 1] == 0:                        # point row: (x₀ − r_ref − A(o_k + Φ_k η))_i
            s = X[m, 0, i] - X[m, 1, i]
            for c in range(3):
                yc = origins[k, c]
                for l in range(n):
                    yc += Phi[k, c, l] * eta[l]
                s -= X[m, 2 + c, i] * yc
                grad[m, 6 + 3 * c + i] = -yc
            phi[m] = s - target[m]
            grad[m, i] = 1.0
            grad[m, 3 + i] = -1.0
            for l in range(n):
                t = 0.0
                for c in range(3):
                    t -= X[m, 2 + c, i] * Phi[k, c, l]
                grad[m, 15 + l] = t
            continue
        _rotated(theta, i, series, co, gx, Bx, f, df)   # axis row: x₀ · A R(Ψ_k η) e_i
        s = 0.0
        for c in range(3):
            s += d[c] * f[c]
        phi[m] = s - target[m]
        for j in range(3):
            t = 0.0
            for c in range(3):
                t += f[c] * X[m, 2 + c, j]
                grad[m, 6 + 3 * c + j] = f[c] * X[m, 0, j]
            grad[m, j] = t
        for a in range(3):                           # y[a] = d · ∂f/∂θ_a
            t = 0.0
            for c in range(3):
                t += d[c] * df[c, a]
            y[a] = t
        for l in range(n):
            grad[m, 15 + l] = y[0] * Psi[k, 0, l] + y[1] * Psi[k, 1, l] + y[2] * Psi[k, 2, l]
    return phi, grad


@njit(cache=True)
def attachment_hessian(X, params, origins, Phi, Psi, series):
    """∂²φ/∂X² (m, 3 arity, 3 arity) of a batch of attachment rows (symmetric)."""
    m_rows, arity = X.shape[0], X.shape[1]
    n = Phi.shape[2]
    k3 = 3 * arity
    H = np.zeros((m_rows, k3, k3))
    eta, theta, d = np.empty(n), np.empty(3), np.empty(3)
    co, gx, Bx, f, df = np.empty((3, 3)), np.empty(3), np.empty((3, 3)), np.empty(3), np.empty((3, 3))
    d2f, S, dfPsi, SPsi = np.empty((3, 3, 3)), np.empty((3, 3)), np.empty((3, n)), np.empty((3, n))
    for m in range(m_rows):
        k, i = int(params[m, 0]), int(params[m, 2])
        if params[m, 1] == 0:
            for c in range(3):
                for l in range(n):
                    H[m, 6 + 3 * c + i, 15 + l] = H[m, 15 + l, 6 + 3 * c + i] = -Phi[k, c, l]
            continue
        _row_state(X, m, n, Psi[k], eta, theta, d)
        _rotated(theta, i, series, co, gx, Bx, f, df)
        _rotated_second(theta, i, co, gx, Bx, d2f)
        for a in range(3):                           # S[a, b] = d · ∂²f/∂θ_a∂θ_b
            for b in range(3):
                S[a, b] = d[0] * d2f[0, a, b] + d[1] * d2f[1, a, b] + d[2] * d2f[2, a, b]
        for c in range(3):
            for l in range(n):
                dfPsi[c, l] = df[c, 0] * Psi[k, 0, l] + df[c, 1] * Psi[k, 1, l] + df[c, 2] * Psi[k, 2, l]
                SPsi[c, l] = S[c, 0] * Psi[k, 0, l] + S[c, 1] * Psi[k, 1, l] + S[c, 2] * Psi[k, 2, l]
        for c in range(3):
            for j in range(3):
                H[m, j, 6 + 3 * c + j] = H[m, 6 + 3 * c + j, j] = f[c]
                for l in range(n):
                    H[m, 6 + 3 * c + j, 15 + l] = H[m, 15 + l, 6 + 3 * c + j] = X[m, 0, j] * dfPsi[c, l]
        for j in range(3):
            for l in range(n):
                s = X[m, 2, j] * dfPsi[0, l] + X[m, 3, j] * dfPsi[1, l] + X[m, 4, j] * dfPsi[2, l]
                H[m, j, 15 + l] = H[m, 15 + l, j] = s
        for l in range(n):
            for p in range(n):
                H[m, 15 + l, 15 + p] = Psi[k, 0, l] * SPsi[0, p] + Psi[k, 1, l] * SPsi[1, p] + Psi[k, 2, l] * SPsi[2, p]
    return H
