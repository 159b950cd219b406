"""Sensors: channels recorded at every output step of a run (SI units)."""
import numpy as np

from ..errors import ModelError
from ..validation import number, vector3
from .vectorfunctions import Angle, FunctionGroup, Targets


class Sensor:
    """Base class of sensors: ``columns`` names the channels, :meth:`measure` returns their values.

    Sensors are added with the ``Model.sensor_*`` methods; the System binds its own
    copies, and the results writer calls :meth:`measure` at every recorded step.

    Attributes
    ----------
    name : str
        Sensor name, the prefix of its channels.
    columns : tuple of str
        Channel names, ``<name>.<component>``.
    """

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


class PointSensor(Sensor):
    """Position (m) and velocity (m/s) of a material point, global frame.

    Parameters
    ----------
    name : str
        Channels ``<name>.x``, ``.y``, ``.z``, ``.vx``, ``.vy``, ``.vz``.
    expr : femdyn.model.nodes.Expr
        The material point.
    """

    def __init__(self, name, expr):
        self.name, self.expr = name, expr
        self.columns = tuple(f"{name}.{c}" for c in ("x", "y", "z", "vx", "vy", "vz"))

    def measure(self, q, v, a, lam, t):
        vel = self.expr(v) - self.expr.offset
        return np.concatenate([self.expr(q), vel])


class JointAngleSensor(Sensor):
    """Joint angle (rad, from the initial configuration plus the joint's offset, wrapped to
    (−π, π]; results unwrap it) and joint rate (rad/s) of a revolute joint.

    The angle is the rotation of body B relative to body A about the joint axis.

    Parameters
    ----------
    name : str
        Channels ``<name>.angle`` and ``<name>.rate``.
    revolute : femdyn.model.joints.Revolute
        The joint.
    """

    def __init__(self, name, revolute):
        self.name, self.revolute = name, revolute
        self.columns = (f"{name}.angle", f"{name}.rate")

    def bind(self, system):
        a, b, u, self.offset = self.revolute.angle_vectors()
        self.group = FunctionGroup(Angle, [(a, b, u)], np.zeros((1, 3)), Targets([0.0], [None]), system.n)

    def measure(self, q, v, a, lam, t):
        theta, grad = Angle.angle(self.group.vectors(q))
        rate = np.bincount(self.group.cols, grad.ravel()[self.group.rows] * self.group.vals * v[self.group.cols])
        angle = theta[0] + self.offset
        return np.array([np.pi - (np.pi - angle) % (2 * np.pi), rate.sum()])      # wrapped to (−π, π]


class ReactionSensor(Sensor):
    """Reactions of one joint from its multipliers (see ``Joint.reaction``: forces on body B
    in N for coincidence rows, the drive torque in N·m for an angle drive).

    Parameters
    ----------
    name : str
        Prefix of the channels, one per row of the joint (named by ``Joint.reaction``).
    joint : femdyn.model.joints.Joint
        The joint.
    """

    def __init__(self, name, joint):
        self.name, self.joint = name, joint

    def bind(self, system):
        self.rows = system.joint_rows[self.joint.name]
        names, _ = self.joint.reaction(np.zeros(len(self.rows)))
        self.columns = tuple(f"{self.name}.{c}" for c in names)

    def measure(self, q, v, a, lam, t):
        return self.joint.reaction(lam[self.rows])[1]


