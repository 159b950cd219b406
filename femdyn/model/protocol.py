"""The part contract: what a part of a model gives the assembled System, stated once.

A *part* adds terms to the equations of motion

    M(q) q̈ + Φ_qᵀ λ = Q(q, q̇, t),    Φ(q, t) = 0            (García de Jalón & Bayo 1994, eq. 5.2)

through the coordinates of the nodes it uses (``node.dofs``): a rigid body, an ANCF element
set, a load, a joint, a floating-frame body, or a class written outside femdyn. The System
never asks what kind of part it holds; it calls only the methods of :class:`Part`, so a new
kind of part is a new class in its own module (see ``docs/contributing.md``).

The contract and its side contracts (each a class with neutral defaults to derive from):

- :class:`Part` — mass, gravity, forces and their tangents, constraint rows, energies.
  :meth:`Model.add <femdyn.model.Model.add>` refuses an object that lacks one of them
  (:func:`missing`).
- :class:`Constraint` — a part whose rows the System numbers and reports: ``kind``,
  ``servo`` (rows that carry actuator inputs), ``auxiliary`` (rows the model adds by
  itself, of which the System keeps only those independent of the others), ``rows`` (set
  by the System) and ``reaction(lam_rows)`` for reaction sensors. Joints derive from it.
- :class:`Inputs` — a part with unknown actuator inputs u acting through Q_u = Bᵀu:
  ``inputs``, ``quantity`` and the pattern and values of B and of ∂(Bᵀu)/∂q.
- :class:`Body` — what a body offers to joints, loads, sensors and pictures:
  ``material_point(x)``, ``material_vector(w)`` (affine :class:`~femdyn.model.nodes.Expr`),
  ``points``/``vectors`` (its nodes, for initial velocities) and ``outline(q)`` (the
  polyline that plots, renders and ParaView files draw; a body with a mesh also offers
  ``mesh_cells(q)``). Element sets offer ``centreline(q)`` and
  ``material_point(element, xi)`` instead.
- :class:`Sensor` — a recorder: ``name``, ``columns``, ``bind(system)`` and
  ``measure(q, v, a, lam, t)``; :meth:`Model.add_sensor <femdyn.model.Model.add_sensor>`
  checks it.
"""
import numpy as np

from ..errors import ModelError

EMPTY_INT = np.zeros(0, int)
EMPTY = np.zeros(0)


