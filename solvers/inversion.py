"""Inversion of servo problems, linearized: zero dynamics and bounded inverses.

Linearized about (q, λ), a servo problem reads (Blajer & Kołodziejczyk 2004, eqs. 1–3)

    M δq̈ + C δq̇ + K_t δq + Φ_qᵀ δμ = f(t) + Bᵀ u,   Φ_q δq = 0,   Ψ_q δq = y(t),

and with δq = N z (N a basis of the joint rows' null space) an ODE in z. Its zero dynamics
(Isidori 1995) are the finite eigenvalues of its Rosenbrock pencil. Inverses:
:func:`causal_inverse` (forward from rest), :func:`noncausal_inverse` (Devasia, Chen & Paden
1996, IEEE TAC 41(7):930–942: stable part forward, unstable backward) and
:func:`optimal_control_inverse` (Bastos, Seifried & Brüls 2013, Multibody Syst. Dyn.
30:359–376). Dense: up to a few thousand coordinates. Derivations and checks: docs/inversion.md.
"""
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import scipy.interpolate as si
import scipy.linalg as sla

from femdyn.errors import ModelError, SolverError

__all__ = ["LinearServo", "linearize", "ZeroDynamics", "zero_dynamics", "Inverse", "causal_inverse",
           "noncausal_inverse", "optimal_control_inverse"]

_FINITE = 1e-8          # |β| > _FINITE |α|: a finite generalized eigenvalue α/β (scaled pencil)


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
    J = system.constraints.jac_pattern.assemble(jac).toarray()
    p = system.patterns
    G = p.transpose.assemble(system.force_transpose_values(q, jac)).toarray()
    servo = np.zeros(m, bool)
    servo[system.input_rows] = True
    k_vals, c_vals = system.tangent_values(q, v, t)
    K = p.stiffness.assemble(k_vals).toarray() + p.hessian.assemble(system.hessian_values(q, lam)).toarray()
    if a is not None and not system.constant_mass:
        K += p.mass_derivative.assemble(system.mass_derivative_values(q, np.asarray(a, float))).toarray()
    C = p.damping.assemble(c_vals).toarray()
    names = tuple(a.name for a in system.actuators)
    return LinearServo(system.mass(q).toarray(), C, K, J[~servo], J[system.input_rows], -G[system.input_rows],
                       names)


@dataclass(frozen=True)
class ZeroDynamics:
    """Eigenvalues of the internal (zero) dynamics of a linearized servo problem.

    Parameters
    ----------
    eigenvalues : (k,) ndarray
        The finite invariant zeros λ, 1/s, ordered by |λ|.
    kinds : (k,) ndarray of str
        ``"stable"`` (Re λ < −ε), ``"center"`` (Re λ within ±ε) or ``"unstable"`` (Re λ > ε).
    threshold : float
        ε, 1/s.
    shapes : (n, k) complex ndarray, optional
        The coordinate deviations δq of each zero (``zero_dynamics(..., shapes=True)``), else None.
    """

    eigenvalues: np.ndarray
    kinds: np.ndarray
    threshold: float
    shapes: np.ndarray = None

    @property
    def frequencies(self):
        """The frequencies abs(Im λ)/2π, Hz."""
        return np.abs(self.eigenvalues.imag) / (2 * np.pi)

    @property
    def real_parts(self):
        """Re λ, 1/s."""
        return self.eigenvalues.real

    @property
    def counts(self):
        """Number of zeros of each kind: {"stable", "center", "unstable"}."""
        return {k: int(np.sum(self.kinds == k)) for k in ("stable", "center", "unstable")}

    @property
    def classification(self):
        """The class of the zero dynamics, one of three strings.

        "non-minimum phase": a zero with Re λ > ε; else "marginally stable: undamped
        internal oscillations": a zero with Re λ within ±ε; else "minimum phase".
        """
        c = self.counts
        if c["unstable"]:
            return "non-minimum phase"
        if c["center"]:
            return "marginally stable: undamped internal oscillations"
        return "minimum phase"

    @property
    def lowest_frequency(self):
        """Lowest natural frequency |λ|/2π of the internal dynamics, Hz (nan without zeros)."""
        return float(np.abs(self.eigenvalues).min() / (2 * np.pi)) if self.eigenvalues.size else float("nan")

    @property
    def largest_real_part(self):
        """max Re λ, 1/s (nan without zeros)."""
        return float(self.eigenvalues.real.max()) if self.eigenvalues.size else float("nan")

    def unresolved(self, h, limit=1.0):
        """The zeros a time step does not resolve: |λ| h > ``limit``.

        Parameters
        ----------
        h : float
            Time step, s.
        limit : float, optional
            Largest |λ| h taken as resolved (1: about six steps per period).

        Returns
        -------
        ndarray
            Those eigenvalues, 1/s.
        """
        return self.eigenvalues[np.abs(self.eigenvalues) * h > limit]

    @property
    def statement(self):
        """One plain-English line for a summary."""
        if not self.eigenvalues.size:
            return "zero dynamics: no finite zeros (no internal dynamics); minimum phase"
        parts = []
        for kind, text in (("center", "undamped"), ("stable", "stable"), ("unstable", "non-minimum-phase")):
            sel = self.kinds == kind
            if sel.any():
                f = np.abs(self.eigenvalues[sel]) / (2 * np.pi)
                extra = f", real parts up to {self.real_parts[sel].max():.3g} 1/s" if kind == "unstable" else ""
                parts.append(f"{sel.sum()} {text} zeros (|λ|/2π {f.min():.3g} Hz to {f.max():.3g} Hz{extra})")
        return f"zero dynamics: {', '.join(parts)}; {self.classification}"


