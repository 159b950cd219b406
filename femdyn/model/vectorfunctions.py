"""Scalar functions φ(x_1, …, x_k, t) of affine coordinate 3-vectors x_j = E_j q + e_j, evaluated as a batch.

Kinds (García de Jalón & Bayo 1994, ch. 3): ``Linear`` d·x − f(t), ``Dot`` a·b − c, ``Angle``
wrap(θ(a, b, u) − θ₀ − f(t)), θ = atan2(u·(a×b), a·b); :class:`FunctionGroup` chains them with
E_j into sparse q-Jacobians and Hessians with a fixed pattern.
"""
import numpy as np

from ..geometry import skew


I3 = np.eye(3)




def cross(a, b):
    """Row-wise cross product of (m, 3) arrays (cheaper than np.cross for small batches)."""
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _wrap_to_pi(x):
    """Angles wrapped to [−π, π)."""
    return (x + np.pi) % (2 * np.pi) - np.pi


class Targets:
    """Per-equation right-hand sides c_i + f_i(t) (f_i optional TimeFunction)."""

    def __init__(self, constants, functions):
        self.c = np.asarray(constants, float)
        self.timed = [(i, f) for i, f in enumerate(functions) if f is not None]
        self.constant = (self.c, np.zeros_like(self.c), np.zeros_like(self.c))
        for a in self.constant:
            a.flags.writeable = False

    def derivatives(self, t):
        """The targets and their first and second time derivatives at t."""
        if not self.timed:
            return self.constant
        f0, f1, f2 = self.c.copy(), np.zeros_like(self.c), np.zeros_like(self.c)
        for i, f in self.timed:
            f0[i] += f.value(t)
            f1[i] = f.d1(t)
            f2[i] = f.d2(t)
        return f0, f1, f2


class Linear:
    """φ = d·x − target(t); ``params`` is the direction d, shape (m, 3)."""

    arity = 1
    mask = np.zeros((3, 3), bool)

    @staticmethod
    def evaluate(X, d, target):
        """φ and its gradient ∂φ/∂x for a batch of m equations."""
        return np.einsum("ij,ij->i", X[:, 0], d) - target, d.copy()

    @staticmethod
    def hessian(X, d):
        """∂²φ/∂x² for a batch (zero for a linear function)."""
        return np.zeros((len(X), 3, 3))

    @staticmethod
    def time_terms(X, d, target_d1, target_d2):
        """Partial time derivatives of φ: φ_t, ∂φ_t/∂x and φ_tt."""
        return -target_d1, np.zeros((len(X), 3)), -target_d2


class Dot:
    """φ = a·b − target; the target may depend on time (prescribed distance)."""

    arity = 2
    mask = np.block([[np.zeros((3, 3)), I3], [I3, np.zeros((3, 3))]]).astype(bool)
    _H = np.block([[np.zeros((3, 3)), I3], [I3, np.zeros((3, 3))]])

    @staticmethod
    def evaluate(X, params, target):
        """φ = a·b − target and its gradient (b, a) (see :meth:`Linear.evaluate`)."""
        a, b = X[:, 0], X[:, 1]
        return np.einsum("ij,ij->i", a, b) - target, np.concatenate([b, a], axis=1)

    @classmethod
    def hessian(cls, X, params):
        """The constant Hessian [[0, I], [I, 0]] of a·b, broadcast over the batch."""
        return np.broadcast_to(cls._H, (len(X), 6, 6))

    @staticmethod
    def time_terms(X, params, target_d1, target_d2):
        """φ_t = −target', no mixed term, φ_tt = −target'' (see :meth:`Linear.time_terms`)."""
        return -target_d1, np.zeros((len(X), 6)), -target_d2


class Angle:
    """θ(a, b, u) = atan2(u·(a×b), a·b): rotation of b relative to a about u."""

    arity = 3
    mask = np.ones((9, 9), bool)

    @staticmethod
    def _parts(X):
        a, b, u = X[:, 0], X[:, 1], X[:, 2]
        axb = cross(a, b)
        s = np.einsum("ij,ij->i", u, axb)
        c = np.einsum("ij,ij->i", a, b)
        gs = np.concatenate([cross(b, u), cross(u, a), axb], axis=1)
        gc = np.concatenate([b, a, np.zeros_like(a)], axis=1)
        return a, b, u, s, c, gs, gc

    @classmethod
    def angle(cls, X):
        """θ = atan2(u·(a×b), a·b) and its gradient ∇θ = (c∇s − s∇c)/r²."""
        _, _, _, s, c, gs, gc = cls._parts(X)
        r2 = (s * s + c * c)[:, None]
        return np.arctan2(s, c), (c[:, None] * gs - s[:, None] * gc) / r2

    @classmethod
    def evaluate(cls, X, params, target):
        """φ = wrap(θ − target) and ∇θ (see :meth:`Linear.evaluate`)."""
        theta, grad = cls.angle(X)
        return _wrap_to_pi(theta - target), grad

    @classmethod
    def hessian(cls, X, params=None):
        """H_θ (m, 9, 9) from the formula in the class docstring."""
        a, b, u, s, c, gs, gc = cls._parts(X)
        m = len(X)
        Hs = np.zeros((m, 9, 9))
        Hs[:, 0:3, 3:6], Hs[:, 0:3, 6:9], Hs[:, 3:6, 6:9] = -skew(u), skew(b), -skew(a)
        Hs = Hs + Hs.transpose(0, 2, 1)
        Hc = np.zeros((m, 9, 9))
        Hc[:, 0:3, 3:6] = Hc[:, 3:6, 0:3] = I3
        r2 = (s * s + c * c)[:, None, None]
        grad = (c[:, None] * gs - s[:, None] * gc) / r2[:, :, 0]
        outer = lambda x, y: x[:, :, None] * y[:, None, :]
        H = (c[:, None, None] * Hs - s[:, None, None] * Hc + outer(gs, gc) - outer(gc, gs)) / r2
        return H - 2 * outer(grad, s[:, None] * gs + c[:, None] * gc) / r2

    @staticmethod
    def time_terms(X, params, target_d1, target_d2):
        """φ_t = −target', no mixed term, φ_tt = −target'' (see :meth:`Linear.time_terms`)."""
        return -target_d1, np.zeros((len(X), 9)), -target_d2


