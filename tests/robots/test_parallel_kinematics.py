"""The six ready parallel robots' kinematics (femdyn.robots.parallel): inverse and forward kinematics
agree, the Jacobian and the rates match finite differences, independent closed forms agree with the
generic closure solver (Stewart leg lengths, linear Delta carriage heights, rotary Delta arm angles,
the 3-RRRU's own inverse kinematics), the 3-RPS's parasitic motions, refused descriptions, and the
TOML description of examples/robots/my_delta.toml."""
import math

import numpy as np
import pytest
from support import ROOT

from femdyn.errors import ConvergenceError, ModelError, SchemaError
from femdyn.robots import rrru
from femdyn.robots.parallel import (READY, Joint, ParallelRobot, delta, description_from_dict, linear_delta,
                                    parallel_robot, read_description, stewart)
from femdyn.robots.parallel.chain import rotation

NAMES = list(READY)
MY_DELTA = ROOT / "examples" / "robots" / "my_delta.toml"


@pytest.fixture(scope="module")
def robots():
    """One ParallelRobot per ready name (defaults)."""
    return {name: parallel_robot(name) for name in NAMES}


@pytest.mark.parametrize("name", NAMES)
def test_inverse_then_forward_kinematics_returns_the_pose(robots, name):
    """FK(IK(p)) = p at 20 sampled poses: both solve the closure to 1e-12, so 1e-9 leaves room for the
    conditioning of the forward problem (the samples keep cond(J) < 1e4)."""
    robot = robots[name]
    poses = robot.sample_poses(20, seed=11)
    assert poses.shape == (20, len(robot.description.task))
    back = robot.forward_kinematics(robot.inverse_kinematics(poses))
    assert np.abs(back - poses).max() < 1e-9


@pytest.mark.parametrize("name", NAMES)
def test_jacobian_matches_central_differences_of_inverse_kinematics(robots, name):
    """J = ∂a/∂p against (a(p + h e) − a(p − h e)) / 2h, h = 1e-5: the truncation error h²|a'''|/6 stays
    below 2e-8 for |a'''| < 1e3 (rad or m per m³ — these workspaces), the rounding ε|a|/h ≈ 1e-10 (IK is
    solved to 1e-12, which adds 1e-12/h = 1e-7 at most); tolerance 5e-7 relative to max |J|."""
    robot = robots[name]
    poses = robot.sample_poses(5, seed=3)
    h = 1e-5
    J = robot.jacobian(poses)
    steps = np.eye(poses.shape[1]) * h
    fd = np.stack([(robot.inverse_kinematics(poses + e) - robot.inverse_kinematics(poses - e)) / (2 * h)
                   for e in steps], axis=-1)
    assert J.shape == (5, len(robot.actuators), poses.shape[1])
    assert np.abs(J - fd).max() < 5e-7 * max(1.0, np.abs(J).max())


def _trajectory(robot, t):
    """A smooth task trajectory about home: p(t) = home + A sin(ω t + φ), per coordinate (m, rad)."""
    home = robot.home[robot.task]
    n = len(home)
    amplitude = np.array([0.02 if c in "xyz" else 0.05 for c in robot.description.task])
    omega, phase = 1.0 + 0.5 * np.arange(n), 0.3 * np.arange(n)
    s = np.sin(np.multiply.outer(t, omega) + phase)
    c = np.cos(np.multiply.outer(t, omega) + phase)
    return home + amplitude * s, amplitude * omega * c, -amplitude * omega**2 * s


