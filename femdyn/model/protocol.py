"""The part contract: what a part of a model gives the assembled System, stated once.

A part adds terms to M(q) q̈ + Φ_qᵀ λ = Q(q, q̇, t), Φ(q, t) = 0 (García de Jalón & Bayo 1994,
eq. 5.2) through its nodes' coordinates. The System calls only the methods of :class:`Part`;
:class:`Constraint`, :class:`Inputs`, :class:`Body` and :class:`Sensor` are side contracts.
Writing a new part: docs/contributing.md.
"""
import numpy as np

from ..errors import ModelError

EMPTY_INT = np.zeros(0, int)
EMPTY = np.zeros(0)
_ABSENT = object()        # what an object lacking a contract name gives (see missing)


class Part:
    """The part contract, with neutral defaults: a part that adds nothing.

    Subclasses override what they contribute; the System calls these methods with the global q (n,)
    and t (docs/conventions.md); example parts: ``tests/parts.py``. Attributes: ``name`` (unique in
    its family), ``applied`` (the statics load factor scales :meth:`force`: loads), ``constant_mass``
    (:meth:`mass_coo` independent of q, else :meth:`mass_values` is called every iteration).
    Optionally, a class provides ``gathered(parts)`` (a classmethod returning one part that evaluates
    those bound parts of exactly that class together, e.g. every spring-damper of a model); the System
    then calls that part's force, tangent and energy in their place (the parts stay listed and usable), and
    a force sensor's reader its ``readings(q, v)`` (members × channels).
    """

    name = "part"
    applied = False          # scaled by the statics load factor?
    constant_mass = True     # mass independent of q?

    def bind(self, n):
        """Prepare the System's own deep copy of the part: precompute index maps and patterns.

        The default stores ``self.n = n``; overrides should call it or set ``n`` themselves.

        Parameters
        ----------
        n : int
            Number of coordinates q of the System.
        """
        self.n = n

    def mass_coo(self):
        """The part's mass block as COO triplets (rows, cols, values); duplicates are summed.

        For ``constant_mass = False`` the rows and cols fix the pattern and the values are those of M(q0).
        """
        return EMPTY_INT, EMPTY_INT, EMPTY

    def mass_values(self, q):
        """Values of M(q) on the pattern of :meth:`mass_coo` (default: its constant values).

        Parameters
        ----------
        q : ndarray (n,)
        """
        return self.mass_coo()[2]

    def mass_derivative_pattern(self):
        """(rows, cols) of ∂(M(q) a)/∂q (configuration-dependent parts; empty by default)."""
        return EMPTY_INT, EMPTY_INT

    def mass_derivative(self, q, a):
        """Values of ∂(M(q) a)/∂q on :meth:`mass_derivative_pattern` (the Newton matrix's inertia term).

        Parameters
        ----------
        q, a : ndarray (n,)
        """
        return EMPTY

    def gravity(self, g):
        """The constant generalized gravity force ∫ρ Sᵀg dV as (dofs, values); summed once at assembly.

        A configuration-dependent part returns nothing here and puts its weight into :meth:`force`.

        Parameters
        ----------
        g : ndarray (3,)
            Gravity vector, m/s².
        """
        return EMPTY_INT, EMPTY

    def force(self, q, v, t):
        """Contribution to Q(q, q̇, t), or None (the default) when the part adds no force.

        Sign as in M q̈ + Φ_qᵀλ = Q: applied loads with their own sign, internal (elastic,
        damping) forces with a minus sign; quadratic-velocity forces belong here too.

        Parameters
        ----------
        q, v : ndarray (n,)
        t : float
        """
        return None

    def tangent_pattern(self):
        """COO patterns (k_rows, k_cols, c_rows, c_cols) of K = −∂Q/∂q and C = −∂Q/∂q̇ (default empty)."""
        return EMPTY_INT, EMPTY_INT, EMPTY_INT, EMPTY_INT

    def tangent_values(self, q, v, t):
        """Values (k, c) of K = −∂Q/∂q and C = −∂Q/∂q̇ on :meth:`tangent_pattern`.

        Parameters
        ----------
        q, v : ndarray (n,)
        t : float
        """
        return EMPTY, EMPTY

    def equations(self):
        """Constraint equations Φ_i(q, t) = 0 of the part, as a list of ``Equation`` (empty by default)."""
        return []

    def strain_energy(self, q):
        """Elastic energy stored in the part, J (0 by default).

        Parameters
        ----------
        q : ndarray (n,)
        """
        return 0.0

    def potential_energy(self, q):
        """Potential energy other than the constant gravity of :meth:`gravity`, J (default: :meth:`strain_energy`).

        Parameters
        ----------
        q : ndarray (n,)
        """
        return self.strain_energy(q)


class Constraint(Part):
    """Side contract of a part whose :meth:`~Part.equations` the System numbers and reports.

    Attributes: ``kind`` (shown in messages), ``servo`` (rows prescribe a motion and carry actuator
    inputs, :class:`Inputs`), ``auxiliary`` (rows the model adds itself; only independent ones are
    kept), ``rows`` (global constraint rows, set by the System).
    """

    kind = "constraint"
    servo = False
    auxiliary = False
    rows = None

    def reaction(self, lam_rows):
        """Physical reactions (names, values) from the part's multipliers; default: the multipliers by row label.

        Parameters
        ----------
        lam_rows : ndarray
            The multipliers of the part's rows (``lam[part.rows]``).
        """
        return [lbl.split(": ")[-1] for lbl in (e.label for e in self.equations())], lam_rows


