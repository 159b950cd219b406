"""Rosettes: three gauges at one place turned into principal strains (gauges are declared on the model)."""
import numpy as np

from ..errors import FemdynError


def principal_strains(readings, directions_deg):
    """Principal strains (eps1, eps2) and the direction of eps1 in degrees of a three-gauge rosette.

    Solves ε_i = ε_x cos²θ_i + ε_s sin²θ_i + γ_xs sinθ_i cosθ_i for (ε_x, ε_s, γ_xs), then
    ε₁,₂ = (ε_x + ε_s)/2 ± √(((ε_x − ε_s)/2)² + (γ_xs/2)²), θ_p = ½ atan2(γ_xs, ε_x − ε_s)
    (Dally & Riley 2005, eqs. 9.9–9.11).

    Parameters
    ----------
    readings : array_like, shape (3, ...)
        The three gauges' strains, any trailing shape (e.g. time).
    directions_deg : sequence of 3 floats
        Their grid directions from the x axis, degrees.

    Example
    -------
    >>> e1, e2, a = principal_strains([1e-4, 1e-4, -1e-4], [0, 45, 90])
    >>> round(float(e1), 8), round(float(a), 3)
    (0.00014142, 22.5)
    """
    r = np.asarray(readings, float)
    th = np.radians(np.asarray(directions_deg, float))
    if r.shape[:1] != (3,) or th.shape != (3,):
        raise FemdynError(f"a rosette needs three gauges and three directions, got {r.shape[:1]} and {th.shape}")
    A = np.column_stack([np.cos(th) ** 2, np.sin(th) ** 2, np.sin(th) * np.cos(th)])
    if abs(np.linalg.det(A)) < 1e-9:
        raise FemdynError(f"rosette directions {list(directions_deg)}° do not fix the strain state; use three "
                          "directions distinct modulo 180° (e.g. 0°, 45°, 90°)")
    ex, es, g = np.tensordot(np.linalg.inv(A), r, axes=1)
    centre, radius = 0.5 * (ex + es), np.hypot(0.5 * (ex - es), 0.5 * g)
    return centre + radius, centre - radius, np.degrees(0.5 * np.arctan2(g, ex - es))
