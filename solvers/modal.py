"""Linearized free vibration about an equilibrium: eigenfrequencies and mode shapes.

Linearize M(q) q̈ + Φ_qᵀλ = Q at (q, λ): stiffness K_t = −∂Q/∂q + ∂(Φ_qᵀλ)/∂q, mass M(q),
motions restricted to the tangent space of the constraints, Φ_q x = 0. The modes solve

    K_t x = ω² M x,   Φ_q x = 0.

Sparse method (default): shift-invert Lanczos (ARPACK through ``scipy.sparse.linalg.eigsh``)
on the constrained operator x = OP y defined by the saddle system

    [[K_t − σM, Φ_qᵀ], [Φ_q, 0]] [x; μ] = [M y; 0],

(ARPACK applies M, the saddle solve the shifted inverse), factorized once (CHOLMOD LDLᵀ or SuperLU, :class:`~femdyn.solvers.kkt.KKTMatrix`) on the
same block pattern as every other solver. OP is self-adjoint in the M inner product on
the constraint space, so ARPACK's generalized mode 3 applies and its eigenvalues ν give
ω² = σ + 1/ν (Ericsson & Ruhe 1980; Grimes, Lewis & Simon 1994). No null-space basis and
no dense matrix is formed: the cost is one sparse factorization and a few dozen solves.
Dense method (``method="dense"``): an orthonormal null-space basis N of Φ_q (SVD) and
``scipy.linalg.eigh`` of Nᵀ K_t N, Nᵀ M N, for checks on small models.
SI units: ω in rad/s, f = ω/2π in Hz.
"""
import numpy as np
import scipy.linalg as sla
import scipy.sparse.linalg as spla

from femdyn.errors import SingularMatrixError, SolverError
from femdyn.sparse import Pattern

from .blocks import TangentValues
from .kkt import KKTMatrix


def tangent_stiffness(system, q, lam, t=0.0):
    """Sparse tangent stiffness K_t = K + H(λ) at (q, λ), with K = −∂Q/∂q and H(λ) = ∂(Φ_qᵀλ)/∂q.

    Parameters
    ----------
    system : System
        The assembled model.
    q : (n,) ndarray
        Coordinates.
    lam : (m,) ndarray
        Lagrange multipliers (e.g. from :func:`~femdyn.solvers.static.static_equilibrium`).
    t : float, optional
        Time [s].

    Returns
    -------
    scipy.sparse.csr_matrix
        n × n, in N per unit of q (N/m for position coordinates).
    """
    k_vals, _ = system.tangent_values(q, np.zeros(system.n), t)
    c = system.constraints
    rows = np.concatenate([system.k_rows, c.hess_rows])
    cols = np.concatenate([system.k_cols, c.hess_cols])
    vals = np.concatenate([k_vals, c.hessian_values(q, lam)])
    return Pattern(rows, cols, (system.n, system.n)).assemble(vals)


def eigenmodes(system, q=None, lam=None, count=10, t=0.0, method="sparse", shift=None):
    """The ``count`` lowest eigenfrequencies and mode shapes about (q, λ).

    Parameters
    ----------
    system : System
    q, lam : ndarray, optional
        Configuration (m) and multipliers; default the initial configuration, unloaded.
    count : int
        Number of modes.
    t : float
        Time (s) of the constraints.
    method : {"sparse", "dense"}
        Shift-invert Lanczos on the saddle form (any size), or the dense null-space
        method (small models; a check).
    shift : float, optional
        σ in (rad/s)²; modes nearest to it are found first. Default 0, or slightly below
        zero (relative to the stiffness scale) when the structure has rigid-body modes
        (ω = 0), which are then found first.

    Returns
    -------
    omega : ndarray (count,)
        Circular frequencies (rad/s), ascending; negative ω² (unstable equilibria) are
        returned as 0.
    modes : ndarray (n, count)
        Mode shapes, M-orthonormal.

    Raises
    ------
    SolverError
        If the constraints leave no degree of freedom, or ``method`` is unknown.

    Examples
    --------
    First bending frequency of a clamped steel rod, 1 m long, 10 mm radius (Euler–Bernoulli
    ω₁ = 1.8751² √(EI/(ρA L⁴)) = 91.21 rad/s; twice, one per bending plane):

    >>> import numpy as np, femdyn
    >>> from femdyn.elements import sections
    >>> m = femdyn.Model("cantilever", gravity=(0, 0, 0))
    >>> beam = m.straight_beam("beam", (0, 0, 0), (1.0, 0, 0), 4, E=2.1e11, rho=7800,
    ...                        section=sections.circular(0.01), element="cable")
    >>> clamp = m.clamp("root", "beam.0")
    >>> omega, modes = eigenmodes(m.assemble(), count=2)
    >>> omega.round(1), modes.shape
    (array([91.2, 91.2]), (30, 2))
    """
    q = system.q0 if q is None else q
    lam = np.zeros(system.m) if lam is None else lam
    if system.servo:
        raise SolverError(f"eigenmodes: model '{system.name}' has servo constraints and actuators (an inverse "
                          "problem); linearize the forward model (joint torques as loads) instead")
    if method == "dense":
        return _dense(system, q, lam, count, t)
    if method != "sparse":
        raise SolverError(f"eigenmodes: method must be 'sparse' or 'dense', got {method!r}")
    return _sparse(system, q, lam, count, t, shift)


