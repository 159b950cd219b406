"""A linear-elastic solid on a volume mesh: sparse stiffness and consistent mass, mass
properties, rigid-body modes, and interpolation of displacements and strains at points.

Degrees of freedom are the nodal displacements in the mesh frame, ordered
(node, component): dof 3a + i is u_i of node a [m]. Assembly is vectorized over the
elements of each block (:mod:`femdyn.elements.solid`) and scattered into a node-level
pattern computed once: the stiffness is built as 3×3 node blocks (BSR), the mass as the
scalar mass M_s (node × node) and M = M_s ⊗ I₃. Elements are processed in chunks so that
the element matrices of a million-dof mesh never sit in memory at once.
"""
import numpy as np
import scipy.sparse as sp
from scipy.spatial import cKDTree

from femdyn.elements import solid
from femdyn.errors import ModelError
from femdyn.geometry import skew

CHUNK = 20000        # elements per vectorized batch (bounds memory: Tet10 K is 900 floats per element)


class _NodePattern:
    """The node-pair sparsity of the element blocks, with each element entry's slot."""

    def __init__(self, mesh):
        n = mesh.n_nodes
        keys = [(c[:, :, None] * n + c[:, None, :]).ravel() for _, c in mesh.blocks]
        unique, index = np.unique(np.concatenate(keys), return_inverse=True)
        self.nnz, self.index, self.n = len(unique), index, n
        self.indices = (unique % n).astype(np.int32)
        self.indptr = np.concatenate([[0], np.cumsum(np.bincount(unique // n, minlength=n))]).astype(np.int32)
        sizes = [c.shape[0] * c.shape[1] ** 2 for _, c in mesh.blocks]
        self.offsets = np.concatenate([[0], np.cumsum(sizes)])

    def scatter(self, block, start, values):
        """Σ of values (chunk of elements starting at ``start`` of ``block``, (n_el, n, n, ...))
        into the pattern's slots: (nnz, ...)."""
        n_el, n = values.shape[:2]
        lo = self.offsets[block] + start * n * n
        idx = self.index[lo:lo + n_el * n * n]
        flat = values.reshape(n_el * n * n, -1)
        return np.stack([np.bincount(idx, weights=flat[:, k], minlength=self.nnz) for k in range(flat.shape[1])], -1)


class SolidBody:
    """An isotropic linear-elastic body on a :class:`~femdyn.mesh.solid.SolidMesh`.

    Small displacements u (ndof,) of the mesh nodes, ordered (node, component), in the mesh
    frame; sparse stiffness and consistent mass are assembled on the first request and kept.

    Parameters
    ----------
    mesh : SolidMesh
        The volume mesh (coordinates in m).
    E : float
        Young's modulus [Pa].
    nu : float
        Poisson ratio.
    rho : float
        Density [kg/m³].
    name : str, optional
        Label for messages.
    check_units : bool, optional
        Refuse E < 1e5 Pa and ρ outside 10–30000 kg/m³ (a unit mix-up); False for exotic
        materials.

    Raises
    ------
    ModelError
        For a bad material, or E and ρ far outside engineering ranges (a unit mix-up:
        E in MPa or GPa, ρ in g/cm³).

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
        self._K = self._Ms = self._pattern = None
        self._tree = None

    # ------------------------------------------------------------------ assembly
    @property
    def pattern(self):
        if self._pattern is None:
            self._pattern = _NodePattern(self.mesh)
        return self._pattern

    def _assemble(self, kernel, width):
        p = self.pattern
        data = np.zeros((p.nnz, width))
        for b, (etype, conn) in enumerate(self.mesh.blocks):
            for s in range(0, len(conn), CHUNK):
                X = self.mesh.points[conn[s:s + CHUNK]]
                data += p.scatter(b, s, kernel(etype, X))
        return data

    def stiffness(self):
        """Sparse stiffness K (ndof × ndof, CSR) [N/m]; assembled once and kept."""
        if self._K is None:
            def kernel(etype, X):
                n = etype.n_nodes
                Ke = solid.stiffness_matrices(etype, X, self.E, self.nu).reshape(len(X), n, 3, n, 3)
                return np.ascontiguousarray(Ke.transpose(0, 1, 3, 2, 4))
            data = self._assemble(kernel, 9).reshape(-1, 3, 3)
            p = self.pattern
            self._K = sp.bsr_matrix((data, p.indices, p.indptr), shape=(self.ndof,) * 2).tocsr()
        return self._K

    def scalar_mass(self):
        """Scalar consistent mass M_s (n_nodes × n_nodes, CSR) [kg]: M_s,ab = ∫ρ N_a N_b dV."""
        if self._Ms is None:
            data = self._assemble(lambda etype, X: solid.scalar_mass_matrices(etype, X, self.rho), 1)[:, 0]
            p = self.pattern
            self._Ms = sp.csr_matrix((data, p.indices, p.indptr), shape=(p.n, p.n))
        return self._Ms

    def mass(self):
        """Consistent mass M = M_s ⊗ I₃ (ndof × ndof, CSR) [kg]."""
        return sp.kron(self.scalar_mass(), sp.identity(3), format="csr")

    # ------------------------------------------------------------------ rigid body
    def mass_properties(self):
        """Mass [kg], centre of mass [m] and inertia tensor about the centre of mass [kg m²]
        in the mesh frame, integrated exactly with the consistent mass:
        m = 1ᵀM_s1, m c = Xᵀ M_s 1, J = Xᵀ M_s X, I = tr(J_c) 1 − J_c with J_c = J − m c cᵀ."""
        Ms, X = self.scalar_mass(), self.mesh.points
        w = np.asarray(Ms.sum(axis=1)).ravel()
        m = w.sum()
        c = X.T @ w / m
        J = X.T @ (Ms @ X) - m * np.outer(c, c)
        return {"mass": m, "com": c, "inertia": np.trace(J) * np.eye(3) - J}

    def rigid_modes(self, origin=(0.0, 0.0, 0.0)):
        """The six rigid-body displacement fields of the mesh nodes.

        Translations along x, y, z, then small rotations about x, y, z through ``origin``
        (u = θ × (x − origin)).

        Parameters
        ----------
        origin : (3,) array_like, optional
            Centre of the rotations [m], mesh frame.

        Returns
        -------
        (ndof, 6) ndarray
            Columns: unit translations [m] and unit rotations [m/rad].

        Examples
        --------
        >>> from femdyn.mesh.generate import box_mesh
        >>> body = SolidBody(box_mesh((1, 0.1, 0.1), (2, 1, 1)), E=2.1e11, nu=0.3, rho=7800)
        >>> R = body.rigid_modes()
        >>> float(abs(body.stiffness() @ R).max()) < 1e-3      # no strain energy: K R = 0
        True
        """
        r = self.mesh.points - np.asarray(origin, float)
        R = np.zeros((self.mesh.n_nodes, 3, 6))
        R[:, :, :3] = np.eye(3)
        R[:, :, 3:] = -skew(r)
        return R.reshape(self.ndof, 6)

    # ------------------------------------------------------------------ points
    def locate(self, points, tol=1e-6):
        """Elements holding physical points.

        Parameters
        ----------
        points : (n, 3) array_like
            Points [m], mesh frame.
        tol : float, optional
            Tolerance in reference coordinates for a point on an element boundary.

        Returns
        -------
        list of (int, int, (3,) ndarray)
            For each point: block index, element index in the block, reference coordinates ξ.

        Raises
        ------
        ModelError
            For a point outside the mesh (by more than ``tol`` in reference coordinates).
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
        """Sparse interpolation matrix H with u(points) = H u.

        Parameters
        ----------
        points : (n, 3) array_like
            Points [m] inside the mesh, mesh frame.

        Returns
        -------
        scipy.sparse.csr_matrix
            H (3n × ndof), rows ordered (point, component).

        Raises
        ------
        ModelError
            For a point outside the mesh.
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
        """Sparse strain operator B with engineering strains ε(points) = B u.

        Parameters
        ----------
        points : (n, 3) array_like
            Points [m] inside the mesh, mesh frame.

        Returns
        -------
        scipy.sparse.csr_matrix
            B (6n × ndof) [1/m], rows ordered (point, Voigt component
            ε_xx, ε_yy, ε_zz, γ_yz, γ_xz, γ_xy).

        Raises
        ------
        ModelError
            For a point outside the mesh.
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
        """Engineering strains at points for a nodal displacement field.

        Parameters
        ----------
        u : (ndof,) array_like
            Nodal displacements [m], mesh frame.
        points : (n, 3) array_like
            Points [m] inside the mesh.

        Returns
        -------
        (n, 6) ndarray
            Voigt strains (ε_xx, ε_yy, ε_zz, γ_yz, γ_xz, γ_xy), mesh axes.

        Raises
        ------
        ModelError
            For a point outside the mesh.
        """
        return (self.strain_operator(points) @ u).reshape(-1, 6)

    def stress(self, u, points):
        """Cauchy stresses at points for a nodal displacement field (linear elasticity).

        Parameters
        ----------
        u : (ndof,) array_like
            Nodal displacements [m], mesh frame.
        points : (n, 3) array_like
            Points [m] inside the mesh.

        Returns
        -------
        (n, 6) ndarray
            (σ_xx, σ_yy, σ_zz, τ_yz, τ_xz, τ_xy) [Pa], mesh axes.

        Raises
        ------
        ModelError
            For a point outside the mesh.

        Examples
        --------
        >>> from femdyn.mesh.generate import box_mesh
        >>> body = SolidBody(box_mesh((1, 0.1, 0.1), (2, 1, 1)), E=2e11, nu=0.3, rho=7800)
        >>> u = 1e-3 * body.mesh.points[:, [0]] * [1, 0, 0]     # u_x = 1e-3 x: ε_xx = 1e-3
        >>> body.strain(u.ravel(), [[0.5, 0.05, 0.05]])[0, 0].round(12)
        np.float64(0.001)
        """
        return solid.stresses(self.strain(u, points), self.E, self.nu)
