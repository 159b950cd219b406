"""Scalar functions φ(x_1, …, x_k, t) of affine coordinate 3-vectors x_j = E_j q + e_j, evaluated as a batch.

Kinds (García de Jalón & Bayo 1994, ch. 3): ``Linear`` d·x − f(t), ``Dot`` a·b − c, ``Angle``
wrap(θ(a, b, u) − θ₀ − f(t)), θ = atan2(u·(a×b), a·b); :class:`FunctionGroup` chains them with
E_j into sparse q-Jacobians and Hessians with a fixed pattern. The built-in kinds also have a
compiled form (:class:`Batch`: gather from q, evaluate, write into global rows and pattern slots
in one call); the kinds' numpy methods are the generic path (any other kind, e.g. the
floating-frame Attachment) and the reference the compiled one is tested against.
"""
import numpy as np
from numba import njit

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

    def __init__(self, kind, exprs, params, targets, n, compiled=True):
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
        self.batch = Batch([(np.arange(self.m), self)], self.m) if compiled and kind in CODES else None

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
        if self.batch is not None:
            return self.batch.evaluate(q, t)
        X = self.vectors(q)
        target = self.targets.derivatives(t)[0]
        phi, grad = self.kind.evaluate(X, self.params, target)
        return phi, grad.ravel()[self.rows] * self.vals

    def hessian_values(self, q, weights):
        """Values of Σ_i w_i ∂²φ_i/∂q² on the pattern (h_rows, h_cols)."""
        if self.batch is not None:
            return self.batch.hessian_values(q, weights)
        H = self.kind.hessian(self.vectors(q), self.params)
        return H.reshape(-1)[self.h_flat] * self.h_coef * weights[self.h_eq]

    def acceleration_terms(self, q, v, t):
        """φ_t and ζ = vᵀ(∂²φ/∂q²)v + 2 (∂φ_t/∂q)·v + φ_tt, so that φ̈ = Φ_q q̈ + ζ."""
        if self.batch is not None:
            phi_t, gamma = self.batch.acceleration_terms(q, v, t)
            return phi_t, -gamma
        X = self.vectors(q)
        V = np.bincount(self.rows, weights=self.vals * v[self.cols], minlength=self.m * 3 * self.kind.arity)
        V = V.reshape(self.m, -1)
        _, d1, d2 = self.targets.derivatives(t)
        phi_t, grad_t, phi_tt = self.kind.time_terms(X, self.params, d1, d2)
        H = self.kind.hessian(X, self.params)
        zeta = np.einsum("mi,mij,mj->m", V, H, V) + 2 * np.einsum("mi,mi->m", grad_t, V) + phi_tt
        return phi_t, zeta


CODES = {Linear: 0, Dot: 1, Angle: 2}     # the kinds with a compiled form (:class:`Batch`)


