"""Linearized free vibration about an equilibrium: eigenfrequencies and mode shapes.

Linearize M q̈ + Φ_qᵀλ = Q at (q, λ): stiffness K_t = −∂Q/∂q + ∂(Φ_qᵀλ)/∂q, mass M,
restricted to the tangent space of the constraints, q = N z with Φ_q N = 0 (an orthonormal
null-space basis from a dense SVD: meant for models of up to a few thousand coordinates).
Then K_r z = ω² M_r z with K_r = Nᵀ K_t N, M_r = Nᵀ M N (scipy.linalg.eigh). SI units:
ω in rad/s, f = ω/2π in Hz.
"""
import numpy as np
import scipy.linalg as sla

from femdyn.errors import SolverError
from femdyn.sparse import Pattern


def tangent_stiffness(system, q, lam, t=0.0):
    """Dense K_t = K + H(λ) at (q, λ) (K = −∂Q/∂q)."""
    k_vals, _ = system.tangent_values(q, np.zeros(system.n), t)
    c = system.constraints
    rows = np.concatenate([system.k_rows, c.hess_rows])
    cols = np.concatenate([system.k_cols, c.hess_cols])
    vals = np.concatenate([k_vals, c.hessian_values(q, lam)])
    return Pattern(rows, cols, (system.n, system.n)).assemble(vals).toarray()


def eigenmodes(system, q=None, lam=None, count=10, t=0.0):
    """The ``count`` lowest (ω [rad/s], mode shapes (n, count)) about (q, λ) (default: the
    initial configuration, unloaded)."""
    q = system.q0 if q is None else q
    lam = np.zeros(system.m) if lam is None else lam
    if system.m:
        Phi_q = system.constraints.jacobian(q, t).toarray()
        N = sla.null_space(Phi_q)
    else:
        N = np.eye(system.n)
    if N.shape[1] == 0:
        raise SolverError("eigenmodes: the constraints leave no degree of freedom")
    K = N.T @ tangent_stiffness(system, q, lam, t) @ N
    M = N.T @ system.M.toarray() @ N
    count = min(count, N.shape[1])
    w2, Z = sla.eigh(0.5 * (K + K.T), 0.5 * (M + M.T), subset_by_index=(0, count - 1))
    return np.sqrt(np.clip(w2, 0.0, None)), N @ Z