class BeamSensor(Sensor):
    """A strain quantity at a material point of an ANCF beam, recorded every step:
    "strain" (axial strain at section point (y, z) [m]: the reading of a strain gauge
    bonded there, dimensionless), "curvature" (1/m: κ_y, κ_z for spatial elements, the
    signed in-plane κ_z for the planar cable), and for fully parameterized beams "twist"
    (rad/m) and "shear" (γ_y, γ_z in rad). The kernel's ``sensor_quantities`` names the
    method that evaluates each quantity (definitions, sign conventions; for the full
    beam, bending recovered with second-order accuracy) and its columns.

    Parameters
    ----------
    name : str
        Prefix of the channels.
    beam : femdyn.model.flexible.ElementSet
        The element set.
    element : int
        Element index, 0 … count − 1.
    xi : float
        ξ ∈ [0, 1] along the element.
    quantity : str, optional
        One of ``QUANTITIES`` that the kernel offers (default "strain").
    y, z : float, optional
        Section point of a strain gauge, m, in the section axes.

    Raises
    ------
    ModelError
        If the kernel cannot report the quantity or a value is out of range.
    """

    QUANTITIES = ("strain", "curvature", "twist", "shear")

    def __init__(self, name, beam, element, xi, quantity="strain", y=0.0, z=0.0):
        kernel = beam.kernel
        available = [k for k in self.QUANTITIES if k in kernel.sensor_quantities]
        if quantity not in available:
            raise ModelError(f"sensor '{name}': beam '{beam.name}' ({type(kernel).__name__}) cannot report "
                             f"{quantity!r}; choose from {available}")
        self.element, self.xi = beam.locate(element, xi)
        self.name, self.beam, self.quantity = name, beam, quantity
        self.y, self.z = (number(value, f"sensor '{name}': section coordinate {axis}",
                                 "metres (a point of the cross section)") for axis, value in (("y", y), ("z", z)))
        self.method, names = kernel.sensor_quantities[quantity]
        self.columns = tuple(f"{name}.{c}" for c in names)

    def bind(self, system):
        """Check at assembly that the kernel returns one value per column.

        Parameters
        ----------
        system : femdyn.model.system.System
            The System (its initial coordinates are measured once).

        Raises
        ------
        ModelError
            If the kernel's value count differs from the declared columns.
        """
        width = np.size(self.measure(system.q0, None, None, None, 0.0))
        if width != len(self.columns):
            raise ModelError(f"sensor '{self.name}': {type(self.beam.kernel).__name__} returns {width} values for "
                             f"'{self.quantity}' but the sensor declares the columns {self.columns}")

    def measure(self, q, v, a, lam, t):
        qe = q[self.beam.dofs]
        method = getattr(self.beam.kernel, self.method)
        value = method(qe, self.xi, self.y, self.z) if self.quantity == "strain" else method(qe, self.xi)
        return np.atleast_1d(np.asarray(value)[self.element])


class ActuatorSensor(Sensor):
    """The input of an actuator (femdyn.model.actuators): torque (N·m) or force (N), as
    solved by servo-constraint inverse dynamics.

    Parameters
    ----------
    name : str
        Channel ``<name>.torque`` or ``<name>.force``.
    actuator : femdyn.model.actuators.Actuator
        The actuator.
    """

    def __init__(self, name, actuator):
        self.name, self.actuator = name, actuator
        self.columns = (f"{name}.{actuator.quantity}",)

    def bind(self, system):
        self.row = system.input_of[self.actuator.name]

    def measure(self, q, v, a, lam, t):
        return lam[self.row:self.row + 1]


class FlexiblePointSensor(Sensor):
    """Position (m) and velocity (m/s) of an output point of a floating-frame body,
    recovered from its stored mode shapes: r = r_ref + A(x + Φ_p η) (see
    :mod:`femdyn.model.floating_frame`). Made by ``Model.sensor_point`` on a flexible body,
    e.g. ``m.sensor_point("tip", "bar", (0.4, 0, 0))``.

    Parameters
    ----------
    name : str
        Sensor name; channels ``<name>.x``, ``.y``, ``.z`` (m) and ``.vx``, ``.vy``,
        ``.vz`` (m/s), global frame.
    body : femdyn.model.floating_frame.FloatingFrameBody
        The flexible body.
    index : int
        Row of the component's ``output_points`` (position x, m, reference frame) and
        ``output_shapes`` (Φ_p, (3, n_η)) that the sensor reads
        (:meth:`~femdyn.model.floating_frame.FloatingFrameBody.locate_output_point`).
    """

    def __init__(self, name, body, index):
        self.name, self.body, self.index = name, body, index
        self.point = body.component.output_points[index]
        self.shape = body.component.output_shapes[index]
        self.columns = tuple(f"{name}.{c}" for c in ("x", "y", "z", "vx", "vy", "vz"))

    def measure(self, q, v, a, lam, t):
        return np.concatenate(self.body.point_state(q, v, self.point, self.shape))


class GaugeSensor(Sensor):
    """Strains (dimensionless, Voigt order of the component's ``strain_order``, engineering
    shear) at a gauge point of a floating-frame body: ε = E_g η, E_g the stored strain
    modes (linear strain of the modal displacement field in the reference frame). Made by
    ``Model.sensor_gauge``, e.g. ``m.sensor_gauge("root", "bar", 0)``.

    Parameters
    ----------
    name : str
        Sensor name; channels ``<name>.<component>`` in ``strain_order`` (default
        ``exx, eyy, ezz, gyz, gxz, gxy``), strain components in the reference frame.
    body : femdyn.model.floating_frame.FloatingFrameBody
        The flexible body.
    index : int
        Row of the component's ``gauge_points`` / ``gauge_strain_modes`` (E_g, (6, n_η)).
    """

    def __init__(self, name, body, index):
        self.name, self.body, self.index = name, body, index
        self.modes = body.component.gauge_strain_modes[index]
        order = body.component.header.get("strain_order", ["exx", "eyy", "ezz", "gyz", "gxz", "gxy"])
        self.columns = tuple(f"{name}.{c}" for c in order)

    def measure(self, q, v, a, lam, t):
        return self.modes @ self.body.modal_coordinates(q)


