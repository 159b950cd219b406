"""The causal inverse of a linear servo problem: every internal mode integrated forward from rest."""

from .result import servo_signals
from .weierstrass import integrate_modes, weierstrass_form

__all__ = ["causal_inverse"]


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
    t, s, nf = servo_signals(linear, t, y_desired, forcing)
    return integrate_modes(linear, t, s, nf, {"stable": "forward", "center": "forward", "unstable": "forward"},
                   (t[0], t[-1]), "causal", weierstrass_form(linear, 1e-7))