def zero_dynamics(model, q=None, lam=None, t=0.0, tol=1e-7, a=None, shapes=False):
    """The zero dynamics of a servo problem: finite eigenvalues of its Rosenbrock pencil.

    Rosenbrock 1970; Emami-Naeini & Van Dooren 1982, Automatica 18:415–430; QZ on the scaled
    pencil of :meth:`LinearServo.pencil`, dense O((2d + p)³).

    Parameters
    ----------
    model : LinearServo or System
        The linear model, or a servo System to linearize at (q, λ).
    q : (n,) array_like, optional
        Coordinates (with a System; default its q0).
    lam : (m,) array_like, optional
        Multipliers and inputs (with a System; default zero).
    t : float, optional
        Time, s (with a System).
    tol : float, optional
        Real parts within tol·ω (ω the largest natural frequency scale of the model,
        1/s) count as zero: such zeros are "center" (undamped).
    a : (n,) array_like, optional
        Accelerations (with a System): adds ∂(M q̈)/∂q, see :func:`linearize`.
    shapes : bool, optional
        Also return each zero's coordinate deviations δq (right eigenvectors).

    Returns
    -------
    ZeroDynamics

    Raises
    ------
    SolverError
        If the inverse problem is singular (an input that does not reach the outputs).

    Examples
    --------
    Two masses, the output a point beyond the second (ρ = 2): a real pair ±√(k/(m₂(ρ−1))):

    >>> import numpy as np
    >>> lin = LinearServo(M=np.diag([1.0, 2.0]), C=np.zeros((2, 2)),
    ...                   K=np.array([[100.0, -100.0], [-100.0, 100.0]]), constraints=np.zeros((0, 2)),
    ...                   outputs=np.array([[-1.0, 2.0]]), inputs=np.array([[1.0, 0.0]]))
    >>> zd = zero_dynamics(lin)
    >>> zd.classification, round(zd.largest_real_part, 4), round(float(np.sqrt(50.0)), 4)
    ('non-minimum phase', 7.0711, 7.0711)
    """
    linear = model if isinstance(model, LinearServo) else linearize(
        model, model.q0 if q is None else q, np.zeros(model.m) if lam is None else lam, t, a=a)
    A, E, scales = linear.pencil()
    if shapes:
        (alpha, beta), vectors = sla.eig(A, E, homogeneous_eigvals=True)
    else:
        alpha, beta = sla.eig(A, E, right=False, homogeneous_eigvals=True)
    if np.any((np.abs(alpha) < 1e-12 * max(1.0, np.abs(alpha).max())) & (np.abs(beta) < 1e-12)):
        raise SolverError("zero_dynamics: the inverse problem is singular (an input that does not reach the "
                          "outputs, or dependent outputs); prescribe outputs the actuators can move")
    finite = np.abs(beta) > _FINITE * np.abs(alpha)
    lam_ = alpha[finite] / beta[finite]
    order = np.lexsort((lam_.imag, lam_.real, np.round(np.abs(lam_), 9)))
    lam_ = lam_[order]
    eps = tol * scales["omega"]
    d = linear.dofs
    dq = linear.basis @ scales["Li"].T @ vectors[:d, finite][:, order] if shapes else None    # δq = N L⁻ᵀ w
    return ZeroDynamics(lam_, _kinds(lam_, eps), eps, dq)


