"""Transient rigid-body correction: restore Φ = 0 within a generalized-α step by moving
flexible links as rigid shapes (Liu et al. 2018).

When Newton stalls in the constraints, :class:`RigidBodyCorrection` (``Options(corrector=...)``)
freezes each flexible group's deformation and finds the smallest mass-weighted change
min ½ Δqᵀ W Δq subject to Φ(q + Δq, t) = 0, the groups moving rigidly
(r → c + d + R(θ)(r − c), g → R(θ) g), by Gauss–Newton on
[[TᵀWT, (Φ_q T)ᵀ], [Φ_q T, 0]] [p; μ] = [−TᵀWΔq; −Φ]. Trigger, correction space and
consistency with the scheme: docs/solvers.md ("Rigid-body correction").
"""
import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from femdyn.errors import ConvergenceError
from femdyn.geometry import rotation_matrix, skew

from .initial import projection_diagonal


class RigidBodyCorrection:
    """Corrector for ``Options(corrector=RigidBodyCorrection())`` (see the module docstring)."""

    def __init__(self, after=3, stall=0.5, per_step=2, tol=1e-12, max_iterations=20):
        self.after, self.stall, self.per_step, self.tol = after, stall, per_step, tol
        self.max_iterations = max_iterations
        self.done = 0
        self._space = None

    def __repr__(self):
        return f"RigidBodyCorrection(after={self.after}, stall={self.stall}, per_step={self.per_step})"

    def needed(self, history):
        """Whether the Newton iteration of the current step has stalled in the constraints."""
        if len(history) == 1:
            self.done = 0
        if len(history) <= self.after or self.done >= self.per_step:
            return False
        (_, dyn0, con0), (_, dyn1, con1) = history[-2], history[-1]
        return con1 > 0 and con1 > self.stall * con0 and dyn1 > self.stall * dyn0 and con1 > self.tol

    def apply(self, step, x):
        """Move the Newton iterate onto Φ = 0 (see the module docstring)."""
        system = step.sys
        self.done += 1
        before = float(np.abs(system.constraints.phi(x.q, x.t)).max())
        q = correct_positions(system, x.q, x.t, self.tol, self.max_iterations, self._groups(system))
        dq = q - x.q
        dx = np.zeros(step.increment_size(x))
        dx[:system.n] = dq
        step.update(x, dx)
        after = float(np.abs(system.constraints.phi(x.q, x.t)).max())
        return {"constraint_before": before, "constraint_after": after, "largest_change": float(np.abs(dq).max())}

    def _groups(self, system):
        if self._space is None or self._space[0] is not system:
            self._space = (system, _flexible_groups(system))
        return self._space[1]


def _flexible_groups(system):
    """The nodes of element sets that share nodes, merged into groups moved as one rigid shape."""
    groups = []
    for element_set in system.elements:
        nodes = {id(n): n for pair in element_set.element_nodes for n in pair}
        merged = [g for g in groups if set(g) & set(nodes)]
        for g in merged:
            nodes.update(g)
            groups.remove(g)
        groups.append(nodes)
    return [list(g.values()) for g in groups]


def correct_positions(system, q, t, tol=1e-12, max_iterations=20, groups=None):
    """Smallest mass-weighted change of q making Φ(q, t) = 0, flexible groups moved rigidly (Liu et al. 2018)."""
    groups = _flexible_groups(system) if groups is None else groups
    free, blocks = _partition(system, groups)
    start, q = q, q.copy()
    W = system.mass(q) + sp.diags(projection_diagonal(system, q))
    for _ in range(max_iterations):
        phi, jac = system.constraints.evaluate(q, t)
        if np.abs(phi).max(initial=0.0) <= tol:
            return q
        T = _motion_basis(system, q, free, blocks)
        J = system.constraints.jac_pattern.matrix(jac) @ T
        K = (T.T @ W @ T).tocsc()
        S = sp.bmat([[K, J.T], [J, None]], format="csc")
        rhs = np.concatenate([-(T.T @ (W @ (q - start))), -phi])
        p = spla.splu(S).solve(rhs)[:T.shape[1]]
        q = _move(q, p, free, blocks)
    raise ConvergenceError(f"rigid-body correction at t = {t:.6g} s: |Φ| = {np.abs(phi).max():.3g} after "
                           f"{max_iterations} iterations; the rigid motions of the flexible links cannot close "
                           "the constraints")


def _group_dofs(group):
    """Position and gradient coordinate indices (k, 3) of the nodes of a group."""
    positions = np.array([n.start + np.arange(3) for n in group])
    gradients = np.array([n.start + 3 * s + np.arange(3) for n in group for s in range(1, len(n.slots))])
    return positions, gradients.reshape(-1, 3)


def _partition(system, groups):
    """The coordinates outside every group, and each group's (positions, gradients) indices."""
    blocks = [_group_dofs(g) for g in groups]
    flexible = np.zeros(system.n, bool)
    for positions, gradients in blocks:
        flexible[positions.ravel()] = True
        flexible[gradients.ravel()] = True
    return np.flatnonzero(~flexible), blocks


def _motion_basis(system, q, free, blocks):
    """T (n × p): identity columns for ``free`` coordinates, six (d, θ) per group: δr = d + θ × (r − c), δg = θ × g."""
    rows, cols, vals = [free], [np.arange(free.size)], [np.ones(free.size)]
    column = free.size
    for positions, gradients in blocks:
        rows.append(positions.ravel()), cols.append(np.tile(column + np.arange(3), len(positions)))
        vals.append(np.ones(positions.size))
        arms = np.vstack([q[positions] - q[positions].mean(axis=0), q[gradients]])
        idx = np.vstack([positions, gradients])
        rows.append(np.repeat(idx.ravel(), 3))
        cols.append(np.tile(column + 3 + np.arange(3), idx.size))
        vals.append(-skew(arms).reshape(-1))              # θ × a = −[a]× θ
        column += 6
    return sp.csr_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(system.n, column))


def _move(q, p, free, blocks):
    """Apply the parameters p: free coordinates added, each group moved rigidly (exact rotation about its centroid)."""
    q = q.copy()
    q[free] += p[:free.size]
    column = free.size
    for positions, gradients in blocks:
        d, R = p[column:column + 3], rotation_matrix(p[column + 3:column + 6])
        centre = q[positions].mean(axis=0)
        q[positions] = centre + d + (q[positions] - centre) @ R.T
        q[gradients] = q[gradients] @ R.T
        column += 6
    return q


