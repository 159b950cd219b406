"""The 3-RRRU rigid-flexible parallel robot of Liu, Zhao, Zhou & Wang (2018).

Three RRRU limbs (motor at A1, elbow B, A2, Hooke joint at A4) carry a platform that only
translates. Limb closure, u(θ) = cos θ e_r − sin θ e_z, solved in closed form (elbow
outwards) and differentiated exactly:

    A4 − A1 = L1 u(θ1) + (L2 + L3 cos γ) u(ψ) + L3 sin γ a.

Layout, the paper's lost data and the defaults of :class:`RRRUGeometry`: docs/rrru.md. SI units.
"""
import math
from dataclasses import dataclass, field

import numpy as np

from femdyn.elements import ncf, sections

from ..errors import ModelError
from ..model import Model
from ..motion.trajectories import StateFunction
from ..input_checks import vector3


@dataclass
class RRRUGeometry:
    """Dimensions and masses of the 3-RRRU robot (Liu et al. 2018; the lost data chosen in docs/rrru.md).

    Parameters
    ----------
    base_radius, platform_radius : float
        Circumradii of the static (motors A1ᵢ) and moving (Hooke joints A4ᵢ) platforms, m.
    link1_length, link2_length, link3_length, link3_radius, rigid_link_radius : float
        Lengths, link 3's solid section radius and links 1–2's radius (spin inertia), m.
    link1_mass, link2_mass, platform_mass : float
        kg (platform without payload); ``platform_thickness`` in m.
    E, nu, density, damping : float
        Link 3: Pa (6.9e8 in the paper's simulation, 6.9e10 on the rig), –, kg/m³, Kelvin–Voigt s.
    gauges, azimuths : tuple of float
        Gauge positions on link 3 from its upper joint, m; limb azimuths φᵢ, rad.
    """

    base_radius: float = 0.175
    platform_radius: float = 0.06
    link1_length: float = 0.35
    link2_length: float = 0.10
    link3_length: float = 0.815
    link3_radius: float = 0.01
    link1_mass: float = 2.0
    link2_mass: float = 0.5
    rigid_link_radius: float = 0.015       # radius of links 1, 2 for their spin inertia (m)
    platform_mass: float = 1.0
    platform_thickness: float = 0.01
    E: float = field(default=6.9e8, metadata={"schema": {"above": 0, "unit": "Pa"}})
    nu: float = 0.3
    density: float = field(default=2700.0, metadata={"schema": {"above": 0, "unit": "kg/m³"}})               # link 3 (aluminium)
    damping: float = 0.0                   # link 3 Kelvin–Voigt coefficient (s)
    gauges: tuple = (0.2, 0.4075, 0.6)     # from the upper joint of link 3 (m)
    azimuths: tuple = field(default_factory=lambda: tuple(np.radians([0.0, 120.0, 240.0])))

    @classmethod
    def reconstructed(cls, **changes):
        """The robot with the lost data fitted to the paper's rigid figures (docs/rrru.md).

        Parameters
        ----------
        **changes
            Further fields to set (e.g. ``E=6.9e10``).
        """
        fitted = dict(link1_length=0.3465, link2_length=0.1137, link1_mass=1.362, link2_mass=0.2046,
                      platform_mass=1.696)
        return cls(**{**fitted, **changes})

    @property
    def link3_mass(self):
        return self.density * math.pi * self.link3_radius**2 * self.link3_length

    def limb_frame(self, i):
        """Motor point A1 (m) and unit vectors e_r (radial), a = e_z × e_r (motor axis), e_z of limb i, global frame.

        Parameters
        ----------
        i : int
            Limb index 0, 1, 2.
        """
        phi = self.azimuths[i]
        e_r = np.array([math.cos(phi), math.sin(phi), 0.0])
        a = np.array([-math.sin(phi), math.cos(phi), 0.0])
        return self.base_radius * e_r, e_r, a, np.array([0.0, 0.0, 1.0])


