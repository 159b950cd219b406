"""The pose servo (``Model.servo_pose``): a body's position and orientation prescribed by six rows.

Checked: the SO(3) kinematics of a rotation-vector motion against finite differences of R(φ(t)),
the rows' Jacobian and time terms against finite differences, the orientation rows' regularity
(determinant D₁₁D₃₃), and a Gough–Stewart platform (6-UPS) driven along a pose: its six leg
forces from the servo DAE equal the platform's Newton–Euler load mapped through the legs.
"""
import math

import numpy as np
import pytest

import femdyn
from femdyn.errors import ModelError
from femdyn.geometry import angular_motion, left_jacobian, left_jacobian_rate, rotation_matrix, skew
from femdyn.motion import LinePath, PathMotion, PoseTrajectory, SCurve, Sine, SmoothStep, as_pose_trajectory
from femdyn.motion.trajectories import StateFunction
from femdyn.solvers.generalized_alpha import Options, integrate

G = np.array([0.0, 0.0, -9.81])
RB, RP, HEIGHT = 0.5, 0.3, 0.6              # base and platform radii, platform height, m
MASS, INERTIA = 10.0, np.diag([0.3, 0.35, 0.5])   # platform, kg and kg·m² about its centre
LIGHT = 1e-6                                 # leg body masses, kg (massless legs, 1e-7 of the platform)
OMEGA = 2 * math.pi * 0.8                    # rad/s of the test motion


def lift(a, omega=OMEGA):
    """a (1 − cos ω t): starts at rest at 0, with exact derivatives (Sine(a, ω, −π/2, a))."""
    return Sine(a, omega, -math.pi / 2, a)


def motion_pose():
    """A motion through all six components: 2–4 cm and 0.12–0.2 rad."""
    c0 = np.array([0.0, 0.0, HEIGHT])
    return PoseTrajectory([lift(0.03) + c0[0], lift(-0.02) + c0[1], lift(0.04) + c0[2]],
                          [lift(0.15), lift(-0.12), lift(0.2)])


def layout():
    """Base points b_i and platform points p_i (as built) of the 6-UPS legs."""
    legs = []
    for k in range(3):
        for s in (-1, 1):
            tb, tp = math.radians(120 * k + 10 * s), math.radians(120 * k + 50 * s)
            legs.append((np.array([RB * math.cos(tb), RB * math.sin(tb), 0.0]),
                         np.array([RP * math.cos(tp), RP * math.sin(tp), HEIGHT])))
    return legs


def stewart(pose):
    """A Gough–Stewart 6-UPS platform: Hooke joints at the base, light cylinder + piston legs with an
    actuated prismatic joint each (``leg<i>.force``, N, pushing the platform away from the base),
    spherical joints at the platform, whose centre and orientation follow ``pose``."""
    m = femdyn.Model("stewart", gravity=tuple(G))
    c = np.array([0.0, 0.0, HEIGHT])
    nodes = [m.point("C", c), m.point("A", c + (0.2, 0, 0)), m.vector("u", (0, 1, 0)), m.vector("w", (0, 0, 1))]
    platform = m.rigid_body("platform", nodes[:2], nodes[2:], mass=MASS, com=c, inertia=INERTIA)
    for i, (b, p) in enumerate(layout()):
        axis = (p - b) / np.linalg.norm(p - b)
        v1 = np.cross(axis, (0, 0, 1.0))
        v1 /= np.linalg.norm(v1)
        v2 = np.cross(axis, v1)
        cyl = m.rigid_body(f"cylinder{i}", [m.point(f"B{i}", b), m.point(f"M{i}", b + 0.3 * axis)],
                           [m.vector(f"v{i}", v1), m.vector(f"n{i}", v2)], mass=LIGHT, com=b + 0.15 * axis,
                           inertia=LIGHT * 1e-2 * np.eye(3))
        piston = m.rigid_beam(f"piston{i}", m.point(f"N{i}", b + 0.2 * axis), m.point(f"P{i}", p), mass=LIGHT)
        m.universal(f"hooke{i}", m.ground, cyl, b, v1, v2)
        m.prismatic(f"slider{i}", cyl, piston, b + 0.2 * axis, axis)
        m.spherical(f"ball{i}", piston, platform, p)
        m.actuator(f"leg{i}", f"slider{i}")
    m.servo_pose("platform", platform, c, pose)
    return m