class FunctionGroup:
    """m functions of one kind over affine vectors, chained to the global coordinates."""

    def __init__(self, kind, exprs, params, targets, n):
        self.kind, self.params, self.targets, self.m = kind, params, targets, len(exprs)
        k3 = 3 * kind.arity
        rows, cols, vals, offsets = [], [], [], []
        for i, vecs in enumerate(exprs):
            for j, e in enumerate(vecs):
                r, c, v = e.coo(i * k3 + 3 * j)
                rows.append(r), cols.append(c), vals.append(v)
                offsets.append(e.offset)
        rows, cols, vals = (np.concatenate(x) if x else np.zeros(0) for x in (rows, cols, vals))
        self.rows, self.cols, self.vals = rows.astype(np.int64), cols.astype(np.int64), vals
        self.offset = np.concatenate(offsets) if offsets else np.zeros(0)
        self.eq = self.rows // k3                       # equation of each J entry
        self._hessian_pairs(k3)

    def _hessian_pairs(self, k3):
        """All pairs of J entries in the same equation whose Hessian entry can be nonzero."""
        order = np.argsort(self.eq, kind="stable")
        bounds = np.searchsorted(self.eq[order], np.arange(self.m + 1))
        ia, ib = [], []
        for i in range(self.m):
            idx = order[bounds[i]:bounds[i + 1]]
            A, B = np.meshgrid(idx, idx, indexing="ij")
            keep = self.kind.mask[self.rows[A] % k3, self.rows[B] % k3]
            ia.append(A[keep]), ib.append(B[keep])
        ia = np.concatenate(ia) if ia else np.zeros(0, int)
        ib = np.concatenate(ib) if ib else np.zeros(0, int)
        self.h_rows, self.h_cols = self.cols[ia], self.cols[ib]
        self.h_eq = self.eq[ia]
        self.h_flat = self.h_eq * k3 * k3 + (self.rows[ia] % k3) * k3 + self.rows[ib] % k3
        self.h_coef = self.vals[ia] * self.vals[ib]

    def vectors(self, q):
        """The vectors x_j = E_j q + e_j of every equation."""
        size = self.m * 3 * self.kind.arity
        X = np.bincount(self.rows, weights=self.vals * q[self.cols], minlength=size) + self.offset
        return X.reshape(self.m, self.kind.arity, 3)

    def evaluate(self, q, t):
        """φ (m,) and the values of Φ_q on the pattern (self.eq, self.cols)."""
        X = self.vectors(q)
        target = self.targets.derivatives(t)[0]
        phi, grad = self.kind.evaluate(X, self.params, target)
        return phi, grad.ravel()[self.rows] * self.vals

    def hessian_values(self, q, weights):
        """Values of Σ_i w_i ∂²φ_i/∂q² on the pattern (h_rows, h_cols)."""
        H = self.kind.hessian(self.vectors(q), self.params)
        return H.reshape(-1)[self.h_flat] * self.h_coef * weights[self.h_eq]

    def acceleration_terms(self, q, v, t):
        """φ_t and ζ = vᵀ(∂²φ/∂q²)v + 2 (∂φ_t/∂q)·v + φ_tt, so that φ̈ = Φ_q q̈ + ζ."""
        X = self.vectors(q)
        V = np.bincount(self.rows, weights=self.vals * v[self.cols], minlength=self.m * 3 * self.kind.arity)
        V = V.reshape(self.m, -1)
        _, d1, d2 = self.targets.derivatives(t)
        phi_t, grad_t, phi_tt = self.kind.time_terms(X, self.params, d1, d2)
        H = self.kind.hessian(X, self.params)
        zeta = np.einsum("mi,mij,mj->m", V, H, V) + 2 * np.einsum("mi,mi->m", grad_t, V) + phi_tt
        return phi_t, zeta
