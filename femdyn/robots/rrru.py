"""The 3-RRRU rigid-flexible parallel robot of Liu, Zhao, Zhou & Wang (2018).

Three identical limbs join the static platform (circumradius 0.175 m) to the moving
platform (circumradius 0.06 m). Limb i, in the vertical plane at azimuth φᵢ = 0°, 120°,
240° (radial unit e_r, tangential unit a = e_z × e_r, vertical e_z):

* actuated revolute at A1ᵢ = 0.175 e_r about a (the motor), link 1 (rigid) to the elbow Bᵢ;
* passive revolute at Bᵢ about a, link 2 (rigid) to A2ᵢ: links 1 and 2 move in the
  limb plane (Liu et al. 2018: "the second rigid link only moves in a plane");
* passive revolute at A2ᵢ about b = a × u₂ (u₂ the unit direction of link 2), link 3
  (flexible, 815 mm, solid circular section r = 0.01 m) to A4ᵢ;
* Hooke joint at A4ᵢ (the platform vertex) with cross axes b (on link 3) and a (on the
  platform).

The axes follow the translational pattern of the RUU limb (first and last axes parallel,
the two middle axes parallel): each limb's constraint couple is along u₂ᵢ, and the three
couples are independent while links 2 and 3 lean away from the vertical, so the moving
platform only translates (3 degrees of freedom, checked by rank). The end effector is
the platform centre P; the platform joints are A4ᵢ = P + 0.06 e_rᵢ.

Link 3 leaves the limb plane by the angle γ about b, so with u(θ) = cos θ e_r − sin θ e_z
(θ the rotation about a from the horizontal, positive downwards by the right-hand rule):

    A4 − A1 = L1 u(θ1) + (L2 + L3 cos γ) u(ψ) + L3 sin γ a,            (closure of limb i)

θ1 the actuated angle, ψ that of link 2. Inverse kinematics solves it in closed form
(γ from the a component, then a planar two-link problem, elbow outwards); rates by
differentiating the closure exactly. Lost data of the paper (its Table 1: lengths of
links 1 and 2, all masses) get the defaults of :class:`RRRUGeometry`, see docs/rrru.md.
SI units: m, kg, Pa, rad.
"""
import math
from dataclasses import dataclass, field

import numpy as np

from femdyn.elements import ncf, sections

from ..errors import ModelError
from ..model import Model
from ..motion.trajectories import StateFunction
from ..validation import vector3


