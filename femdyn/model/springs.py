"""Translational spring-dampers between two material points, of any force law (:mod:`.forcelaws`).

With d = r_b − r_a = D q + d₀, ℓ = ‖d‖, e = d/ℓ, δ = ℓ − L₀, δ̇ = e·ḋ: tension f(δ, δ̇), Q = −Dᵀ f e,
K = Dᵀ [f_δ eeᵀ + (f/ℓ)(I − eeᵀ) + (f_δ̇/ℓ) e ḋᵀ(I − eeᵀ)] D, C = Dᵀ f_δ̇ eeᵀ D.

A :class:`SpringDamper` holds one spring; the System evaluates all the springs of a model as one
:class:`SpringDampers` part: every d = D q + d₀ by one sparse product (D stacks the springs' 3 × m
blocks D_s), the laws on arrays over the springs (the linear part at once, a table at once on all
its springs, a user function once per spring), Q = −Dᵀ(f e) by one product, and K, C as each spring's
dense m × m block on its coordinates (pattern fixed at binding; one compiled loop per block size).
With u = D_sᵀe, w = D_sᵀ(ḋ − δ̇ e) and the constant G = D_sᵀD_s the brackets above become
K_s = (f/ℓ) G + u ((f_δ − f/ℓ) u + (f_δ̇/ℓ) w)ᵀ, C_s = f_δ̇ u uᵀ. One spring alone (its force,
tangent, reading, energy) is the set of one.
"""
import numpy as np
from numba import njit

from ..errors import ModelError
from ..sparse import Pattern, product
from .forcelaws import ForceElement, ForceLaw
from .protocol import Part


class SpringDamper(ForceElement):
    """A spring-damper of tension f = f₀ + k δ + c δ̇ + g(δ, δ̇) between two material points."""

    reading_names = ("force", "deflection", "rate")

    def __init__(self, name, point_a, point_b, stiffness, damping=0.0, rest_length=None, q0=None, preload=0.0,
                 law=None):
        self.name = name
        self.difference = point_b - point_a
        self.law = ForceLaw(f"spring '{name}'", stiffness, damping, preload, law)
        if rest_length is None:
            rest_length = np.linalg.norm(self.difference(q0)) if q0 is not None else 0.0
        self.L0 = float(rest_length)
        if not self.L0 > 0:
            raise ModelError(f"spring '{name}': the rest length must be positive (m), got {rest_length!r}; "
                             "attach the spring between distinct points or give rest_length")

    @classmethod
    def gathered(cls, springs):
        """The bound springs ``springs`` as one part evaluated together (:class:`SpringDampers`)."""
        return SpringDampers(springs)

    def bind(self, n):
        self.n = n
        rows, cols, vals = self.difference.coo(0)
        self.dofs = np.unique(cols)
        self.D = np.zeros((3, self.dofs.size))
        np.add.at(self.D, (rows, np.searchsorted(self.dofs, cols)), vals)
        self.d0 = self.difference.offset
        self._alone = None

    def _set(self):
        """This spring as a bound set of one."""
        if self._alone is None:
            self._alone = SpringDampers([self])
            self._alone.bind(self.n)
        return self._alone

    def tension(self, q, v):
        """The tension f(δ, δ̇), N."""
        return float(self.reading(q, v, 0.0)[0])

    def reading(self, q, v, t):
        return tuple(self._set().readings(q, v)[0])

    def force(self, q, v, t):
        return self._set().force(q, v, t)

    def tangent_values(self, q, v, t):
        return self._set().tangent_values(q, v, t)

    def strain_energy(self, q):
        return self._set().strain_energy(q)


