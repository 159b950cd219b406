"""The exact inverse in the Weierstrass form of the Rosenbrock pencil, each group of internal modes in its direction.

The finite part ẇ = T w + G s splits into stable, center and unstable groups (a Schur form and a
Sylvester equation, Golub & Van Loan 2013, §7.6.3), each integrated exactly for inputs linear
between samples (Van Loan 1978), forward or backward from equilibrium; the infinite part is
a finite sum of the signals' derivatives. Used by the causal and non-causal inverses.
"""
import numpy as np
import scipy.interpolate as si
import scipy.linalg as sla

from femdyn.errors import ModelError, SolverError

from ..invariant_zeros import zero_kinds
from ..linearization import FINITE
from .result import Inverse

__all__ = ["weierstrass_form", "integrate_modes"]


def weierstrass_form(linear, tol):
    """Weierstrass form of the scaled Rosenbrock pencil: finite part ẇ = T w + G s, infinite part, back-maps.

    Parameters
    ----------
    linear : LinearServo
        The linearized servo model.
    tol : float
        Relative size (of the zeros' natural frequencies) below which a real part counts as zero.

    Returns
    -------
    tuple
        (T, G, Nil, H, Zs, Zf, eps): the finite part's triangular T and input G, the nilpotent infinite
        part Nil with its input H, the maps from the finite and infinite parts to [z, ż, u], and the
        absolute threshold of the zeros' kinds (1/s).

    Raises
    ------
    SolverError
        A singular inverse problem (an input that does not reach the outputs).
    """
    A, E, sc = linear.pencil()
    d, p = linear.dofs, linear.p
    omega, Li = sc["omega"], sc["Li"]
    signal = np.zeros((2 * d + p, d + p))        # b = signal @ s
    signal[d:2 * d, :d] = Li / omega
    signal[2 * d:, d:] = -np.diag(sc["sy"])
    AA, BB, alpha, beta, Q, Z = sla.ordqz(A, E, sort=lambda a, b: np.abs(b) > FINITE * np.abs(a), output="complex")
    if np.any((np.abs(alpha) < 1e-12 * max(1.0, np.abs(alpha).max())) & (np.abs(beta) < 1e-12)):
        raise SolverError("inversion: the inverse problem is singular (an input that does not reach the outputs); "
                          "prescribe outputs the actuators can move")
    n1 = int(np.sum(np.abs(beta) > FINITE * np.abs(alpha)))
    A11, A12, A22 = AA[:n1, :n1], AA[:n1, n1:], AA[n1:, n1:]
    B11, B12, B22 = BB[:n1, :n1], BB[:n1, n1:], np.triu(BB[n1:, n1:], 1)
    n2 = len(A22)
    X, Y = np.zeros((n1, n2), complex), np.zeros((n1, n2), complex)
    for j in range(n2):          # B11 X + Y B22 = −B12, A11 X + Y A22 = −A12 (Kågström & Van Dooren 1992)
        r1 = -B12[:, j] - Y[:, :j] @ B22[:j, j]
        r2 = -A12[:, j] - Y[:, :j] @ A22[:j, j]
        X[:, j] = sla.solve_triangular(A22[j, j] * B11, A22[j, j] * r1) if n1 else X[:, j]
        Y[:, j] = (r2 - A11 @ X[:, j]) / A22[j, j]
    Qh = Q.conj().T
    left1, left2 = Qh[:n1] + Y @ Qh[n1:], Qh[n1:]
    T = sla.solve_triangular(B11, A11) if n1 else np.zeros((0, 0))
    G = sla.solve_triangular(B11, left1 @ signal) if n1 else np.zeros((0, d + p))
    Nil = sla.solve_triangular(A22, B22)
    H = sla.solve_triangular(A22, left2 @ signal)
    Zs, Zf = Z[:, :n1], Z[:, :n1] @ X + Z[:, n1:]
    back = np.zeros((2 * d + p, 2 * d + p))            # ξ = [w, v̂, û] → [z, ż, u]
    back[:d, :d] = Li.T
    back[d:2 * d, d:2 * d] = omega * Li.T
    back[2 * d:, 2 * d:] = np.diag(sc["su"])
    return T, G, Nil, H, back @ Zs, back @ Zf, tol * omega


def _split(T, select):
    """T = V diag(T₁, T₂) V⁻¹ with the ``select``ed eigenvalues in T₁ (Golub & Van Loan 2013, §7.6.3)."""
    m = len(T)
    if m == 0:
        return (T, np.zeros((0, 0)), np.zeros((0, 0))), (T, np.zeros((0, 0)), np.zeros((0, 0)))
    S, U, k = sla.schur(T, output="complex", sort=select)
    if k in (0, m):
        empty, whole = (S[:0, :0], U[:, :0], U.conj().T[:0]), (S, U, U.conj().T)
        return (whole, empty) if k == m else (empty, whole)
    X = sla.solve_sylvester(S[:k, :k], -S[k:, k:], -S[:k, k:])
    Uh = U.conj().T
    V = [U[:, :k], U[:, :k] @ X + U[:, k:]]
    W = [Uh[:k] - X @ Uh[k:], Uh[k:]]
    return (S[:k, :k], V[0], W[0]), (S[k:, k:], V[1], W[1])


