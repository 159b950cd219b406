"""Inverse dynamics as optimal control (Bastos, Seifried & Brüls 2013, Multibody Syst. Dyn. 30:359–376).

A discrete-time LQ tracking problem of the linear model: zero-order-hold inputs, the cost
discretized exactly, a backward Riccati recursion and a forward sweep. docs/inversion.md, §4.
"""
import numpy as np
import scipy.linalg as sla

from femdyn.errors import ModelError

from .result import Inverse, servo_signals

__all__ = ["optimal_control_inverse"]


def optimal_control_inverse(linear, t, y_desired=None, forcing=None, *, input_weight, output_weight=None,
                            rate_weight=None):
    """Inverse dynamics as optimal control (Bastos, Seifried & Brüls 2013, for the linear model).

    Minimizes ∫ (y − y_d)ᵀ W (y − y_d) + uᵀ R u dt from rest (free final state) as a
    discrete-time LQ tracking problem: zero-order-hold u, cost discretized exactly (Van Loan
    1978, Theorem 1), backward Riccati recursion and forward sweep (Anderson & Moore 1990).
    O(k (2d)³) for k samples; docs/inversion.md, §4.

    Parameters
    ----------
    linear : LinearServo
        The linear model.
    t : (k,) array_like
        Uniform times, s.
    y_desired : (k, p) or (k,) array_like, optional
        Desired output deviations, m (default zero).
    forcing : (k, n) array_like, optional
        Known generalized force deviations, N per unit of q (default zero).
    input_weight : float or (p, p) array_like
        R, per (N·m)² or N² and s (its scale against W sets the trade-off).
    output_weight : float or (p, p) array_like, optional
        W, per m² and s (default the identity).
    rate_weight : float or (p, p) array_like, optional
        R_r of a penalty ∫ u̇ᵀ R_r u̇ dt (per (N·m/s)² and s): keeps u continuous at the start.

    Returns
    -------
    Inverse
        u piecewise constant (u[i] on [tᵢ, tᵢ₊₁), the last repeated; with ``rate_weight``
        linear between samples), states at the samples.

    Raises
    ------
    ModelError
        If the times are not uniform, the signals do not match them, or a weight is not positive definite.
    """
    t, s, d = servo_signals(linear, t, y_desired, forcing)
    p, k, h = linear.p, len(t), t[1] - t[0]
    R = _weight(input_weight, p, "input_weight")
    W = _weight(1.0 if output_weight is None else output_weight, p, "output_weight")
    A, Bu, Bf, Cy, to_z = linear.state_space()
    nx, ns = 2 * d, d + p
    extra = np.zeros((nx, nx))                  # state weight beside the output's
    if rate_weight is not None:                 # u becomes a state, its rate the control
        A = np.block([[A, Bu], [np.zeros((p, nx + p))]])
        Bu, Bf, Cy = np.vstack([np.zeros((nx, p)), np.eye(p)]), np.vstack([Bf, np.zeros((p, d))]), \
            np.hstack([Cy, np.zeros((p, p))])
        extra = sla.block_diag(extra, R)
        R = _weight(rate_weight, p, "rate_weight")
        nx += p
    # augmented continuous state X = [x, s, ṡ, c]: ẋ = A x + B_f s_f + B_u c, s linear, c held
    na = nx + 2 * ns + p
    Fa = np.zeros((na, na))
    Fa[:nx, :nx], Fa[:nx, nx:nx + d], Fa[:nx, nx + 2 * ns:] = A, Bf, Bu
    Fa[nx:nx + ns, nx + ns:nx + 2 * ns] = np.eye(ns)
    Hy = np.zeros((p, na))
    Hy[:, :nx], Hy[:, nx + d:nx + ns] = Cy, -np.eye(p)
    Qc = Hy.T @ W @ Hy
    Qc[:nx, :nx] += extra
    Qc[nx + 2 * ns:, nx + 2 * ns:] += R
    V = sla.expm(np.block([[-Fa.T, Qc], [np.zeros((na, na)), Fa]]) * h)     # Van Loan 1978
    Phi = V[na:, na:]
    Qd = Phi.T @ V[:na, na:]
    Qd = 0.5 * (Qd + Qd.T)
    ix, isg, iu = slice(0, nx), slice(nx, nx + 2 * ns), slice(nx + 2 * ns, na)
    Ad, Fd, Bd = Phi[ix, ix], Phi[ix, isg], Phi[ix, iu]
    Qxx, Qxs, Nx, Ns, Rd = Qd[ix, ix], Qd[ix, isg], Qd[ix, iu], Qd[isg, iu], Qd[iu, iu]
    sig = np.hstack([s[:-1], np.diff(s, axis=0) / h])          # (s_i, slope_i) on step i
    P, pv = np.zeros((nx, nx)), np.zeros(nx)
    gains, offsets = [None] * (k - 1), [None] * (k - 1)
    for i in range(k - 2, -1, -1):                              # backward Riccati recursion
        e = Fd @ sig[i]
        Gm = Rd + Bd.T @ P @ Bd
        Kx = np.linalg.solve(Gm, Nx.T + Bd.T @ P @ Ad)
        kv = np.linalg.solve(Gm, Ns.T @ sig[i] + Bd.T @ (P @ e + pv))
        gains[i], offsets[i] = Kx, kv
        Acl = Ad - Bd @ Kx
        pv = Qxs @ sig[i] + Acl.T @ (P @ e + pv) - Kx.T @ Ns.T @ sig[i]
        P = Qxx + Ad.T @ P @ Acl - Nx @ Kx
        P = 0.5 * (P + P.T)
    x, c = np.zeros((k, nx)), np.zeros((k, p))
    for i in range(k - 1):                                      # forward sweep from rest
        c[i] = -gains[i] @ x[i] - offsets[i]
        x[i + 1] = Ad @ x[i] + Fd @ sig[i] + Bd @ c[i]
    c[-1] = c[-2]
    u = x[:, 2 * d:] if rate_weight is not None else c
    z, zd = x[:, :d] @ to_z.T, x[:, d:2 * d] @ to_z.T
    N = linear.basis
    q = z @ N.T
    return Inverse(t, u, q, zd @ N.T, q @ linear.outputs.T, np.hstack([z, zd]), (t[0], t[-1]), "optimal control")


def _weight(w, p, name):
    """A symmetric positive definite p × p weight from a scalar or a matrix."""
    w = np.asarray(w, float)
    w = w * np.eye(p) if w.ndim == 0 else w
    if w.shape != (p, p) or np.any(np.linalg.eigvalsh(0.5 * (w + w.T)) <= 0):
        raise ModelError(f"optimal_control_inverse: {name} must be a positive number or a symmetric positive "
                         f"definite {p} × {p} matrix")
    return 0.5 * (w + w.T)
