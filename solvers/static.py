"""Static equilibrium Q(q) − Φ_qᵀλ = 0, Φ(q) = 0 by Newton with load stepping.

The applied loads (gravity, forces, torques) are scaled by s = 1/N, 2/N, …, 1; each
level starts from the previous solution (incremental loading for large deflections).
Tangent: [[K + H(λ), Φ_qᵀ], [Φ_q, 0]] with K = −∂Q/∂q and H(λ) = ∂(Φ_qᵀλ)/∂q.
Also the initial point of a dynamic run that starts at rest (Liu et al. 2018).
"""
import numpy as np
from scipy.sparse.linalg import lsqr

from femdyn.errors import ConvergenceError
from femdyn.model.checks import check_finite_state
from femdyn.sparse import Pattern

from .blocks import TangentValues
from .initial import check_redundancy, consistent_positions
from .kkt import KKTMatrix


def static_equilibrium(system, load_steps=1, t=0.0, q0=None, tol=1e-10, max_iterations=50, max_correction=1e-3):
    """Return (q, λ) at equilibrium under the full loads at time ``t`` (s).

    The start ``q0`` (default: the model's configuration) must satisfy the constraints to
    within ``max_correction`` (m) and the constraints must be independent, as for a
    dynamic run (:func:`~femdyn.solvers.initial.consistent_positions`,
    :func:`~femdyn.solvers.initial.check_redundancy`).
    Convergence: ‖Q − Φ_qᵀλ‖₂ ≤ tol·max(1 N, ‖Q‖₂) and ‖Φ‖₂ ≤ tol (m), or a Newton
    correction below 1e-13 of the coordinates (the round-off floor of stiff structures,
    whose residual cannot fall under ~ε·EA).
    """
    check_finite_state(system, f"static equilibrium of model '{system.name}'", q0=q0)
    q = consistent_positions(system, system.q0 if q0 is None else q0, t, max_correction=max_correction)
    check_redundancy(system, q, t)
    v = np.zeros(system.n)
    kkt = KKTMatrix(system)
    lam = least_squares_multipliers(system, q, t)
    for level in np.arange(1, load_steps + 1) / load_steps:
        for _ in range(max_iterations):
            residual, Q, phi, jac = system.residual(q, v, None, lam, t, load_factor=level)
            r = -residual
            if np.linalg.norm(r) <= tol * max(1.0, np.linalg.norm(Q)) and np.linalg.norm(phi) <= tol:
                break
            k_vals, c_vals = system.tangent_values(q, v, t, load_factor=level)
            transpose = system.force_transpose_values(q, jac) if system.servo else None
            kkt.factorize(kkt.assemble(TangentValues(system.mass_values(q), jac, c_vals, k_vals,
                                                     hessian=system.hessian_values(q, lam), weights=(0.0, 0.0, 1.0),
                                                     transpose=transpose)), q, t)
            dx = kkt.solve(np.concatenate([r, -phi]))
            q += dx[:system.n]
            lam += dx[system.n:]
            if np.abs(dx[:system.n]).max() <= 1e-13 * max(1.0, np.abs(q).max()) and np.linalg.norm(phi) <= tol:
                break   # the correction is at round-off: stiff structures cannot reach a smaller residual
        else:
            worst = np.argsort(-np.abs(r))[:4]
            raise ConvergenceError(f"static equilibrium at load level {level:.3g}: no convergence in "
                                   f"{max_iterations} iterations (largest residuals at "
                                   f"{[system.labels[i] for i in worst]}); use more load_steps")
    return q, lam


def least_squares_multipliers(system, q, t):
    """λ minimizing ‖Q − Φ_qᵀλ‖ at the start: gives the geometric stiffness H(λ) of the
    constraint forces from the first iteration (a pendulum has no other stiffness)."""
    if system.m == 0:
        return np.zeros(0)
    _, jac = system.constraints.evaluate(q, t)
    G = Pattern(system.g_rows, system.g_cols, (system.m, system.n)).assemble(system.force_transpose_values(q, jac))
    Q = system.forces(q, np.zeros(system.n), t)
    return lsqr(G.T, Q, atol=1e-14, btol=1e-14)[0]