class Batch:
    """Groups (global rows, FunctionGroup) of the kinds in ``CODES`` packed for one compiled call per operation."""

    # the Jacobian and Hessian values of each group go to consecutive slots in list order (the
    # groups' own patterns, concatenated); m is the length of the global row arrays
    def __init__(self, groups, m):
        self.m = m
        code, grow, xp, x0, params, jx, jcol, jval, hptr, hloc, hcoef = ([] for _ in range(11))
        xbase, hbase = 0, 0
        for rows, g in groups:
            k3 = 3 * g.kind.arity
            code.append(np.full(g.m, CODES[g.kind])), grow.append(rows), params.append(g.params.reshape(g.m, 3))
            xp.append(xbase + k3 * np.arange(g.m)), x0.append(g.offset)
            jx.append(xbase + g.rows), jcol.append(g.cols), jval.append(g.vals)
            hptr.append(hbase + np.searchsorted(g.h_eq, np.arange(g.m)))
            hloc.append(g.h_flat - g.h_eq * k3 * k3), hcoef.append(g.h_coef)
            xbase, hbase = xbase + k3 * g.m, hbase + len(g.h_eq)
        cat = lambda parts, kind: np.ascontiguousarray(np.concatenate(parts) if parts else np.zeros(0), kind)
        self.code, self.grow = cat(code, np.int64), cat(grow, np.int64)
        self.xp = np.append(cat(xp, np.int64), xbase)
        self.hptr = np.append(cat(hptr, np.int64), hbase)
        self.x0, self.jx, self.jcol, self.jval = cat(x0, float), cat(jx, np.int64), cat(jcol, np.int64), cat(jval, float)
        self.hloc, self.hcoef = cat(hloc, np.int64), cat(hcoef, float)
        self.params = np.ascontiguousarray(np.concatenate(params) if params else np.zeros((0, 3)), float)
        self.targets = Targets(np.concatenate([g.targets.c for _, g in groups]) if groups else [],
                               [f for _, g in groups for f in _functions(g.targets)])
        self.nnz, self.nh = len(self.jx), hbase

    def evaluate(self, q, t):
        """φ on the global rows (m,) and the Jacobian values (nnz,) in slot order."""
        phi, jac = np.zeros(self.m), np.empty(self.nnz)
        _evaluate(q, self.code, self.grow, self.xp, self.x0, self.jx, self.jcol, self.jval, self.params,
                  self.targets.derivatives(t)[0], phi, jac)
        return phi, jac

    def hessian_values(self, q, lam):
        """Values of Σ_i λ_{row i} ∂²φ_i/∂q² (nh,) in slot order; ``lam`` on the global rows."""
        out = np.empty(self.nh)
        _hessian(q, np.asarray(lam, float), self.code, self.grow, self.xp, self.x0, self.jx, self.jcol, self.jval,
                 self.hptr, self.hloc, self.hcoef, out)
        return out

    def acceleration_terms(self, q, v, t):
        """Φ_t and γ = −ζ on the global rows (m,) each."""
        _, d1, d2 = self.targets.derivatives(t)
        phi_t, gamma = np.zeros(self.m), np.zeros(self.m)
        _acceleration(q, v, self.code, self.grow, self.xp, self.x0, self.jx, self.jcol, self.jval, d1, d2,
                      phi_t, gamma)
        return phi_t, gamma


def _functions(targets):
    """The per-equation time functions of a :class:`Targets` (None where constant)."""
    functions = [None] * len(targets.c)
    for i, f in targets.timed:
        functions[i] = f
    return functions


@njit(cache=True)
def _gather(x0, jx, jcol, jval, q):
    """The flat vectors X = E q + e of every equation of a batch."""
    X = x0.copy()
    for e in range(len(jx)):
        X[jx[e]] += jval[e] * q[jcol[e]]
    return X


@njit(cache=True)
def _angle_parts(X, b, gs, gc):
    """s = u·(a×b), c = a·b of the Angle equation at X[b:b+9], with their gradients gs, gc (9,)."""
    for k in range(3):
        k1, k2 = (k + 1) % 3, (k + 2) % 3
        gs[k] = X[b + 3 + k1] * X[b + 6 + k2] - X[b + 3 + k2] * X[b + 6 + k1]          # b × u
        gs[3 + k] = X[b + 6 + k1] * X[b + k2] - X[b + 6 + k2] * X[b + k1]              # u × a
        gs[6 + k] = X[b + k1] * X[b + 3 + k2] - X[b + k2] * X[b + 3 + k1]              # a × b
        gc[k], gc[3 + k], gc[6 + k] = X[b + 3 + k], X[b + k], 0.0
    s = X[b + 6] * gs[6] + X[b + 7] * gs[7] + X[b + 8] * gs[8]
    c = X[b] * X[b + 3] + X[b + 1] * X[b + 4] + X[b + 2] * X[b + 5]
    return s, c


@njit(cache=True)
def _value_gradient(code, X, b, d, target, G):
    """φ of one equation (kind ``code``, vectors at X[b:]) with its gradient written to G[b:]."""
    if code == 0:
        for k in range(3):
            G[b + k] = d[k]
        return X[b] * d[0] + X[b + 1] * d[1] + X[b + 2] * d[2] - target
    if code == 1:
        phi = 0.0
        for k in range(3):
            phi += X[b + k] * X[b + 3 + k]
            G[b + k], G[b + 3 + k] = X[b + 3 + k], X[b + k]
        return phi - target
    gs, gc = np.empty(9), np.empty(9)
    s, c = _angle_parts(X, b, gs, gc)
    r2 = s * s + c * c
    for k in range(9):
        G[b + k] = (c * gs[k] - s * gc[k]) / r2
    return (np.arctan2(s, c) - target + np.pi) % (2 * np.pi) - np.pi