def _kinds(lam, eps):
    """"stable" / "center" / "unstable" by the sign of Re λ beyond ±eps."""
    return np.where(lam.real > eps, "unstable", np.where(lam.real < -eps, "stable", "center"))


@dataclass(frozen=True)
class Inverse:
    """An inverse of a linear servo problem sampled in time.

    Parameters
    ----------
    t : (k,) ndarray
        Times, s (with a pre-/post-actuation window for the non-causal inverse).
    u : (k, p) ndarray
        Inputs, N·m or N (piecewise constant over each step for the optimal-control inverse).
    q, v : (k, n) ndarray
        Coordinate and velocity deviations δq, δq̇.
    y : (k, p) ndarray
        The outputs Ψ_q δq they give, m.
    state : (k, 2d) ndarray
        Minimal-coordinate state [z, ż] (δq = N z), to start a forward simulation.
    window : tuple of float
        (first, last) time of the requested horizon, s.
    method : str
        ``"causal"``, ``"non-causal"`` or ``"optimal control"``.
    """

    t: np.ndarray
    u: np.ndarray
    q: np.ndarray
    v: np.ndarray
    y: np.ndarray
    state: np.ndarray
    window: tuple
    method: str

    @property
    def pre_actuation(self):
        """Time the input starts before the requested horizon, s."""
        return float(self.window[0] - self.t[0])


def causal_inverse(linear, t, y_desired=None, forcing=None):
    """The exact inverse integrated forward in time from rest (every internal mode at the
    equilibrium of the initial inputs); grows like e^{Re λ t} for non-minimum-phase zeros.

    Parameters
    ----------
    linear : LinearServo
        The linear model.
    t : (k,) array_like
        Uniform times, s.
    y_desired : (k, p) or (k,) array_like, optional
        Desired output deviations, m (default zero).
    forcing : (k, n) array_like, optional
        Known generalized force deviations f(t), N per unit of q (default zero).

    Returns
    -------
    Inverse

    Raises
    ------
    ModelError
        If the times are not uniform or the signals do not match them.
    SolverError
        If the inverse problem is singular.
    """
    t, s, nf = _signals(linear, t, y_desired, forcing)
    return _invert(linear, t, s, nf, {"stable": "forward", "center": "forward", "unstable": "forward"},
                   (t[0], t[-1]), "causal", _decompose(linear, 1e-7))


def noncausal_inverse(linear, t, y_desired=None, forcing=None, center="split", padding=None, tol=1e-7):
    """The bounded non-causal inverse (Devasia, Chen & Paden 1996: stable part forward, unstable backward).

    Weierstrass form of :meth:`LinearServo.pencil` (Kågström & Van Dooren 1992); the internal
    dynamics split into stable, center and unstable parts, each integrated exactly for inputs
    linear between samples (Van Loan 1978, IEEE TAC 23:395–404). Center (undamped) modes:
    ``"split"`` takes half the causal and half the anti-causal solution (Bayo 1987 with
    principal values), ``"forward"`` / ``"backward"`` one of them (docs/inversion.md, §3).

    Parameters
    ----------
    linear : LinearServo
        The linear model.
    t : (k,) array_like
        Uniform times of the desired motion, s.
    y_desired : (k, p) or (k,) array_like, optional
        Desired output deviations, m (default zero).
    forcing : (k, n) array_like, optional
        Known generalized force deviations f(t), N per unit of q (default zero).
    center : {"split", "forward", "backward"}, optional
        Treatment of the undamped internal modes.
    padding : float or (float, float), optional
        Pre- and post-actuation windows, s (signals held there); default 12 time constants of
        the slowest unstable (before) and stable (after) zero, at most the span of ``t``.
    tol : float, optional
        Threshold of the center modes, as in :func:`zero_dynamics`.

    Returns
    -------
    Inverse
        On the padded times; ``window`` is the requested horizon.

    Raises
    ------
    ModelError
        If the times are not uniform, the signals do not match them, or ``center`` is unknown.
    SolverError
        If the inverse problem is singular.

    Examples
    --------
    Two masses with y = −x₁ + 2x₂ (non-minimum phase): the input starts before the motion and
    stays bounded:

    >>> import numpy as np
    >>> lin = LinearServo(M=np.diag([1.0, 2.0]), C=np.zeros((2, 2)),
    ...                   K=np.array([[100.0, -100.0], [-100.0, 100.0]]), constraints=np.zeros((0, 2)),
    ...                   outputs=np.array([[-1.0, 2.0]]), inputs=np.array([[1.0, 0.0]]))
    >>> t = np.linspace(0.0, 1.0, 1001)
    >>> r = noncausal_inverse(lin, t, 1e-3 * (4 * t * (1 - t)) ** 5)
    >>> round(r.pre_actuation, 3), bool(np.abs(r.u).max() < 1.0)
    (1.0, True)
    """
    if center not in ("split", "forward", "backward"):
        raise ModelError(f"noncausal_inverse: center='{center}'; choose 'split', 'forward' or 'backward'")
    t, s, nf = _signals(linear, t, y_desired, forcing)
    parts = _decompose(linear, tol)
    if padding is None:
        zd, eps = np.diag(parts[0]), parts[-1]
        span = t[-1] - t[0]
        unstable, stable = zd.real[zd.real > eps], -zd.real[zd.real < -eps]
        padding = tuple(min(12.0 / r.min(), span) if r.size else 0.0 for r in (unstable, stable))
    before, after = np.broadcast_to(np.asarray(padding, float), (2,))
    if before < 0 or after < 0:
        raise ModelError(f"noncausal_inverse: padding {padding} s; give non-negative pre- and post-actuation times")
    h = t[1] - t[0]
    k0, k1 = int(np.ceil(before / h - 1e-9)), int(np.ceil(after / h - 1e-9))
    te = np.concatenate([t[0] - h * np.arange(k0, 0, -1), t, t[-1] + h * np.arange(1, k1 + 1)])
    se = np.concatenate([np.repeat(s[:1], k0, 0), s, np.repeat(s[-1:], k1, 0)])
    modes = {"stable": "forward", "center": center, "unstable": "backward"}
    return _invert(linear, te, se, nf, modes, (t[0], t[-1]), "non-causal", parts)


