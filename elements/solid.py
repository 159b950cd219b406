"""Isoparametric linear-elastic solid elements: Tet4, Tet10 and Hex8, on batches of one type.

Zienkiewicz, Taylor & Zhu 2013, ch. 6 and 9: K_ai,bj = ∫ (λ ∂_i N_a ∂_j N_b +
μ ∂_j N_a ∂_i N_b + μ δ_ij ∇N_a·∇N_b) dV, M = M_s ⊗ I₃; engineering Voigt strains
(xx, yy, zz, yz, xz, xy). Node order is VTK's (= meshio's). Quadrature (Stroud 1971 for
tetrahedra) and the Hex8 shear-locking caveat: docs/elements.md.
"""
import numpy as np
from scipy.special import roots_jacobi

from femdyn.errors import ModelError

VOIGT = ((0, 0), (1, 1), (2, 2), (1, 2), (0, 2), (0, 1))   # (ε_xx, ε_yy, ε_zz, γ_yz, γ_xz, γ_xy)


def tetrahedron_rule(degree):
    """Quadrature points and weights on the unit tetrahedron (volume 1/6), exact for ``degree``.

    Centroid, symmetric 4-point rule, else collapsed Gauss–Jacobi product (Stroud 1971, §2.7).
    """
    if degree <= 1:
        return np.full((1, 3), 0.25), np.array([1 / 6])
    if degree == 2:
        a, b = 0.5854101966249685, 0.1381966011250105
        p = np.full((4, 3), b)
        p[1, 0] = p[2, 1] = p[3, 2] = a
        return p, np.full(4, 1 / 24)
    n = (degree + 2) // 2
    axes = []
    for alpha in (2, 1, 0):              # weights (1−u)², (1−v), 1 of the collapsed map
        x, w = roots_jacobi(n, alpha, 0)
        axes.append((0.5 * (x + 1), w * 0.5 ** (alpha + 1)))
    (u, wu), (v, wv), (s, ws) = axes
    U, V, S = (a.ravel() for a in np.meshgrid(u, v, s, indexing="ij"))
    W = np.einsum("i,j,k->ijk", wu, wv, ws).ravel()
    return np.column_stack([U, (1 - U) * V, (1 - U) * (1 - V) * S]), W


def hexahedron_rule(n):
    """n×n×n Gauss–Legendre points and weights on [−1, 1]³, exact for degree 2n−1 per axis."""
    x, w = np.polynomial.legendre.leggauss(n)
    P = np.stack(np.meshgrid(x, x, x, indexing="ij"), -1).reshape(-1, 3)
    return P, np.einsum("i,j,k->ijk", w, w, w).ravel()


class ElementType:
    """An isoparametric solid element (``TET4``, ``TET10``, ``HEX8``): shape functions, reference cell, quadrature.

    Parameters
    ----------
    name : str
        'tet4', 'tet10' or 'hex8'.
    meshio_type : str
        The meshio cell type ('tetra', 'tetra10', 'hexahedron').
    reference : (n_nodes, 3) array_like
        Nodal coordinates on the reference cell (VTK node order).
    corners : sequence of int
        Indices of the corner nodes.
    shape, gradient : callable
        ξ (n, 3) ↦ N (n, n_nodes) and ↦ ∂N/∂ξ (n, n_nodes, 3).
    stiffness_rule, mass_rule : tuple of ndarray
        (points, weights) of the stiffness and mass quadratures.
    inside : callable
        (ξ (n, 3), tol) ↦ (n,) bool.
    edges : (n_mid, 2) array_like, optional
        Quadratic elements: the two corners of each mid-edge node (node n_corners + e).
    """

    def __init__(self, name, meshio_type, reference, corners, shape, gradient, stiffness_rule, mass_rule,
                 inside, edges=None):
        self.name, self.meshio_type = name, meshio_type
        self.reference = np.asarray(reference, float)
        self.n_nodes = len(self.reference)
        self.corners = np.asarray(corners)
        self._shape, self._gradient, self._inside = shape, gradient, inside
        self.stiffness_rule, self.mass_rule = stiffness_rule, mass_rule
        self.edges = None if edges is None else np.asarray(edges)

    def shape(self, xi):
        """Shape functions N (n_points, n_nodes) at reference points.

        Parameters
        ----------
        xi : (n_points, 3) array_like
            Reference coordinates.
        """
        return self._shape(np.atleast_2d(np.asarray(xi, float)))

    def gradient(self, xi):
        """Reference gradients ∂N/∂ξ (n_points, n_nodes, 3) at reference points.

        Parameters
        ----------
        xi : (n_points, 3) array_like
            Reference coordinates.
        """
        return self._gradient(np.atleast_2d(np.asarray(xi, float)))

    def inside(self, xi, tol=1e-9):
        """Whether reference points lie in the reference cell, (n,) bool.

        Parameters
        ----------
        xi : (n, 3) array_like
            Reference coordinates.
        tol : float, optional
            Tolerance on the barycentric or ±1 bounds.
        """
        return self._inside(np.atleast_2d(xi), tol)

    def __repr__(self):
        return f"ElementType({self.name})"


