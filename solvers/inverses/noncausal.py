"""The bounded non-causal inverse (Devasia, Chen & Paden 1996, IEEE TAC 41(7):930–942).

Stable internal modes integrated forward, unstable ones backward, over the requested horizon
widened by pre- and post-actuation windows. Derivations and checks: docs/inversion.md, §3.
"""
import numpy as np

from femdyn.errors import ModelError

from .result import servo_signals
from .weierstrass import integrate_modes, weierstrass_form

__all__ = ["noncausal_inverse"]


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
    >>> from femdyn.solvers import LinearServo
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
    t, s, nf = servo_signals(linear, t, y_desired, forcing)
    parts = weierstrass_form(linear, tol)
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
    return integrate_modes(linear, te, se, nf, modes, (t[0], t[-1]), "non-causal", parts)
