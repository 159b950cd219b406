"""Sensors: channels recorded at every output step, one ``Model.sensor_*`` constructor per quantity.

A :class:`Gauge` reads ε_θ = ε_x cos²θ + ε_s sin²θ + γ_xs sinθ cosθ on a beam's wall (Dally & Riley
2005, eq. 6.4), averaged over its grid; details: docs/strain-reports.md.
"""
from dataclasses import dataclass

import numpy as np

from ..component import STRESS_COLUMNS, STRESS_UNITS, ComponentGauge, gauge_modes, stress_rows, stress_state
from ..errors import ModelError
from ..input_checks import number, vector3
from ..elements.ancf_beam import RecoveredStrains
from ..results.store import measuring
from .flexible import ElementSet
from .protocol import Body, Sensor
from .vectorfunctions import Angle, Dot, FunctionGroup, Targets

class PointSensor(Sensor):
    """Position (m) and velocity (m/s) of a material point, global frame."""

    def __init__(self, name, expr):
        self.name, self.expr = name, expr
        self.columns = tuple(f"{name}.{c}" for c in ("x", "y", "z", "vx", "vy", "vz"))

    def measure(self, q, v, a, lam, t):
        vel = self.expr(v) - self.expr.offset
        return np.concatenate([self.expr(q), vel])


class JointAngleSensor(Sensor):
    """Joint angle (rad, wrapped to (−π, π]) and rate (rad/s) of a revolute joint."""

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


class JointSlideSensor(Sensor):
    """Stroke (m, 0 where the joint was built) and rate (m/s) of a prismatic joint."""

    def __init__(self, name, prismatic):
        self.name, self.prismatic = name, prismatic
        self.columns = (f"{name}.stroke", f"{name}.rate")

    def bind(self, system):
        self.group = FunctionGroup(Dot, [self.prismatic.slide_vectors()], np.zeros((1, 3)), Targets([0.0], [None]),
                                   system.n)

    def measure(self, q, v, a, lam, t):
        phi, grad = self.group.evaluate(q, 0.0)
        return np.array([phi[0], grad @ v[self.group.cols]])


class ReactionSensor(Sensor):
    """Reactions of one joint from its multipliers (see ``Constraint.reaction``)."""

    def __init__(self, name, joint):
        self.name, self.joint = name, joint

    def bind(self, system):
        self.system, self.rows = system, system.equation_rows[self.joint.name]
        names, _ = self.joint.reaction(np.zeros(len(self.rows)))
        self.columns = tuple(f"{self.name}.{c}" for c in names)

    def measure(self, q, v, a, lam, t):
        return self.joint.reaction(self.system.reaction_multipliers(q, lam, t)[self.rows])[1]


class BeamSensor(Sensor):
    """A strain quantity at a material point of an ANCF beam (the kernel's ``sensor_quantities`` defines each)."""

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
        width = np.size(self.measure(system.q0, None, None, None, 0.0))
        if width != len(self.columns):
            raise ModelError(f"sensor '{self.name}': {type(self.beam.kernel).__name__} returns {width} values for "
                             f"'{self.quantity}' but the sensor declares the columns {self.columns}")

    def measure(self, q, v, a, lam, t):
        qe = q[self.beam.dofs]
        method = getattr(self.beam.kernel, self.method)
        value = method(qe, self.xi, self.y, self.z) if self.quantity == "strain" else method(qe, self.xi)
        return np.atleast_1d(np.asarray(value)[self.element])

    @classmethod
    def reader(cls, sensors):
        recovered = [s for s in sensors if s.method == "recovered_axial_strain"]
        compiled = [s for s in recovered if s.beam.dofs.shape[1] == recovered[0].beam.dofs.shape[1]]
        if not compiled:
            return measuring(sensors)
        batch = RecoveredStrains([(c.beam.kernel, c.beam.dofs, c.element, c.xi, c.y, c.z) for c in compiled])
        slot = {id(s) for s in compiled}
        others = [s for s in sensors if id(s) not in slot]
        if not others:
            return lambda q, v, a, lam, t: batch.read(q)
        rest = measuring(others)
        ends = np.cumsum([0] + [len(s.columns) for s in sensors])
        mine = np.array([ends[k] for k, s in enumerate(sensors) if id(s) in slot])     # one column each
        theirs = np.concatenate([np.arange(ends[k], ends[k + 1]) for k, s in enumerate(sensors) if id(s) not in slot])

        def read(q, v, a, lam, t):
            out = np.empty(ends[-1])
            out[mine] = batch.read(q)
            out[theirs] = rest(q, v, a, lam, t)
            return out
        return read