def _barycentric(xi):
    """Barycentric coordinates (n, 4) of points ξ in the reference tetrahedron."""
    return np.column_stack([1 - xi.sum(1), xi])


_DL = np.array([[-1, -1, -1], [1, 0, 0], [0, 1, 0], [0, 0, 1]], float)     # ∂L_k/∂ξ
_TET10_EDGES = np.array([[0, 1], [1, 2], [0, 2], [0, 3], [1, 3], [2, 3]])


def _tet4_shape(xi):
    """Tet4 shape functions (n, 4)."""
    return _barycentric(xi)


def _tet4_gradient(xi):
    """Tet4 shape gradients ∂N/∂ξ (n, 4, 3)."""
    return np.broadcast_to(_DL, (len(xi), 4, 3)).copy()


def _tet10_shape(xi):
    """Tet10 shape functions (n, 10): corners L(2L − 1), edges 4 L_a L_b."""
    L = _barycentric(xi)
    a, b = _TET10_EDGES.T
    return np.hstack([L * (2 * L - 1), 4 * L[:, a] * L[:, b]])


def _tet10_gradient(xi):
    """Tet10 shape gradients ∂N/∂ξ (n, 10, 3)."""
    L = _barycentric(xi)
    a, b = _TET10_EDGES.T
    corner = (4 * L - 1)[:, :, None] * _DL[None]
    edge = 4 * (L[:, a, None] * _DL[None, b] + L[:, b, None] * _DL[None, a])
    return np.concatenate([corner, edge], axis=1)


def _tet_inside(xi, tol):
    """Whether points ξ lie in the reference tetrahedron (within ``tol``)."""
    return np.all(_barycentric(xi) >= -tol, axis=1)


_HEX8 = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                  [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], float)


def _hex8_shape(xi):
    """Hex8 trilinear shape functions (n, 8)."""
    return np.prod(1 + xi[:, None, :] * _HEX8[None], axis=2) / 8


def _hex8_gradient(xi):
    """Hex8 shape gradients ∂N/∂ξ (n, 8, 3)."""
    f = 1 + xi[:, None, :] * _HEX8[None]                          # (n, 8, 3)
    g = np.empty_like(f)
    for k in range(3):
        others = [m for m in range(3) if m != k]
        g[..., k] = _HEX8[None, :, k] * f[..., others[0]] * f[..., others[1]] / 8
    return g


def _hex_inside(xi, tol):
    """Whether points ξ lie in the reference cube [−1, 1]³ (within ``tol``)."""
    return np.all(np.abs(xi) <= 1 + tol, axis=1)


_TET10_REF = np.vstack([np.zeros(3), np.eye(3)])
TET4 = ElementType("tet4", "tetra", _TET10_REF, range(4), _tet4_shape, _tet4_gradient,
                   tetrahedron_rule(1), tetrahedron_rule(2), _tet_inside)
TET10 = ElementType("tet10", "tetra10", np.vstack([_TET10_REF, 0.5 * (_TET10_REF[_TET10_EDGES[:, 0]]
                                                                    + _TET10_REF[_TET10_EDGES[:, 1]])]),
                    range(4), _tet10_shape, _tet10_gradient, tetrahedron_rule(2), tetrahedron_rule(4), _tet_inside,
                    _TET10_EDGES)
HEX8 = ElementType("hex8", "hexahedron", _HEX8, range(8), _hex8_shape, _hex8_gradient,
                   hexahedron_rule(2), hexahedron_rule(3), _hex_inside)
ELEMENT_TYPES = {e.meshio_type: e for e in (TET4, TET10, HEX8)}


def lame(E, nu):
    """Lamé constants of an isotropic material: λ = Eν/((1+ν)(1−2ν)), μ = E/(2(1+ν))."""
    return E * nu / ((1 + nu) * (1 - 2 * nu)), E / (2 * (1 + nu))


def elasticity_matrix(E, nu):
    """Isotropic elasticity matrix D with σ = D ε, Voigt order (xx, yy, zz, yz, xz, xy), γ = 2ε."""
    lam, mu = lame(E, nu)
    D = np.zeros((6, 6))
    D[:3, :3] = lam
    D[np.arange(3), np.arange(3)] += 2 * mu
    D[np.arange(3, 6), np.arange(3, 6)] = mu
    return D


def jacobian(element, X, xi):
    """Jacobians J_ij = ∂x_i/∂ξ_j of the isoparametric map at reference points."""
    return np.einsum("eai,qaj->eqij", X, element.gradient(xi))


