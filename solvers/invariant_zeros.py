"""Zero dynamics of a linearized servo problem: the invariant zeros of its Rosenbrock pencil.

The zero dynamics (Isidori 1995) of a :class:`~.linearization.LinearServo` are the finite
eigenvalues of its Rosenbrock pencil, classed stable, center or unstable by the sign of their real
part. Derivations and checks: docs/inversion.md.
"""
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from femdyn.errors import SolverError

from .linearization import FINITE, LinearServo, linearize

__all__ = ["ZeroDynamics", "zero_dynamics"]


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
    finite = np.abs(beta) > FINITE * np.abs(alpha)
    lam_ = alpha[finite] / beta[finite]
    order = np.lexsort((lam_.imag, lam_.real, np.round(np.abs(lam_), 9)))
    lam_ = lam_[order]
    eps = tol * scales["omega"]
    d = linear.dofs
    dq = linear.basis @ scales["Li"].T @ vectors[:d, finite][:, order] if shapes else None    # δq = N L⁻ᵀ w
    return ZeroDynamics(lam_, zero_kinds(lam_, eps), eps, dq)


def zero_kinds(lam, eps):
    """"stable" / "center" / "unstable" by the sign of Re λ beyond ±eps (λ, eps in 1/s)."""
    return np.where(lam.real > eps, "unstable", np.where(lam.real < -eps, "stable", "center"))
