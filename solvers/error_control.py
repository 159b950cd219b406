"""The local error of a generalized-α step, its scaled norm, and the PI step-size controller.

Estimate. Zienkiewicz & Xie (1991, Earthq. Eng. Struct. Dyn. 20:871–887) estimate the local
position error of Newmark's scheme from the jump of the acceleration over the step,
e = (β − 1/6) h² (q̈_{n+1} − q̈_n), the leading term of q_{n+1} − q(t_{n+1}) when the step
starts from the exact state. Generalized-α advances with the pseudo-acceleration ã, which tracks
q̈(t_n + (α_m − α_f) h) to O(h²) (Arnold & Brüls 2007, Multibody Syst. Dyn. 18:185–202, §3);
the same Taylor expansion of q_{n+1} = q_n + h q̇_n + h²(½ − β) ã_n + h² β ã_{n+1} then gives

    e = (β + (α_m − α_f)/2 − 1/6) h² (ã_{n+1} − ã_n)            (Newmark: α_m = α_f = 0)

(ρ∞ = 0.9: constant 0.084). It costs nothing (ã is the scheme's own unknown), needs no second
solution, and holds for the index-3 and the stabilized forms alike, since both advance q by the
same formula. It bounds the local error of positions only: velocities follow with one order
less; Lagrange multipliers and servo inputs are not in the norm (the algebraic variables of an
index-3 DAE are excluded from the error test, Petzold 1982, SIAM J. Sci. Stat. Comput. 3:367;
Brenan, Campbell & Petzold 1996, §5.4: their error is O(h) after an O(h³) error in q and would
only make the controller chase the multiplier mode).

Norm. ‖e‖ = max_i |e_i| / (τ S_i), S_i by kind of coordinate (:func:`coordinate_scales`): the
model's size L for positions (a relative tolerance on lengths: position values depend on the
origin, so no |q_i| term), 1 for unit vectors and ANCF slopes (dimensionless), L·√m for the
modal coordinates of a floating-frame body (unit modal mass: η of √m·L moves a point by about
L). The max norm: a coordinate's error is not diluted by the number of coordinates.

Controller. Gustafsson's (1991, ACM TOMS 17:533–554) PI controller in the form of Hairer,
Nørsett & Wanner (1993, Solving ODE I, §II.4, eq. 4.13): h_new = h · s · ‖e_n‖^(−0.7/k)
· ‖e_{n−1}‖^(0.4/k), k = 3 (local error O(h³)); after a rejection h · max(f_min, s ‖e‖^(−1/k))
and no growth at the next step (Hairer & Wanner 1996, Solving ODE II, §IV.8); a proposal
within [1, ``KEEP``] of h keeps h, so the iteration matrix is reused (RADAU5's quot1/quot2).
"""
import math

import numpy as np

from femdyn.errors import SolverError

__all__ = ["StepController", "coordinate_scales", "error_constant", "error_norm", "local_error"]

ORDER = 3                   # the local error is O(h³): exponents 1/k with k = 3
SAFETY = 0.9                # s of the controller (Hairer & Wanner)
FAC_MIN, FAC_MAX = 0.2, 2.0 # smallest and largest ratio of two consecutive steps
KEEP = 1.2                  # proposals within [1, KEEP]·h keep h (and its factorization)
NEWTON_CUT = 0.25           # step ratio after a step whose Newton iteration failed
MIN_STEP_FRACTION = 1e-9    # smallest step, as a fraction of the largest: below it the run fails


def error_constant(params):
    """The constant c of e = c h² (ã_{n+1} − ã_n): β + (α_m − α_f)/2 − 1/6 (module docstring).

    Parameters
    ----------
    params : femdyn.solvers.scheme.Parameters
        The generalized-α coefficients.

    Returns
    -------
    float
        c (dimensionless); β − 1/6 for Newmark's scheme.

    Examples
    --------
    >>> from femdyn.solvers.scheme import Parameters
    >>> round(error_constant(Parameters.from_rho(0.9)), 4)
    0.084
    """
    return params.beta + 0.5 * (params.alpha_m - params.alpha_f) - 1.0 / 6.0


def local_error(params, h, at_old, at_new):
    """The estimated local error of the positions of one step, c h² (ã_{n+1} − ã_n) (module docstring).

    Parameters
    ----------
    params : femdyn.solvers.scheme.Parameters
        The generalized-α coefficients.
    h : float
        The step [s].
    at_old, at_new : (n,) ndarray
        Pseudo-accelerations ã at the step's start and end, in the units of q per s².

    Returns
    -------
    (n,) ndarray
        Estimated error of q_{n+1}, in the units of q.

    Examples
    --------
    >>> import numpy as np
    >>> from femdyn.solvers.scheme import Parameters
    >>> local_error(Parameters(0.0, 0.0, 0.5, 0.25), 0.1, np.zeros(1), np.ones(1))   # (1/4 − 1/6)·0.01
    array([0.00083333])
    """
    return (error_constant(params) * h * h) * (at_new - at_old)


