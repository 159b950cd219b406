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

from .blocks import TangentValues
from .initial import check_redundancy, consistent_positions
from .kkt import KKTMatrix


def static_equilibrium(system, load_steps=1, t=0.0, q0=None, tol=1e-10, max_iterations=50, max_correction=1e-3):
    """Static equilibrium Q(q) − Φ_qᵀλ = 0, Φ(q) = 0 under the full loads, by Newton with load stepping.

    Loads are scaled by 1/N, 2/N, …, 1 (N = ``load_steps``). Converged when
    ‖Q − Φ_qᵀλ‖₂ ≤ tol·max(1 N, ‖Q‖₂) and ‖Φ‖₂ ≤ tol, or when the correction falls below
    1e-13 of the coordinates (round-off floor of stiff structures).

    Parameters
    ----------
    system : System
        The assembled model.
    load_steps : int, optional
        Number N of load levels (more for large deflections).
    t : float, optional
        Time [s] at which constraints and loads are evaluated.
    q0 : (n,) array_like, optional
        Start configuration (default: the model's).
    tol : float, optional
        Relative force tolerance and constraint tolerance [m].
    max_iterations : int, optional
        Newton iterations per load level.
    max_correction : float, optional
        Largest move [m] accepted to make the start consistent.

    Returns
    -------
    q : (n,) ndarray
        Equilibrium coordinates.
    lam : (m,) ndarray
        Lagrange multipliers (constraint forces −Φ_qᵀλ).

    Raises
    ------
    ConvergenceError
        No convergence at a load level.
    ConstraintError
        Inconsistent start or redundant constraints.
    SingularMatrixError
        Singular tangent (e.g. an unsupported structure), with a diagnosis.

    Examples
    --------
    A cantilever with a transverse tip load (Euler–Bernoulli δ = P L³/(3EI)):

    >>> import numpy as np, femdyn
    >>> from femdyn.elements import sections
    >>> m = femdyn.Model("cantilever", gravity=(0, 0, 0))
    >>> beam = m.straight_beam("beam", (0, 0, 0), (1.0, 0, 0), 4, E=2.1e11, rho=7800,
    ...                        section=sections.circular(0.01), element="cable")
    >>> clamp = m.clamp("root", "beam.0")
    >>> tip = m.beam_force("tip", "beam", 3, 1.0, (0, 0, -10.0))
    >>> q, lam = static_equilibrium(m.assemble())
    >>> EI = 2.1e11 * np.pi * 0.01**4 / 4
    >>> round(float(q[-4]) / (-10.0 / (3 * EI)), 4)       # tip z over the linear value
    1.0
    """
    check_finite_state(system, f"static equilibrium of model '{system.name}'", q0=q0)
    q = consistent_positions(system, system.q0 if q0 is None else q0, t, max_correction=max_correction)
    check_redundancy(system, q, t)
    v = np.zeros(system.n)
    kkt = KKTMatrix(system)
    lam = _least_squares_multipliers(system, q, t)
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


def _least_squares_multipliers(system, q, t):
    """Multipliers λ minimizing ‖Q − Φ_qᵀλ‖ at a configuration (LSQR)."""
    if system.m == 0:
        return np.zeros(0)
    _, jac = system.constraints.evaluate(q, t)
    G = system.patterns.transpose.assemble(system.force_transpose_values(q, jac))
    Q = system.forces(q, np.zeros(system.n), t)
    return lsqr(G.T, Q, atol=1e-14, btol=1e-14)[0]