class Part:
    """The part contract, with neutral defaults: a part that adds nothing.

    Subclasses override what they contribute; the System calls only the methods of this
    class, with the global coordinates q (n,) of the model (SI units: m for positions,
    dimensionless for unit vectors and position gradients) and time t in s. A part
    refers to coordinates through its nodes' ``node.dofs`` (global indices in q).

    Example, a linear spring of stiffness k (N/m) between two point nodes (see
    ``docs/contributing.md`` and ``tests/parts.py`` for the complete class)::

        class Spring(Part):
            def force(self, q, v, t):
                d = q[self.b] - q[self.a]            # b, a: index arrays of the two points
                ...

    Attributes
    ----------
    name : str
        Unique among the parts of its family (bodies, joints, added parts, …).
    applied : bool
        Whether the statics load factor scales :meth:`force` (loads: True; elastic and
        inertial forces: False).
    constant_mass : bool
        Whether :meth:`mass_coo` is independent of q (else :meth:`mass_values` and
        :meth:`mass_derivative` are called every iteration).

    Examples
    --------
    A part that adds nothing assembles and leaves the equations unchanged:

    >>> import femdyn
    >>> from femdyn.model.protocol import Part
    >>> m = femdyn.Model("empty part")
    >>> _ = m.point("P", (0, 0, 0))
    >>> _ = m.add(Part())
    >>> system = m.assemble()
    >>> system.n, system.m
    (3, 0)
    """

    name = "part"
    applied = False          # scaled by the statics load factor?
    constant_mass = True     # mass independent of q?

    def bind(self, n):
        """Prepare the part for a System of ``n`` coordinates.

        Called once, on the System's own deep copy of the part (never on the object the
        user added to the Model): precompute index maps and patterns here. The default
        stores ``self.n = n``; overrides should call it or set ``n`` themselves.

        Parameters
        ----------
        n : int
            Number of coordinates q of the System.
        """
        self.n = n

    def mass_coo(self):
        """The part's mass block as COO triplets.

        Constant-mass parts: assembled once into the System's mass matrix (duplicates
        are summed). Configuration-dependent parts (``constant_mass = False``): the
        rows and cols fix the pattern, the values those of M(q0).

        Returns
        -------
        rows, cols : ndarray of int
            Global indices into q.
        values : ndarray of float
            Mass entries (kg for position coordinates; kg·m or kg·m² for entries of
            dimensionless coordinates).
        """
        return EMPTY_INT, EMPTY_INT, EMPTY

    def mass_values(self, q):
        """Values of M(q) on the rows and cols of :meth:`mass_coo` (configuration-dependent parts).

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        ndarray
            One value per entry of :meth:`mass_coo`'s pattern. The default returns the
            constant values of :meth:`mass_coo`.
        """
        return self.mass_coo()[2]

    def mass_derivative_pattern(self):
        """(rows, cols) of ∂(M(q) a)/∂q (configuration-dependent parts; empty by default)."""
        return EMPTY_INT, EMPTY_INT

    def mass_derivative(self, q, a):
        """Values of ∂(M(q) a)/∂q on :meth:`mass_derivative_pattern` (configuration-dependent parts).

        This is the inertia term of the Newton iteration matrix; constant-mass parts
        leave it empty.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        a : ndarray (n,)
            Accelerations q̈ (m/s² for position coordinates).

        Returns
        -------
        ndarray
            One value per entry of the pattern (kg/s² per unit of q for position rows).
        """
        return EMPTY

    def gravity(self, g):
        """The constant generalized gravity force ∫ρ Sᵀg dV of a constant-mass part.

        Summed once at assembly; a configuration-dependent part returns nothing here and
        puts its weight into :meth:`force`.

        Parameters
        ----------
        g : ndarray (3,)
            Gravity vector, m/s², global frame.

        Returns
        -------
        dofs : ndarray of int
            Global indices into q (duplicates are summed).
        values : ndarray of float
            Generalized forces (N for position coordinates).
        """
        return EMPTY_INT, EMPTY

    def force(self, q, v, t):
        """Contribution to the generalized forces Q(q, q̇, t).

        Sign as in M q̈ + Φ_qᵀλ = Q: applied loads enter with their own sign, an
        element's internal (elastic, damping) forces with a minus sign; quadratic-velocity
        forces of configuration-dependent parts belong here too.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their time derivatives.
        t : float
            Time, s.

        Returns
        -------
        ndarray (n,) or None
            The contribution (N for position coordinates), or None when the part adds
            no force (the default).
        """
        return None

    def tangent_pattern(self):
        """Fixed COO patterns of the stiffness K = −∂Q/∂q and damping C = −∂Q/∂q̇.

        Returns
        -------
        k_rows, k_cols, c_rows, c_cols : ndarray of int
            Global indices; empty (the default) when the part's forces do not depend on
            q or q̇.
        """
        return EMPTY_INT, EMPTY_INT, EMPTY_INT, EMPTY_INT

    def tangent_values(self, q, v, t):
        """Values of K = −∂Q/∂q and C = −∂Q/∂q̇ on :meth:`tangent_pattern`.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their time derivatives.
        t : float
            Time, s.

        Returns
        -------
        k, c : ndarray
            One value per entry of the K and C patterns (N/m and N·s/m for position
            coordinates).
        """
        return EMPTY, EMPTY

    def equations(self):
        """Constraint equations Φ_i(q, t) = 0 of the part.

        Returns
        -------
        list of femdyn.model.constraints.Equation
            Rows batched by kind with exact Jacobians and Hessians (empty by default).
        """
        return []

    def strain_energy(self, q):
        """Elastic energy stored in the part.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        float
            Energy in J (0 by default).
        """
        return 0.0

    def potential_energy(self, q):
        """Potential energy of the part other than the constant gravity of :meth:`gravity`.

        Its strain energy, plus gravity for a configuration-dependent part; the System
        adds −Q_gᵀq for the constant gravity.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        float
            Energy in J (the default: :meth:`strain_energy`).
        """
        return self.strain_energy(q)


class Constraint(Part):
    """Side contract of a part whose :meth:`~Part.equations` the System numbers and reports.

    Attributes
    ----------
    kind : str
        Shown in summaries and messages ("revolute", "clamp", …).
    servo : bool
        The rows prescribe a motion and carry actuator inputs in their multiplier slots
        instead of multipliers (:class:`Inputs`, :mod:`femdyn.model.actuators`).
    auxiliary : bool
        Rows the model adds by itself (e.g. the plane of a planar cable): the System keeps
        only those independent of the other rows.
    rows : ndarray of int
        The part's global constraint rows, set by the System.
    """

    kind = "constraint"
    servo = False
    auxiliary = False
    rows = None

    def reaction(self, lam_rows):
        """Physical reactions from the part's multipliers (read by reaction sensors).

        Parameters
        ----------
        lam_rows : ndarray
            The multipliers λ of the part's rows (``lam[part.rows]``).

        Returns
        -------
        names : list of str
            One per row; the default names each row by its equation label.
        values : ndarray
            The reactions; the default returns the multipliers as they are.
        """
        return [lbl.split(": ")[-1] for lbl in (e.label for e in self.equations())], lam_rows


