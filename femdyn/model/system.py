"""The assembled, frozen form of a model: sparse mass matrix (CSR, constant part assembled once),
constraint set, generalized forces and their tangent patterns, all gathered through the part
contract (:mod:`femdyn.model.protocol`). M(q) q̈ + Φ_qᵀ λ = Q(q, q̇, t), Φ(q, t) = 0 (García de
Jalón & Bayo 1994); symbols and units: docs/conventions.md.
"""
from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numba import njit

from ..errors import ModelError
from .constraints import ConstraintSet, Equation
from .loads import ConstantForce
from .protocol import Part, gathering
from .redundancy import dependent_rows, equation_rows, independent_joint_rows, jacobian_rank, linkages
from .vectorfunctions import Dot
from ..sparse import Pattern, product
from ..input_checks import plural


_NONE = np.zeros(0, np.int64)


@dataclass(frozen=True, eq=False)
class Positions:
    """The fixed (row, column) positions of one matrix's COO values, in the order the values come."""

    rows: np.ndarray
    cols: np.ndarray
    shape: tuple

    def __post_init__(self):
        for name in ("rows", "cols"):
            array = np.array(getattr(self, name), np.int64)
            array.setflags(write=False)
            object.__setattr__(self, name, array)

    def __len__(self):
        return len(self.rows)

    @cached_property
    def compressed(self):
        """The CSR :class:`~femdyn.sparse.Pattern` of these positions (built on first use)."""
        return Pattern(self.rows, self.cols, self.shape)

    def matrix(self, values):
        """The CSR matrix of COO values on these positions (duplicates summed)."""
        return self.compressed.matrix(values)



@dataclass(frozen=True, eq=False)
class Patterns:
    """Every fixed sparsity pattern of a System: the one value the solvers read them from (see System)."""

    n: int
    m: int
    mass: Positions               # of mass_values: M(q)
    damping: Positions            # of tangent_values: C = −∂Q/∂q̇
    stiffness: Positions          # of tangent_values: K = −∂Q/∂q
    mass_derivative: Positions    # of mass_derivative_values: ∂(M(q) a)/∂q
    jacobian: Positions           # of constraints.evaluate: Φ_q (m × n)
    transpose: Positions          # of force_transpose_values: G, Φ_q with the servo rows −B (m × n)
    hessian: Positions            # of hessian_values: ∂(Gᵀλ)/∂q
    input_rows: np.ndarray        # the servo rows of λ (actuator inputs u)
    kept: np.ndarray = None       # the Φ_q entries that stay in G (None without servo rows)

    @property
    def servo(self):
        """Whether G differs from Φ_q (servo rows present)."""
        return self.kept is not None


