"""The assembled, frozen form of a model.

Holds the constant sparse mass matrix (CSR, assembled once), the constraint set and the
generalized forces with their tangent patterns. Equations of motion (seed 002):
M q̈ + Φ_qᵀ λ = Q(q, q̇, t), Φ(q, t) = 0. SI units throughout.
"""
import numpy as np
import scipy.sparse
import scipy.sparse.csgraph

from .constraints import ConstraintSet
from ..errors import ModelError
from .loads import ConstantForce
from ..sparse import Pattern


class System:
    """Assembled model: ``M``, ``constraints``, ``forces``, ``stiffness_values``, energies."""

    def __init__(self, model):
        self.model, self.n = model, model.size
        if self.n == 0:
            raise ModelError(f"model '{model.name}' has no nodes; add points, vectors or element nodes")
        self.q0, self.v0 = model.initial_coordinates()
        self._assemble_mass()
        self._assemble_constraints()
        self._bind_loads()
        for sensor in model.sensors:
            sensor.bind(self)
        self.labels = self._coordinate_labels()

    # --- assembly ----------------------------------------------------------------
    def _assemble_mass(self):
        coo = [b.mass_coo() for b in self.model.bodies.values()] + [e.mass_coo() for e in self.model.elements]
        rows, cols, vals = (np.concatenate(x) if coo else np.zeros(0) for x in zip(*coo)) if coo else ([], [], [])
        self.mass_rows, self.mass_cols, self.mass_values = np.asarray(rows, int), np.asarray(cols, int), np.asarray(vals)
        self.M = Pattern(self.mass_rows, self.mass_cols, (self.n, self.n)).assemble(self.mass_values)

    def _assemble_constraints(self):
        """Rows of the nodes, bodies and joints; of the auxiliary joints (rows the model adds
        by itself, e.g. the plane of a planar cable) only the rows independent of the others."""
        m = self.model
        equations = m.unit_vector_equations() + m.rigid_body_equations()
        joint_eqs = {name: j.equations() for name, j in m.joints.items()}
        primary = equations + [e for name, j in m.joints.items() if not j.auxiliary for e in joint_eqs[name]]
        auxiliary = [e for name, j in m.joints.items() if j.auxiliary for e in joint_eqs[name]]
        keep = iter(_independent_rows(primary, auxiliary, self.n, self.q0))
        for name, joint in m.joints.items():
            eqs = [e for e in joint_eqs[name] if not joint.auxiliary or next(keep)]
            joint.rows = np.arange(len(equations), len(equations) + len(eqs))
            equations += eqs
        self.constraints = ConstraintSet(equations, self.n)
        self.m = self.constraints.m

    def _bind_loads(self):
        g = np.zeros(self.n)
        for part in list(self.model.bodies.values()) + self.model.elements:
            dofs, vals = part.gravity(self.model.gravity)
            np.add.at(g, dofs, vals)
        self.gravity_force = g
        self.loads = [ConstantForce("gravity", g)] + list(self.model.loads)
        for load in self.loads:
            load.bind(self.n)
        parts = [(ld.k_rows, ld.k_cols) for ld in self.loads] + [(e.k_rows, e.k_cols) for e in self.model.elements]
        self.k_rows = np.concatenate([p[0] for p in parts]).astype(int)
        self.k_cols = np.concatenate([p[1] for p in parts]).astype(int)
        self.c_rows, self.c_cols = self._damping_pattern()

    def _damping_pattern(self):
        parts = [(e.c_rows, e.c_cols) for e in self.model.elements]
        if not parts:
            return np.zeros(0, int), np.zeros(0, int)
        return np.concatenate([p[0] for p in parts]).astype(int), np.concatenate([p[1] for p in parts]).astype(int)

    def _coordinate_labels(self):
        labels = [""] * self.n
        for node in self.model.nodes.values():
            for i, s in enumerate(node.slots):
                for k in range(3):
                    labels[node.start + 3 * i + k] = f"{node.name}.{s}{'xyz'[k]}"
        return labels

    # --- evaluation --------------------------------------------------------------
    def forces(self, q, v, t, load_factor=1.0):
        """Q(q, v, t): applied loads (scaled by ``load_factor``) minus internal element forces."""
        Q = load_factor * sum(load.force(q, v, t) for load in self.loads)
        for e in self.model.elements:
            Q = Q - e.internal_force(q, v)
        return Q

    def tangent_values(self, q, v, t, load_factor=1.0):
        """COO values of K = −∂Q/∂q on (k_rows, k_cols) and C = −∂Q/∂v on (c_rows, c_cols)."""
        k = [load_factor * load.stiffness_values(q, v, t) for load in self.loads]
        c = []
        for e in self.model.elements:
            ke, ce = e.tangent_values(q, v)
            k.append(ke)
            c.append(ce)
        return np.concatenate(k), (np.concatenate(c) if c else np.zeros(0))

    def kinetic_energy(self, v):
        return 0.5 * v @ (self.M @ v)

    def potential_energy(self, q):
        """Gravity potential −Q_gᵀq (constant gravity) plus elastic strain energy (J)."""
        return -self.gravity_force @ q + sum(e.strain_energy(q) for e in self.model.elements)

    # --- diagnosis ---------------------------------------------------------------
    def rank_of_jacobian(self, q, t=0.0):
        """Numerical rank of Φ_q (dense SVD; meant for model checks, not inner loops)."""
        if self.m == 0:
            return 0, np.zeros(0)
        s = np.linalg.svd(self.constraints.jacobian(q, t).toarray(), compute_uv=False)
        return int(np.sum(s > 1e-9 * max(s[0], 1e-300))), s

    def redundant_constraints(self, q, t=0.0, count=6):
        """Labels of the constraint rows that take part in a linear dependency of Φ_q."""
        Phi_q = self.constraints.jacobian(q, t).toarray()
        U, s, _ = np.linalg.svd(Phi_q, full_matrices=self.m > self.n)   # full U only when m > n
        tol = 1e-9 * max(s[0], 1e-300) if s.size else 0.0
        rank = int(np.sum(s > tol))
        if rank == self.m:
            return []
        weight = np.abs(U[:, rank:]).max(axis=1)
        return [self.constraints.labels[i] for i in np.argsort(-weight)[:count] if weight[i] > 1e-6]

    def degrees_of_freedom(self, q=None, t=0.0):
        return self.n - self.rank_of_jacobian(self.q0 if q is None else q, t)[0]

    def summary(self, dense_limit=1000):
        """Text summary; the rank of Φ_q (dense SVD) is computed for m ≤ ``dense_limit``."""
        m = self.model
        if self.m <= dense_limit:
            rank = self.rank_of_jacobian(self.q0)[0]
            counts = f"(rank {rank}), {self.n - rank} degrees of freedom"
        else:
            counts = f"(rank not computed above {dense_limit} rows), at least {self.n - self.m} degrees of freedom"
        lines = [f"model '{m.name}': {self.n} coordinates, {self.m} constraint equations {counts}",
                 f"  nodes {len(m.nodes)}, bodies {len(m.bodies)}, elements {sum(e.count for e in m.elements)}, "
                 f"joints {len(m.joints)}, loads {len(m.loads)}, sensors {len(m.sensors)}",
                 f"  total mass of bodies {sum(b.mass for b in m.bodies.values()):.6g} kg, "
                 f"gravity {m.gravity.tolist()} m/s²"]
        lines += [f"  joint {j.name}: {j.kind}, {len(j.rows)} equations" for j in m.joints.values()]
        return "\n".join(lines)