def newton_euler_forces(pose, t, mass=MASS, offset=np.zeros(3), inertia=INERTIA):
    """Leg forces F (6,) from the prescribed motion of a rigid body (mass, centre of mass at ``offset`` from
    the platform centre as built, ``inertia`` about it) carried by massless legs, each pushing along its
    axis u_i: Σ F_i [u_i; (p_i − c) × u_i] = [m(a − g); Iα + ω × Iω] with c, a of the centre of mass."""
    state, _, accel = pose.state(t)
    R, omega, alpha = pose.orientation(t)
    r, c0 = R @ offset, np.array([0.0, 0.0, HEIGHT])
    c = state[:3] + r
    a = accel[:3] + np.cross(alpha, r) + np.cross(omega, np.cross(omega, r))
    inertia = R @ inertia @ R.T
    A, load = np.zeros((6, 6)), np.concatenate([mass * (a - G), inertia @ alpha + np.cross(omega, inertia @ omega)])
    for i, (b, p0) in enumerate(layout()):
        p = state[:3] + R @ (p0 - c0)
        u = (p - b) / np.linalg.norm(p - b)
        A[:, i] = np.concatenate([u, np.cross(p - c, u)])
    return np.linalg.solve(A, load)


def leg_force_error(results, reference):
    """max_t max_i |F_i − F_i,ref| relative to the largest |F_ref|, from t = 0."""
    forces = np.column_stack([results[f"leg{i}.force"] for i in range(6)])
    return np.abs(forces - reference).max() / np.abs(reference).max()


# --- SO(3) kinematics ----------------------------------------------------------------------------
@pytest.mark.parametrize("scale", [1e-3, 0.8, 2.6])
def test_rotation_rates_match_finite_differences_of_the_rotation(scale):
    """Ṙ = [ω]R and R̈ = ([α] + [ω]²)R of a rotation-vector motion against central differences of
    R(φ(t)), at angles in the series branch (φ² < 4) and the closed-form branch (2.6 rad):
    step 1e-4 s, truncation O(dt²) ~ 1e-8 and round-off 1e-16/dt² ~ 1e-8 for R̈; tolerance 1e-6."""
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(3), rng.standard_normal(3)
    phi = lambda t: scale * (a / np.linalg.norm(a) + 0.3 * t * b + 0.2 * t * t * a)
    phi_d = lambda t: scale * (0.3 * b + 0.4 * t * a)
    t, dt = 0.7, 1e-4
    R, w, alpha = angular_motion(phi(t), phi_d(t), scale * 0.4 * a)
    Rs = [rotation_matrix(phi(t + k * dt)) for k in (-1, 0, 1)]
    assert np.abs(R - Rs[1]).max() < 1e-15
    assert np.abs((Rs[2] - Rs[0]) / (2 * dt) - skew(w) @ R).max() < 1e-6
    assert np.abs((Rs[2] - 2 * Rs[1] + Rs[0]) / dt**2 - (skew(alpha) + skew(w) @ skew(w)) @ R).max() < 1e-6


def test_left_jacobian_rate_is_exact():
    """J_l and J̇_l against the closed form of J_l evaluated at φ + i h φ̇ (complex step, h = 1e-30: its
    imaginary part / h is the exact directional derivative), on both sides of the series/closed-form
    switch (φ = 2 rad): 1e-13 and 1e-12. At 2e-3 rad, where the closed form loses digits to
    cancellation, J_l against it in real arithmetic (1e-12)."""
    rng = np.random.default_rng(5)
    for scale in (0.05, 0.5, 1.99, 2.01, 3.0):
        phi, phi_d = scale * rng.standard_normal(3) / math.sqrt(3), rng.standard_normal(3)
        h = 1e-30
        z = phi + 1j * h * phi_d
        th = np.sqrt(z @ z)
        P = np.array([[0, -z[2], z[1]], [z[2], 0, -z[0]], [-z[1], z[0], 0]])
        J = np.eye(3) + (1 - np.cos(th)) / th**2 * P + (th - np.sin(th)) / th**3 * P @ P
        assert np.abs(J.real - left_jacobian(phi)).max() < 1e-13
        assert np.abs(J.imag / h - left_jacobian_rate(phi, phi_d)).max() < 1e-12
    small = np.array([1e-3, -2e-3, 0.5e-3])
    th = np.linalg.norm(small)
    closed = np.eye(3) + (1 - math.cos(th)) / th**2 * skew(small) + (th - math.sin(th)) / th**3 * skew(small) @ skew(small)
    assert np.abs(left_jacobian(small) - closed).max() < 1e-12