class System:
    """The assembled, frozen form of a :class:`~femdyn.model.builder.Model`.

    ``Model.assemble()`` hands the System a private copy of the model, bound in place, so later
    edits of the user's Model never change it. Raises ModelError if the model has no nodes or the
    servo rows and actuators do not pair up.

    Parameters
    ----------
    model : femdyn.model.builder.Model
        The System's own copy of the model (``Model.assemble`` makes it).

    Attributes
    ----------
    n, m : int
        Number of coordinates q and of constraint equations Φ.
    constraints : ConstraintSet
        Φ, Φ_q, the Hessian term, Φ_t and γ in fixed row order (``joint_rows``: each joint's rows).
    patterns : Patterns
        The fixed (row, col) positions of every COO value the evaluations return (mass, damping,
        stiffness, mass_derivative, jacobian, transpose G, hessian), frozen; ``input_rows``: servo rows.
    q0, v0 : ndarray (n,)
        Initial coordinates and velocity guesses (``labels``: ``<node>.<slot><x|y|z>``).
    set_aside : list of (str, str)
        Redundant joint equations (joint, equation label): rows of Φ_q dependent on the rows before them at
        q0 (bodies' own rows first, then the joints in order), found by a rank-revealing factorization
        and left out of ``constraints`` (Adams' treatment; García de Jalón & Bayo 1994, §3.5). The rest is
        integrated unchanged; ``equation_rows`` maps each joint's equations to :meth:`reaction_multipliers`.
    """

    def __init__(self, model):
        self.model, self.n, self.name = model, model.size, model.name
        if self.n == 0:
            raise ModelError(f"model '{model.name}' has no nodes; add points, vectors or element nodes")
        self.gravity = model.gravity
        self.nodes, self.bodies, self.elements = model.nodes, model.bodies, model.elements
        self.joints, self.sensors = model.joints, model.sensors
        self.q0, self.v0 = model.initial_coordinates()
        gravity_load = ConstantForce("gravity", np.zeros(self.n))
        self.loads = [gravity_load] + list(model.loads)
        self.parts = self.loads + list(self.bodies.values()) + list(self.elements) + \
            list(self.joints.values()) + list(model.parts)
        for part in self.parts:
            part.bind(self.n)
        gravity_load.vector = self._gravity_force()
        self.gravity_force = gravity_load.vector
        mass = self._assemble_mass()
        self._assemble_constraints()
        self.patterns = Patterns(self.n, self.m, **mass, **self._assemble_tangent_patterns(),
                                 **self._assemble_inputs())
        self.M = self.patterns.mass.matrix(self.mass_values(self.q0))
        for sensor in self.sensors:
            sensor.bind(self)
        self.labels = self._coordinate_labels()

    # --- assembly ----------------------------------------------------------------
    def _gravity_force(self):
        g = np.zeros(self.n)
        for part in self.parts:
            dofs, vals = part.gravity(self.gravity)
            np.add.at(g, dofs, vals)
        return g

    def _assemble_mass(self):
        """Positions of M and of ∂(M a)/∂q; the constant part of M's values kept once."""
        constant = [p.mass_coo() for p in self.parts if p.constant_mass]
        self.variable_mass_parts = [p for p in self.parts if not p.constant_mass]
        variable = [p.mass_coo() for p in self.variable_mass_parts]
        self.constant_mass = not variable
        rows, cols, _ = (np.concatenate(x) for x in zip(*(constant + variable)))
        self._constant_mass_values = np.concatenate([c[2] for c in constant])
        derivative = [p.mass_derivative_pattern() for p in self.variable_mass_parts]
        md_rows, md_cols = (np.concatenate([d[i] for d in derivative]) if derivative else _NONE for i in range(2))
        square = (self.n, self.n)
        return {"mass": Positions(rows, cols, square), "mass_derivative": Positions(md_rows, md_cols, square)}

    def _assemble_constraints(self):
        """Constraint rows of the parts; joint rows dependent at q0 set aside (:func:`~femdyn.model.redundancy.independent_joint_rows`)."""
        equations = [Equation(Dot, (n.expr, n.expr), None, 1.0, None, f"{n.name}: unit length")
                     for n in self.nodes.values() if n.is_unit]
        joints = self.joints
        joint_ids = {id(j) for j in joints.values()}
        equations += [e for p in self.parts if id(p) not in joint_ids for e in p.equations()]
        joint_eqs = {name: j.equations() for name, j in joints.items()}
        ordered = [name for name, j in joints.items() if not j.auxiliary] + \
            [name for name, j in joints.items() if j.auxiliary]
        keep = iter(independent_joint_rows(equations, [e for name in ordered for e in joint_eqs[name]], self.n, self.q0,
                                      auxiliary=sum(len(joint_eqs[name]) for name in ordered if joints[name].auxiliary)))
        kept = {name: [next(keep) for _ in joint_eqs[name]] for name in ordered}
        self.joint_rows, aside = {}, []
        for name, joint in joints.items():
            eqs = [e for e, k in zip(joint_eqs[name], kept[name]) if k]
            joint.rows = self.joint_rows[name] = np.arange(len(equations), len(equations) + len(eqs))
            equations += eqs
            if not joint.auxiliary:
                aside += [(name, e) for e, k in zip(joint_eqs[name], kept[name]) if not k]
        self.constraints = ConstraintSet(equations, self.n)
        self.m = self.constraints.m
        self.set_aside = [(name, e.label) for name, e in aside]
        self._aside_equations = [e for _, e in aside]
        self.equation_rows = {name: self.joint_rows[name] if joint.auxiliary else
                              equation_rows(self.joint_rows[name], kept[name], name, aside, self.m)
                              for name, joint in joints.items()}

    @cached_property
    def all_constraints(self):
        """The ConstraintSet of every joint equation: the m rows of ``constraints``, then the set-aside ones."""
        return ConstraintSet(self.constraints.equations + self._aside_equations, self.n) if self.set_aside \
            else self.constraints

    @cached_property
    def _indeterminate(self):
        """(rows, columns) of Φ_q,all in the linkages that hold set-aside rows (the indeterminate reactions)."""
        full = self.all_constraints
        J = full.jacobian(self.q0, 0.0).tocsr()
        label = linkages(J)
        blocks = np.unique(label[self.m:full.m])
        rows = np.flatnonzero(np.isin(label[:full.m], blocks))
        return rows, np.flatnonzero(np.isin(label[full.m:], blocks))

    def set_aside_residual(self, q, t=0.0):
        """Φ of the set-aside rows (len(set_aside),): zero where they are truly redundant, not conflicting.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        t : float, optional
            Time [s].
        """
        if not self.set_aside:
            return np.zeros(0)
        return self.all_constraints.phi(q, t)[self.m:]

    def reaction_multipliers(self, q, lam, t=0.0):
        """Multipliers of every joint equation, set-aside rows included (rows m…): the minimum-norm set.

        Where joint rows were set aside (:attr:`set_aside`) the reactions are statically indeterminate;
        of all multipliers μ with Φ_q,allᵀ μ = Φ_qᵀ λ (the same generalized constraint force) this is the
        one of least ‖μ‖₂ (the pseudo-inverse solution). Without set-aside rows it is ``lam`` itself.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        lam : ndarray (m,)
            Multipliers as solved (N, N·m or N/m per row, see docs/conventions.md).
        t : float, optional
            Time [s].

        Returns
        -------
        ndarray (m + len(set_aside),)
            The minimum-norm multipliers, rows in the order of :attr:`equation_rows`.
        """
        if not self.set_aside:
            return lam
        key = (t, q.tobytes(), lam.tobytes())
        if getattr(self, "_reaction_key", None) == key:
            return self._reaction_value
        rows, cols = self._indeterminate
        J = self.all_constraints.jacobian(q, t)[rows][:, cols].toarray()
        mu = np.concatenate([lam, np.zeros(len(self.set_aside))])
        force = J.T @ mu[rows]
        mu[rows] = np.linalg.lstsq(J.T, force, rcond=1e-9)[0]
        self._reaction_key, self._reaction_value = key, mu
        return mu

    def _assemble_inputs(self):
        """Positions of Φ_q, of G (Φ_q with the servo rows replaced by −B) and of the Hessian of Gᵀλ."""
        c = self.constraints
        self.actuators = [p for p in self.parts if getattr(p, "inputs", 0)]
        rows = [self.joint_rows[name] for name, j in self.joints.items() if j.servo]
        self.input_rows = np.concatenate(rows) if rows else np.zeros(0, int)
        self.servo = bool(self.actuators) or bool(self.input_rows.size)
        if self.input_rows.size != len(self.actuators):
            raise ModelError(f"model '{self.name}': {self.input_rows.size} servo constraint rows but "
                             f"{len(self.actuators)} actuators; inverse dynamics needs one actuator per prescribed "
                             "coordinate (add actuators with Model.actuator or prescribe fewer directions)")
        self.input_of = {a.name: int(row) for a, row in zip(self.actuators, self.input_rows)}
        jacobian = Positions(c.jac_rows, c.jac_cols, (self.m, self.n))
        patterns = {"jacobian": jacobian, "transpose": jacobian, "input_rows": self.input_rows,
                    "hessian": Positions(c.hess_rows, c.hess_cols, (self.n, self.n))}
        if not self.servo:
            return patterns
        kept = ~np.isin(c.jac_rows, self.input_rows)
        cols = [a.input_pattern() for a in self.actuators]
        g_rows = np.concatenate([c.jac_rows[kept]] + [np.full(len(k), r) for k, r in zip(cols, self.input_rows)])
        g_cols = np.concatenate([c.jac_cols[kept]] + cols)
        hessians = [a.input_hessian_pattern() for a in self.actuators]
        hess_rows, hess_cols = (np.concatenate([h] + [x[i] for x in hessians])
                                for i, h in enumerate((c.hess_rows, c.hess_cols)))
        kept.setflags(write=False)
        return {**patterns, "transpose": Positions(g_rows, g_cols, (self.m, self.n)), "kept": kept,
                "hessian": Positions(hess_rows, hess_cols, (self.n, self.n))}

    def force_transpose_values(self, q, jac):
        """Values of G on ``patterns.transpose``: Φ_q on the constraint rows, −B on the servo rows.

        Parameters
        ----------
        q : ndarray (n,)
        jac : ndarray
            Values of Φ_q on the constraint pattern (from ``constraints.evaluate``).
        """
        if not self.servo:
            return jac
        return np.concatenate([jac[self.patterns.kept]] + [-a.input_values(q) for a in self.actuators])

    def constraint_force(self, q, jac, lam):
        """Gᵀλ (n,): the constraint forces Φ_qᵀλ minus the actuator forces Bᵀu (u in the servo slots of λ).

        Parameters
        ----------
        q : ndarray (n,)
        jac : ndarray
            Values of Φ_q on the constraint pattern.
        lam : ndarray (m,)
            Multipliers, with the actuator inputs in the servo rows.
        """
        G = self.patterns.transpose
        return np.bincount(G.cols, weights=self.force_transpose_values(q, jac) * lam[G.rows], minlength=self.n)

    def hessian_values(self, q, lam):
        """Values of ∂(Gᵀλ)/∂q on ``patterns.hessian``.

        Parameters
        ----------
        q : ndarray (n,)
        lam : ndarray (m,)
            Multipliers and actuator inputs.
        """
        if not self.servo:
            return self.constraints.hessian_values(q, lam)
        multipliers = lam.copy()
        multipliers[self.input_rows] = 0.0
        return np.concatenate([self.constraints.hessian_values(q, multipliers)] +
                              [-a.input_hessian_values(q, lam[r]) for a, r in zip(self.actuators, self.input_rows)])

    def _assemble_tangent_patterns(self):
        """Positions of K and C; which parts the inner loops call (gravity, parts[0], is one vector)."""
        evaluated = _gathered(self.parts, self.n)
        self.tangent_parts = [p for p in evaluated if any(len(x) for x in p.tangent_pattern())]
        patterns = [p.tangent_pattern() for p in self.tangent_parts]
        k_rows, k_cols, c_rows, c_cols = (np.concatenate([pt[i] for pt in patterns]) if patterns else _NONE
                                          for i in range(4))
        self.force_parts = [p for p in evaluated[1:] if _overrides(p, "force")]
        self.energy_parts = [p for p in evaluated if _overrides(p, "potential_energy") or _overrides(p, "strain_energy")]
        square = (self.n, self.n)
        return {"stiffness": Positions(k_rows, k_cols, square), "damping": Positions(c_rows, c_cols, square)}

    def _coordinate_labels(self):
        labels = [""] * self.n
        for node in self.nodes.values():
            for i, s in enumerate(node.slots):
                for k in range(3):
                    labels[node.start + 3 * i + k] = f"{node.name}.{s}{'xyz'[k]}"
        return labels

    # --- evaluation --------------------------------------------------------------
    def mass_values(self, q):
        """Values of M(q) on ``patterns.mass``; the constant part is not copied.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates (unused for a constant mass).
        """
        if self.constant_mass:
            return self._constant_mass_values
        return np.concatenate([self._constant_mass_values] + [p.mass_values(q) for p in self.variable_mass_parts])

    def mass(self, q=None):
        """The mass matrix M(q), CSR (n × n); ``M`` itself when constant.

        Parameters
        ----------
        q : ndarray (n,), optional
            Coordinates (default: M at q0).
        """
        if self.constant_mass or q is None:
            return self.M
        return self.patterns.mass.matrix(self.mass_values(q))

    def inertia_force(self, q, a):
        """M(q) q̈ (n,).

        Parameters
        ----------
        q, a : ndarray (n,)
        """
        return product(self.mass(q), a)

    def mass_derivative_values(self, q, a):
        """Values of ∂(M(q) a)/∂q on ``patterns.mass_derivative`` (empty for constant mass).

        Parameters
        ----------
        q, a : ndarray (n,)
        """
        if self.constant_mass:
            return np.zeros(0)
        return np.concatenate([p.mass_derivative(q, a) for p in self.variable_mass_parts])

    def forces(self, q, v, t, load_factor=1.0):
        """Q(q, v, t) (n,): applied loads scaled by ``load_factor`` (gravity included) plus internal forces.

        Parameters
        ----------
        q, v : ndarray (n,)
        t : float
        load_factor : float, optional
            Scale of the applied loads (statics continuation); 1 in dynamics.
        """
        Q = self.gravity_force.copy() if load_factor == 1.0 else load_factor * self.gravity_force
        for part in self.force_parts:
            f = part.force(q, v, t)
            if f is not None:
                Q += load_factor * f if part.applied else f
        return Q

    def tangent_values(self, q, v, t, load_factor=1.0):
        """COO values (k, c) of K = −∂Q/∂q on ``patterns.stiffness`` and C = −∂Q/∂v on ``patterns.damping``.

        Parameters
        ----------
        q, v : ndarray (n,)
        t : float
        load_factor : float, optional
            Scale of the applied loads' tangents.
        """
        k, c = [], []
        for part in self.tangent_parts:
            kp, cp = part.tangent_values(q, v, t)
            k.append(load_factor * kp if part.applied else kp)
            c.append(cp)
        return (np.concatenate(k) if k else np.zeros(0)), (np.concatenate(c) if c else np.zeros(0))

    def residual(self, q, v, a, lam, t, load_factor=1.0, constraints=None):
        """The dynamic residual r = M(q) q̈ + Φ_qᵀλ − Bᵀu − Q(q, q̇, t), the one statement of the equations of motion.

        The integrators, the initial conditions and statics (q̈ = 0) all call it; u, the actuator
        inputs, sit in the servo rows of ``lam``.

        Parameters
        ----------
        q, v : ndarray (n,)
        a : ndarray (n,) or None
            Accelerations (None: statics, no inertia term).
        lam : ndarray (m,)
            Multipliers, actuator inputs in the servo rows.
        t : float
        load_factor : float, optional
            Scale of the applied loads.
        constraints : tuple, optional
            (Φ, Φ_q values) at (q, t) when the caller has them already.

        Returns
        -------
        r, Q, phi : ndarray
            Residual (n,), generalized forces (n,), constraint values Φ(q, t) (m,).
        jac : ndarray
            COO values of Φ_q on (constraints.jac_rows, constraints.jac_cols).
        """
        Q = self.forces(q, v, t, load_factor)
        phi, jac = self.constraints.evaluate(q, t) if constraints is None else constraints
        G, M, r = self.patterns.transpose, self.mass(q), np.empty(self.n)
        _residual(M.indptr, M.indices, M.data, Q if a is None else a, a is not None, G.rows, G.cols,
                  self.force_transpose_values(q, jac), lam, Q, r)
        return r, Q, phi, jac

    def kinetic_energy(self, v, q=None):
        """Kinetic energy ½ q̇ᵀ M(q) q̇, J.

        Parameters
        ----------
        v : ndarray (n,)
        q : ndarray (n,), optional
            Coordinates (needed for a configuration-dependent mass).
        """
        return 0.5 * v @ product(self.mass(q), v)

    def potential_energy(self, q):
        """Gravity potential −Q_gᵀq (constant gravity) plus the parts' potential energies, J.

        Parameters
        ----------
        q : ndarray (n,)
        """
        return -self.gravity_force @ q + sum(p.potential_energy(q) for p in self.energy_parts)

    @property
    def total_mass(self):
        """Mass of every body and element set (kg)."""
        return sum(p.mass for p in list(self.bodies.values()) + list(self.elements))

    # --- diagnosis ---------------------------------------------------------------
    def rank_of_jacobian(self, q, t=0.0):
        """(rank, singular values) of Φ_q, rank counted above 1e-9 × the largest (dense SVD: for model checks).

        Parameters
        ----------
        q : ndarray (n,)
        t : float, optional
        """
        return jacobian_rank(self.constraints.jacobian(q, t))

    @cached_property
    def _start_rank(self):
        """rank Φ_q at q0 (the System is frozen: computed once, for :meth:`summary`)."""
        return self.rank_of_jacobian(self.q0)[0]

    def redundant_constraints(self, q, t=0.0, count=6):
        """Labels of the constraint rows in a linear dependency of Φ_q (empty at full row rank).

        Parameters
        ----------
        q : ndarray (n,)
        t : float, optional
        count : int, optional
            At most this many labels, the most involved first.
        """
        return dependent_rows(self.constraints.jacobian(q, t), self.constraints.labels, count)

    def degrees_of_freedom(self, q=None, t=0.0):
        """Number of degrees of freedom n − rank Φ_q at (q, t).

        Parameters
        ----------
        q : ndarray (n,), optional
            Coordinates (default q0).
        t : float, optional
        """
        return self.n - self.rank_of_jacobian(self.q0 if q is None else q, t)[0]

    def summary(self, dense_limit=1000):
        """Text summary: sizes, rank and degrees of freedom, masses, joints.

        Parameters
        ----------
        dense_limit : int, optional
            Above this many constraint rows the rank is not computed.
        """
        if self.m <= dense_limit:
            rank = self._start_rank
            counts = f"(rank {rank}), {plural(self.n - rank, 'degree of freedom', 'degrees of freedom')}"
        else:
            counts = f"(rank not computed above {dense_limit} rows), at least {plural(self.n - self.m, 'degree of freedom', 'degrees of freedom')}"
        lines = [f"model '{self.name}': {plural(self.n, 'coordinate')}, {plural(self.m, 'constraint equation')} {counts}",
                 f"  nodes {len(self.nodes)}, bodies {len(self.bodies)}, "
                 f"elements {sum(e.count for e in self.elements)}, joints {len(self.joints)}, "
                 f"loads {len(self.loads) - 1}, sensors {len(self.sensors)}",
                 f"  total mass of bodies and elements {self.total_mass:.6g} kg, gravity {self.gravity.tolist()} m/s²"]
        lines += [f"  joint {name}: {j.kind}, {plural(len(self.joint_rows[name]), 'equation')}"
                  + (f" ({len(self.equation_rows[name]) - len(self.joint_rows[name])} set aside)"
                     if len(self.equation_rows[name]) > len(self.joint_rows[name]) else "")
                  for name, j in self.joints.items()]
        if self.set_aside:
            lines += [f"  redundant equations set aside ({len(self.set_aside)}, dependent on the others at the start; "
                      "reactions reported as the minimum-norm set):"]
            lines += [f"    joint {name}: {label}" for name, label in self.set_aside]
        return "\n".join(lines)


@njit(cache=True)
def _residual(indptr, indices, data, a, inertia, rows, cols, g, lam, Q, out):
    """out = Gᵀλ − Q (+ M a, M in CSR), summed in the order of bincount, then − Q, then + M a."""
    out[:] = 0.0
    for k in range(len(g)):
        out[cols[k]] += g[k] * lam[rows[k]]
    for i in range(len(out)):
        out[i] -= Q[i]
        if inertia:
            s = 0.0
            for k in range(indptr[i], indptr[i + 1]):
                s += data[k] * a[indices[k]]
            out[i] += s


def _gathered(parts, n):
    """``parts`` with those of each class defining ``gathered`` replaced, where the first stood, by its bound set of them."""
    members = {}
    for part in parts:
        members.setdefault(gathering(part), []).append(part)
    out = []
    for part in parts:
        kind = gathering(part)
        if kind is None:
            out.append(part)
        elif members[kind][0] is part:
            out.append(kind.gathered(members[kind]))
            out[-1].bind(n)
    return out


def _overrides(part, method):
    """Whether ``part`` implements ``method`` itself rather than inheriting Part's neutral one."""
    return getattr(type(part), method, None) is not getattr(Part, method)