class ActuatorSensor(Sensor):
    """The input of an actuator, torque (N·m) or force (N), as solved by servo-constraint inverse dynamics."""

    def __init__(self, name, actuator):
        self.name, self.actuator = name, actuator
        self.columns = (f"{name}.{actuator.quantity}",)

    def bind(self, system):
        self.row = system.input_of[self.actuator.name]

    def measure(self, q, v, a, lam, t):
        return lam[self.row:self.row + 1]


class FlexiblePointSensor(Sensor):
    """Position (m) and velocity (m/s) of an output point of a floating-frame body: r = r_ref + A(x + Φ_p η)."""

    def __init__(self, name, body, index):
        self.name, self.body, self.index = name, body, index
        self.point = body.component.output_points[index]
        self.shape = body.component.output_shapes[index]
        self.columns = tuple(f"{name}.{c}" for c in ("x", "y", "z", "vx", "vy", "vz"))

    def measure(self, q, v, a, lam, t):
        return np.concatenate(self.body.point_state(q, v, self.point, self.shape))


class ModalStrainSensor(Sensor):
    """Strains ε = E_g η (Voigt order of the component's ``strain_order``) at a gauge point of a floating-frame body."""

    def __init__(self, name, body, index):
        self.name, self.body, self.index = name, body, index
        self.modes = body.component.gauge_strain_modes[index]
        order = body.component.header.get("strain_order", ["exx", "eyy", "ezz", "gyz", "gxz", "gxy"])
        self.columns = tuple(f"{name}.{c}" for c in order)

    def measure(self, q, v, a, lam, t):
        return self.modes @ self.body.modal_coordinates(q)


class ComponentStressSensor(Sensor):
    """Strains (1), principal and von Mises stresses (Pa) at a surface point of a floating-frame body."""

    def __init__(self, name, body, point):
        self.name, self.body = name, body
        self.modes = stress_rows(body.component, point)
        self.columns = tuple(f"{name}.{c}" for c in STRESS_COLUMNS)
        self.units = STRESS_UNITS

    def measure(self, q, v, a, lam, t):
        return stress_state(self.body.component, self.modes @ self.body.modal_coordinates(q))


class ComponentGaugeSensor(Sensor):
    """The reading (``<gauge>.strain``, 1, positive in tension) of a gauge in a floating-frame body's component."""

    def __init__(self, body, gauge, name=None):
        names, rows = gauge_modes(body.component)
        if gauge not in names:
            raise ModelError(f"gauge '{gauge}': body '{body.name}' has no such strain gauge; its component's gauges "
                             f"are {names} (reduce it with gauges: femdyn reduce --gauge)")
        self.name, self.body, self.row = name or gauge, body, rows[names.index(gauge)]
        self.columns, self.units = (f"{self.name}.strain",), ("1",)

    def measure(self, q, v, a, lam, t):
        return np.array([self.row @ self.body.modal_coordinates(q)])


@dataclass
class Gauge:
    """Geometry of one strain gauge on a beam's outer wall (channels ``<name>.strain``, ``<name>.axial``).

    Parameters
    ----------
    name, beam : str
        Gauge name and ANCF beam (element set) name.
    node : str
        Node the distance is measured from, or a joint acting on a node of the beam.
    distance : float
        Arc length from ``node`` into the beam, m (from the last node towards the first, else towards the last).
    wall_angle_deg, direction_deg : float
        Angle around the section from +y towards +z, and grid direction from the axis, degrees.
    grid_length : float
        Active grid length along the axis, m (0: a point gauge).
    grid_points : int
        Gauss–Legendre points over the grid.
    poisson : float, optional
        ν for the hoop strain ε_s = −νε_x; default the beam's (a cable has none).
    """

    name: str
    beam: str
    node: str
    distance: float
    wall_angle_deg: float = 90.0
    direction_deg: float = 0.0
    grid_length: float = 0.0
    grid_points: int = 3
    poisson: float = None