# --- pose trajectories -------------------------------------------------------------------------------
def test_a_pose_can_be_given_in_every_accepted_form():
    """Six time functions, a callable, a 6-component state function and a PoseTrajectory of a
    position Trajectory and a rotation Trajectory (a PathMotion in φ-space) give the same pose."""
    line = LinePath((0, 0, 0), (0.0, 0.3, 0.4))
    profile = SCurve(line.length, 0.5, 2.0, 20.0)
    rotation = PathMotion(line, profile)
    position = PathMotion(LinePath((0, 0, 1.0), (0.1, 0, 1.0)), SCurve(0.1, 0.5, 2.0, 20.0))

    class Both(StateFunction):
        def state(self, t):
            return tuple(np.concatenate(x) for x in zip(position.state(t), rotation.state(t)))

    reference = PoseTrajectory(position, rotation)
    forms = [Both(), lambda t: np.concatenate([position.position(t), rotation.position(t)]),
             list(position.components()) + [rotation.along(e) for e in np.eye(3)]]
    for t in (0.0, 0.21, 0.6):
        want = reference.state(t)
        for form in forms:
            got = as_pose_trajectory(form).state(t)
            # the callable's central differences (dt = 1e-4 s) are off by up to jerk·dt = 2e-3 m/s² near the
            # S-curves' jerk switches; everything else is exact
            tol = 5e-3 if callable(form) and not hasattr(form, "state") else 1e-14
            assert all(np.abs(g - w).max() < tol * max(1.0, np.abs(w).max()) for g, w in zip(got, want))
    R, omega, _ = reference.orientation(0.3)
    axis = np.array([0, 0.6, 0.8])
    assert np.allclose(R, rotation_matrix(rotation.position(0.3)), atol=1e-15)
    assert np.allclose(omega, axis * profile.d1(0.3), atol=1e-14)      # fixed axis: ω = ṡ e


@pytest.mark.parametrize("bad", [[0.0] * 5, "pose", Sine(1.0, 1.0), SCurve(1.0, 1.0, 1.0, 1.0)])
def test_a_malformed_pose_is_refused(bad):
    with pytest.raises(ModelError, match="pose"):
        as_pose_trajectory(bad)


# --- the rows ------------------------------------------------------------------------------------------
def servo_rows(system, name="platform"):
    """The global rows of the pose servo ``name``, in order x, y, z, rx, ry, rz."""
    labels = system.constraints.labels
    return np.array([labels.index(f"{name}: {c}") for c in ("x", "y", "z", "rx", "ry", "rz")])


def test_pose_rows_jacobian_and_time_terms_match_finite_differences():
    """Φ_q of the six rows against central differences in q (1e-8 of the largest entry); along a
    path q(t) = q₀ + t v + t² a/2, dΦ/dt = Φ_q q̇ + Φ_t and d²Φ/dt² = Φ_q q̈ − γ against central
    differences in t of Φ(q(t), t) (step 1e-4 s: 1e-7 relative)."""
    system = stewart(motion_pose()).assemble()
    rows = servo_rows(system)
    rng = np.random.default_rng(2)
    q0, v, a = system.q0 + 1e-2 * rng.standard_normal(system.n), rng.standard_normal(system.n), \
        rng.standard_normal(system.n)
    t0 = 0.4
    cs = system.constraints
    J = cs.jacobian(q0, t0).toarray()[rows]
    step = 1e-6
    fd = np.column_stack([(cs.phi(q0 + e, t0) - cs.phi(q0 - e, t0))[rows] / (2 * step)
                          for e in step * np.eye(system.n)])
    assert np.abs(J - fd).max() < 1e-8 * np.abs(J).max()
    assert np.all(np.abs(J).max(axis=1) > 0.1)

    path = lambda t: q0 + (t - t0) * v + 0.5 * (t - t0) ** 2 * a
    phi = lambda t: cs.phi(path(t), t)[rows]
    h = 1e-4
    first = (phi(t0 + h) - phi(t0 - h)) / (2 * h)
    second = (phi(t0 + h) - 2 * phi(t0) + phi(t0 - h)) / h**2
    phi_t, gamma = cs.acceleration_terms(q0, v, t0)
    assert np.abs(J @ v + phi_t[rows] - first).max() < 1e-7 * np.abs(first).max()
    assert np.abs(J @ a - gamma[rows] - second).max() < 1e-6 * np.abs(second).max()
    assert np.abs(phi_t[rows][3:]).max() > 0.1                        # the orientation targets do move