class SpringDampers(Part):
    """Bound spring-dampers evaluated together over numpy arrays (module docstring); K, C by blocks of equal size."""

    name = "spring-dampers"

    def __init__(self, springs):
        self.springs = list(springs)
        laws = [s.law for s in self.springs]
        self.L0 = np.array([s.L0 for s in self.springs])
        self.f0, self.k, self.c = (np.array([getattr(law, x) for law in laws], float) for x in ("f0", "k", "c"))
        nonlinear = {}
        for i, law in enumerate(laws):
            if law.law is not None:
                nonlinear.setdefault(id(law.law), (law.law, []))[1].append(i)
        self.nonlinear = [(g, np.array(members)) for g, members in nonlinear.values()]

    def bind(self, n):
        self.n = n
        springs = self.springs
        rows = np.concatenate([np.repeat(3 * i + np.arange(3), s.dofs.size) for i, s in enumerate(springs)])
        cols = np.concatenate([np.tile(s.dofs, 3) for s in springs])
        vals = np.concatenate([s.D.ravel() for s in springs])
        held = vals != 0
        self.D = Pattern(rows[held], cols[held], (3 * len(springs), n)).matrix(vals[held])
        self.DT = self.D.T.tocsr()
        self.d0 = np.array([s.d0 for s in springs], float).reshape(-1, 3)
        sizes = np.array([s.dofs.size for s in springs])
        self.blocks = []
        for m in np.unique(sizes):
            members = np.flatnonzero(sizes == m)
            Ds = np.array([springs[i].D for i in members])
            dofs = np.array([springs[i].dofs for i in members])
            self.blocks.append((members, Ds, Ds.transpose(0, 2, 1) @ Ds, np.repeat(dofs, m, axis=1).ravel(),
                                np.tile(dofs, m).ravel()))

    def tangent_pattern(self):
        rows, cols = (np.concatenate([b[i] for b in self.blocks]) for i in (3, 4))
        return rows, cols, rows, cols

    def _law(self, delta, rate):
        """(f, f_δ, f_δ̇) (springs,): the linear law of every spring, then each nonlinear law on its springs."""
        f, fk, fc = self.f0 + self.k * delta + self.c * rate, self.k.copy(), self.c.copy()
        for g, members in self.nonlinear:
            gf, gk, gc = g._values(delta[members], rate[members])
            f[members] += gf
            fk[members] += gk
            fc[members] += gc
        return f, fk, fc

    def _state(self, q, v):
        """(ℓ, e, ḋ, δ̇, f, f_δ, f_δ̇) of every spring at (q, v); ModelError naming a spring of zero length."""
        d = product(self.D, q).reshape(-1, 3) + self.d0
        length = np.sqrt(np.einsum("ij,ij->i", d, d))
        if not np.all(length > 0):
            bad = [s.name for s, x in zip(self.springs, length) if not x > 0]
            also = f" (so do {len(bad) - 1} more: {bad[1:4]}…)" if len(bad) > 1 else ""
            raise ModelError(f"spring '{bad[0]}': its end points coincide; its direction is undefined{also}")
        e = d / length[:, None]
        d_dot = product(self.D, v).reshape(-1, 3)
        rate = np.einsum("ij,ij->i", e, d_dot)
        return (length, e, d_dot, rate) + self._law(length - self.L0, rate)

    def readings(self, q, v):
        """Tension (N), deflection δ (m) and rate δ̇ (m/s) of every spring, (springs, 3)."""
        length, _, _, rate, f, _, _ = self._state(q, v)
        return np.column_stack([f, length - self.L0, rate])

    def force(self, q, v, t):
        _, e, _, _, f, _, _ = self._state(q, v)
        return -product(self.DT, (f[:, None] * e).ravel())

    def tangent_values(self, q, v, t):
        length, e, d_dot, rate, f, fk, fc = self._state(q, v)
        across = f / length
        per_spring = (e, d_dot - rate[:, None] * e, across, fk - across, fc / length, fc)
        k, c = [], []
        for members, Ds, G, _, _ in self.blocks:
            K, C = np.empty((2,) + G.shape)
            _blocks(members, Ds, G, *per_spring, K, C)
            k.append(K.ravel())
            c.append(C.ravel())
        return np.concatenate(k), np.concatenate(c)

    def strain_energy(self, q):
        d = product(self.D, q).reshape(-1, 3) + self.d0
        delta = np.sqrt(np.einsum("ij,ij->i", d, d)) - self.L0
        nonlinear = sum(g.energy(x) for g, members in self.nonlinear for x in delta[members])
        return float(self.f0 @ delta + 0.5 * (self.k * delta) @ delta + nonlinear)


class SpringBuilder:
    """The spring constructor of :class:`~femdyn.model.Model` (``m.spring``)."""

    def spring(self, name, body_a, point_a, body_b, point_b, stiffness=0.0, damping=0.0, rest_length=None,
               preload=0.0, law=None):
        """Add a spring-damper between two material points: tension f₀ + k δ + c δ̇ + g(δ, δ̇) along their line.

        δ = ℓ − L₀ is the stretch and δ̇ its rate; the energy balance counts ∫₀^δ f(s, 0) ds.

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            Bodies of the first and second point (a point mass, the ground, an ANCF node …).
        point_a, point_b : (3,) array_like
            The two points, m.
        stiffness : float, optional
            k, N/m.
        damping : float, optional
            c, N·s/m.
        rest_length : float, optional
            L₀, m (default the initial distance).
        preload : float, optional
            f₀, the tension at the rest length, N.
        law : Table, UserForce or callable, optional
            g(δ, δ̇), N, added to the linear law (a callable becomes a :class:`UserForce`).
        """
        body_a, body_b = self.body(body_a), self.body(body_b)
        pa, pb = body_a.material_point(point_a), body_b.material_point(point_b)
        q0 = self.initial_coordinates()[0]
        return self.add(SpringDamper(name, pa, pb, stiffness, damping, rest_length, q0, preload, law))


@njit(cache=True)
def _blocks(members, Ds, G, e, w, across, b, damping, fc, K, C):
    """K[t] = f/ℓ G_t + u (b u + f_δ̇/ℓ D_sᵀw)ᵀ and C[t] = f_δ̇ u uᵀ, u = D_sᵀe, for each spring s = members[t]."""
    m = Ds.shape[2]
    u, row = np.empty(m), np.empty(m)
    for t in range(members.size):
        s = members[t]
        for i in range(m):
            ui, wi = 0.0, 0.0
            for x in range(3):
                ui += Ds[t, x, i] * e[s, x]
                wi += Ds[t, x, i] * w[s, x]
            u[i], row[i] = ui, b[s] * ui + damping[s] * wi
        for i in range(m):
            for j in range(m):
                K[t, i, j] = across[s] * G[t, i, j] + u[i] * row[j]
                C[t, i, j] = fc[s] * u[i] * u[j]