def _u(theta, e_r, e_z):
    """u(θ) = cos θ e_r − sin θ e_z and its derivative w = du/dθ."""
    c, s = math.cos(theta), math.sin(theta)
    return c * e_r - s * e_z, -s * e_r - c * e_z


@dataclass
class LimbPose:
    """Joint variables and joint points of one limb."""

    x: np.ndarray
    A1: np.ndarray
    B: np.ndarray
    A2: np.ndarray
    A4: np.ndarray
    a: np.ndarray
    b: np.ndarray

    @property
    def theta(self):
        """The actuated angle θ1 (rad)."""
        return float(self.x[0])


@dataclass
class Pose:
    """Inverse kinematics of the whole robot at one platform position."""

    centre: np.ndarray
    limbs: list

    @property
    def angles(self):
        """The three actuated angles θ1ᵢ (rad)."""
        return np.array([limb.theta for limb in self.limbs])


def limb_inverse_kinematics(geometry, i, A4):
    """Closed-form inverse kinematics of limb i for its platform joint at A4 (elbow outwards)."""
    g = geometry
    A1, e_r, a, e_z = g.limb_frame(i)
    d = A4 - A1
    s = d @ a
    if abs(s) >= g.link3_length:
        raise ModelError(f"3-RRRU: platform joint A4_{i} at {np.round(A4, 6).tolist()} m is {abs(s):.4g} m out of "
                         f"limb {i}'s plane, more than link 3 ({g.link3_length} m); move the pose inside the workspace")
    gamma = math.asin(s / g.link3_length)
    reach = g.link2_length + g.link3_length * math.cos(gamma)
    X, Z = d @ e_r, -(d @ e_z)                       # in-plane target, Z positive downwards
    D = math.hypot(X, Z)
    cos_beta = (g.link1_length**2 + D * D - reach**2) / (2 * g.link1_length * D)
    if not -1.0 < cos_beta < 1.0:
        raise ModelError(f"3-RRRU: platform joint A4_{i} at {np.round(A4, 6).tolist()} m is out of reach of limb {i}: "
                         f"its in-plane distance {D:.4g} m from A1_{i} must lie in "
                         f"({abs(g.link1_length - reach):.4g}, {g.link1_length + reach:.4g}) m; move the pose inside "
                         "the workspace")
    theta1 = math.atan2(Z, X) - math.acos(cos_beta)  # elbow outwards
    u1, _ = _u(theta1, e_r, e_z)
    B = A1 + g.link1_length * u1
    rest = d - g.link1_length * u1 - g.link3_length * math.sin(gamma) * a
    psi = math.atan2(-(rest @ e_z), rest @ e_r)
    u2, w2 = _u(psi, e_r, e_z)
    A2 = B + g.link2_length * u2
    return LimbPose(np.array([theta1, psi, gamma]), A1, B, A2, A4.copy(), a, w2)    # b = a × u2 = du2/dψ


def inverse_kinematics(pose, geometry=None):
    """Actuated angles and every joint point (a ``Pose``) of the 3-RRRU robot for a platform centre.

    ``angles`` (3,), rad, from the horizontal, positive downwards; ``limbs``: points A1, B, A2, A4
    (m), axes a, b. ModelError for a platform joint out of reach.

    Parameters
    ----------
    pose : array_like
        Platform centre P, m, global axes (the platform is level).
    geometry : RRRUGeometry, optional
    """
    g = geometry or RRRUGeometry()
    P = vector3(pose, "3-RRRU pose: platform centre (m)")
    limbs = []
    for i in range(3):
        _, e_r, _, _ = g.limb_frame(i)
        limbs.append(limb_inverse_kinematics(g, i, P + g.platform_radius * e_r))
    return Pose(P, limbs)