class Inputs(Part):
    """Side contract of a part with unknown actuator inputs u (servo-constraint inverse dynamics).

    The inputs act through Q_u = B(q)ᵀu and take the multiplier slots of the servo rows
    (:class:`Constraint` with ``servo = True``), one input per row in model order
    (Blajer & Kołodziejczyk 2004, eqs. 1–3).

    Attributes
    ----------
    inputs : int
        Number of inputs (the System counts parts with ``inputs`` > 0 as actuators).
    quantity : str
        "torque" (N·m) or "force" (N): names the recorded channel.
    """

    inputs = 1
    quantity = "force"

    def input_pattern(self):
        """Columns of the row B = ∂s/∂q (s the driven joint coordinate)."""
        return EMPTY_INT

    def input_values(self, q):
        """Values of B = ∂s/∂q on :meth:`input_pattern`.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        ndarray
            rad or m per unit of q.
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
            Coordinates.
        u : float
            The input, N·m or N.

        Returns
        -------
        ndarray
        """
        return EMPTY


class Body(Part):
    """Side contract of a body: what joints, loads, sensors and pictures read from it.

    Attributes
    ----------
    points, vectors : list of femdyn.model.nodes.Node
        Its point and unit-vector nodes (initial velocities of a rigid motion).
    """

    points = ()
    vectors = ()

    def material_point(self, x):
        """The material point at global position x in the initial configuration.

        Parameters
        ----------
        x : (3,) array_like
            m, global frame, initial configuration.

        Returns
        -------
        femdyn.model.nodes.Expr
            Its position as an affine function of q.
        """
        raise NotImplementedError(f"{type(self).__name__} offers no material points")

    def material_vector(self, w):
        """The material direction w (global frame, initial configuration) as an Expr of q.

        Parameters
        ----------
        w : (3,) array_like
            Direction, global frame.

        Returns
        -------
        femdyn.model.nodes.Expr
        """
        raise NotImplementedError(f"{type(self).__name__} offers no material vectors")

    def outline(self, q):
        """The polyline that draws the body (plots, renders, ParaView files).

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        ndarray (k, 3)
            Points, m, global frame.
        """
        return np.zeros((0, 3))


class Sensor:
    """The sensor contract: ``columns`` names the channels, :meth:`measure` returns their values.

    Sensors are added with the ``Model.sensor_*`` methods or
    :meth:`Model.add_sensor <femdyn.model.Model.add_sensor>`; the System binds its own
    copies, and the results writer calls :meth:`measure` at every recorded step.

    Attributes
    ----------
    name : str
        Sensor name, the prefix of its channels; unique in a model.
    columns : tuple of str
        Channel names, ``<name>.<component>`` (may be set in :meth:`bind`).
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
        """The sensor's values at one instant, one per column.

        Parameters
        ----------
        q, v, a : ndarray (n,)
            Coordinates, velocities and accelerations (a may be None).
        lam : ndarray (m,)
            Multipliers (actuator inputs in the servo rows); may be None for sensors
            that do not read it.
        t : float
            Time, s.

        Returns
        -------
        ndarray (len(columns),)
            SI units, as documented by each sensor.
        """
        raise NotImplementedError


def missing(obj, contract=Part):
    """Names of ``contract`` (:class:`Part` by default, or a side contract) that ``obj`` lacks:
    the one list of methods and attributes, read from the contract classes of this module.

    >>> missing(Part()), missing(object())[:3]
    ([], ['applied', 'bind', 'constant_mass'])
    """
    found = []
    for name in sorted({n for c in contract.__mro__ if c.__module__ == __name__
                        for n in vars(c) if not n.startswith("_")}):
        value = getattr(contract, name)
        if not hasattr(obj, name) or (callable(value) and not callable(getattr(obj, name))):
            found.append(name)
    return found


def check(obj, contract=Part, what="model part"):
    """Raise ModelError naming what ``obj`` lacks of ``contract`` (see :func:`missing`)."""
    lacks = missing(obj, contract)
    if lacks or not isinstance(getattr(obj, "name", None), str):
        raise ModelError(f"{obj!r} is not a {what}: it lacks {lacks or ['a name (str)']}; derive it from "
                         f"femdyn.model.protocol.{contract.__name__} and override what it contributes")
    return obj

