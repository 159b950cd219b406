"""A linear-elastic solid on a volume mesh: sparse stiffness and consistent mass, mass
properties, rigid-body modes, and interpolation of displacements and strains at points.

Degrees of freedom are the nodal displacements in the mesh frame, ordered
(node, component): dof 3a + i is u_i of node a [m]. Assembly is compiled
(:mod:`femdyn.elements.solid_compiled`): a node-level CSR pattern built once from the
node–element incidence, then one pass over the elements writes the stiffness (3×3 node
blocks, CSR) and the scalar mass M_s (node × node) together; M = M_s ⊗ I₃.
"""
import numpy as np
import scipy.sparse as sp
from scipy.spatial import cKDTree

from femdyn.elements import solid, solid_compiled
from femdyn.errors import ModelError
from femdyn.geometry import skew

class _NodePattern:
    """The node-pair CSR pattern of the element blocks (compiled, row by row) and each element entry's slot."""

    def __init__(self, mesh):
        width = max(c.shape[1] for _, c in mesh.blocks)
        conn = np.vstack([np.pad(c, ((0, 0), (0, width - c.shape[1])), constant_values=-1) for _, c in mesh.blocks])
        self.n = mesh.n_nodes
        self.indptr, self.indices, self.slots = solid_compiled.node_pattern(conn, self.n)
        self.nnz = len(self.indices)
        self.offsets = np.concatenate([[0], np.cumsum([len(c) for _, c in mesh.blocks])])