def _signals(linear, t, y, f):
    """Checked uniform times and the signal matrix s = [Nᵀf, y] (k × (d + p)); d."""
    t = np.asarray(t, float)
    if t.ndim != 1 or t.size < 3 or not np.all(np.isfinite(t)):
        raise ModelError("inversion: give at least 3 finite sample times t (s) as a 1-D array")
    h = np.diff(t)
    if h.min() <= 0 or h.max() - h.min() > 1e-9 * h.mean() + 1e-15:
        raise ModelError("inversion: the sample times must be uniform and increasing; resample the signals")
    k, p, d = t.size, linear.p, linear.dofs
    y = np.zeros((k, p)) if y is None else np.asarray(y, float).reshape(k, -1) if np.size(y) == k * p else None
    if y is None or y.shape != (k, p):
        raise ModelError(f"inversion: y_desired must have {k} samples of {p} outputs (m)")
    if f is None:
        fr = np.zeros((k, d))
    else:
        f = np.asarray(f, float)
        if f.shape != (k, linear.n):
            raise ModelError(f"inversion: forcing must be ({k}, {linear.n}): f(t) in N per coordinate at each time")
        fr = f @ linear.basis
    return t, np.hstack([fr, y]), d


def _decompose(linear, tol):
    """Weierstrass form of the scaled pencil: finite part ẇ = T w + G s, infinite part, back-maps."""
    A, E, sc = linear.pencil()
    d, p = linear.dofs, linear.p
    omega, Li = sc["omega"], sc["Li"]
    signal = np.zeros((2 * d + p, d + p))        # b = signal @ s
    signal[d:2 * d, :d] = Li / omega
    signal[2 * d:, d:] = -np.diag(sc["sy"])
    AA, BB, alpha, beta, Q, Z = sla.ordqz(A, E, sort=lambda a, b: np.abs(b) > _FINITE * np.abs(a), output="complex")
    if np.any((np.abs(alpha) < 1e-12 * max(1.0, np.abs(alpha).max())) & (np.abs(beta) < 1e-12)):
        raise SolverError("inversion: the inverse problem is singular (an input that does not reach the outputs); "
                          "prescribe outputs the actuators can move")
    n1 = int(np.sum(np.abs(beta) > _FINITE * np.abs(alpha)))
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


def _invert(linear, t, s, d, modes, window, method, parts):
    """Solve E ξ̇ = A ξ + b on the times ``t``, each group of internal modes integrated as ``modes`` says."""
    T, G, Nil, H, Zs, Zf, eps = parts
    h = t[1] - t[0]
    groups, rest = [], (T, np.eye(len(T)), np.eye(len(T)))
    for kind in ("stable", "center"):
        Tr, Vr, Wr = rest
        first, rest = _split(Tr, lambda x, kind=kind: _kinds(np.array([x]), eps)[0] == kind)
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
    t, s, d = _signals(linear, t, y_desired, forcing)
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