def turned(system, body, D):
    """q with ``body`` turned by D about its centre C (the other bodies as built), and ∂q/∂δθ (n × 3)
    of a further small rotation δθ (global) about C: δx = δθ × (x − C) for points, δθ × x for vectors."""
    q, dq, c = system.q0.copy(), np.zeros((system.n, 3)), np.array([0.0, 0.0, HEIGHT])
    for node in body.nodes:
        x = node.initial[:3] - (c if node.kind == "point" else 0.0)
        y = D @ x
        q[node.start:node.start + 3] = y + (c if node.kind == "point" else 0.0)
        dq[node.start:node.start + 3] = -skew(y)
    return q, dq


def replace_servo(m, pose, **options):
    """The model ``m`` with its pose servo rebuilt with ``options`` (frame, anchor)."""
    m.joints.pop("platform")
    m.servo_pose("platform", "platform", (0, 0, HEIGHT), pose, **options)
    return m


def test_the_rows_hold_the_as_built_pose_and_respond_to_small_rotations_about_the_anchor_axes():
    """At t = 0 the body as built satisfies the six rows; their Jacobian with respect to a small
    rotation δθ of the body about its centre is the identity at the anchor (rx, ry, rz respond to
    rotations about x, y, z) and zero for the position rows, also with a ``frame`` F and
    φ(0) = −(rotation vector of F), so that the body starts as built."""
    back = np.array([0.3, -0.2, 0.5])
    for frame, phi0 in ((None, np.zeros(3)), (rotation_matrix(back), -back), (back, -back)):
        pose = PoseTrajectory([0.0, 0.0, HEIGHT], [lift(0.1) + phi0[0], phi0[1], phi0[2]])
        m = replace_servo(stewart(pose), pose, frame=frame)
        system = m.assemble()
        rows = servo_rows(system)
        assert np.abs(system.constraints.phi(system.q0, 0.0)[rows]).max() < 1e-14
        J = system.constraints.jacobian(system.q0, 0.0).toarray()[rows]
        _, dq = turned(system, m.bodies["platform"], np.eye(3))
        assert np.abs(J[3:] @ dq - np.eye(3)).max() < 1e-12
        assert np.abs(J[:3] @ dq).max() < 1e-12


def test_orientation_rows_stay_regular_below_90_degrees_and_are_refused_near_it():
    """det ∂(rx, ry, rz)/∂δθ = ±D₁₁D₃₃ (D = R₀ᵀR), ≥ cos²θ for θ < 90°, from the assembled rows at 500
    random orientations within 89°; a motion reaching 85° about y is refused naming the servo, the
    time and the angle, and is accepted with an ``anchor`` half-way (42.5° from both ends)."""
    angle = math.radians(85)
    pose = PoseTrajectory([0.0, 0.0, HEIGHT], [0.0, SmoothStep(0.0, 1.0, 0.0, angle), 0.0])
    m = stewart(pose)
    system = m.assemble()
    rows = servo_rows(system)[3:]
    rng = np.random.default_rng(7)
    for _ in range(500):
        axis = rng.standard_normal(3)
        theta = rng.uniform(0, math.radians(89))
        D = rotation_matrix(theta * axis / np.linalg.norm(axis))
        q, dq = turned(system, m.bodies["platform"], D)
        det = np.linalg.det(system.constraints.jacobian(q, 0.0).toarray()[rows] @ dq)
        assert abs(det) == pytest.approx(D[0, 0] * D[2, 2], abs=1e-12)
        assert abs(det) >= math.cos(theta) ** 2 - 1e-12
    with pytest.raises(ModelError, match=r"pose servo 'platform': at t = 0\.[0-9]+ s .* 8[0-9]\.[0-9]° from the anchor"):
        for t in np.linspace(0, 1, 101):
            system.constraints.phi(system.q0, t)
    cs = replace_servo(stewart(pose), pose, anchor=(0, angle / 2, 0)).assemble().constraints
    for t in np.linspace(0, 1, 101):
        cs.phi(system.q0, t)


def test_a_body_without_three_directions_or_a_bad_frame_is_refused():
    m = femdyn.Model("bad")
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    with pytest.raises(ModelError, match="pose servo 'rod pose'.*three material directions"):
        m.servo_pose("rod pose", rod, (0, 0, 0), [0.0] * 6)
    nodes = [m.point("C", (0, 0, 1.0)), m.point("D", (0.5, 0, 1.0)), m.vector("u", (0, 1, 0)), m.vector("w", (0, 0, 1))]
    plate = m.rigid_body("plate", nodes[:2], nodes[2:], mass=2.0, inertia=0.1 * np.eye(3))
    with pytest.raises(ModelError, match="pose servo 'p': frame"):
        m.servo_pose("p", plate, (0, 0, 1.0), [0.0] * 6, frame=2 * np.eye(3))