def _independent_rows(primary, candidates, n, q0, tol=1e-9):
    """For each candidate equation, whether to keep it: a candidate is kept only if its
    Jacobian row at q0 is linearly independent of the primary rows and of the candidates
    kept before it (relative residual of its projection on their span > ``tol``).

    Dependencies can only occur within a connected block of rows that share coordinates
    (connected components of the row–coordinate incidence graph), so each block is
    tested with a dense orthogonal projection of its own rows; the auxiliary rows of a
    planar cable touch only their node, which keeps these blocks small for long cables."""
    if not candidates:
        return []
    rows = ConstraintSet(primary + candidates, n).jacobian(q0, 0.0).tocsr()
    rows.eliminate_zeros()
    m = rows.shape[0]
    incidence = scipy.sparse.bmat([[None, rows != 0], [(rows != 0).T, None]], format="csr")
    _, label = scipy.sparse.csgraph.connected_components(incidence, directed=False)
    keep = np.ones(len(candidates), bool)
    first = len(primary)
    for block in np.unique(label[first:m]):
        members = np.flatnonzero(label[:m] == block)
        cols = np.flatnonzero(label[m:] == block)
        dense = rows[members][:, cols].toarray()
        basis = _row_basis(dense[members < first], tol)
        for k, row in zip(members[members >= first], dense[members >= first]):
            residual = row - basis.T @ (basis @ row)
            if np.linalg.norm(residual) <= tol * np.linalg.norm(row):
                keep[k - first] = False
            else:
                basis = np.vstack([basis, residual / np.linalg.norm(residual)])
    return keep.tolist()


def _row_basis(A, tol):
    """Orthonormal basis (rows) of the row space of A (singular values > tol·max)."""
    if A.shape[0] == 0:
        return np.zeros((0, A.shape[1]))
    _, s, Vt = np.linalg.svd(A, full_matrices=False)
    return Vt[s > tol * max(s[0], 1e-300)]