@dataclass
class RRRUGeometry:
    """Dimensions and masses of the 3-RRRU robot.

    Liu et al. 2018 gives the platform circumradii, link 3 (815 mm: the gauges at 200, 407.5
    and 600 mm with 407.5 mm its midpoint), its section (solid, r = 0.01 m) and material
    (E = 6.9e8 Pa in the simulation, 6.9e10 Pa on the test rig, ν = 0.3). The rest is not
    given there and is chosen here (docs/rrru.md): links 1 and 2 (0.35 m, 0.10 m) put the
    circle of the study (Z = −0.8 m, r = 0.1 m) inside the workspace with links 2–3 leaning
    about 30° from the vertical (well-conditioned constraint couples) and an elbow angle near
    61° (far from the folded and stretched singularities); the aluminium density 2700 kg/m³
    goes with E = 6.9e10 Pa; the masses give a static holding torque of −8.7 N·m at the
    circle's centre, inside the paper's −8.3…−11.1 N·m. ``damping`` is link 3's
    Kelvin–Voigt coefficient; the paper gives none, so 0.

    Parameters
    ----------
    base_radius : float
        Circumradius of the static platform (motor points A1ᵢ) [m].
    platform_radius : float
        Circumradius of the moving platform (Hooke joints A4ᵢ) [m].
    link1_length, link2_length, link3_length : float
        Link lengths [m].
    link3_radius : float
        Radius of the solid circular section of link 3 [m].
    link1_mass, link2_mass : float
        Masses of the rigid links [kg].
    rigid_link_radius : float
        Radius of links 1 and 2 for their spin inertia [m].
    platform_mass : float
        Mass of the moving platform [kg] (without payload).
    platform_thickness : float
        Thickness of the moving platform [m].
    E : float
        Young's modulus of link 3 [Pa].
    nu : float
        Poisson ratio of link 3.
    density : float
        Density of link 3 [kg/m³].
    damping : float
        Kelvin–Voigt coefficient of link 3 [s]: stress = E (ε + damping · ε̇).
    gauges : tuple of float
        Gauge positions on link 3, from its upper joint [m].
    azimuths : tuple of float
        Azimuths φᵢ of the three limbs [rad].

    Examples
    --------
    >>> g = RRRUGeometry()
    >>> round(g.link3_mass, 4)                 # ρ π r² L of the aluminium link
    0.6913
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
    E: float = 6.9e8
    nu: float = 0.3
    density: float = 2700.0                # link 3 (aluminium)
    damping: float = 0.0                   # link 3 Kelvin–Voigt coefficient (s)
    gauges: tuple = (0.2, 0.4075, 0.6)     # from the upper joint of link 3 (m)
    azimuths: tuple = field(default_factory=lambda: tuple(np.radians([0.0, 120.0, 240.0])))

    @classmethod
    def reconstructed(cls, **changes):
        """The robot with the lost data fitted to the paper's rigid figures (docs/rrru.md,
        "Reconstructing the lost data"): link 1 0.3465 m and 1.362 kg, link 2 0.1137 m and
        0.2046 kg, platform 1.696 kg — seeded differential evolution
        (``femdyn fit rrru examples/rrru_fit_both_angle_readings.toml``) meeting the torque
        peaks −11.1 N·m (limb 2) and −8.3 N·m (limb 1) within 1 N·m and the 9.8° angle
        maximum within 1° under either sign of the angle. Not the default: its flexible
        platform tilts more (24.6° against 16.0° at start and stop), see docs/rrru.md.

        Parameters
        ----------
        **changes
            Further fields to set (e.g. ``E=6.9e10``).

        Returns
        -------
        RRRUGeometry

        Examples
        --------
        >>> RRRUGeometry.reconstructed().link1_mass
        1.362
        """
        fitted = dict(link1_length=0.3465, link2_length=0.1137, link1_mass=1.362, link2_mass=0.2046,
                      platform_mass=1.696)
        return cls(**{**fitted, **changes})

    @property
    def link3_mass(self):
        return self.density * math.pi * self.link3_radius**2 * self.link3_length

    def limb_frame(self, i):
        """Motor point and unit vectors of limb i.

        Parameters
        ----------
        i : int
            Limb index 0, 1, 2.

        Returns
        -------
        A1 : (3,) ndarray
            Motor point [m], global frame.
        e_r : (3,) ndarray
            Radial unit vector of the limb plane.
        a : (3,) ndarray
            Tangential unit vector e_z × e_r (the motor axis).
        e_z : (3,) ndarray
            Vertical unit vector.
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
    """Closed-form inverse kinematics of limb i for its platform joint at A4 (elbow outwards).

    γ from the component of A4 − A1 along a, then a planar two-link problem (see the
    module docstring).
    """
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
    """Actuated angles and every joint point of the 3-RRRU robot for a platform centre.

    Parameters
    ----------
    pose : array_like
        Platform centre P (m), global axes; the platform is level (it only translates).
    geometry : RRRUGeometry, optional
    link_model : {"ancf", "component"}
        A flexible link 3 as ``n_elements`` ANCF beam elements, or as the floating-frame
        body (:meth:`~femdyn.model.builder.Model.flexible_body`) of those elements
        linearized and reduced to a component
        (:func:`~femdyn.solvers.beam_component.ancf_beam_component`, all modes, mean
        axes): the two flexible models of one link, to compare in one run. Component
        links carry no strain gauges.

    Returns
    -------
    Pose
        ``angles`` (3,) in rad (rotation of link 1 about a from the horizontal, positive
        downwards) and ``limbs``: :class:`LimbPose` with the points A1, B, A2, A4 (m) and
        the axes a, b.

    Raises
    ------
    ModelError
        If a platform joint A4ᵢ is out of reach (the message names it and the limb).

    Example
    -------
    >>> np.degrees(inverse_kinematics((0.0, 0.0, -0.8)).angles).round(2).tolist()
    [1.94, 1.94, 1.94]
    """
    g = geometry or RRRUGeometry()
    P = vector3(pose, "3-RRRU pose: platform centre (m)")
    limbs = []
    for i in range(3):
        _, e_r, _, _ = g.limb_frame(i)
        limbs.append(limb_inverse_kinematics(g, i, P + g.platform_radius * e_r))
    return Pose(P, limbs)