def _sparse(system, q, lam, count, t, shift):
    n, m = system.n, system.m
    free = n - m
    if free <= 0:
        raise SolverError("eigenmodes: the constraints leave no degree of freedom")
    if count >= free - 1:        # ARPACK needs count < dimension − 1: small problems go dense
        return _dense(system, q, lam, count, t)
    _, jac = system.constraints.evaluate(q, t)
    k_vals, _ = system.tangent_values(q, np.zeros(n), t)
    h_vals = system.constraints.hessian_values(q, lam)
    M = system.mass(q).tocsr()
    kkt = KKTMatrix(system)
    for sigma in _shifts(shift, k_vals, h_vals, M):
        values = TangentValues(system.mass_values(q), jac, stiffness=k_vals, hessian=h_vals,
                               weights=(-sigma, 0.0, 1.0))
        if _factorized(kkt, values, q, t):
            break
    else:
        raise SolverError("eigenmodes: the shifted stiffness K − σM is singular on the constraint space for "
                          "every shift tried; give a shift (rad²/s²) away from the eigenvalues")

    def apply(y):        # [K_t − σM]⁻¹ y on the constraint space (ARPACK multiplies by M itself)
        return kkt.solve(np.concatenate([y, np.zeros(m)]))[:n]

    OPinv = spla.LinearOperator((n, n), matvec=apply, dtype=float)
    K = tangent_stiffness(system, q, lam, t)
    nu, X = spla.eigsh(K, k=count, M=M, sigma=sigma, which="LM", OPinv=OPinv, mode="normal",
                       v0=apply(M @ np.cos(np.arange(n))))
    w2 = np.sort(nu)
    order = np.argsort(nu)
    X = X[:, order]
    X /= np.sqrt(np.einsum("ij,ij->j", X, M @ X))
    return np.sqrt(np.clip(w2, 0.0, None)), X


def _shifts(shift, k_vals, h_vals, M):
    """Shifts to try: the user's; else 0 (regular for any structure held against rigid
    motion: the low modes are then the best separated), then, for structures with
    rigid-body modes (K singular), −10⁻¹⁰ of the stiffness-to-mass scale."""
    if shift is not None:
        return [float(shift)]
    scale = max(np.abs(k_vals).max(initial=0.0), np.abs(h_vals).max(initial=0.0), 1e-300) / \
        max(np.abs(M.data).max(initial=0.0), 1e-300)
    return [0.0, -1e-10 * scale, -1e-6 * scale]


def _factorized(kkt, values, q, t):
    """Factorize the shifted saddle matrix; False when it is (numerically) singular."""
    try:
        kkt.factorize(kkt.assemble(values), q, t)
    except SingularMatrixError:
        return False
    kkt.refine = True            # Lanczos needs accurate solves, not the 1e-4 a Newton correction tolerates
    S = kkt.matrix
    probe = np.cos(np.arange(S.shape[0]))
    x = kkt.solve(probe, check=False)
    scale = abs(S).sum(axis=1).max() * np.abs(x).max() + 1.0          # ‖S‖∞‖x‖∞ + ‖b‖∞
    return bool(np.all(np.isfinite(x)) and np.abs(S @ x - probe).max() <= 1e-8 * scale)


def _dense(system, q, lam, count, t):
    if system.m:
        N = sla.null_space(system.constraints.jacobian(q, t).toarray())
    else:
        N = np.eye(system.n)
    if N.shape[1] == 0:
        raise SolverError("eigenmodes: the constraints leave no degree of freedom")
    K = N.T @ tangent_stiffness(system, q, lam, t).toarray() @ N
    M = N.T @ system.mass(q).toarray() @ N
    count = min(count, N.shape[1])
    w2, Z = sla.eigh(0.5 * (K + K.T), 0.5 * (M + M.T), subset_by_index=(0, count - 1))
    return np.sqrt(np.clip(w2, 0.0, None)), N @ Z