def _reference_node(model, gauge, beam):
    """Name of the beam node that ``gauge.node`` names."""
    chain = _beam_nodes(beam)
    if gauge.node in chain:
        return gauge.node
    joint = model.joints.get(gauge.node)
    if joint is not None:
        held = {getattr(x, "node", None) for x in (joint, joint.body_a, joint.body_b)}
        on_beam = [n.name for n in held if n is not None and n.name in chain]
        if len(on_beam) == 1:
            return on_beam[0]
    raise ModelError(f"gauge '{gauge.name}': '{gauge.node}' is neither a node of beam '{beam.name}' nor a joint "
                     f"on one of its nodes; its nodes are {chain[0]} … {chain[-1]}")


def _beam_nodes(beam):
    """Names of the reference nodes of a beam's chain."""
    return [nodes[0].name for nodes in beam.element_nodes] + [beam.element_nodes[-1][-1].name]


class GaugeSensor(Sensor):
    """The reading of one :class:`Gauge`, recorded every output step."""

    def __init__(self, gauge, beam, node=None):
        self.gauge, self.name, self.beam = gauge, gauge.name, beam
        self.columns = (f"{gauge.name}.strain", f"{gauge.name}.axial")
        places, self.weights = _grid_places(gauge, beam, node or gauge.node)
        phi, theta = np.radians(gauge.wall_angle_deg), np.radians(gauge.direction_deg)
        kernel = beam.kernel
        full = "twist" in kernel.sensor_quantities
        if gauge.poisson is None and not full and np.sin(theta) ** 2 > 1e-15:
            raise ModelError(f"gauge '{gauge.name}' at {gauge.direction_deg:g}° to the axis needs the Poisson ratio for "
                             f"the hoop strain, and beam '{beam.name}' ({type(kernel).__name__}) carries none; give "
                             "poisson = ν in the gauge")
        self.parts = []
        for element, xi in places:
            rho = _wall_radius(kernel.section, element, phi, gauge.name)
            y, z = rho * np.cos(phi), rho * np.sin(phi)
            nu = float(gauge.poisson if gauge.poisson is not None else
                       np.broadcast_to(kernel.nu, (beam.count,))[element] if full else 0.0)
            axial = BeamSensor(f"{gauge.name}@{element}:{xi:.6g}", beam, element, xi, "strain", y, z)
            shears = []
            if np.sin(theta) * np.cos(theta) != 0 and full:
                shears = [(BeamSensor(gauge.name, beam, element, xi, "twist"), np.array([rho])),
                          (BeamSensor(gauge.name, beam, element, xi, "shear"), np.array([-np.sin(phi), np.cos(phi)]))]
            self.parts.append((axial, nu, shears))
        self.c2, self.s2, self.sc = np.cos(theta) ** 2, np.sin(theta) ** 2, np.sin(theta) * np.cos(theta)

    def bind(self, system):
        for axial, _, shears in self.parts:
            axial.bind(system)
            for sensor, _ in shears:
                sensor.bind(system)

    def measure(self, q, v, a, lam, t):
        axial = np.empty(len(self.parts))
        reading = np.empty(len(self.parts))
        for k, (sensor, nu, shears) in enumerate(self.parts):
            eps_x = float(sensor.measure(q, v, a, lam, t)[0])
            gamma = sum(float(s.measure(q, v, a, lam, t) @ c) for s, c in shears)
            axial[k] = eps_x
            reading[k] = eps_x * self.c2 - nu * eps_x * self.s2 + gamma * self.sc
        return np.array([self.weights @ reading, self.weights @ axial])

    @classmethod
    def reader(cls, sensors):
        parts = [(g, part) for g, gauge in enumerate(sensors) for part in gauge.parts]
        axial = BeamSensor.reader([sensor for _, (sensor, _, _) in parts])
        owner = np.array([g for g, _ in parts], np.int64)
        weight = np.concatenate([gauge.weights for gauge in sensors])
        nu = np.array([nu for _, (_, nu, _) in parts])
        c2, s2, sc = (np.array([getattr(sensors[g], name) for g, _ in parts]) for name in ("c2", "s2", "sc"))
        sheared = [(k, shears) for k, (_, (_, _, shears)) in enumerate(parts) if shears]

        def read(q, v, a, lam, t):
            eps = axial(q, v, a, lam, t)
            gamma = np.zeros(len(parts))
            for k, shears in sheared:
                gamma[k] = sum(float(s.measure(q, v, a, lam, t) @ c) for s, c in shears)
            out = np.empty(2 * len(sensors))
            out[0::2] = np.bincount(owner, weight * (eps * c2 - nu * eps * s2 + gamma * sc), len(sensors))
            out[1::2] = np.bincount(owner, weight * eps, len(sensors))
            return out
        return read


