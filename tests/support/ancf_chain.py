"""Minimal test helper: a chain of ANCF elements sharing end nodes (node e and e+1 for
element e of two-node elements; e(k−1) … e(k−1)+k−1 for k nodes per element), clamping
by dof elimination, Newton statics with load stepping and the generalized eigenproblem of the reduced K, M. Not part of femdyn's solver layer."""
import numpy as np
import scipy.linalg
import scipy.sparse
import scipy.sparse.linalg


def rotation(dim, seed):
    """A random proper rotation matrix (dim = 2 or 3)."""
    rng = np.random.default_rng(seed)
    if dim == 2:
        a = rng.uniform(0, 2 * np.pi)
        return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    Q, _ = np.linalg.qr(rng.normal(size=(3, 3)))
    return Q * np.sign(np.linalg.det(Q))


def central_difference(fun, q, h):
    """Column-wise central differences of fun (n_el, …) w.r.t. q (n_el, n): (n_el, …, n)."""
    cols = []
    for i in range(q.shape[1]):
        dq = np.zeros_like(q)
        dq[:, i] = h
        cols.append((fun(q + dq) - fun(q - dq)) / (2 * h))
    return np.stack(cols, axis=-1)


def check_energy_derivatives(element, q, tol=1e-6):
    """The internal force is the gradient of the strain energy and the tangent the Jacobian
    of the force, by central differences (h = 1e-6 and 1e-7 m: truncation and round-off
    stay below ``tol`` relative); the tangent of a conservative force is symmetric."""
    F = element.internal_force(q)
    assert np.abs(F - central_difference(element.strain_energy, q, 1e-6)).max() <= tol * np.abs(F).max()
    K, _ = element.stiffness(q)
    assert np.abs(K - central_difference(element.internal_force, q, 1e-7)).max() <= tol * np.abs(K).max()
    assert np.abs(K - np.swapaxes(K, 1, 2)).max() <= 1e-10 * np.abs(K).max()


def straight_nodes(element_class, n_el, length, direction=(1.0, 0.0, 0.0)):
    """Reference coordinates (n_el, ndof) of a straight chain from the origin along ``direction``."""
    dim = element_class.dim
    t = np.asarray(direction, float)[:dim]
    t = t / np.linalg.norm(t)
    nodes = []
    for x in np.linspace(0.0, length, n_el + 1):
        node = [x * t, t]
        if element_class.ndof == 24:                     # full beam: add r_y, r_z (t along x assumed)
            node += [np.array([0.0, 1.0, 0.0]), np.array([0.0, 0.0, 1.0])]
        nodes.append(np.concatenate(node))
    nodes = np.array(nodes)
    return np.hstack([nodes[:-1], nodes[1:]]), nodes.ravel()


class Chain:
    def __init__(self, element):
        self.el = element
        self.nn = element.ndof // element.n_nodes        # dofs per node
        stride = self.nn * (element.n_nodes - 1)         # consecutive elements share one end node
        self.n = element.n_el * stride + self.nn
        self.idx = np.arange(element.n_el)[:, None] * stride + np.arange(element.ndof)[None, :]

    def gather(self, q):
        return q[self.idx]

    def vector(self, fe):
        f = np.zeros(self.n)
        np.add.at(f, self.idx, fe)
        return f

    def matrix(self, Ke):
        K = np.zeros((self.n, self.n))
        np.add.at(K, (self.idx[:, :, None], self.idx[:, None, :]), Ke)
        return K

    def force(self, q):
        return self.vector(self.el.internal_force(self.gather(q)))

    def tangent(self, q):
        return self.matrix(self.el.stiffness(self.gather(q))[0])

    def node_dofs(self, node, which=None):
        dofs = node * self.nn + np.arange(self.nn)
        return dofs if which is None else dofs[which]

    def free(self, fixed):
        mask = np.ones(self.n, bool)
        mask[np.asarray(fixed, int)] = False
        return np.flatnonzero(mask)

    def solve_static(self, q0, f_ext, fixed, steps=1, tol=1e-10, max_iter=30):
        """Newton with load stepping; converged when |R| ≤ tol·|f_ext| on the free dofs or
        when the Newton update reaches round-off (|Δq| ≤ 1e-14 |q|, stiff axial terms
        leave a residual floor of ~EA·1e-16)."""
        free = self.free(fixed)
        q = q0.copy()
        scale = max(np.linalg.norm(f_ext[free]), 1e-300)
        for lam in np.linspace(0, 1, steps + 1)[1:]:
            for _ in range(max_iter):
                R = lam * f_ext[free] - self.force(q)[free]
                if np.linalg.norm(R) <= tol * scale:
                    break
                K = self.tangent(q)[np.ix_(free, free)]
                dq = scipy.sparse.linalg.spsolve(scipy.sparse.csc_matrix(K), R)   # banded: SuperLU
                q[free] += dq
                if np.linalg.norm(dq) <= 1e-14 * np.linalg.norm(q):
                    break
            else:
                raise RuntimeError(f"Newton did not converge at load factor {lam}")
        return q

    def frequencies(self, q, fixed=()):
        """Angular eigenfrequencies [rad/s] of the chain linearized at q, dofs ``fixed`` removed."""
        free = self.free(fixed)
        K = self.tangent(q)[np.ix_(free, free)]
        M = self.matrix(self.el.mass())[np.ix_(free, free)]
        lam = scipy.linalg.eigh(0.5 * (K + K.T), M, eigvals_only=True)
        return np.sqrt(np.abs(lam)) * np.sign(lam)
