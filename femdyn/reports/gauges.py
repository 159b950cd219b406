"""Strain gauges as engineers define them, declared on a model before a run.

A gauge sits on the outer wall of an ANCF beam: at arc length ``distance`` (m) from a
named node (or from the node a named joint holds), at ``wall_angle_deg`` around the section (0° on the section's +y axis, 90° on
+z), its grid at ``direction_deg`` to the beam axis (0° axial, 90° hoop), of length
``grid_length`` (m). :func:`add_gauge` adds one :class:`GaugeSensor` to the model; it
records, every output step, the gauge's reading ``<name>.strain`` and the mean axial
strain under the grid ``<name>.axial``.

Reading of a grid at angle θ to the axis on the wall, whose tangent along the section
outline is s = (−sin φ, cos φ) (plane-stress transformation of strain, e.g. Dally & Riley
2005, *Experimental Stress Analysis*, 4th ed., eq. 6.4)::

    ε_θ = ε_x cos²θ + ε_s sin²θ + γ_xs sinθ cosθ,
    ε_s = −ν ε_x                          (uniaxial stress in the beam fibre),
    γ_xs = κ_x ρ + γ_xy s_y + γ_xz s_z     (torsion at wall radius ρ, exact for a circle;
                                           the section-mean Timoshenko shear angles).

Cable elements carry no twist or shear, so there γ_xs = 0. The reading is the average of
ε_θ over the grid length, by Gauss–Legendre quadrature with ``grid_points`` points (exact
for strain fields polynomial of degree 2·points − 1 along the grid).

Three gauges at different directions at one place form a rosette;
:func:`principal_strains` turns their readings into principal strains and angle.
"""
from dataclasses import dataclass

import numpy as np

from ..errors import FemdynError, ModelError
from ..model.sensors import BeamSensor, Sensor