def _grid_places(gauge, beam, node):
    """Material places (element, ξ) of the Gauss–Legendre points over the grid, with weights summing to 1."""
    lengths = np.broadcast_to(np.asarray(beam.kernel.length, float), (beam.count,))
    ends = np.concatenate([[0.0], np.cumsum(lengths)])
    chain = _beam_nodes(beam)
    if node not in chain:
        raise ModelError(f"gauge '{gauge.name}': node '{node}' is not on beam '{beam.name}'; its nodes are "
                         f"{chain[0]} … {chain[-1]}")
    i = chain.index(node)
    sign = -1.0 if i == len(chain) - 1 and i > 0 else 1.0
    centre = ends[i] + sign * float(gauge.distance)
    half = 0.5 * float(gauge.grid_length)
    if not (gauge.grid_length >= 0 and centre - half >= -1e-12 and centre + half <= ends[-1] + 1e-12):
        raise ModelError(f"gauge '{gauge.name}' is off the link: its grid spans {centre - half:.6g} … "
                         f"{centre + half:.6g} m along beam '{beam.name}', which is {ends[-1]:.6g} m long; "
                         f"give a distance from '{node}' that keeps the grid on the beam")
    n = max(1, int(gauge.grid_points)) if half > 0 else 1
    x, w = np.polynomial.legendre.leggauss(n)
    places = []
    for s in np.clip(centre + half * x, 0.0, ends[-1]):
        e = int(min(np.searchsorted(ends, s, side="right") - 1, beam.count - 1))
        places.append((e, float(np.clip((s - ends[e]) / lengths[e], 0.0, 1.0))))
    return places, w / w.sum()


def _wall_radius(section, element, phi, name):
    """Distance from the centroid to the outer wall along a direction of the section."""
    try:
        cy = float(np.broadcast_to(np.asarray(section.cy, float), (element + 1,))[element])
        cz = float(np.broadcast_to(np.asarray(section.cz, float), (element + 1,))[element])
    except (AttributeError, ValueError):
        raise ModelError(f"gauge '{name}': the beam's section gives no outer-wall distances c_y, c_z") from None
    if "circular" in getattr(section, "name", ""):
        return cy
    c, s = abs(np.cos(phi)), abs(np.sin(phi))
    return min(cy / c if c > 1e-12 else np.inf, cz / s if s > 1e-12 else np.inf)