def _propagate(T, sigma, h, direction):
    """w' = T w + σ(t), σ linear between samples, forward or backward from equilibrium; exact (Van Loan 1978)."""
    if direction == "backward":
        return _propagate(-T, -sigma[::-1], h, "forward")[::-1]
    k, m = len(sigma), len(T)
    w = np.zeros((k, m), complex)
    if m == 0:
        return w
    aug = np.zeros((3 * m, 3 * m), complex)
    aug[:m, :m], aug[:m, m:2 * m], aug[m:2 * m, 2 * m:] = T * h, np.eye(m) * h, np.eye(m) * h
    F = sla.expm(aug)
    Phi, G0, G1 = F[:m, :m], F[:m, m:2 * m], F[:m, 2 * m:]
    drive = sigma[:-1] @ G0.T + (np.diff(sigma, axis=0) / h) @ G1.T
    diagonal = np.abs(np.diag(T))              # T is triangular (a Schur block)
    if diagonal.min() > 1e-12 * max(diagonal.max(), 1.0):
        w[0] = -sla.solve_triangular(T, sigma[0])
    for i in range(k - 1):
        w[i + 1] = Phi @ w[i] + drive[i]
    return w


def integrate_modes(linear, t, s, d, modes, window, method, parts):
    """Solve E ξ̇ = A ξ + b on the times ``t``, each group of internal modes integrated as ``modes`` says.

    Parameters
    ----------
    linear : LinearServo
    t : (k,) ndarray
        Uniform sample times, s.
    s : (k, d + p) ndarray
        The signals [Nᵀf, y] (:func:`~.result.servo_signals`).
    d : int
        Number of independent coordinates.
    modes : dict
        For "stable", "center" and "unstable" zeros: "forward", "backward" or "split" (half of each).
    window : float
        Pre- or post-actuation window recorded with the result, s.
    method : str
        The inverse's name, for messages and the result.
    parts : tuple
        :func:`weierstrass_form` of the model.

    Returns
    -------
    Inverse

    Raises
    ------
    SolverError
        Overflow of growing internal dynamics, or a decomposition that lost accuracy.
    """
    T, G, Nil, H, Zs, Zf, eps = parts
    h = t[1] - t[0]
    groups, rest = [], (T, np.eye(len(T)), np.eye(len(T)))
    for kind in ("stable", "center"):
        Tr, Vr, Wr = rest
        first, rest = _split(Tr, lambda x, kind=kind: zero_kinds(np.array([x]), eps)[0] == kind)
        groups.append((kind, first[0], Vr @ first[1], first[2] @ Wr))
        rest = (rest[0], Vr @ rest[1], rest[2] @ Wr)
    groups.append(("unstable",) + rest)
    with np.errstate(over="ignore", invalid="ignore"):       # a growing causal inverse is reported below
        w = np.zeros((len(t), len(T)), complex)
        for kind, Tg, Vg, Wg in groups:
            if not len(Tg):
                continue
            sigma = s @ (Wg @ G).T
            how = modes[kind]
            if how == "split":
                wg = 0.5 * (_propagate(Tg, sigma, h, "forward") + _propagate(Tg, sigma, h, "backward"))
            else:
                wg = _propagate(Tg, sigma, h, how)
            w += wg @ Vg.T
        xi = w @ Zs.T + _fast(Nil, H, t, s) @ Zf.T
    if not np.all(np.isfinite(xi)):
        raise SolverError(f"{method} inverse: overflow; internal dynamics grow like exp(Re λ t) with Re λ up to "
                          f"{np.diag(T).real.max():.3g} 1/s over {t[-1] - t[0]:.3g} s: use noncausal_inverse or "
                          "optimal_control_inverse")
    for block in (slice(0, d), slice(d, 2 * d), slice(2 * d, None)):
        residue, size = np.abs(xi[:, block].imag).max(), np.abs(xi[:, block].real).max()
        if residue > 1e-6 * size:
            raise SolverError(f"{method} inverse: the decomposition lost accuracy (imaginary residue {residue:.2e} "
                              f"of {size:.2e}): zeros of different kinds lie too close; a larger tol treats nearly "
                              "undamped zeros as undamped")
    xi = xi.real
    z, zd, u = xi[:, :d], xi[:, d:2 * d], xi[:, 2 * d:]
    N = linear.basis
    q = z @ N.T
    return Inverse(t, u, q, zd @ N.T, q @ linear.outputs.T, np.hstack([z, zd]), window, method)


def _fast(Nil, H, t, s):
    """The infinite part x_f = −Σₖ Nᵏ H s⁽ᵏ⁾ (N nilpotent), derivatives from an odd-degree spline."""
    n2 = len(Nil)
    if n2 == 0:
        return np.zeros((len(t), 0))
    powers, P = [np.eye(n2)], np.eye(n2)
    scale = 1.0
    while len(powers) <= n2:
        P = P @ Nil
        norm = np.abs(P).max()
        if norm <= 1e-10 * scale:
            break
        scale = max(scale, norm)
        powers.append(P.copy())
    nu = len(powers)
    degree = max(3, nu if nu % 2 else nu + 1)
    hs = s @ H.T
    if nu > 1:
        if len(t) <= degree:
            raise ModelError(f"inversion: {len(t)} samples are too few for derivatives of order {nu - 1}")
        spline = si.make_interp_spline(t, hs, k=degree)
    out = -hs @ powers[0].T
    for k in range(1, nu):
        out -= spline.derivative(k)(t) @ powers[k].T
    return out