@dataclass
class Gauge:
    """Geometry of one strain gauge on a beam's outer wall.

    Parameters
    ----------
    name : str
        Gauge name; its channels are ``<name>.strain`` and ``<name>.axial``.
    beam : str
        Name of the ANCF beam (element set).
    node : str
        Node the distance is measured from, or a joint acting on a node of the beam (a
        clamp, or a joint on the node's frame): the distance is then measured from that node.
    distance : float
        Arc length from ``node`` into the beam, m (from the beam's last node the gauge
        lies towards the first one; from any other node towards the last one).
    wall_angle_deg : float
        Angle around the section from its +y axis towards +z, degrees.
    direction_deg : float
        Grid direction measured from the beam axis towards the wall tangent s, degrees.
    grid_length : float
        Active grid length along the axis, m (0: a point gauge).
    grid_points : int
        Gauss–Legendre points over the grid.
    poisson : float, optional
        Poisson ratio ν for the hoop strain ε_s = −νε_x; default the beam's (full beam
        elements). Cable elements carry none: a gauge off the axis direction on a cable
        needs it.

    Example
    -------
    >>> Gauge("G1", "link", "link.0", 0.2, wall_angle_deg=90.0, grid_length=0.006)  # doctest: +ELLIPSIS
    Gauge(name='G1', ...)
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


def add_gauge(model, gauge):
    """Declare ``gauge`` on ``model`` (before ``assemble``) as one :class:`GaugeSensor`.

    Parameters
    ----------
    model : femdyn.Model
        The model holding the beam.
    gauge : Gauge
        The gauge.

    Returns
    -------
    GaugeSensor

    Raises
    ------
    ModelError
        Unknown beam, a node or joint not on the beam, a grid that leaves the link.

    Examples
    --------
    A gauge on the top of a clamped steel rod (radius 10 mm), 0.125 m from the clamp,
    under a 10 N tip load: ε = M c/(EI) = 53 µε.

    >>> import femdyn
    >>> from femdyn.elements import sections
    >>> from femdyn.solvers.static import static_equilibrium
    >>> m = femdyn.Model("cantilever", gravity=(0, 0, 0))
    >>> beam = m.straight_beam("beam", (0, 0, 0), (1.0, 0, 0), 4, E=2.1e11, rho=7800,
    ...                        section=sections.circular(0.01), element="cable")
    >>> clamp = m.clamp("root", "beam.0")
    >>> tip = m.beam_force("tip", "beam", 3, 1.0, (0, 0, -10.0))
    >>> add_gauge(m, Gauge("G1", "beam", "root", 0.125, wall_angle_deg=90.0, grid_length=0.01)).columns
    ('G1.strain', 'G1.axial')
    >>> system = m.assemble()
    >>> q, lam = static_equilibrium(system)
    >>> gauge = [s for s in system.sensors if s.name == "G1"][0]
    >>> round(float(gauge.measure(q, 0 * q, 0 * q, lam, 0.0)[0]) * 1e6)
    53
    """
    beam = model.element_set(gauge.beam)
    return model.add_sensor(GaugeSensor(gauge, beam, reference_node(model, gauge, beam)))


def reference_node(model, gauge, beam):
    """Name of the beam node that ``gauge.node`` names.

    Parameters
    ----------
    model : femdyn.Model
        The model holding the beam and joints.
    gauge : Gauge
        The gauge; its ``node`` is a node of the beam or a joint on one of its nodes.
    beam : femdyn.model.flexible.ElementSet
        The gauge's beam.

    Returns
    -------
    str
        The node itself, or the node of the beam that the joint of that name holds.

    Raises
    ------
    ModelError
        Neither a node of the beam nor a joint on exactly one of its nodes.
    """
    chain = beam_nodes(beam)
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


def beam_nodes(beam):
    """Names of the reference nodes of a beam's chain.

    The nodes that start each element, and the last node; element nodes in between (as in
    three-node elements) are not reference points.

    Parameters
    ----------
    beam : femdyn.model.flexible.ElementSet
        The beam.

    Returns
    -------
    list of str
    """
    return [nodes[0].name for nodes in beam.element_nodes] + [beam.element_nodes[-1][-1].name]


class GaugeSensor(Sensor):
    """The reading of one :class:`Gauge`, recorded every output step.

    Columns ``<name>.strain`` (ε_θ averaged over the grid) and ``<name>.axial`` (ε_x
    averaged over the grid), dimensionless, positive in tension. Made by :func:`add_gauge`.

    Parameters
    ----------
    gauge : Gauge
        The gauge geometry.
    beam : femdyn.model.flexible.ElementSet
        Its beam.
    node : str, optional
        Beam node the distance is measured from (default ``gauge.node``).

    Raises
    ------
    ModelError
        A grid off the link, a section without outer-wall distances, or a gauge off the
        axis direction on a cable without ``poisson``.
    """

    def __init__(self, gauge, beam, node=None):
        self.gauge, self.name, self.beam = gauge, gauge.name, beam
        self.columns = (f"{gauge.name}.strain", f"{gauge.name}.axial")
        places, self.weights = grid_places(gauge, beam, node or gauge.node)
        phi, theta = np.radians(gauge.wall_angle_deg), np.radians(gauge.direction_deg)
        kernel = beam.kernel
        full = "twist" in kernel.sensor_quantities
        if gauge.poisson is None and not full and np.sin(theta) ** 2 > 1e-15:
            raise ModelError(f"gauge '{gauge.name}' at {gauge.direction_deg:g}° to the axis needs the Poisson ratio for "
                             f"the hoop strain, and beam '{beam.name}' ({type(kernel).__name__}) carries none; give "
                             "poisson = ν in the gauge")
        self.parts = []
        for element, xi in places:
            rho = wall_radius(kernel.section, element, phi, gauge.name)
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
        """Bind the underlying beam sensors to the System's copy of the model.

        Parameters
        ----------
        system : System
            The assembled model.
        """
        for axial, _, shears in self.parts:
            axial.bind(system)
            for sensor, _ in shears:
                sensor.bind(system)

    def measure(self, q, v, a, lam, t):
        """Gauge reading and mean axial strain at a state.

        Parameters
        ----------
        q, v, a : (n,) ndarray
            Coordinates, velocities and accelerations of the System.
        lam : (m,) ndarray
            Lagrange multipliers.
        t : float
            Time [s].

        Returns
        -------
        (2,) ndarray
            [ε_θ averaged over the grid, ε_x averaged over the grid].
        """
        axial = np.empty(len(self.parts))
        reading = np.empty(len(self.parts))
        for k, (sensor, nu, shears) in enumerate(self.parts):
            eps_x = float(sensor.measure(q, v, a, lam, t)[0])
            gamma = sum(float(s.measure(q, v, a, lam, t) @ c) for s, c in shears)
            axial[k] = eps_x
            reading[k] = eps_x * self.c2 - nu * eps_x * self.s2 + gamma * self.sc
        return np.array([self.weights @ reading, self.weights @ axial])


def grid_places(gauge, beam, node):
    """Material places (element, ξ) of the Gauss–Legendre points over the grid and their
    weights (summing to 1).

    Parameters
    ----------
    gauge : Gauge
    beam : femdyn.model.flexible.ElementSet
    node : str
        Name of the beam node the distance is measured from.

    Returns
    -------
    places : list of (int, float)
    weights : ndarray

    Raises
    ------
    ModelError
        The node is not on the beam, or the grid leaves the link.
    """
    lengths = np.broadcast_to(np.asarray(beam.kernel.length, float), (beam.count,))
    ends = np.concatenate([[0.0], np.cumsum(lengths)])
    chain = beam_nodes(beam)
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


def wall_radius(section, element, phi, name):
    """Distance from the centroid to the outer wall along a direction of the section.

    The radius of a circular section; for any other (rectangular) one, the exit of the ray
    through the sides c_y, c_z.

    Parameters
    ----------
    section : CrossSection
        The beam section (``cy``, ``cz`` per element or scalar).
    element : int
        Element index (for per-element sections).
    phi : float
        Direction [rad] from the section's y axis towards z.
    name : str
        Gauge name for the message.

    Returns
    -------
    float
        ρ [m].

    Raises
    ------
    ModelError
        Section without extreme-fibre distances.

    Examples
    --------
    >>> import numpy as np
    >>> from femdyn.elements import sections
    >>> round(float(wall_radius(sections.rectangular(0.02, 0.01), 0, np.pi / 4, "G1")), 6)   # the corner
    0.007071
    """
    try:
        cy = float(np.broadcast_to(np.asarray(section.cy, float), (element + 1,))[element])
        cz = float(np.broadcast_to(np.asarray(section.cz, float), (element + 1,))[element])
    except (AttributeError, ValueError):
        raise ModelError(f"gauge '{name}': the beam's section gives no outer-wall distances c_y, c_z") from None
    if "circular" in getattr(section, "name", ""):
        return cy
    c, s = abs(np.cos(phi)), abs(np.sin(phi))
    return min(cy / c if c > 1e-12 else np.inf, cz / s if s > 1e-12 else np.inf)


def principal_strains(readings, directions_deg):
    """Principal strains of a three-gauge rosette.

    Solves ε_i = ε_x cos²θ_i + ε_s sin²θ_i + γ_xs sinθ_i cosθ_i for (ε_x, ε_s, γ_xs),
    then ε₁,₂ = (ε_x + ε_s)/2 ± √(((ε_x − ε_s)/2)² + (γ_xs/2)²) and the angle of ε₁ from
    the x axis θ_p = ½ atan2(γ_xs, ε_x − ε_s) (Dally & Riley 2005, eqs. 9.9–9.11).

    Parameters
    ----------
    readings : array_like, shape (3, ...)
        The three gauges' strains (dimensionless), any trailing shape (e.g. time).
    directions_deg : sequence of 3 floats
        Their grid directions from the x axis, degrees.

    Returns
    -------
    eps1, eps2, angle_deg : ndarray
        Maximum and minimum principal strain, and the direction of ``eps1`` in degrees.

    Raises
    ------
    FemdynError
        Not three gauges, or directions that do not determine the strain state.

    Example
    -------
    >>> e1, e2, a = principal_strains([1e-4, 1e-4, -1e-4], [0, 45, 90])
    >>> round(float(e1), 8), round(float(a), 3)
    (0.00014142, 22.5)
    """
    r = np.asarray(readings, float)
    th = np.radians(np.asarray(directions_deg, float))
    if r.shape[:1] != (3,) or th.shape != (3,):
        raise FemdynError(f"a rosette needs three gauges and three directions, got {r.shape[:1]} and {th.shape}")
    A = np.column_stack([np.cos(th) ** 2, np.sin(th) ** 2, np.sin(th) * np.cos(th)])
    if abs(np.linalg.det(A)) < 1e-9:
        raise FemdynError(f"rosette directions {list(directions_deg)}° do not fix the strain state; use three "
                          "directions distinct modulo 180° (e.g. 0°, 45°, 90°)")
    ex, es, g = np.tensordot(np.linalg.inv(A), r, axes=1)
    centre, radius = 0.5 * (ex + es), np.hypot(0.5 * (ex - es), 0.5 * g)
    return centre + radius, centre - radius, np.degrees(0.5 * np.arctan2(g, ex - es))
