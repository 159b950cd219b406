"""Cross-section properties of beams and cables (SI units: m, m², m⁴).

Local axes: x along the beam axis, y and z the principal axes of the section through
its centroid. I_y = ∫z² dA (bending about y, deflection along z), I_z = ∫y² dA,
J the St Venant torsion constant, c_y, c_z the distances of the extreme fibres from
the centroid along y and z (where a surface strain gauge sits).

Shear correction factors k (Timoshenko shear force Q = k G A γ) follow Cowper 1966,
"The shear coefficient in Timoshenko's beam theory", J. Appl. Mech. 33:335–340:
solid circle k = 6(1+ν)/(7+6ν), rectangle k = 10(1+ν)/(12+11ν).
"""
import numpy as np

from femdyn.errors import ModelError
from femdyn.input_checks import refuse_non_finite


class CrossSection:
    """Generic beam cross section given by its properties; arrays broadcast over elements.

    Parameters
    ----------
    area : float or (n_el,) array_like
        Area A, m².
    Iy, Iz : float or (n_el,) array_like
        Second moments I_y = ∫z² dA, I_z = ∫y² dA, m⁴ (principal axes through the centroid).
    J : float or (n_el,) array_like
        St Venant torsion constant, m⁴.
    cy, cz : float or (n_el,) array_like
        Distances of the extreme fibres from the centroid along y and z, m.
    shear_factor : callable, optional
        ν ↦ (k_y, k_z); default 5/6 for both.
    name : str, optional
        Name used in error messages.

    Raises
    ------
    ModelError
        If the area, I_y, I_z or J is not positive.
    """

    def __init__(self, area, Iy, Iz, J, cy, cz, shear_factor=None, name="section"):
        self.area = np.asarray(area, float)
        self.Iy = np.asarray(Iy, float)
        self.Iz = np.asarray(Iz, float)
        self.J = np.asarray(J, float)
        self.cy = np.asarray(cy, float)
        self.cz = np.asarray(cz, float)
        self.name = name
        self._shear_factor = shear_factor or (lambda nu: (np.full_like(np.asarray(nu, float), 5 / 6),) * 2)
        for label, value in (("area", self.area), ("Iy", self.Iy), ("Iz", self.Iz), ("J", self.J)):
            refuse_non_finite(value, f"{name}: {label}")
            bad = np.flatnonzero(~(np.atleast_1d(value) > 0))
            if bad.size:
                raise ModelError(f"{name}: {label} must be positive (entry {bad[0]} is "
                                 f"{np.atleast_1d(value)[bad[0]]!r}); give the section dimensions in metres")

    def shear_factor(self, nu):
        """Shear correction factors (k_y, k_z) of the Timoshenko shear force Q = k G A γ.

        Parameters
        ----------
        nu : float or array_like
            Poisson ratio.
        """
        return self._shear_factor(nu)

    @property
    def polar(self):
        """Polar second moment I_p = I_y + I_z [m⁴] (rotary inertia about the axis)."""
        return self.Iy + self.Iz


def circular(radius):
    """Solid circular section: A = πR², I_y = I_z = πR⁴/4, J = πR⁴/2, k = 6(1+ν)/(7+6ν) (Cowper 1966).

    Parameters
    ----------
    radius : float or (n_el,) array_like
        Radius R, m.

    Examples
    --------
    >>> s = circular(0.01)
    >>> round(float(s.area) * 1e4, 6), round(float(s.J) * 1e8, 6)     # cm², and J in 1e-8 m⁴
    (3.141593, 1.570796)
    """
    R = np.asarray(radius, float)
    refuse_non_finite(R, "circular section: radius (m)")
    if np.any(~(R > 0)):
        raise ModelError(f"circular section: radius must be positive, got {radius!r} (metres)")
    k = lambda nu: (6 * (1 + np.asarray(nu, float)) / (7 + 6 * np.asarray(nu, float)),) * 2
    return CrossSection(np.pi * R**2, np.pi * R**4 / 4, np.pi * R**4 / 4, np.pi * R**4 / 2, R, R,
                        shear_factor=k, name="circular section")


def tube(radius, inner_radius):
    """Hollow circular section: A = π(R² − r²), I_y = I_z = π(R⁴ − r⁴)/4, J = π(R⁴ − r⁴)/2, and Cowper's (1966)
    k = 6(1+ν)(1+m²)² / ((7+6ν)(1+m²)² + (20+12ν)m²), m = r/R.

    Parameters
    ----------
    radius, inner_radius : float
        Outer radius R and inner radius r < R, m.

    Examples
    --------
    >>> s = tube(0.01, 0.008)
    >>> round(float(s.area) * 1e4, 6)          # cm²
    1.130973
    """
    R, r = float(radius), float(inner_radius)
    if not (np.isfinite(R) and np.isfinite(r) and 0 <= r < R):
        raise ModelError(f"tube section: need 0 ≤ inner_radius < radius (metres), got radius {radius!r}, "
                         f"inner_radius {inner_radius!r}")
    m2 = (r / R) ** 2

    def k(nu):
        nu = np.asarray(nu, float)
        value = 6 * (1 + nu) * (1 + m2) ** 2 / ((7 + 6 * nu) * (1 + m2) ** 2 + (20 + 12 * nu) * m2)
        return value, value
    fourth = np.pi * (R**4 - r**4)
    return CrossSection(np.pi * (R**2 - r**2), fourth / 4, fourth / 4, fourth / 2, R, R, shear_factor=k,
                        name="tube section")


def rectangle_torsion_constant(a, b, terms=50):
    """St Venant torsion constant of an a × b rectangle (Timoshenko & Goodier 1970), sides in any order."""
    a, b = np.maximum(a, b), np.minimum(a, b)
    n = np.arange(1, 2 * terms, 2, dtype=float)
    series = np.sum(np.tanh(np.multiply.outer(np.pi * a / (2 * b), n)) / n**5, axis=-1)
    return a * b**3 / 3 * (1 - 192 / np.pi**5 * (b / a) * series)


def rectangular(width_y, height_z):
    """Solid rectangular section b × h: I_y = b h³/12, I_z = h b³/12, k = 10(1+ν)/(12+11ν) (Cowper 1966).

    Parameters
    ----------
    width_y : float or (n_el,) array_like
        Side b along the section's y axis, m.
    height_z : float or (n_el,) array_like
        Side h along the section's z axis, m.
    """
    b = np.asarray(width_y, float)
    h = np.asarray(height_z, float)
    if np.any(~(b > 0)) or np.any(~(h > 0)):
        raise ModelError(f"rectangular section: width {width_y!r} and height {height_z!r} must be positive (metres)")
    k = lambda nu: (10 * (1 + np.asarray(nu, float)) / (12 + 11 * np.asarray(nu, float)),) * 2
    return CrossSection(b * h, b * h**3 / 12, h * b**3 / 12, rectangle_torsion_constant(b, h), b / 2, h / 2,
                        shear_factor=k, name="rectangular section")