@pytest.mark.parametrize("name", NAMES)
def test_actuator_rates_match_time_differences_of_positions(robots, name):
    """ȧ and ä of ``actuator_rates`` against central differences in time of a(t) = IK(p(t)), dt = 1e-3 s:
    truncation dt²|a'''|/6 and dt²|a''''|/12 (< 1e-7 with amplitudes 2 cm, 0.05 rad and ω ≤ 3.5 rad/s),
    rounding 1e-12/dt = 1e-9 and 4·1e-12/dt² = 4e-6 for ä (IK solved to 1e-12); tolerances 1e-6 and 2e-5."""
    robot = robots[name]
    t = np.array([0.2, 0.9, 1.7])
    dt = 1e-3
    p, v, a = _trajectory(robot, t)
    act, rate, accel = robot.actuator_rates(p, v, a)
    before, after = (robot.inverse_kinematics(_trajectory(robot, t + s)[0]) for s in (-dt, dt))
    assert np.abs(act - robot.inverse_kinematics(p)).max() < 1e-12
    assert np.abs(rate - (after - before) / (2 * dt)).max() < 1e-6
    assert np.abs(accel - (after - 2 * act + before) / dt**2).max() < 2e-5


# -- independent closed forms ----------------------------------------------------------------------------
def test_stewart_leg_lengths_are_the_joint_distances():
    """Stewart actuators = |p + R b_i − a_i| (the home of each P joint defaults to that distance)."""
    d = stewart()
    robot = ParallelRobot(d)
    base = np.array([limb.joints[0].point for limb in d.limbs])
    top = np.array([limb.joints[2].point for limb in d.limbs]) - np.array(d.platform.home[:3])
    assert robot.offsets == pytest.approx(np.linalg.norm(top + d.platform.home[:3] - base, axis=1), abs=1e-15)
    poses = robot.sample_poses(10, seed=5)
    expected = [np.linalg.norm(p[:3] + top @ rotation(p[3:]).T - base, axis=1) for p in poses]
    assert np.abs(robot.inverse_kinematics(poses) - np.array(expected)).max() < 1e-10


def test_linear_delta_carriage_heights_in_closed_form():
    """Carriage height = z + √(ℓ² − |horizontal distance between a carriage pivot and its effector pivot|²)."""
    robot = ParallelRobot(linear_delta())
    poses = robot.sample_poses(10, seed=2)
    expected = []
    for p in poses:
        row = []
        for limb in robot.description.limbs:
            pivot, end = np.array(limb.joints[1].point), np.array(limb.joints[1].end)
            flat = (pivot - (end - np.array(robot.description.platform.home[:3])) - p)[:2]
            row.append(p[2] + math.sqrt(0.2135**2 - flat @ flat))
        expected.append(row)
    assert np.abs(robot.inverse_kinematics(poses) - np.array(expected)).max() < 1e-10


def test_delta_arm_angles_in_closed_form_and_positive_lowers_the_arm():
    """Rotary Delta: the elbow B = A + L(cos θ e_r − sin θ e_z) lies on the sphere of radius ℓ about the
    platform end C; solved for θ (elbow outwards) per limb. Lowering the platform increases every angle."""
    d = delta()
    robot = ParallelRobot(d)
    poses = robot.sample_poses(10, seed=4)
    L, ell, rb, rp = 0.524, 1.244, 0.1637, 0.04388
    for p, angles in zip(poses, robot.inverse_kinematics(poses)):
        for phi, theta in zip((0.0, 2 * math.pi / 3, 4 * math.pi / 3), angles):
            e_r, a = np.array([math.cos(phi), math.sin(phi), 0]), np.array([-math.sin(phi), math.cos(phi), 0])
            r = p + rp * e_r - rb * e_r                    # C − A
            X, Z, s = r @ e_r, -r[2], r @ a
            k = (L**2 + X * X + Z * Z + s * s - ell**2) / (2 * L)
            expected = math.atan2(Z, X) - math.acos(k / math.hypot(X, Z))
            assert theta == pytest.approx(expected, abs=1e-10)
    lower = robot.inverse_kinematics([0.0, 0.0, -1.2]) - robot.inverse_kinematics([0.0, 0.0, -1.1])
    assert np.all(lower > 0.05)