def limb_rates(geometry, i, x, velocity, acceleration):
    """(ẋ, ẍ) of a limb's joint variables, rad/s, rad/s²: F_x ẋ = Ȧ4, F_x ẍ = Ä4 − Σ F_{x_j x_k} ẋ_j ẋ_k.

    Raises ModelError at a singular limb (links 1 and 2 aligned or link 3 along the motor axis).

    Parameters
    ----------
    geometry, i
        The RRRUGeometry and the limb index.
    x : (3,) array_like
        Joint variables (θ1, ψ, γ), rad.
    velocity, acceleration : (3,) ndarray
        Platform velocity, m/s, and acceleration, m/s², global frame.
    """
    g = geometry
    _, e_r, a, e_z = g.limb_frame(i)
    th, psi, gam = x
    L1, L3 = g.link1_length, g.link3_length
    u1, w1 = _u(th, e_r, e_z)
    u2, w2 = _u(psi, e_r, e_z)
    cg, sg = math.cos(gam), math.sin(gam)
    reach = g.link2_length + L3 * cg
    F_x = np.array([L1 * w1, reach * w2, L3 * (cg * a - sg * u2)]).T
    # |det F_x| = L1·reach·L3·cos γ·|sin(θ1 − ψ)|: zero when links 1 and 2 align or link 3 lies along a
    if abs(math.sin(th - psi) * cg) < 1e-9:
        raise ModelError(f"3-RRRU: limb {i} is singular at x = {np.round(x, 6).tolist()} rad (links 1 and 2 "
                         "aligned or link 3 along the motor axis)")
    inverse = np.linalg.inv(F_x)
    xd = inverse @ velocity
    t1, p1, g1 = xd
    curvature = (-L1 * t1 * t1) * u1 - (reach * p1 * p1) * u2 - (L3 * g1 * g1) * (cg * u2 + sg * a) \
        - (2 * L3 * sg * p1 * g1) * w2
    return xd, inverse @ (acceleration - curvature)


class ActuatedAngle(StateFunction):
    """Actuated angle θ1ᵢ(t) of limb i when the platform centre follows a trajectory."""

    def __init__(self, geometry, limb, trajectory):
        self.geometry, self.limb, self.trajectory = geometry, int(limb), trajectory
        self.offset = geometry.platform_radius * geometry.limb_frame(self.limb)[1]
        self._t, self._state = None, None

    def state(self, t):
        if t != self._t:
            P, V, A = self.trajectory.state(t)
            pose = limb_inverse_kinematics(self.geometry, self.limb, P + self.offset)
            xd, xdd = limb_rates(self.geometry, self.limb, pose.x, V, A)
            self._t, self._state = t, (pose.x[0], xd[0], xdd[0])
        return self._state


@dataclass
class RRRU:
    """Handles of a built 3-RRRU model (returned by :func:`rrru`).

    Parameters
    ----------
    model, geometry, pose
        The unassembled Model, its RRRUGeometry and the initial inverse kinematics.
    motors, gauges : list of str
        Actuated revolute joints (limb order); strain sensors "gauge {limb}.{k}" (ANCF links).
    links : list of dict
        Per limb: link 1, link 2, link 3, the Hooke joint and the "knee" revolute (None when rigid).
    platform, centre
        The platform body and its centre (end effector) at t = 0, m.
    flexible, link_model
        Whether link 3 is flexible; "ancf" or "component" (joints on its frames "x0", "x1").
    """

    model: Model
    geometry: RRRUGeometry
    pose: Pose
    motors: list
    links: list
    platform: str
    centre: np.ndarray
    gauges: list
    flexible: bool
    link_model: str = "ancf"


