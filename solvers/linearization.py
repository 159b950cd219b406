"""A servo problem linearized about a state, and its Rosenbrock pencil.

Linearized about (q, λ), a servo problem reads (Blajer & Kołodziejczyk 2004, eqs. 1–3)

    M δq̈ + C δq̇ + K_t δq + Φ_qᵀ δμ = f(t) + Bᵀ u,   Φ_q δq = 0,   Ψ_q δq = y(t),

and with δq = N z (N a basis of the joint rows' null space) an ODE in z (:class:`LinearServo`).
Its zero dynamics: :mod:`.invariant_zeros`; its inverses: :mod:`.inverses`. Dense: up to a
few thousand coordinates. Derivations and checks: docs/inversion.md.
"""
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.linalg as sla

from femdyn.errors import ModelError, SolverError

__all__ = ["LinearServo", "linearize"]


FINITE = 1e-8           # |β| > FINITE |α|: a finite generalized eigenvalue α/β (scaled pencil)


@dataclass(frozen=True)
class LinearServo:
    """A servo problem linearized about a state: M δq̈ + C δq̇ + K δq + Φ_qᵀ δμ = f + Bᵀu,
    Φ_q δq = 0, y = Ψ_q δq (see the module docstring).

    Built by :func:`linearize` from a System, or directly from matrices (small test
    models). Dense; meant for up to a few thousand coordinates.

    Parameters
    ----------
    M : (n, n) array_like
        Mass matrix, kg (per unit of q).
    C : (n, n) array_like
        Damping matrix −∂Q/∂q̇, N·s/m.
    K : (n, n) array_like
        Tangent stiffness K_t = −∂Q/∂q + ∂(Gᵀλ)/∂q, N/m.
    constraints : (m_j, n) array_like
        Φ_q, the joint rows (may have zero rows).
    outputs : (p, n) array_like
        Ψ_q, the servo rows: y = Ψ_q δq, m.
    inputs : (p, n) array_like
        B, the input rows: the generalized force of the inputs is Bᵀu.
    names : tuple of str, optional
        Input names (actuators), for messages and results.

    Raises
    ------
    ModelError
        If the shapes do not match or the numbers of inputs and outputs differ.

    Examples
    --------
    Two masses (1 kg, 2 kg) on a 100 N/m spring, a force on the first, the output
    y = −x₁ + 2x₂ (a point beyond the second mass):

    >>> import numpy as np
    >>> lin = LinearServo(M=np.diag([1.0, 2.0]), C=np.zeros((2, 2)),
    ...                   K=np.array([[100.0, -100.0], [-100.0, 100.0]]), constraints=np.zeros((0, 2)),
    ...                   outputs=np.array([[-1.0, 2.0]]), inputs=np.array([[1.0, 0.0]]))
    >>> lin.n, lin.dofs, lin.p
    (2, 2, 1)
    """

    M: np.ndarray
    C: np.ndarray
    K: np.ndarray
    constraints: np.ndarray
    outputs: np.ndarray
    inputs: np.ndarray
    names: tuple = field(default=())

    def __post_init__(self):
        for name in ("M", "C", "K", "constraints", "outputs", "inputs"):
            object.__setattr__(self, name, np.atleast_2d(np.asarray(getattr(self, name), float)))
        n = self.M.shape[0]
        if self.constraints.size == 0:
            object.__setattr__(self, "constraints", np.zeros((0, n)))
        square = [x for x in ("M", "C", "K") if getattr(self, x).shape != (n, n)]
        wide = [x for x in ("constraints", "outputs", "inputs") if getattr(self, x).shape[1] != n]
        if square or wide:
            raise ModelError(f"LinearServo: {square + wide} do not match the {n} coordinates of M; give n × n "
                             "matrices M, C, K and n columns to the constraint, output and input rows")
        if self.outputs.shape[0] != self.inputs.shape[0] or self.inputs.shape[0] == 0:
            raise ModelError(f"LinearServo: {self.inputs.shape[0]} inputs for {self.outputs.shape[0]} outputs; "
                             "inversion needs as many inputs as prescribed outputs (at least one)")

    @property
    def n(self):
        """Number of coordinates."""
        return self.M.shape[0]

    @property
    def p(self):
        """Number of inputs (= prescribed outputs)."""
        return self.inputs.shape[0]

    @property
    def dofs(self):
        """Number d of minimal coordinates (columns of :attr:`basis`)."""
        return self.basis.shape[1]

    @cached_property
    def basis(self):
        """N: orthonormal basis (n × d) of the null space of the joint rows (SVD, Golub &
        Van Loan 2013, §2.4); δq = N z."""
        if self.constraints.shape[0] == 0:
            return np.eye(self.n)
        N = sla.null_space(self.constraints, rcond=1e-10)
        if N.shape[1] == 0:
            raise SolverError("LinearServo: the joint constraints leave no degree of freedom; remove "
                              "constraints or prescribe fewer outputs")
        return N

    @cached_property
    def reduced(self):
        """(Nᵀ M N, Nᵀ C N, Nᵀ K N, Nᵀ Bᵀ, Ψ_q N): the minimal-coordinate ODE
        Mr z̈ + Cr ż + Kr z = Nᵀ f + Br u, y = Cy z."""
        N = self.basis
        return (N.T @ self.M @ N, N.T @ self.C @ N, N.T @ self.K @ N, N.T @ self.inputs.T, self.outputs @ N)

    @cached_property
    def _normalized(self):
        """Mass-normalized coordinates w = Lᵀz (Mr = L Lᵀ): (L⁻¹, K̃, C̃, B̃, C̃y, ω_ref)."""
        Mr, Cr, Kr, Br, Cy = self.reduced
        try:
            L = np.linalg.cholesky(0.5 * (Mr + Mr.T))
        except np.linalg.LinAlgError:
            raise SolverError("LinearServo: the mass matrix is not positive definite on the joints' null space; "
                              "give every free coordinate a mass") from None
        Li = sla.solve_triangular(L, np.eye(len(L)), lower=True)
        K, C = Li @ Kr @ Li.T, Li @ Cr @ Li.T
        omega = max(np.sqrt(np.linalg.norm(K, 2)), np.linalg.norm(C, 2), 1e-300)
        if omega <= 1e-300:
            omega = 1.0
        return Li, K, C, Li @ Br, Cy @ Li.T, omega

    def state_space(self):
        """First-order form x = [w, ẇ] in mass-normalized minimal coordinates (z = L⁻ᵀw,
        Nᵀ M N = L Lᵀ): ẋ = A x + B_u u + B_f Nᵀf, y = C_y x.

        Returns
        -------
        A, B_u, B_f, C_y : ndarray
            (2d, 2d) [1/s], (2d, p), (2d, d), (p, 2d).
        to_z : (d, d) ndarray
            L⁻ᵀ, so that z = to_z w.
        """
        Li, K, C, B, Cy, _ = self._normalized
        d, p = len(K), self.p
        A = np.block([[np.zeros((d, d)), np.eye(d)], [-K, -C]])
        return (A, np.vstack([np.zeros((d, p)), B]), np.vstack([np.zeros((d, d)), Li]),
                np.hstack([Cy, np.zeros((p, d))]), Li.T)

    def pencil(self):
        """The scaled Rosenbrock pencil (A, E) of the inverse problem, state ξ = [w, v̂, û]
        (w = Lᵀz, ẇ = ω v̂, u = s_u û), and what undoes the scaling.

        E ξ̇ = A ξ + b with E = diag(I, I, 0),
        A = [[0, ωI, 0], [−K̃/ω, −C̃, B̃ s_u/ω], [s_y C̃_y, 0, 0]], b = [0; L⁻¹Nᵀf/ω; −s_y y]
        (Rosenbrock 1970; the finite eigenvalues of (A, E) are the invariant zeros).

        Returns
        -------
        A, E : (2d + p, 2d + p) ndarray
        scales : dict
            ``omega`` (1/s), ``su`` (p,), ``sy`` (p,), ``Li`` (L⁻¹).

        Raises
        ------
        SolverError
            If an input moves no free coordinate or an output is moved by none.
        """
        Li, K, C, B, Cy, omega = self._normalized
        d, p = len(K), self.p
        su = 1.0 / np.maximum(np.linalg.norm(B / omega, axis=0), 1e-300)
        ny = np.linalg.norm(Cy, axis=1)
        if np.any(ny == 0) or np.any(np.linalg.norm(B, axis=0) == 0):
            raise SolverError("LinearServo: an input that moves no free coordinate or an output that no free "
                              "coordinate moves; check the actuators and the servo rows")
        sy = 1.0 / ny
        A = np.zeros((2 * d + p, 2 * d + p))
        A[:d, d:2 * d] = omega * np.eye(d)
        A[d:2 * d, :d] = -K / omega
        A[d:2 * d, d:2 * d] = -C
        A[d:2 * d, 2 * d:] = B * su / omega
        A[2 * d:, :d] = sy[:, None] * Cy
        E = np.diag(np.r_[np.ones(2 * d), np.zeros(p)])
        return A, E, {"omega": omega, "su": su, "sy": sy, "Li": Li}