@pytest.mark.parametrize("reconstructed", [False, True])
def test_3rrru_inverse_kinematics_equals_the_closed_form_of_femdyn_robots_rrru(reconstructed):
    """Two independent implementations: the generic closure solver on the 3-RRRU description and the
    closed-form limb solution of femdyn.robots.rrru (elbow outwards); agreement to 1e-9 rad."""
    robot = parallel_robot("3rrru", reconstructed=reconstructed)
    geometry = rrru.RRRUGeometry.reconstructed() if reconstructed else rrru.RRRUGeometry()
    poses = robot.sample_poses(20, seed=9)
    expected = np.array([rrru.inverse_kinematics(p, geometry).angles for p in poses])
    assert np.abs(robot.inverse_kinematics(poses) - expected).max() < 1e-9
    assert robot.inverse_kinematics([0.1, 0.0, -0.8]) == pytest.approx(
        rrru.inverse_kinematics([0.1, 0.0, -0.8], geometry).angles, abs=1e-12)


def test_3rps_parasitic_motions_are_nonzero_and_obey_the_leg_planes():
    """3-RPS: the task (z, rx, ry) leaves x, y to the mechanism. Each S centre B_i = p + R b_i stays in
    its leg's radial plane (B_i · a_i = 0): three linear equations for (x, y) and Σ(R b_i)·a_i = 0.
    The rotation vector's z component stays 0 (this symmetric 3-RPS has no torsion); x, y do not."""
    robot = parallel_robot("3rps")
    d = robot.description
    poses = robot.sample_poses(10, seed=6)
    Z = robot.state(poses)
    platform = Z[:, -6:]
    assert np.abs(platform[:, [2, 3, 4]] - poses).max() < 1e-14
    assert np.abs(platform[:, :2]).max() > 1e-3            # millimetres of parasitic shift at 0.25 rad tilts
    assert np.abs(platform[:, 5]).max() < 1e-12
    b = np.array([limb.joints[2].point for limb in d.limbs]) - np.array(d.platform.home[:3])
    tangents = np.array([limb.joints[0].axes[0] for limb in d.limbs])
    for q in platform:
        turned = b @ rotation(q[3:]).T
        xy = np.linalg.lstsq(tangents[:, :2], -np.einsum("ij,ij->i", turned, tangents), rcond=None)[0]
        assert q[:2] == pytest.approx(xy, abs=1e-12)


# -- refused descriptions --------------------------------------------------------------------------------
def _with_joint(description, limb, joint, **changes):
    """A copy of a description with one joint changed."""
    from dataclasses import replace
    limbs = list(description.limbs)
    joints = list(limbs[limb].joints)
    joints[joint] = replace(joints[joint], **changes)
    limbs[limb] = replace(limbs[limb], joints=tuple(joints))
    return replace(description, limbs=tuple(limbs))


def test_a_limb_that_does_not_close_at_home_is_refused_by_name():
    """A Hooke joint built in Python (no schema check) whose platform axis is not ⟂ its link axis: the
    closure row (R u₁)·(R u₂) misses by their dot product (0.1) at home."""
    d = READY["3rrru"]()
    b, a = (np.array(x) for x in d.limbs[1].joints[3].axes)
    tilted = tuple(math.sqrt(0.99) * a + 0.1 * b)
    with pytest.raises(ModelError, match=r"does not close \(limb 'limb 1' misses by 0\.1\)"):
        ParallelRobot(_with_joint(d, 1, 3, axes=(tuple(b), tilted)))


def test_a_missing_actuator_is_refused_with_the_counts():
    d = _with_joint(stewart(), 5, 1, actuated=False)
    with pytest.raises(ModelError, match=r"robot 'stewart': mobility 6 .* 5 actuated joints and 6 task coordinates"):
        ParallelRobot(d)


MISPLACED = {"name": "bad", "platform": {"home": [0, 0, 0.5, 0, 0, 0]},
             "limb": [{"name": "leg A", "joint": [{"type": "S", "point": [0, 0, 0]},
                                                  {"type": "P", "point": [0, 0, 0], "axis": [0, 0, 1]}],
                       "link": [{}]}]}