def rrru(pose=(0.1, 0.0, -0.8), flexible=False, element="beam", n_elements=8, payload=0.0,
         gravity=(0.0, 0.0, -9.81), geometry=None, name="3-RRRU", link_model="ancf"):
    """Build the 3-RRRU robot of Liu et al. 2018 at the platform position ``pose`` (layout: docs/rrru.md).

    Links 1 and 2 rigid (natural coordinates), link 3 rigid or ANCF beams, the platform Liu et
    al.'s q_a ∈ R¹². ModelError for a pose outside the workspace or bad options.

    Parameters
    ----------
    pose : array_like
        Initial platform centre, m (solved by :func:`inverse_kinematics`).
    flexible : bool
        ANCF link 3 (True) or rigid.
    element : {"beam"}
        ANCF element of link 3 (a cable node has no cross axis for the Hooke joint).
    n_elements : int
        Elements per flexible link.
    payload : float
        Point mass at the platform centre, kg.
    gravity : array_like
        m/s², global axes (Z up).
    geometry : RRRUGeometry, optional
    name : str
    link_model : {"ancf", "component"}
        Link 3 as ANCF elements, or as the floating-frame body of their reduced component
        (:func:`~femdyn.solvers.beam_component.ancf_beam_component`, gauges stored in it).

    Example
    -------
    >>> robot = rrru(flexible=True, n_elements=4)
    >>> robot.motors, robot.gauges[:2]
    (['motor_0', 'motor_1', 'motor_2'], ['gauge 0.0', 'gauge 0.1'])
    """
    g = geometry or RRRUGeometry()
    if element != "beam":
        raise ModelError(f"3-RRRU: element {element!r} for link 3; only 'beam' (ANCFBeam3D) works: a Hooke joint at "
                         "a cable's end needs a cross axis ⟂ the tangent, which a cable node does not carry")
    if link_model not in ("ancf", "component"):
        raise ModelError(f"3-RRRU: link_model must be 'ancf' or 'component', got {link_model!r}")
    if payload < 0 or not np.isfinite(payload):
        raise ModelError(f"3-RRRU: payload must be a mass ≥ 0 (kg), got {payload!r}")
    ik = inverse_kinematics(pose, g)
    m = Model(name, gravity=gravity)
    platform, centre = _platform(m, g, ik, payload)
    motors, links, gauges = [], [], []
    for i, limb in enumerate(ik.limbs):
        names = _limb(m, g, i, limb, platform, flexible and link_model, n_elements)
        motors.append(names["motor"])
        links.append(names)
        if flexible:
            gauges += _gauges(m, g, i, names["link3"], limb, n_elements)
    return RRRU(m, g, ik, motors, links, platform, centre, gauges, flexible, link_model)


def _platform(m, g, ik, payload):
    """Platform body on vertex nodes V0, V1 and unit vectors (normal, in-plane ⟂ V0V1)."""
    verts = [limb.A4 for limb in ik.limbs]
    mass, I_local = ncf.equilateral_plate(g.platform_radius, g.platform_thickness, mass=g.platform_mass,
                                          name="3-RRRU platform")
    d = (verts[0] - ik.centre) / g.platform_radius
    R = np.column_stack([d, np.cross((0, 0, 1.0), d), (0, 0, 1.0)])
    v = verts[2] - 0.5 * (verts[0] + verts[1])
    nodes = [m.point("platform.V0", verts[0]), m.point("platform.V1", verts[1])]
    vectors = [m.vector("platform.n", (0.0, 0.0, 1.0)), m.vector("platform.v", v / np.linalg.norm(v))]
    body = m.rigid_body("platform", nodes, vectors, mass=mass + payload, com=ik.centre, inertia=R @ I_local @ R.T)
    body.vertices = verts                     # drawn as the triangle (pictures, ParaView)
    return "platform", ik.centre.copy()