# --- the Gough–Stewart platform -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stewart_runs():
    """The 6-UPS platform along :func:`motion_pose` for one period (1.25 s), servo DAE by generalized-α
    (ρ∞ = 0.9, tight tolerances as inverse dynamics needs: tests/solvers/test_inverse_dynamics.py) at
    h = 2 ms and 1 ms."""
    pose = motion_pose()
    system = stewart(pose).assemble()
    options = Options(rho_inf=0.9, tol_dynamic=1e-10, tol_constraint=1e-13)
    return pose, {h: integrate(system, 1.25, h, options) for h in (2e-3, 1e-3)}


def test_stewart_leg_forces_equal_the_platform_newton_euler_load(stewart_runs):
    """The six leg forces solved with the motion (servo DAE) against those that carry the platform's
    Newton–Euler load [m(a − g); Iα + ω × Iω], evaluated from the prescribed pose (c, R, ω, α) and
    mapped through the legs' axes. The whole platform state is prescribed, so the error is the
    integrator's: second order in h (measured 6.7e-6 of the 41 N peak at h = 2 ms, 1.9e-6 at 1 ms,
    including the start; the 1e-6 kg legs contribute 1e-7), bounded here by 1e-5 and 3e-6 and asked
    to fall by more than 2.5× when h halves."""
    pose, runs = stewart_runs
    errors = {h: leg_force_error(r, np.array([newton_euler_forces(pose, t) for t in r.t])) for h, r in runs.items()}
    assert errors[2e-3] < 1e-5 and errors[1e-3] < 3e-6
    assert errors[2e-3] > 2.5 * errors[1e-3]
    forces = runs[1e-3]["leg0.force"]
    assert forces.max() - forces.min() > 10.0          # the motion changes the loads by tens of N


def test_stable_inverse_with_a_flexible_rope_under_the_platform():
    """The stable causal inverse (femdyn.solvers.stable_inverse) on the platform carrying an ANCF
    cable (aluminium, radius 2 cm, 0.4 m, 4 elements, clamped at the platform's centre, hanging): at the start
    (static) the leg forces carry platform + rope (1e-6: the legs' own weight); along a quintic
    rest-to-rest pose change in 0.6 s they are those of the rigid platform + rope body to 0.64 %
    (the rope's elastic response and the inverse's rate limit; bound 1.5 %), where the platform
    alone differs by 11.6 % (bound > 5 %)."""
    from femdyn.elements import sections
    from femdyn.solvers.stable_inverse import stable_causal_inverse
    step = lambda a: SmoothStep(0.0, 0.6, 0.0, a)
    pose = PoseTrajectory([step(0.03), step(-0.02), step(0.04) + HEIGHT], [step(0.15), step(-0.12), step(0.2)])
    m = stewart(pose)
    length, rho, section = 0.4, 2700.0, sections.circular(0.02)
    m.straight_beam("rope", (0, 0, HEIGHT), (0, 0, HEIGHT - length), 4, E=7e10, rho=rho, section=section)
    m.clamp("hang", "rope.0", "platform")
    results = stable_causal_inverse(m.assemble(), 1.0, 5e-3)
    rope = rho * section.area * length
    total = MASS + rope
    offset = np.array([0.0, 0.0, -length / 2 * rope / total])                  # centre of mass below C
    arm = np.array([0.0, 0.0, -length / 2]) - offset
    inertia = (INERTIA + MASS * (offset @ offset * np.eye(3) - np.outer(offset, offset))
               + rope * length**2 / 12 * np.diag([1.0, 1.0, 0.0]) + rope * (arm @ arm * np.eye(3) - np.outer(arm, arm)))
    rigid = np.array([newton_euler_forces(pose, t, total, offset, inertia) for t in results.t])
    start = np.array([results[f"leg{i}.force"][0] for i in range(6)])
    assert np.abs(start - rigid[0]).max() < 1e-6 * np.abs(rigid[0]).max()
    assert leg_force_error(results, rigid) < 1.5e-2
    assert leg_force_error(results, np.array([newton_euler_forces(pose, t) for t in results.t])) > 5e-2