def test_a_misplaced_joint_kind_is_refused_naming_limb_and_joint():
    with pytest.raises(SchemaError, match=r"limb 'leg A' joint 0: a S joint may only attach the limb to the platform"):
        description_from_dict(MISPLACED, "bad.toml")
    actuated_u = {**MISPLACED, "limb": [{"name": "leg B", "joint": [
        {"type": "U", "point": [0, 0, 0], "axes": [[1, 0, 0], [0, 1, 0]], "actuated": True},
        {"type": "S", "point": [0, 0, 0.5]}], "link": [{}]}]}
    with pytest.raises(SchemaError, match=r"limb 'leg B' joint 0: only R and P joints can be actuated, not U"):
        description_from_dict(actuated_u, "bad.toml")


def test_unknown_names_and_parameters_list_what_exists(tmp_path):
    with pytest.raises(ModelError, match=r"unknown robot 'hexapod'.*delta, linear_delta, stewart, 3rrr, 3rps, 3rrru"):
        parallel_robot("hexapod")
    with pytest.raises(ModelError, match=r"ready robot 'delta': unknown parameter \['arm'\]; it takes \['base_radius'"):
        parallel_robot("delta", arm=0.3)
    with pytest.raises(ModelError, match=r"3rrru: .*the geometry's fields are \['base_radius'"):
        parallel_robot("3rrru", link9_length=0.3)
    with pytest.raises(SchemaError, match=r"platform\.weight"):
        parallel_robot(MY_DELTA, **{"platform.weight": 2.0})


def test_a_pose_outside_the_workspace_raises_convergence_error(robots):
    with pytest.raises(ConvergenceError, match=r"robot 'delta': inverse kinematics: no assembly found"):
        robots["delta"].inverse_kinematics([2.0, 0.0, -1.1])


def test_flexible_forearms_and_gravity_options():
    d = delta(flexible_forearms=6, gravity=(0.0, -9.81, 0.0))
    bars = [limb.joints[1] for limb in d.limbs]
    assert all(j.flexible.elements == 6 and j.flexible.inner_radius > 0 for j in bars)
    assert bars[0].bar_mass == pytest.approx(1550.0 * math.pi * (0.01**2 - 0.008**2) * 1.244)
    assert d.gravity == (0.0, -9.81, 0.0) and delta(flexible_forearms=True).limbs[0].joints[1].flexible.elements == 4
    assert delta().limbs[0].joints[1].flexible is None
    assert all(READY[name](gravity=(0.0, 0.0, -1.62)).gravity == (0.0, 0.0, -1.62) for name in NAMES)


# -- the description file ---------------------------------------------------------------------------------
def test_toml_description_gives_the_ready_functions_kinematics():
    """examples/robots/my_delta.toml read by read_description: the same IK as delta() with its numbers."""
    from_file = ParallelRobot(read_description(MY_DELTA))
    ready = parallel_robot("delta", base_radius=0.2, platform_radius=0.05, arm_length=0.3, forearm_length=0.75,
                           home_z=-0.6, forearm_width=0.08)
    poses = from_file.sample_poses(20, seed=1)
    assert np.abs(from_file.inverse_kinematics(poses) - ready.inverse_kinematics(poses)).max() < 1e-12
    assert np.abs(from_file.forward_kinematics(from_file.inverse_kinematics(poses)) - poses).max() < 1e-9
    heavier = parallel_robot(MY_DELTA, **{"platform.mass": 2.0})
    assert heavier.description.platform.mass == 2.0 and from_file.description.platform.mass == 0.4


def test_descriptions_joint_kinds_per_robot():
    kinds = {name: [j.kind + "*" * j.actuated for j in READY[name]().limbs[0].joints] for name in NAMES}
    assert kinds == {"delta": ["R*", "Pa"], "linear_delta": ["P*", "Pa"], "stewart": ["U", "P*", "S"],
                     "3rrr": ["R*", "R", "R"], "3rps": ["R", "P*", "S"], "3rrru": ["R*", "R", "R", "U"]}
    assert isinstance(READY["3rrr"]().limbs[0].joints[0], Joint)