def coordinate_scales(system, q, length=None):
    """The scale S_i of each coordinate's error (module docstring): L, 1 or L√m by kind of coordinate.

    Parameters
    ----------
    system : femdyn.model.system.System
        The assembled model.
    q : (n,) ndarray
        Coordinates at the start (their point positions give L).
    length : float, optional
        L [m]; default: the diagonal of the box around the model's positions (at least 1 mm).

    Returns
    -------
    (n,) ndarray
        S_i: m for positions, 1 for unit vectors and slopes, √kg·m for modal coordinates.

    Raises
    ------
    SolverError
        ``length`` not a positive number.

    Examples
    --------
    >>> import femdyn
    >>> m = femdyn.Model("rod")
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (2.0, 0, 0)), mass=1.0)
    >>> s = m.assemble()
    >>> coordinate_scales(s, s.q0).tolist()
    [2.0, 2.0, 2.0, 2.0, 2.0, 2.0]
    """
    positions = [node.dofs[3 * k:3 * k + 3] for node in system.nodes.values()
                 for k, slot in enumerate(node.slots) if slot == "r"]
    if length is None:
        points = q[np.concatenate(positions)].reshape(-1, 3) if positions else np.zeros((1, 3))
        length = max(float(np.linalg.norm(points.max(axis=0) - points.min(axis=0))), 1e-3)
    elif not (isinstance(length, (int, float)) and length > 0 and math.isfinite(length)):
        raise SolverError(f"generalized-α: the length scale of the error (length_scale) must be a positive length in m, "
                          f"got {length!r}")
    scales = np.ones(system.n)
    for dofs in positions:
        scales[dofs] = length
    for body in system.bodies.values():
        modal = getattr(body, "modal", None)
        if modal is not None:
            scales[modal.dofs] = length * math.sqrt(max(float(getattr(body, "mass", 1.0)), 1e-12))
    return scales


def error_norm(error, scales, tolerance):
    """max_i |e_i| / (τ S_i): the step is accepted when this is ≤ 1.

    Parameters
    ----------
    error : (n,) ndarray
        Estimated local error (:func:`local_error`).
    scales : (n,) ndarray
        S_i (:func:`coordinate_scales`).
    tolerance : float
        τ (dimensionless).

    Returns
    -------
    float
        The scaled error (dimensionless).

    Examples
    --------
    >>> import numpy as np
    >>> float(error_norm(np.array([1e-7, -3e-7]), np.array([1.0, 1.0]), 1e-6))
    0.3
    """
    return float(np.max(np.abs(error) / scales)) / tolerance if error.size else 0.0


class StepController:
    """Gustafsson's PI step-size controller (module docstring), bounded by the largest step.

    Parameters
    ----------
    largest : float
        The largest step h_max [s] (the user's h).

    Examples
    --------
    >>> c = StepController(1e-2)
    >>> c.accept(1e-3, 0.01), round(c.reject(1e-3, 8.0), 8)     # ×2 at most; ×0.9·8^(−1/3) = 0.45
    (0.002, 0.00045)
    """

    def __init__(self, largest):
        self.largest = largest
        self.smallest = MIN_STEP_FRACTION * largest
        self.previous = 1.0             # ‖e_{n−1}‖ (1 before the first step: pure I control)
        self.rejected = False           # the last attempt was rejected: no growth at the next step

    def accept(self, h, err):
        """The next step after an accepted one.

        Parameters
        ----------
        h : float
            The accepted step [s].
        err : float
            Its scaled error (≤ 1).
        """
        err = max(err, 1e-10)
        factor = SAFETY * err ** (-0.7 / ORDER) * self.previous ** (0.4 / ORDER)
        factor = min(FAC_MAX, max(FAC_MIN, factor))
        if self.rejected:
            factor = min(factor, 1.0)
        self.previous, self.rejected = err, False
        if 1.0 <= factor <= KEEP:
            factor = 1.0
        return min(self.largest, h * factor)

    def reject(self, h, err):
        """The retry after a rejected step.

        Parameters
        ----------
        h : float
            The rejected step [s].
        err : float
            Its scaled error (> 1).
        """
        self.rejected = True
        return h * max(FAC_MIN, min(0.9, SAFETY * err ** (-1.0 / ORDER)))

    def failed(self, h):
        """The retry after a step whose Newton iteration did not converge.

        Parameters
        ----------
        h : float
            The failed step [s].
        """
        self.rejected = True
        return h * NEWTON_CUT