def linearize(system, q, lam, t=0.0, v=None, a=None):
    """Linearize a servo System about (q, λ) (and optionally q̇, q̈).

    K_t = −∂Q/∂q + ∂(Gᵀλ)/∂q (+ ∂(M q̈)/∂q when ``a`` is given), C = −∂Q/∂q̇ at ``v``.

    Parameters
    ----------
    system : System
        An assembled model with servo constraints and actuators.
    q : (n,) array_like
        Coordinates.
    lam : (m,) array_like
        Multipliers, actuator inputs (N·m or N) in the servo rows.
    t : float, optional
        Time, s.
    v : (n,) array_like, optional
        Velocities (default rest).
    a : (n,) array_like, optional
        Accelerations (default none: the inertia term ∂(M q̈)/∂q is left out, exact at rest).

    Returns
    -------
    LinearServo
        Dense matrices (n × n); inputs named after the actuators.

    Raises
    ------
    SolverError
        If the System has no servo constraints.

    Examples
    --------
    A rod on a motor with its tip height prescribed (collocated up to the rod's rigidity):

    >>> import numpy as np, femdyn
    >>> m = femdyn.Model("arm", gravity=(0, 0, 0))
    >>> rod = m.rigid_beam("arm", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> _ = m.actuator("motor", "pivot")
    >>> _ = m.servo("tip", "arm", (1.0, 0, 0), [0.0], [(0, 0, 1)])
    >>> s = m.assemble()
    >>> lin = linearize(s, s.q0, np.zeros(s.m))
    >>> lin.dofs, lin.names
    (1, ('motor',))
    """
    if not system.servo:
        raise SolverError(f"linearize: model '{system.name}' has no servo constraints; prescribe outputs with "
                          "Model.servo and add one Model.actuator per servo row")
    q, lam = np.asarray(q, float), np.asarray(lam, float)
    n, m = system.n, system.m
    v = np.zeros(n) if v is None else np.asarray(v, float)
    _, jac = system.constraints.evaluate(q, t)
    J = system.constraints.jac_pattern.matrix(jac).toarray()
    p = system.patterns
    G = p.transpose.matrix(system.force_transpose_values(q, jac)).toarray()
    servo = np.zeros(m, bool)
    servo[system.input_rows] = True
    k_vals, c_vals = system.tangent_values(q, v, t)
    K = p.stiffness.matrix(k_vals).toarray() + p.hessian.matrix(system.hessian_values(q, lam)).toarray()
    if a is not None and not system.constant_mass:
        K += p.mass_derivative.matrix(system.mass_derivative_values(q, np.asarray(a, float))).toarray()
    C = p.damping.matrix(c_vals).toarray()
    names = tuple(a.name for a in system.actuators)
    return LinearServo(system.mass(q).toarray(), C, K, J[~servo], J[system.input_rows], -G[system.input_rows],
                       names)