class SensorBuilder:
    """The sensor constructors of :class:`~femdyn.model.Model`: one per physical quantity (``m.sensor_point``, ``m.sensor_strain``, …)."""

    def sensor_point(self, name, body, point):
        """Record the position and velocity of a material point of a body.

        Parameters
        ----------
        name : str
            Sensor name; channels ``<name>.x``, ``.y``, ``.z`` (m) and ``.vx``, ``.vy``,
            ``.vz`` (m/s), global frame.
        body : str or body
            The body (or an ANCF node, or a flexible body of :meth:`flexible_body`).
        point : (3,) array_like
            The material point, m, global frame, initial configuration; for a flexible
            body one of its component's output points, m, reference-frame coordinates.

        Returns
        -------
        femdyn.model.sensors.PointSensor or femdyn.model.sensors.FlexiblePointSensor

        Raises
        ------
        ModelError
            If the point lies outside the body's span or the sensor name is taken.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> m.sensor_point("mid", rod, (0.5, 0, 0)).columns[:3]
        ('mid.x', 'mid.y', 'mid.z')
        """
        body = self.body(body)
        if hasattr(body, "locate_output_point"):
            return self.add_sensor(FlexiblePointSensor(name, body, body.locate_output_point(point)))
        return self.add_sensor(PointSensor(name, body.material_point(point)))

    def sensor_gauge(self, name, body, gauge):
        """Strain gauge on a flexible body (:meth:`flexible_body`): the six strains at one of
        its component's gauge points, given by index or by its reference-frame position (m).

        Parameters
        ----------
        name : str
            Sensor name; the channels are ``<name>.exx`` … ``<name>.gxy``.
        body : str or FloatingFrameBody
            The flexible body (:meth:`flexible_body`).
        gauge : int or (3,) array_like
            Index of the component's gauge point, or its position, m, reference-frame
            coordinates.

        Returns
        -------
        femdyn.model.sensors.GaugeSensor

        Raises
        ------
        ModelError
            If the body is not flexible, or no gauge point has that index or position.

        Example
        -------
        >>> m.sensor_gauge("root", "link", 0)          # doctest: +SKIP
        """
        body = self.body(body)
        if not hasattr(body, "component"):
            raise ModelError(f"gauge sensor '{name}': '{body.name}' is not a flexible body; strain gauges on ANCF "
                             "beams are Model.sensor_strain")
        points = body.component.gauge_points
        if np.ndim(gauge) == 0:
            index = int(gauge)
            if not 0 <= index < len(points):
                raise ModelError(f"gauge sensor '{name}': body '{body.name}' has {len(points)} gauges, "
                                 f"got index {gauge}")
        else:
            dist = np.linalg.norm(points - vector3(gauge, f"gauge sensor '{name}': point (m)"), axis=1)
            if not len(dist) or dist.min() > 1e-9 * max(1.0, np.linalg.norm(gauge)):
                raise ModelError(f"gauge sensor '{name}': {list(gauge)} is not a gauge point of '{body.name}'; "
                                 f"its gauges are {np.round(points, 9).tolist()} (m, reference frame)")
            index = int(np.argmin(dist))
        return self.add_sensor(GaugeSensor(name, body, index))

    def sensor_strain(self, name, beam, element, xi, y=0.0, z=0.0):
        """Record the axial strain at a material point of an ANCF beam (what a strain gauge reads).

        Parameters
        ----------
        name : str
            Sensor name; channel ``<name>.strain`` (dimensionless).
        beam : str or femdyn.model.flexible.ElementSet
            The element set.
        element : int
            Element index, 0 … count − 1, from the first node.
        xi : float
            Position along the element, ξ ∈ [0, 1] from its first node.
        y, z : float, optional
            Point of the cross section, m, in the section axes (the nodes' r_y, r_z for
            beams, ``y_axis`` and x × y for a 3-D cable).

        Returns
        -------
        femdyn.model.sensors.BeamSensor

        Raises
        ------
        ModelError
            If the element or ξ is out of range or the sensor name is taken.

        Examples
        --------
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> gauge = m.sensor_strain("gauge", "b", element=0, xi=0.0, y=0.01)
        >>> system = m.assemble()
        >>> float(system.sensors[0].measure(system.q0, None, None, None, 0.0)[0])   # stress-free
        0.0
        """
        return self.sensor_beam(name, beam, element, xi, "strain", y, z)

    def sensor_beam(self, name, beam, element, xi, quantity, y=0.0, z=0.0):
        """Record a strain quantity of an ANCF beam at (element, ξ).

        Parameters
        ----------
        name : str
            Sensor name; channels ``<name>.<component>``.
        beam : str or femdyn.model.flexible.ElementSet
            The element set.
        element : int
            Element index, 0 … count − 1.
        xi : float
            ξ ∈ [0, 1] along the element.
        quantity : str
            "strain" (axial strain at section point (y, z), dimensionless),
            "curvature" (1/m: κ_y, κ_z for spatial elements, the signed in-plane κ_z for
            the planar cable), and for fully parameterized beams "twist" (rad/m) and
            "shear" (γ_y, γ_z, rad); see :class:`~femdyn.model.sensors.BeamSensor`.
        y, z : float, optional
            Section point, m (strain only).

        Returns
        -------
        femdyn.model.sensors.BeamSensor

        Raises
        ------
        ModelError
            If the element cannot report ``quantity``, the position is out of range, or
            the sensor name is taken.

        Examples
        --------
        >>> from femdyn.elements import sections
        >>> m = Model()
        >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
        >>> m.sensor_beam("k", "b", 1, 0.5, "curvature").columns
        ('k.kappa_y', 'k.kappa_z')
        """
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        beam.locate(element, xi)
        return self.add_sensor(BeamSensor(name, beam, element, xi, quantity, y, z))

    def sensor_angle(self, name, revolute):
        """Record the joint angle and rate of a revolute joint.

        The angle is the rotation of ``body_b`` relative to ``body_a`` about the joint
        axis (right-handed), ``angle0`` in the initial configuration; it is recorded
        wrapped to (−π, π] and ``Results[...]`` unwraps it.

        Parameters
        ----------
        name : str
            Sensor name; channels ``<name>.angle`` (rad) and ``<name>.rate`` (rad/s).
        revolute : str or femdyn.model.joints.Revolute
            The revolute joint of this model.

        Returns
        -------
        femdyn.model.sensors.JointAngleSensor

        Raises
        ------
        ModelError
            If ``revolute`` is not a revolute joint of the model or the name is taken.

        Examples
        --------
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0), angle0=0.5)
        >>> _ = m.sensor_angle("theta", "pivot")
        >>> system = m.assemble()
        >>> system.sensors[0].measure(system.q0, system.v0, None, None, 0.0).tolist()
        [0.5, 0.0]
        """
        return self.add_sensor(JointAngleSensor(name, self._revolute(revolute)))

    def sensor_reaction(self, name, joint):
        """Record the reactions of a joint, named and signed, from its multipliers.

        Coincidence rows (spherical, revolute, universal, clamp) give the constraint
        force on ``body_b`` (N, global frame; ``body_a`` carries −F) in channels
        ``<name>.x``, ``.y``, ``.z``; an angle drive gives its torque on ``body_b``
        (``<name>.torque``, N·m); orientation rows give their multipliers under their
        row labels. See :meth:`femdyn.model.joints.Joint.reaction`.

        Parameters
        ----------
        name : str
            Sensor name.
        joint : str or femdyn.model.joints.Joint
            A joint of this model.

        Returns
        -------
        femdyn.model.sensors.ReactionSensor

        Raises
        ------
        ModelError
            If the joint is unknown or the sensor name is taken.

        Examples
        --------
        A hanging 2 kg rod: the pivot holds it up with 2 kg · 9.81 m/s².

        >>> from femdyn.solvers.static import static_equilibrium
        >>> m = Model()
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0, 0, -1.0)), mass=2.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> _ = m.sensor_reaction("R", "pivot")
        >>> system = m.assemble()
        >>> q, lam = static_equilibrium(system)
        >>> system.sensors[0].measure(q, system.v0, None, lam, 0.0)[:3].round(6).tolist()
        [0.0, 0.0, 19.62]
        """
        if isinstance(joint, str):
            if joint not in self.joints:
                raise ModelError(f"reaction sensor '{name}': unknown joint '{joint}'; known joints: {sorted(self.joints)}")
            joint = self.joints[joint]
        return self.add_sensor(ReactionSensor(name, joint))
