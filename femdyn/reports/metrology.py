"""Circle metrology of a measured track: the laser tracker's measurement model and a least-squares circle.

The plane is the total-least-squares plane of the points (normal: the right singular vector of the
centred points with the smallest singular value); in it, the circle is the geometric (orthogonal-
distance) least-squares circle, Gauss–Newton from Kåsa's algebraic fit (Kåsa 1976; Chernov 2010,
*Circular and Linear Regression*, §4.1–§5.3). Roundness is ISO 12181-1's RONt against the
least-squares reference circle (LSCI): largest minus smallest radial deviation; the minimum-zone
circle is not computed. Guide: docs/rrru.md ("The tracking experiment").
"""
from dataclasses import dataclass

import numpy as np

from ..errors import FemdynError

TARGET_OFFSET = 0.025       # the tracker target's centre above the end effector along the platform normal, m
REPEATABILITY = 0.02e-3     # FARO tracker repeatability on the rig, m (taken as 2σ per coordinate)


@dataclass
class CircleFit:
    """A least-squares circle in 3-D (:func:`fit_circle`); lengths in m.

    Parameters
    ----------
    centre, normal : ndarray (3,)
        Centre, and unit normal of the fitted plane.
    radius : float
        R, m.
    deviations : ndarray (k,)
        Radial deviations r_i − R of the points projected into the plane, m.
    flatness : float
        RMS distance of the points from the plane, m.
    """

    centre: np.ndarray
    normal: np.ndarray
    radius: float
    deviations: np.ndarray
    flatness: float

    @property
    def diameter(self):
        """2R, m."""
        return 2.0 * self.radius

    @property
    def roundness(self):
        """ISO 12181 RONt against the least-squares circle: max − min radial deviation, m."""
        return float(self.deviations.max() - self.deviations.min())

    @property
    def largest_error(self):
        """Largest |radial deviation|, m."""
        return float(np.abs(self.deviations).max())

    @property
    def smallest_error(self):
        """Smallest |radial deviation|, m."""
        return float(np.abs(self.deviations).min())

    def table(self):
        """The four quantities of Liu et al.'s Table 2 in mm: diameter, roundness, largest and smallest error."""
        return {"diameter": 1e3 * self.diameter, "roundness": 1e3 * self.roundness,
                "largest error": 1e3 * self.largest_error, "smallest error": 1e3 * self.smallest_error}


def fit_circle(points, iterations=50, tol=1e-14):
    """Fit a circle to points in 3-D: the plane by SVD, then the geometric least-squares circle in it.

    Parameters
    ----------
    points : (k, 3) array_like
        Measured points, m; k ≥ 3 not on one line.
    iterations : int, optional
        Gauss–Newton iterations of the geometric fit at most.
    tol : float, optional
        Stop when the update is below tol × R.

    Returns
    -------
    CircleFit

    Raises
    ------
    FemdynError
        Fewer than 3 points, non-finite points, or points on one line (no circle through them).

    Examples
    --------
    >>> import numpy as np
    >>> phi = np.linspace(0, 2 * np.pi, 8, endpoint=False)
    >>> c = fit_circle(np.column_stack([0.1 * np.cos(phi), 0.1 * np.sin(phi), np.full(8, -0.8)]))
    >>> round(c.diameter, 12), np.round(c.centre, 12) + 0.0
    (0.2, array([ 0. ,  0. , -0.8]))
    """
    P = np.asarray(points, float)
    if P.ndim != 2 or P.shape[1] != 3 or len(P) < 3 or not np.all(np.isfinite(P)):
        raise FemdynError(f"fit_circle: need k ≥ 3 finite points as a (k, 3) array in m, got shape {P.shape}")
    mean = P.mean(axis=0)
    _, s, Vt = np.linalg.svd(P - mean, full_matrices=False)
    if s[1] <= 1e-12 * max(s[0], 1e-300):
        raise FemdynError("fit_circle: the points lie on one line; a circle needs points spread along an arc")
    e1, e2, normal = Vt
    xy = (P - mean) @ np.column_stack([e1, e2])
    c, R = _kasa(xy)
    for _ in range(iterations):
        d = xy - c
        r = np.hypot(d[:, 0], d[:, 1])
        A = np.column_stack([-d / r[:, None], -np.ones(len(r))])     # ∂(r_i − R)/∂(c, R)
        step = np.linalg.lstsq(A, -(r - R), rcond=None)[0]
        c, R = c + step[:2], R + step[2]
        if np.abs(step).max() <= tol * R:
            break
    d = xy - c
    deviations = np.hypot(d[:, 0], d[:, 1]) - R
    return CircleFit(mean + c[0] * e1 + c[1] * e2, normal, float(R), deviations, float(s[2] / np.sqrt(len(P))))


def _kasa(xy):
    """Kåsa's algebraic circle (centre, radius): least squares of x² + y² + D x + E y + F = 0."""
    A = np.column_stack([xy, np.ones(len(xy))])
    D, E, F = np.linalg.lstsq(A, -(xy ** 2).sum(axis=1), rcond=None)[0]
    c = -0.5 * np.array([D, E])
    return c, float(np.sqrt(max(c @ c - F, 0.0)))


def tracker_samples(positions, normals, offset=TARGET_OFFSET, repeatability=REPEATABILITY, seed=0):
    """What the laser tracker records: the target centre ``offset`` along the platform normal, with noise.

    Parameters
    ----------
    positions : (k, 3) array_like
        End-effector positions, m.
    normals : (k, 3) array_like
        Unit platform normals pointing from the end effector to the target.
    offset : float, optional
        Distance of the target's centre from the end effector, m (25 mm on the rig).
    repeatability : float, optional
        The tracker's repeatability, m, read as 2σ of independent normal noise per coordinate (0: none).
    seed : int, optional
        Seed of the noise.

    Returns
    -------
    ndarray (k, 3)
        Measured target centres, m.

    Raises
    ------
    FemdynError
        Shapes differ, or the offset or repeatability is negative.
    """
    P, n = np.asarray(positions, float), np.asarray(normals, float)
    if P.shape != n.shape or P.ndim != 2 or P.shape[1] != 3 or offset < 0 or repeatability < 0:
        raise FemdynError(f"tracker_samples: positions {P.shape} and normals {n.shape} must both be (k, 3), "
                          f"offset ({offset} m) and repeatability ({repeatability} m) ≥ 0")
    n = n / np.linalg.norm(n, axis=1, keepdims=True)
    noise = np.random.default_rng(seed).normal(0.0, 0.5 * repeatability, P.shape)
    return P + offset * n + noise