def limb_rates(geometry, i, x, velocity, acceleration):
    """First and second time derivatives of a limb's joint variables for a platform motion.

    Differentiates the closure F(x) = A4 − A1 once, F_x ẋ = Ȧ4, and twice,
    F_x ẍ = Ä4 − Σ F_{x_j x_k} ẋ_j ẋ_k (exact).

    Parameters
    ----------
    geometry : RRRUGeometry
        The robot's dimensions.
    i : int
        Limb index.
    x : (3,) array_like
        Joint variables (θ1, ψ, γ) [rad] from :func:`limb_inverse_kinematics`.
    velocity : (3,) ndarray
        Platform velocity [m/s], global frame.
    acceleration : (3,) ndarray
        Platform acceleration [m/s²], global frame.

    Returns
    -------
    xd : (3,) ndarray
        ẋ [rad/s].
    xdd : (3,) ndarray
        ẍ [rad/s²].

    Raises
    ------
    ModelError
        At a singular configuration of the limb (links 1 and 2 aligned or link 3 along the
        motor axis).
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
    """Actuated angle θ1ᵢ(t) of limb i when the platform centre follows a trajectory.

    Closed-form inverse kinematics with exact first and second derivatives
    (:func:`limb_rates`); for ``Model.drive_angle``. Angles from the horizontal, positive
    downwards (rotation about a).

    Examples
    --------
    >>> from femdyn.motion import LinePath, PathMotion, SCurve
    >>> line = LinePath((0, 0, -0.8), (0.05, 0, -0.8))
    >>> f = ActuatedAngle(RRRUGeometry(), 0, PathMotion(line, SCurve(0.05, 0.5, 2.5, 50.0)))
    >>> round(math.degrees(f.value(0.0)), 2)
    1.94
    """

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
    model : Model
        The model (not yet assembled).
    geometry : RRRUGeometry
        Its dimensions.
    pose : Pose
        Inverse kinematics of the initial configuration.
    motors : list of str
        The actuated revolute joints (limb order); angles from the horizontal [rad].
    links : list of dict
        Per limb the names of link 1, link 2 (rigid bodies), link 3 (rigid beam or ANCF
        element set), the Hooke joint and, for a flexible link 3, the revolute "knee"
        joining it to link 2 (None when rigid: links sharing a point and an axis node form
        a revolute pair without equations, as links 1 and 2 do at the elbow).
    platform : str
        The platform body.
    centre : (3,) ndarray
        Its centre (end effector) at t = 0 [m].
    gauges : list of str
        Strain sensors (flexible ANCF links): "gauge {limb}.{k}" at ``geometry.gauges``.
    flexible : bool
        Whether link 3 is an ANCF beam.
    link_model : str
        "ancf" (link 3 as ANCF elements) or "component" (a floating-frame body of the
        Craig–Bampton component of the same ANCF link; its knee and Hooke joints act on
        its interface frames "x0", "x1").
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
    """Build the 3-RRRU robot of Liu et al. 2018 at the platform position ``pose``.

    Links 1 and 2 are natural-coordinate rigid bodies (link 1 a two-point rigid beam;
    link 2 two points and the axes a, b, sharing B with link 1 and A2, b with a rigid
    link 3, so that those revolutes need no equations; the elbow axis node a is fixed); link 3 is a rigid beam carrying b or, with
    ``flexible``, ``n_elements`` ANCF elements joined to link 2 by a revolute and to the
    platform by a Hooke joint through its end nodes' frames. The platform is a rigid
    body on its two vertex nodes and the unit vectors (normal, in-plane), Liu et al.'s (2018)
    q_a ∈ R¹²; a ``payload`` (kg) is a point mass at its centre.

    Parameters
    ----------
    pose : array_like
        Initial platform centre (m), solved by :func:`inverse_kinematics`.
    flexible : bool
        ANCF link 3 (True) or rigid (False).
    element : {"beam"}
        The ANCF element of link 3: the fully parameterized beam. The gradient-deficient
        "cable" is refused: a cable node carries only its tangent, so the Hooke joint at
        its end has no cross axis ⟂ the tangent to hold.
    n_elements : int
        Elements per flexible link.
    payload : float
        Point mass at the platform centre (kg), e.g. 1.6 for the test rig.
    gravity : array_like
        m/s², global axes (Z up: the robot hangs below its base).
    geometry : RRRUGeometry, optional

    Returns
    -------
    RRRU
        The model and handles (motors, links, platform, gauges).

    Raises
    ------
    ModelError
        Pose outside the workspace, bad options (named).

    Example
    -------
    >>> robot = rrru()
    >>> robot.model.assemble().degrees_of_freedom()
    3
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
        if flexible and link_model == "ancf":
            gauges += _gauges(m, g, i, names["link3"], limb, n_elements)
    return RRRU(m, g, ik, motors, links, platform, centre, gauges, flexible, link_model)