class SensorBuilder:
    """The sensor constructors of :class:`~femdyn.model.Model`, one per physical quantity."""

    def sensor_point(self, name, body, point):
        """Record position (``<name>.x``, ``.y``, ``.z``, m) and velocity (``.vx`` …, m/s) of a material point.

        Parameters
        ----------
        name : str
        body : str or body
            The body (or an ANCF node, or a flexible body).
        point : (3,) array_like
            The material point, m; for a flexible body one of its component's output points (reference frame).
        """
        body = self.body(body)
        if isinstance(body, Body) and body.component is not None:
            return self.add_sensor(FlexiblePointSensor(name, body, body.locate_output_point(point)))
        return self.add_sensor(PointSensor(name, body.material_point(point)))

    def sensor_strain(self, name, beam, element, xi, y=0.0, z=0.0):
        """Record the axial strain (``<name>.strain``, 1, positive in tension) at a section point of an ANCF beam.

        The other strain sensors: :meth:`sensor_gauge` (a :class:`Gauge` on a beam's wall),
        :meth:`sensor_gauge_point` (a flexible body's gauge point), :meth:`sensor_component_gauge`
        (a strain gauge stored in a flexible body's component).

        Parameters
        ----------
        name : str
            Sensor name (prefix of the channel).
        beam : str or femdyn.model.flexible.ElementSet
            The ANCF beam.
        element : int
            Element index from the beam's first node, 0 … count − 1.
        xi : float
            ξ ∈ [0, 1] along the element.
        y, z : float, optional
            Point of the cross section, m, in the section axes.

        Raises
        ------
        ModelError
            ``beam`` is not an ANCF beam (the message names the sensor for what it is), or the
            place is off the beam.
        """
        if not isinstance(name, str):
            raise ModelError(f"strain sensor {name!r}: name it with a str; a Gauge is recorded with "
                             "Model.sensor_gauge(gauge)")
        if isinstance(beam, str):
            beam = self.bodies[beam] if beam in self.bodies else self.element_set(beam)
        if not isinstance(beam, ElementSet):
            what = ("Model.sensor_gauge_point(name, body, gauge) or Model.sensor_component_gauge(gauge, body)"
                    if isinstance(beam, Body) and beam.component is not None else "an ANCF beam")
            raise ModelError(f"strain sensor '{name}': '{beam.name}' is not an ANCF beam; use {what}")
        beam.locate(element, xi)
        return self.add_sensor(BeamSensor(name, beam, element, xi, "strain", y, z))

    def sensor_gauge(self, gauge):
        """Record a :class:`Gauge` on an ANCF beam's wall: its reading ``<name>.strain`` and mean axial strain ``.axial``.

        Parameters
        ----------
        gauge : Gauge
            The gauge: its beam, reference node, distance (m), wall angle, direction and grid.

        Raises
        ------
        ModelError
            ``gauge`` is not a Gauge, its node is not on its beam, or its grid is off the link.
        """
        if not isinstance(gauge, Gauge):
            raise ModelError(f"gauge sensor: {gauge!r} is not a femdyn.model.Gauge; a section point of a beam is "
                             "recorded with Model.sensor_strain(name, beam, element, xi, y, z)")
        beam = self.element_set(gauge.beam)
        return self.add_sensor(GaugeSensor(gauge, beam, _reference_node(self, gauge, beam)))

    def sensor_gauge_point(self, name, body, gauge):
        """Record the six strains ``<name>.exx`` … ``<name>.gxy`` (1, reference frame, engineering shear) at a gauge point of a flexible body.

        Parameters
        ----------
        name : str
            Sensor name (prefix of the channels).
        body : str or FloatingFrameBody
            The flexible body (built from a component with gauge points).
        gauge : int or (3,) array_like
            Gauge point index, or its position, m, in the body's reference frame.

        Raises
        ------
        ModelError
            ``body`` is not a flexible body, or ``gauge`` is none of its gauge points.
        """
        body = self._flexible_body(body, f"gauge sensor '{name}'")
        return self.add_sensor(ModalStrainSensor(name, body, _gauge_index(name, body, gauge)))

    def sensor_component_gauge(self, gauge, body, name=None):
        """Record the reading ``<gauge>.strain`` (1) of a strain gauge stored in a flexible body's component.

        Parameters
        ----------
        gauge : str or femdyn.component.ComponentGauge
            The component's gauge, or its name.
        body : str or FloatingFrameBody
            The flexible body built from that component.
        name : str, optional
            The sensor's name, ``<name>.strain`` its channel (default the gauge's name; give one per body when
            several bodies share a component).

        Raises
        ------
        ModelError
            ``body`` is not a flexible body.
        ComponentShapeError
            The component stores no gauge of that name.
        """
        gauge = gauge.name if isinstance(gauge, ComponentGauge) else gauge
        body = self._flexible_body(body, f"gauge sensor '{name or gauge}'")
        return self.add_sensor(ComponentGaugeSensor(body, gauge, name))

    def _flexible_body(self, body, what):
        """The flexible body (one built from a component) named or given, else ModelError naming ``what``."""
        body = self.bodies.get(body, body) if isinstance(body, str) else body
        if not (isinstance(body, Body) and body.component is not None):
            flexible = sorted(n for n, b in self.bodies.items() if b.component is not None)
            raise ModelError(f"{what}: '{getattr(body, 'name', body)}' is not a flexible body built from a "
                             f"component; the model's flexible bodies: {flexible}")
        return body

    def sensor_stress(self, name, body, point):
        """Record strains and stresses at a stress node, gauge point or surface point of a flexible body.

        Channels ``<name>.exx`` … ``<name>.gxy`` (1, reference frame, engineering shear), ``<name>.s1``,
        ``.s2``, ``.s3`` (principal stresses, Pa, descending) and ``<name>.von_mises`` (Pa), from the
        component's strain modes and isotropic material (docs/components.md).

        Parameters
        ----------
        name : str
        body : str or FloatingFrameBody
        point : int or (3,) array_like
            Stress-node index, or the position (m, reference frame) of a stress node, a gauge point or a
            point on a face of the stress nodes (interpolated, :func:`femdyn.component.stress_rows`).

        Raises
        ------
        ComponentShapeError
            ``point`` is neither a stress node, a gauge point nor on a face of the stress nodes.
        """
        body = self._flexible_body(body, f"stress sensor '{name}'")
        return self.add_sensor(ComponentStressSensor(name, body, point))

    def sensor_beam(self, name, beam, element, xi, quantity, y=0.0, z=0.0):
        """Record a section quantity of an ANCF beam other than strain at (element, ξ): ``<name>.<component>``.

        Parameters
        ----------
        name : str
        beam : str or femdyn.model.flexible.ElementSet
        element : int
            Element index, 0 … count − 1.
        xi : float
            ξ ∈ [0, 1] along the element.
        quantity : str
            "curvature" (1/m), or for full beams "twist" (rad/m) and "shear" (rad).
        y, z : float, optional
            Section point, m (unused by these quantities).
        """
        if quantity == "strain":
            raise ModelError(f"sensor '{name}': strain is recorded with Model.sensor_strain (a section point; "
                             "Model.sensor_gauge for a Gauge on the wall)")
        beam = self.element_set(beam) if isinstance(beam, str) else beam
        beam.locate(element, xi)
        return self.add_sensor(BeamSensor(name, beam, element, xi, quantity, y, z))

    def sensor_angle(self, name, revolute):
        """Record a revolute joint's angle (``<name>.angle``, rad, wrapped to (−π, π]) and rate (``.rate``, rad/s).

        The angle is that of :meth:`revolute`; ``Results[...]`` unwraps it.

        Parameters
        ----------
        name : str
        revolute : str or femdyn.model.joints.Revolute
        """
        return self.add_sensor(JointAngleSensor(name, self._revolute(revolute)))

    def sensor_slide(self, name, prismatic):
        """Record a prismatic joint's stroke (``<name>.stroke``, m, 0 where it was built) and rate (``.rate``, m/s).

        Parameters
        ----------
        name : str
        prismatic : str or femdyn.model.joints.Prismatic
        """
        return self.add_sensor(JointSlideSensor(name, self._prismatic(prismatic)))

    def sensor_reaction(self, name, joint):
        """Record the reactions of a joint, named and signed, from its multipliers.

        Coincidence rows give the force on ``body_b`` (``<name>.x``, ``.y``, ``.z``, N); an angle drive
        its torque (``<name>.torque``, N·m); other rows their multipliers by row label.

        Parameters
        ----------
        name : str
        joint : str or femdyn.model.joints.Joint
        """
        if isinstance(joint, str):
            if joint not in self.joints:
                raise ModelError(f"reaction sensor '{name}': unknown joint '{joint}'; known joints: {sorted(self.joints)}")
            joint = self.joints[joint]
        return self.add_sensor(ReactionSensor(name, joint))


def _gauge_index(name, body, gauge):
    """Row of a flexible body's gauge points named by index or reference-frame position (m)."""
    points = body.component.gauge_points
    if np.ndim(gauge) == 0:
        index = int(gauge)
        if not 0 <= index < len(points):
            raise ModelError(f"gauge sensor '{name}': body '{body.name}' has {len(points)} gauges, got index {gauge}")
        return index
    dist = np.linalg.norm(points - vector3(gauge, f"gauge sensor '{name}': point (m)"), axis=1)
    if not len(dist) or dist.min() > 1e-9 * max(1.0, np.linalg.norm(gauge)):
        raise ModelError(f"gauge sensor '{name}': {list(gauge)} is not a gauge point of '{body.name}'; "
                         f"its gauges are {np.round(points, 9).tolist()} (m, reference frame)")
    return int(np.argmin(dist))