class Inputs(Part):
    """Side contract of a part with unknown actuator inputs u acting through Q_u = B(q)ᵀu.

    The inputs take the multiplier slots of the servo rows, one per row in model order (Blajer &
    Kołodziejczyk 2004, eqs. 1–3). Attributes: ``inputs`` (their number), ``quantity`` ("torque",
    N·m, or "force", N).
    """

    inputs = 1
    quantity = "force"

    def input_pattern(self):
        """Columns of the row B = ∂s/∂q (s the driven joint coordinate)."""
        return EMPTY_INT

    def input_values(self, q):
        """Values of B = ∂s/∂q on :meth:`input_pattern` (s the driven joint coordinate).

        Parameters
        ----------
        q : ndarray (n,)
        """
        return EMPTY

    def input_hessian_pattern(self):
        """(rows, cols) of ∂(Bᵀu)/∂q = u ∂²s/∂q²."""
        return EMPTY_INT, EMPTY_INT

    def input_hessian_values(self, q, u):
        """Values of ∂(Bᵀu)/∂q = u ∂²s/∂q² on :meth:`input_hessian_pattern`.

        Parameters
        ----------
        q : ndarray (n,)
        u : float
            The input, N·m or N.
        """
        return EMPTY


class Body(Part):
    """Side contract of a body: what joints, loads, sensors, solvers and pictures read from it.

    Attributes
    ----------
    points, vectors : list of femdyn.model.nodes.Node
        Its point and unit-vector nodes (initial velocities of a rigid motion).
    component : femdyn.component.Component or None
        The reduced finite-element component of a flexible body (its output points, gauges,
        strain and stress modes), None for a rigid body (the default): the body's kind for
        sensors and pictures.
    """

    points = ()
    vectors = ()
    component = None

    def locate_output_point(self, x):
        """Index of the component's output point at x (m, reference frame); a body without a component has none.

        Parameters
        ----------
        x : (3,) array_like
            Position, m, in the body's reference frame.
        """
        raise ModelError(f"body '{self.name}' has no output points: it is not a flexible body built from a component")

    def turning_vectors(self):
        """Material vectors (Exprs of q) whose turning rate is the body's spin (fast-spin check; default none)."""
        return ()

    def mesh_cells(self, q):
        """The deformed mesh (points (k, 3) m, [(cell kind, connectivity)]) for pictures, or None (the default): drawn by its outline.

        Parameters
        ----------
        q : ndarray (n,)
        """
        return None

    def mesh_stress(self, q):
        """Strains and stresses (k, 10) at the points of :meth:`mesh_cells`, or None (the default): no stresses.

        Parameters
        ----------
        q : ndarray (n,)
        """
        return None

    def material_point(self, x):
        """The material point at global position x (m, initial configuration) as an affine Expr of q.

        Parameters
        ----------
        x : (3,) array_like
            Position, m.
        """
        raise NotImplementedError(f"{type(self).__name__} offers no material points")

    def material_vector(self, w):
        """The material direction w (initial configuration) as an affine Expr of q.

        Parameters
        ----------
        w : (3,) array_like
            Direction.
        """
        raise NotImplementedError(f"{type(self).__name__} offers no material vectors")

    def outline(self, q):
        """The polyline (k, 3), m, that draws the body in plots, renders and ParaView files.

        Parameters
        ----------
        q : ndarray (n,)
        """
        return np.zeros((0, 3))


class Sensor:
    """The sensor contract: ``columns`` names the channels, :meth:`measure` returns their values.

    ``name`` prefixes the channels ``<name>.<component>`` (``columns`` may be set in :meth:`bind`);
    the System binds its own copies and the results writer calls :meth:`measure` every recorded step.
    Optionally, a class provides ``reader(sensors)`` (a classmethod returning ``read(q, v, a, lam, t)``,
    the values of those bound sensors concatenated in their order) to read all its sensors in one
    call; the writer groups the sensors by class and uses it where present.
    """

    name = "sensor"
    columns = ()

    def bind(self, system):
        """Prepare the sensor for an assembled System (index maps, row numbers).

        Parameters
        ----------
        system : femdyn.model.system.System
            The System that owns this copy of the sensor.
        """

    def measure(self, q, v, a, lam, t):
        """The sensor's values at one instant, one per column, SI units.

        Parameters
        ----------
        q, v, a : ndarray (n,)
            Coordinates, velocities, accelerations (a may be None).
        lam : ndarray (m,)
            Multipliers (actuator inputs in the servo rows); may be None.
        t : float
        """
        raise NotImplementedError


def gathering(part):
    """``type(part)`` if that class itself defines ``gathered`` (its parts are evaluated together), else None."""
    kind = type(part)
    return kind if "gathered" in vars(kind) else None


def missing(obj, contract=Part):
    """Names of ``contract`` (default :class:`Part`) that ``obj`` lacks, read from this module's contract classes."""
    found = []
    for name in sorted({n for c in contract.__mro__ if c.__module__ == __name__
                        for n in vars(c) if not n.startswith("_")}):
        value, given = getattr(contract, name), getattr(obj, name, _ABSENT)
        if given is _ABSENT or (callable(value) and not callable(given)):
            found.append(name)
    return found


def check(obj, contract=Part, what="model part"):
    """Raise ModelError naming what ``obj`` lacks of ``contract`` (see :func:`missing`)."""
    lacks = missing(obj, contract)
    if lacks or not isinstance(getattr(obj, "name", None), str):
        raise ModelError(f"{obj!r} is not a {what}: it lacks {lacks or ['a name (str)']}; derive it from "
                         f"femdyn.model.protocol.{contract.__name__} and override what it contributes")
    return obj