def _rod_inertia(mass, length, radius, e):
    """Centroidal inertia (kg·m²) of a solid cylinder along the unit vector e."""
    axial, transverse = mass * radius**2 / 2, mass * (3 * radius**2 + length**2) / 12
    return transverse * np.eye(3) + (axial - transverse) * np.outer(e, e)


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
    """Nodes, bodies and joints of limb i (``flexible``: False, "ancf" or "component");
    returns the names."""
    A1 = m.point(f"A1_{i}", limb.A1)
    a = m.vector(f"a_{i}", limb.a)
    B = m.point(f"B_{i}", limb.B)
    A2 = m.point(f"A2_{i}", limb.A2)
    b = m.vector(f"b_{i}", limb.b)
    link1 = m.rigid_beam(f"link1_{i}", A1, B, mass=g.link1_mass)
    u2 = (limb.A2 - limb.B) / g.link2_length
    m.rigid_body(f"link2_{i}", [B, A2], [a, b], mass=g.link2_mass, com=0.5 * (limb.B + limb.A2),
                 inertia=_rod_inertia(g.link2_mass, g.link2_length, g.rigid_link_radius, u2))
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
    """Link 3 of limb i as the floating-frame body of the component of its ANCF elements,
    reference frame at A2 with axes (link axis, b ⟂ axis, their cross product); returns
    the body's name and its lower interface frame's name."""
    from femdyn.solvers.beam_component import ancf_beam_component
    component = ancf_beam_component(g.link3_length, g.E, g.density, sections.circular(g.link3_radius), n_elements,
                                    nu=g.nu, name=f"link3_{i}")
    d = (limb.A4 - limb.A2) / g.link3_length
    e_y = limb.b - d * (d @ limb.b)
    e_y /= np.linalg.norm(e_y)
    body = m.flexible_body(f"link3_{i}", component, limb.A2, np.column_stack([d, e_y, np.cross(d, e_y)]))
    return body.name, f"{body.name}.x1"


def _gauges(m, g, i, beam, limb, n_elements):
    """Strain gauges on the outer wall of link 3 (the side facing away from the robot's
    axis) at the distances of Liu et al. 2018 from its upper joint."""
    d = (limb.A4 - limb.A2) / g.link3_length
    e_y = limb.b - d * (d @ limb.b)
    e_y /= np.linalg.norm(e_y)
    e_z = np.cross(d, e_y)
    _, e_r, _, _ = g.limb_frame(i)
    outward = e_r - d * (d @ e_r)
    outward *= g.link3_radius / np.linalg.norm(outward)
    names = []
    for k, s in enumerate(g.gauges):
        x = s / g.link3_length * n_elements
        element = min(int(x), n_elements - 1)
        names.append(m.sensor_strain(f"gauge {i}.{k}", beam, element, x - element,
                                     y=float(outward @ e_y), z=float(outward @ e_z)).name)
    return names