def _limb(m, g, i, limb, platform, flexible, n_elements):
    """Nodes, bodies and joints of limb i (``flexible``: False, "ancf" or "component"); returns the names."""
    A1 = m.point(f"A1_{i}", limb.A1)
    a = m.vector(f"a_{i}", limb.a)
    B = m.point(f"B_{i}", limb.B)
    A2 = m.point(f"A2_{i}", limb.A2)
    b = m.vector(f"b_{i}", limb.b)
    link1 = m.rigid_beam(f"link1_{i}", A1, B, mass=g.link1_mass)
    u2 = (limb.A2 - limb.B) / g.link2_length
    m.rigid_body(f"link2_{i}", [B, A2], [a, b], mass=g.link2_mass, com=0.5 * (limb.B + limb.A2),
                 inertia=ncf.cylinder(g.link2_mass, g.link2_length, g.rigid_link_radius, u2))
    motor = m.revolute(f"motor_{i}", m.ground, link1, limb.A1, limb.a, angle0=limb.theta)
    # The elbow: links 1 and 2 share the point B, and the axis node a of link 2 is fixed (the
    # motor and elbow axes stay parallel): a natural-coordinate revolute pair (García de Jalón
    # & Bayo 1994, §2.3) without joint equations. Link 1 is a two-point beam (its spin about
    # its own axis is no coordinate); the motor revolute then has one orientation row
    # a·(B − A1) = 0, well conditioned in every configuration.
    m.fix(a, name=f"elbow axis {i}")
    if flexible == "component":
        link3, lower = _component_link(m, g, i, limb, n_elements)
        knee = m.revolute(f"knee_{i}", f"link2_{i}", f"{link3}.x0", limb.A2, limb.b).name
    elif flexible:
        beam = m.straight_beam(f"link3_{i}", limb.A2, limb.A4, n_elements, E=g.E, rho=g.density,
                               section=sections.circular(g.link3_radius), element="beam", nu=g.nu, y_axis=limb.b,
                               damping=g.damping)
        lower = f"link3_{i}.{n_elements}"
        m.revolute(f"knee_{i}", f"link2_{i}", f"link3_{i}.0", limb.A2, limb.b)
        link3, knee = beam.name, f"knee_{i}"
    else:   # a rigid link 3 shares A2 and b with link 2: again a revolute pair without equations
        A4 = m.point(f"A4_{i}", limb.A4)
        lower = link3 = m.rigid_beam(f"link3_{i}", A2, A4, mass=g.link3_mass, axis=b).name
        knee = None
    m.universal(f"hooke_{i}", lower, platform, limb.A4, limb.b, limb.a)
    return {"motor": motor.name, "link1": link1.name, "link2": f"link2_{i}", "link3": link3, "knee": knee,
            "hooke": f"hooke_{i}"}


def _component_link(m, g, i, limb, n_elements):
    """Link 3 of limb i as the floating-frame body of its ANCF component (frame at A2); returns body and lower frame."""
    from femdyn.solvers.beam_component import ancf_beam_component
    from femdyn.component import ComponentGauge
    wall = [ComponentGauge(f"gauge {i}.{k}", (s, *_outward(g, i, limb))) for k, s in enumerate(g.gauges)]
    component = ancf_beam_component(g.link3_length, g.E, g.density, sections.circular(g.link3_radius), n_elements,
                                    nu=g.nu, name=f"link3_{i}", gauges=wall)
    d = (limb.A4 - limb.A2) / g.link3_length
    e_y = limb.b - d * (d @ limb.b)
    e_y /= np.linalg.norm(e_y)
    body = m.flexible_body(f"link3_{i}", component, limb.A2, np.column_stack([d, e_y, np.cross(d, e_y)]))
    return body.name, f"{body.name}.x1"


def _outward(g, i, limb):
    """(y, z) of link 3's outer wall (away from the robot's axis) in its section axes, m."""
    d = (limb.A4 - limb.A2) / g.link3_length
    e_y = limb.b - d * (d @ limb.b)
    e_y /= np.linalg.norm(e_y)
    e_z = np.cross(d, e_y)
    _, e_r, _, _ = g.limb_frame(i)
    outward = e_r - d * (d @ e_r)
    outward *= g.link3_radius / np.linalg.norm(outward)
    return float(outward @ e_y), float(outward @ e_z)


def _gauges(m, g, i, beam, limb, n_elements):
    """Strain gauges on link 3's outer wall at Liu et al.'s (2018) distances (a component link stores them)."""
    if beam in m.bodies:
        return [m.sensor_component_gauge(f"gauge {i}.{k}", beam).name for k in range(len(g.gauges))]
    y, z = _outward(g, i, limb)
    names = []
    for k, s in enumerate(g.gauges):
        x = s / g.link3_length * n_elements
        element = min(int(x), n_elements - 1)
        names.append(m.sensor_strain(f"gauge {i}.{k}", beam, element, x - element, y=y, z=z).name)
    return names