def shape_gradients(element, X, xi):
    """Physical shape-function gradients ∂N_a/∂x = ∂N_a/∂ξ J⁻¹ and det J at reference points."""
    J = jacobian(element, X, xi)
    det = np.linalg.det(J)
    # ∂N/∂x = ∂N/∂ξ J⁻¹ ; solve with Jᵀ for all points at once
    G = np.linalg.solve(np.swapaxes(J, -1, -2)[:, :, None], element.gradient(xi)[None, :, :, :, None])[..., 0]
    return G, det


def stiffness_matrices(element, X, E, nu):
    """Element stiffness matrices (n_el, 3n, 3n) [N/m], dofs ordered (node, component)."""
    xi, w = element.stiffness_rule
    G, det = shape_gradients(element, X, xi)
    n_el, n_q, n = G.shape[:3]
    Gf = G.reshape(n_el, n_q, 3 * n)
    P = np.matmul(np.swapaxes(Gf * (det * w)[..., None], 1, 2), Gf).reshape(n_el, n, 3, n, 3)
    lam, mu = lame(np.asarray(E, float), np.asarray(nu, float))
    lam = np.broadcast_to(lam, (n_el,))[:, None, None, None, None]
    mu = np.broadcast_to(mu, (n_el,))[:, None, None, None, None]
    K = lam * P + mu * np.swapaxes(P, 2, 4)
    trace = np.einsum("eakbk->eab", P)
    K += mu * trace[:, :, None, :, None] * np.eye(3)[None, None, :, None, :]
    return K.reshape(n_el, 3 * n, 3 * n)


def scalar_mass_matrices(element, X, rho):
    """Scalar consistent mass M_s,ab = ∫ ρ N_a N_b dV; the element mass matrix is M_s ⊗ I₃."""
    xi, w = element.mass_rule
    N = element.shape(xi)
    det = np.linalg.det(jacobian(element, X, xi))
    dm = det * w * np.broadcast_to(np.asarray(rho, float), (len(X),))[:, None]
    n = element.n_nodes
    return (dm @ np.einsum("qa,qb->qab", N, N).reshape(len(xi), n * n)).reshape(len(X), n, n)


def strains(element, X, U, xi):
    """Engineering strains at reference points (small-strain, Voigt order)."""
    G, _ = shape_gradients(element, X, xi)
    H = np.einsum("eai,eqaj->eqij", U, G)                       # ∂u_i/∂x_j
    return _voigt(H)


def strains_at(element, X, U, xi):
    """Engineering strains at one reference point per element."""
    G = gradients_at(element, X, xi)
    return _voigt(np.einsum("eai,eaj->eij", U, G))


def gradients_at(element, X, xi):
    """Physical shape-function gradients ∂N_a/∂x at one reference point per element."""
    dN = element.gradient(xi)                                     # (n_el, n, 3)
    J = np.einsum("eai,eaj->eij", X, dN)
    return np.linalg.solve(np.swapaxes(J, -1, -2)[:, None], dN[..., None])[..., 0]


def _voigt(H):
    """Voigt strains (…, 6) of displacement gradients H (…, 3, 3), engineering shears."""
    eps = np.empty(H.shape[:-2] + (6,))
    for k, (i, j) in enumerate(VOIGT):
        eps[..., k] = H[..., i, i] if i == j else H[..., i, j] + H[..., j, i]
    return eps


def stresses(eps, E, nu):
    """Cauchy stresses σ = D ε in Voigt order from engineering strains (linear elasticity)."""
    return eps @ elasticity_matrix(E, nu).T


def inverse_map(element, X, x, iterations=20, tol=1e-12):
    """Reference coordinates of physical points by Newton's method on x(ξ) = Σ N_a(ξ) X_a."""
    x = np.asarray(x, float)
    xi = np.tile(element.reference.mean(0), (len(x), 1))
    for _ in range(iterations):
        N = element.shape(xi)
        r = x - np.einsum("ea,eai->ei", N, X)
        J = np.einsum("eai,eaj->eij", X, element.gradient(xi))
        step = np.linalg.solve(J, r[..., None])[..., 0]
        xi = xi + step
        if np.all(np.abs(step) < tol):
            break
    return xi


def check_material(E, nu, rho, where="solid"):
    """Validate an isotropic linear-elastic material."""
    from femdyn.input_checks import number, positive
    E = positive(E, f"{where}: Young's modulus E", "Pa")
    rho = positive(rho, f"{where}: density rho", "kg/m³")
    nu = number(nu, f"{where}: Poisson ratio nu", "1")
    if not -1 < nu < 0.5:
        raise ModelError(f"{where}: Poisson ratio nu = {nu} must lie in (−1, 0.5)")
    return E, nu, rho