class SolidBody:
    """An isotropic linear-elastic body on a :class:`~femdyn.mesh.solid.SolidMesh` (small displacements, mesh frame).

    Parameters
    ----------
    mesh : SolidMesh
        The volume mesh (coordinates in m).
    E : float
        Young's modulus, Pa.
    nu : float
        Poisson ratio.
    rho : float
        Density, kg/m³.
    name : str, optional
        Label for messages.
    check_units : bool, optional
        Refuse E < 1e5 Pa and ρ outside 10–30000 kg/m³ (a unit mix-up).

    Raises
    ------
    ModelError
        A bad material, or E and ρ far outside engineering ranges.

    Examples
    --------
    >>> from femdyn.mesh.generate import box_mesh
    >>> body = SolidBody(box_mesh((1, 0.1, 0.1), (10, 1, 1)), E=2.1e11, nu=0.3, rho=7800)
    >>> round(float(body.mass_properties()["mass"]), 6)
    78.0
    """

    def __init__(self, mesh, E, nu, rho, name="solid", check_units=True):
        self.mesh, self.name = mesh, name
        self.E, self.nu, self.rho = solid.check_material(E, nu, rho, name)
        if check_units:
            if self.E < 1e5:
                raise ModelError(f"{name}: E = {self.E:g} Pa is below any structural material; give E in Pa "
                                 f"(e.g. {self.E:g} GPa = {self.E * 1e9:g} Pa, {self.E:g} MPa = {self.E * 1e6:g} Pa) "
                                 "or pass check_units=False")
            if not 10 <= self.rho <= 3e4:
                raise ModelError(f"{name}: rho = {self.rho:g} kg/m³ is outside 10–30000 kg/m³; give the density in "
                                 f"kg/m³ (e.g. {self.rho:g} g/cm³ = {self.rho * 1e3:g} kg/m³) or pass check_units=False")
        self.ndof = mesh.ndof
        self._K = self._Ms = self._M = self._pattern = None
        self._tree = None

    # ------------------------------------------------------------------ assembly
    @property
    def pattern(self):
        if self._pattern is None:
            self._pattern = _NodePattern(self.mesh)
        return self._pattern

    def _assemble(self, stiffness=True):
        """M_s (node CSR) and, with ``stiffness``, K (dof CSR) in one compiled pass over the elements; without it
        the stiffness quadrature is skipped (a rule of no points): the mass alone costs a fraction."""
        p = self.pattern
        dptr, dind = solid_compiled.dof_pattern(p.indptr, p.indices) if stiffness else (None, np.zeros(0))
        K, Ms = np.zeros(len(dind)), np.zeros(p.nnz)
        lam, mu = solid.lame(self.E, self.nu)
        for b, (etype, conn) in enumerate(self.mesh.blocks):
            (xk, wk), (xm, wm), n = etype.stiffness_rule, etype.mass_rule, etype.n_nodes
            xk, wk = (xk, wk) if stiffness else (xk[:0], wk[:0])
            order, cptr = solid_compiled.element_colors(conn, self.mesh.n_nodes)
            solid_compiled.stiffness_and_mass(self.mesh.points, conn, p.slots[p.offsets[b]:p.offsets[b + 1], :n, :n], p.indptr,
                                    order, cptr, etype.gradient(xk), wk, etype.gradient(xm), etype.shape(xm), wm,
                                    lam, mu, self.rho, K, Ms)
        if stiffness:
            self._K = sp.csr_matrix((K, dind, dptr), shape=(self.ndof,) * 2)
        self._Ms = sp.csr_matrix((Ms, p.indices, p.indptr), shape=(p.n, p.n))
        self._M = sp.csr_matrix(solid_compiled.mass_pattern(p.indptr, p.indices, Ms)[::-1], shape=(self.ndof,) * 2)

    def stiffness(self):
        """Sparse stiffness K (ndof × ndof, CSR) [N/m]; assembled once (with the mass) and kept."""
        if self._K is None:
            self._assemble()
        return self._K

    def scalar_mass(self):
        """Scalar consistent mass M_s (n_nodes × n_nodes, CSR) [kg]: M_s,ab = ∫ρ N_a N_b dV."""
        if self._Ms is None:
            self._assemble(stiffness=False)
        return self._Ms

    def mass(self):
        """Consistent mass M = M_s ⊗ I₃ (ndof × ndof, CSR) [kg]."""
        if self._M is None:
            self._assemble(stiffness=False)
        return self._M

    # ------------------------------------------------------------------ rigid body
    def mass_properties(self):
        """Mass, kg, centre of mass, m, and inertia about it, kg m², mesh frame, exact with the consistent mass.

        m = 1ᵀM_s1, m c = Xᵀ M_s 1, I = tr(J_c) 1 − J_c with J_c = Xᵀ M_s X − m c cᵀ.
        """
        Ms, X = self.scalar_mass(), self.mesh.points
        w = np.asarray(Ms.sum(axis=1)).ravel()
        m = w.sum()
        c = X.T @ w / m
        J = X.T @ (Ms @ X) - m * np.outer(c, c)
        return {"mass": m, "com": c, "inertia": np.trace(J) * np.eye(3) - J}

    def rigid_modes(self, origin=(0.0, 0.0, 0.0)):
        """The six rigid-body fields (ndof, 6): unit translations x, y, z, then rotations u = θ × (x − origin).

        Parameters
        ----------
        origin : (3,) array_like, optional
            Centre of the rotations, m, mesh frame.
        """
        r = self.mesh.points - np.asarray(origin, float)
        R = np.zeros((self.mesh.n_nodes, 3, 6))
        R[:, :, :3] = np.eye(3)
        R[:, :, 3:] = -skew(r)
        return R.reshape(self.ndof, 6)

    # ------------------------------------------------------------------ points
    def locate(self, points, tol=1e-6):
        """(block, element, reference coordinates ξ) of the element holding each point.

        Parameters
        ----------
        points : (n, 3) array_like
            Points inside the mesh, m, mesh frame.
        tol : float, optional
            Tolerance in reference coordinates on an element boundary.

        Raises
        ------
        ModelError
            A point outside the mesh.
        """
        points = np.atleast_2d(np.asarray(points, float))
        if self._tree is None:
            centres = [self.mesh.points[c].mean(1) for _, c in self.mesh.blocks]
            owner = np.concatenate([np.column_stack([np.full(len(c), b), np.arange(len(c))])
                                    for b, c in enumerate(centres)])
            self._tree = (cKDTree(np.vstack(centres)), owner)
        tree, owner = self._tree
        found = []
        k = min(32, len(owner))
        for p in points:
            _, cand = tree.query(p, k=k)
            best = None
            for b, e in owner[np.atleast_1d(cand)]:
                etype, conn = self.mesh.blocks[b]
                xi = solid.inverse_map(etype, self.mesh.points[conn[e]][None], p[None])[0]
                if etype.inside(xi[None], tol)[0]:
                    best = (b, e, xi)
                    break
            if best is None:
                raise ModelError(f"{self.name}: point {p.tolist()} m lies outside the mesh; give points inside "
                                 "the body (coordinates in the mesh frame, m)")
            found.append(best)
        return found

    def interpolation(self, points):
        """Sparse interpolation matrix H (3n × ndof, rows (point, component)) with u(points) = H u.

        Parameters
        ----------
        points : (n, 3) array_like
            Points inside the mesh, m, mesh frame.
        """
        rows, cols, vals = [], [], []
        for k, (b, e, xi) in enumerate(self.locate(points)):
            etype, conn = self.mesh.blocks[b]
            N = etype.shape(xi[None])[0]
            for i in range(3):
                rows.append(np.full(len(N), 3 * k + i))
                cols.append(3 * conn[e] + i)
                vals.append(N)
        return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                             shape=(3 * len(np.atleast_2d(points)), self.ndof))

    def strain_operator(self, points):
        """Sparse strain operator B (6n × ndof, 1/m) with engineering Voigt strains ε(points) = B u.

        Parameters
        ----------
        points : (n, 3) array_like
            Points inside the mesh, m, mesh frame.
        """
        rows, cols, vals = [], [], []
        for k, (b, e, xi) in enumerate(self.locate(points)):
            etype, conn = self.mesh.blocks[b]
            G = solid.gradients_at(etype, self.mesh.points[conn[e]][None], xi[None])[0]     # (n, 3)
            for v, (i, j) in enumerate(solid.VOIGT):
                for comp, deriv in ((i, j), (j, i)) if i != j else ((i, i),):
                    rows.append(np.full(len(G), 6 * k + v))
                    cols.append(3 * conn[e] + comp)
                    vals.append(G[:, deriv])
        return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                             shape=(6 * len(np.atleast_2d(points)), self.ndof))

    def strain(self, u, points):
        """Engineering Voigt strains (n, 6) (ε_xx, ε_yy, ε_zz, γ_yz, γ_xz, γ_xy) at points, mesh axes.

        Parameters
        ----------
        u : (ndof,) array_like
            Nodal displacements, m, mesh frame, ordered (node, component).
        points : (n, 3) array_like
            Points inside the mesh, m, mesh frame.
        """
        return (self.strain_operator(points) @ u).reshape(-1, 6)

    def stress(self, u, points):
        """Cauchy stresses (n, 6) (σ_xx, σ_yy, σ_zz, τ_yz, τ_xz, τ_xy), Pa, at points, mesh axes.

        Parameters
        ----------
        u : (ndof,) array_like
            Nodal displacements, m, mesh frame, ordered (node, component).
        points : (n, 3) array_like
            Points inside the mesh, m, mesh frame.
        """
        return solid.stresses(self.strain(u, points), self.E, self.nu)
