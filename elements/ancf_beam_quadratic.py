"""Three-node, quadratic, fully parameterized 3-D ANCF beam (27 dof) with selective
reduced integration: shear deformable, free of shear and membrane locking.

Kinematics: Nachbagauer, Pechstein, Irschik & Gerstmayr 2011 (Multibody Syst. Dyn.
26:245–263), nodes at ξ = 0, ½, 1 with [r, r_y, r_z] (9 each), quadratic Lagrange
interpolation r(ξ, y, z) = Σ_i N_i (r_i + y r_i,y + z r_i,z). Strains of
:class:`~femdyn.elements.ancf_beam.ANCFBeam3D`; axial and shear at 2 Gauss points,
bending and torsion at 3 (Zienkiewicz, Taylor & Too 1971; Prathap & Bhashyam 1982);
cross-section strains at the nodes (Simpson). Derivation: docs/elements.md.
"""
import numpy as np

from femdyn.elements.ancf_beam import AxisTerm, SectionTerm, ANCFBeam3D
from femdyn.elements.ancf_element import check
from femdyn.elements.quadrature import InvariantQuadrature, gauss_legendre

NODE_XI = np.array([0.0, 0.5, 1.0])
SIMPSON = np.array([1.0, 4.0, 1.0]) / 6.0
FULL = np.array([False, False, False, True, True, True])        # κ_x, κ_y, κ_z: 3 Gauss points
REDUCED = ~FULL                                                  # ε, γ_y, γ_z: 2 Gauss points


def lagrange2(xi):
    """Quadratic Lagrange functions of the nodes ξ = 0, ½, 1 and their ξ-derivatives.

    Nachbagauer, Pechstein, Irschik & Gerstmayr 2011 (quadratic element).
    """
    xi = np.atleast_1d(np.asarray(xi, float))
    N = np.stack([(1 - xi) * (1 - 2 * xi), 4 * xi * (1 - xi), xi * (2 * xi - 1)], -1)
    dN = np.stack([4 * xi - 3, 4 - 8 * xi, 4 * xi - 1], -1)
    return N, dN


class ANCFBeamQuadratic(ANCFBeam3D):
    """Batch of three-node quadratic ANCF beams, 27 dof each (docs/elements.md).

    Parameters
    ----------
    q_ref : (n_el, 27) array_like
        Reference [r, r_y, r_z] of the first end, midpoint and second end (m, 1); unit principal directors.
    E, rho, section, nu, damping, length
        As for :class:`~femdyn.elements.ancf_beam.ANCFBeam3D` (Pa, kg/m³, CrossSection, –, s, m).

    Raises
    ------
    ModelError
        Bad material data, coinciding nodes, a midpoint off the middle, left-handed directors.
    """

    ndof, dim, n_nodes, kind = 27, 3, 3, "ANCFBeamQuadratic"
    sensor_quantities = {"strain": ("axial_strain", ("strain",)),
                         "curvature": ("curvature", ("kappa_y", "kappa_z")),
                         "twist": ("twist", ("twist",)), "shear": ("shear_angles", ("gamma_y", "gamma_z"))}
    nodal_order = (0,) * 9
    vector_order = (1, 0, 0, 1, 1)

    def __init__(self, q_ref, E, rho, section, nu=0.3, damping=0.0, length=None):
        self._setup(q_ref, E, rho, section, damping, length, 3, nu=nu)
        self._check_handedness(self._reference_frames())
        self._constitutive(section)
        self.xi_reduced, w_reduced = gauss_legendre(2)
        reduced = InvariantQuadrature(self._coefficients(self.xi_reduced), self.vector_order, self.nodal_order,
                                      self.invariant_pairs, w_reduced, self.length, 3)
        jac_reduced = np.linalg.norm(reduced.vectors(self.q_ref)[:, :, 0], axis=-1)
        self.axis_terms = [AxisTerm(self, self.quad, self.jac, FULL), AxisTerm(self, reduced, jac_reduced, REDUCED)]
        self.section_term = SectionTerm(self, NODE_XI, SIMPSON, slice(3, 9))
        # the bending strain is linear along the element: its sensors read it directly,
        # without the patch recovery (and the element neighbours) of ANCFBeam3D

    def _reference_axis(self):
        p = self.q_ref.reshape(self.n_el, 3, 9)[:, :, :3]
        chord = np.linalg.norm(p[:, 2] - p[:, 0], axis=1)
        check(chord > 0, chord, self.kind, "end nodes coincide (zero length); move a node")
        s = np.sum((p[:, 1] - p[:, 0]) * (p[:, 2] - p[:, 0]), 1) / np.maximum(chord, 1e-300) ** 2
        check((s > 0.25) & (s < 0.75), s, self.kind, "the midpoint node is not near the middle of the element "
              "(its position along the chord, as a fraction, is shown); put it at half the arc length")
        return p

    def _default_length(self, axis):
        xi, w = gauss_legendre(8)
        _, dN = lagrange2(xi)
        return np.linalg.norm(np.einsum('xa,ead->exd', dN, axis), axis=-1) @ w

    def _reference_frames(self):
        """(r_x, r_y, r_z) of the reference at the three nodes, (n_el, 3, 3, 3) (columns)."""
        z = self.fields(self.q_ref, NODE_XI)                      # (n_el, 3, n_vec, 3)
        return np.stack([z[:, :, 0], z[:, :, 1], z[:, :, 2]], -1)

    @staticmethod
    def _coefficients(xi):
        N, dN = lagrange2(xi)
        coef = np.zeros((len(N), 5, 9))
        coef[:, 0, 0::3] = dN                      # a = r_x (times L)
        coef[:, 1, 1::3] = N                       # b = r_y
        coef[:, 2, 2::3] = N                       # c = r_z
        coef[:, 3, 1::3] = dN                      # b' (times L)
        coef[:, 4, 2::3] = dN                      # c' (times L)
        return coef

    def _nodal_shape(self, xi, y, z):
        N, _ = lagrange2(xi)
        out = np.zeros((len(N), 9))
        out[:, 0::3], out[:, 1::3], out[:, 2::3] = N, y * N, z * N
        return out