@njit(cache=True)
def _local_hessian(code, X, b, H):
    """∂²φ/∂x² of one Dot (6 × 6) or Angle (9 × 9) equation into H, row-major with stride 3·arity."""
    if code == 1:
        H[:36] = 0.0
        for k in range(3):
            H[k * 6 + 3 + k] = H[(3 + k) * 6 + k] = 1.0
        return
    gs, gc, grad, w = np.empty(9), np.empty(9), np.empty(9), np.empty(9)
    s, c = _angle_parts(X, b, gs, gc)
    r2 = s * s + c * c
    for k in range(9):
        grad[k] = (c * gs[k] - s * gc[k]) / r2
        w[k] = s * gs[k] + c * gc[k]
    Hs = np.zeros((9, 9))
    for p, sign in ((0, -1.0), (1, 1.0), (2, -1.0)):            # blocks (a,b): −[u]×, (a,u): [b]×, (b,u): −[a]×
        i0, j0, v0 = (0, 3, 6) if p == 0 else (0, 6, 3) if p == 1 else (3, 6, 0)
        x, y, z = X[b + v0], X[b + v0 + 1], X[b + v0 + 2]
        Hs[i0, j0 + 1], Hs[i0, j0 + 2] = -sign * z, sign * y
        Hs[i0 + 1, j0], Hs[i0 + 1, j0 + 2] = sign * z, -sign * x
        Hs[i0 + 2, j0], Hs[i0 + 2, j0 + 1] = -sign * y, sign * x
    for i in range(9):
        for j in range(9):
            hc = 1.0 if (i < 3 and 3 <= j < 6 and j - 3 == i) or (3 <= i < 6 and j < 3 and i - 3 == j) else 0.0
            H[i * 9 + j] = (c * (Hs[i, j] + Hs[j, i]) - s * hc + gs[i] * gc[j] - gc[i] * gs[j]) / r2 \
                - 2 * grad[i] * w[j] / r2


@njit(cache=True)
def _evaluate(q, code, grow, xp, x0, jx, jcol, jval, params, target, phi, jac):
    """φ into phi[grow] and the Jacobian values into jac (slot order) for a whole batch."""
    X = _gather(x0, jx, jcol, jval, q)
    G = np.empty_like(X)
    for i in range(len(code)):
        phi[grow[i]] = _value_gradient(code[i], X, xp[i], params[i], target[i], G)
    for e in range(len(jx)):
        jac[e] = G[jx[e]] * jval[e]


@njit(cache=True)
def _hessian(q, lam, code, grow, xp, x0, jx, jcol, jval, hptr, hloc, hcoef, out):
    """Hessian values λ_{grow i} ∂²φ_i/∂q² into out (slot order) for a whole batch."""
    X = _gather(x0, jx, jcol, jval, q)
    H = np.empty(81)
    for i in range(len(code)):
        if hptr[i] == hptr[i + 1]:
            continue
        _local_hessian(code[i], X, xp[i], H)
        w = lam[grow[i]]
        for h in range(hptr[i], hptr[i + 1]):
            out[h] = H[hloc[h]] * hcoef[h] * w


@njit(cache=True)
def _acceleration(q, v, code, grow, xp, x0, jx, jcol, jval, d1, d2, phi_t, gamma):
    """φ_t = −f' and γ = −(Vᵀ H V + φ_tt) into the global rows for a whole batch."""
    X = _gather(x0, jx, jcol, jval, q)
    V = _gather(np.zeros_like(x0), jx, jcol, jval, v)
    H = np.empty(81)
    for i in range(len(code)):
        quad = 0.0
        if code[i] != 0:
            b, k3 = xp[i], xp[i + 1] - xp[i]
            _local_hessian(code[i], X, b, H)
            for r in range(k3):
                for c in range(k3):
                    quad += V[b + r] * H[r * k3 + c] * V[b + c]
        phi_t[grow[i]] = -d1[i]
        gamma[grow[i]] = -(quad - d2[i])
