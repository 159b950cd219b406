"""Joint reactions of the rigid parallel robots against independent truths.

- Massless Stewart legs are two-force members: every joint of a leg carries the leg force along the leg.
- Static equilibrium of every body (link, Pa bar, platform) of every ready robot from the reported
  reactions and the weights; the free directions of passive joints carry nothing and those of actuated
  joints carry the efforts of :meth:`ParallelRobot.efforts`.
- The constraint multipliers of the rigid natural-coordinate DAE model's servo inverse (another
  formulation, another solver) at the same joints.
"""
import numpy as np
import pytest

from femdyn.robots.parallel import parallel_robot
from femdyn.robots.parallel.chain import point_on_link, point_on_platform
from femdyn.robots.parallel.dynamics import bar_mass, link_inertia

from test_parallel_dynamics import READY, servo_inverse, smooth_path


def test_massless_stewart_legs_carry_the_leg_force_along_the_leg_at_every_joint():
    """Two-force members: at the base U, the P and the platform S joint, force = u e (e from the base joint
    to the platform joint, u the actuator force) and no moment, at rest and in motion (1e-10 of u)."""
    robot = parallel_robot("stewart", leg_mass=0.0)
    rng = np.random.default_rng(2)
    poses = robot.sample_poses(4, seed=9)
    r = robot.reactions(poses, rng.normal(scale=0.3, size=poses.shape), rng.normal(scale=2.0, size=poses.shape))
    scale = np.abs(r.efforts).max()
    for k, limb in enumerate(robot.description.limbs):
        base, top = r.centre[f"{limb.name}.joint0"], r.centre[f"{limb.name}.joint2"]
        e = (top - base) / np.linalg.norm(top - base, axis=1, keepdims=True)
        for j in range(3):
            name = f"{limb.name}.joint{j}"
            np.testing.assert_allclose(r.force[name], r.efforts[:, k, None] * e, atol=1e-10 * scale)
            np.testing.assert_allclose(r.moment[name], 0.0, atol=1e-10 * scale)


def _free_directions(robot, poses, r):
    """Largest |component of a joint's reaction along a freedom − the actuator effort there| (N or N·m)."""
    F = robot.frames(robot.state(poses))
    worst = 0.0
    for i, limb in enumerate(robot.description.limbs):
        chain = robot.chains.limbs[i]
        for j, joint in enumerate(limb.joints[:-1]):
            name, first = f"{limb.name}.joint{j}", chain.screws_before(j)
            for s in range(first, chain.ends[j]):
                load = r.moment[name] if chain.kinds[s] == "R" else r.force[name]
                along = np.einsum("ni,ni->n", load, F.w[i][:, s])
                if chain.first + s in robot.actuators:
                    along = along - r.efforts[:, list(robot.actuators).index(chain.first + s)]
                worst = max(worst, float(np.abs(along).max()))
    return worst


def _imbalance(robot, poses, r):
    """Largest |Σ forces| (N) and |Σ moments about the origin| (N·m) over every body, weights included:
    each body's loads as (force, point, moment) triples from the reported reactions (action on the distal
    body, reaction on the proximal one)."""
    d, g = robot.description, np.array(robot.description.gravity)
    F = robot.frames(robot.state(poses))
    zero = np.zeros((len(poses), 3))
    bodies, platform = [], []
    for i, limb in enumerate(d.limbs):
        chain = robot.chains.limbs[i]
        for j in range(len(limb.links)):
            mass, com, _ = link_inertia(limb, j)
            near, far = f"{limb.name}.joint{j}", f"{limb.name}.joint{j + 1}"
            loads = [(r.force[near], r.centre[near], r.moment[near]),
                     (mass * g + zero, point_on_link(F, robot.chains, i, chain.ends[j], com)[0], zero)]
            if far in r.force:
                loads.append((-r.force[far], r.centre[far], -r.moment[far]))
            bodies.append(loads)
        last = f"{limb.name}.joint{len(limb.joints) - 1}"
        if last in r.force:
            platform.append((r.force[last], r.centre[last], r.moment[last]))
            continue
        arm = bodies[-1]
        for bar in (f"{limb.name}.bar0", f"{limb.name}.bar1"):      # a Pa forearm
            up, down = f"{bar}.upper", f"{bar}.lower"
            A, B = r.centre[up], r.centre[down]
            arm.append((-r.force[up], A, zero))
            bodies.append([(r.force[up], A, zero), (-r.force[down], B, zero),
                           (bar_mass(limb.joints[-1]) * g + zero, 0.5 * (A + B), zero)])
            platform.append((r.force[down], B, zero))
    for mass, x in ((d.platform.mass, d.platform.com), (d.platform.payload, d.platform.tool)):
        platform.append((mass * g + zero, point_on_platform(F, robot.chains, robot.platform_point(x))[0], zero))
    bodies.append(platform)
    force = max(float(np.abs(sum(f for f, _, _ in b)).max()) for b in bodies)
    moment = max(float(np.abs(sum(np.cross(p, f) + m for f, p, m in b)).max()) for b in bodies)
    return force, moment


@pytest.mark.parametrize("name", READY)
def test_every_body_of_every_ready_robot_is_in_static_equilibrium(name):
    """At static poses: Σ F = 0 and Σ M = 0 on every link, bar and the platform to 1e-10 of the largest
    reaction (round-off of sums of O(10) N forces), and the reactions along every joint freedom are the
    efforts (actuated) or 0 (passive), to the same tolerance."""
    robot = parallel_robot(name)
    poses = robot.sample_poses(3, seed=4)
    r = robot.reactions(poses)
    scale = max(float(np.abs(v).max()) for v in r.force.values())
    force, moment = _imbalance(robot, poses, r)
    assert force <= 1e-10 * scale and moment <= 1e-10 * scale
    assert _free_directions(robot, poses, r) <= 1e-10 * scale
    np.testing.assert_allclose(r.efforts, robot.efforts(poses), rtol=1e-12, atol=1e-12 * scale)


@pytest.mark.parametrize("name", READY)
def test_moving_robots_have_zero_free_components_and_the_efforts(name):
    """In motion too, each passive freedom carries nothing and each actuated one the effort (1e-9)."""
    robot = parallel_robot(name)
    ts = np.linspace(0.0, 0.5, 6)
    X, Xd, Xdd = smooth_path(robot, ts)
    r = robot.reactions(X, Xd, Xdd)
    scale = max(float(np.abs(v).max()) for v in r.force.values())
    assert _free_directions(robot, X, r) <= 1e-9 * scale


@pytest.mark.parametrize("name", READY)
def test_reactions_equal_the_servo_dae_multipliers_of_the_rigid_model(name):
    """The force of every R, U, S joint (and each Pa bar's ball joints) against the first three multipliers
    of the same joint in the rigid natural-coordinate model's servo inverse (``force on body_b``;
    generalized-α, h = 1 ms, ρ∞ = 0.5): equal to 1e-8 of the largest force at the start (statics, exact);
    over the smooth task the DAE's O(h²) error, at most 8e-5 of the largest force measured on the six
    robots, bound 5e-4 after the integrator's start transient (10 steps). The 3-RRR is planar and
    overconstrained in space: its out-of-plane reactions are indeterminate (minimum-norm in each model),
    so its in-plane x, y components are compared."""
    robot = parallel_robot(name)
    built, res = servo_inverse(robot)
    r = robot.reactions(*smooth_path(robot, res.t))
    assert r.indeterminate == (name == "3rrr")
    components = slice(0, 2) if name == "3rrr" else slice(0, 3)
    scale = max(float(np.abs(v).max()) for v in r.force.values())
    compared = 0
    for joint, force in r.force.items():
        if built.model.joints[joint].kind not in ("revolute", "universal", "spherical"):
            continue                        # a prismatic joint's rows are not a point coincidence
        error = np.abs(res.multipliers(joint)[:, components] - force[:, components])
        assert error[0].max() <= 1e-8 * scale, joint
        assert error[10:].max() <= 5e-4 * scale, joint
        compared += 1
    assert compared >= len(robot.description.limbs)


def test_the_dae_reactions_converge_to_these_at_second_order():
    """Halving h divides the DAE's reaction error by 4 (measured 4.0: 2.5e-5, 6.4e-6 of the largest force
    at h = 2, 1 ms for the Delta after 50 ms): the difference is the integrator's O(h²) error, nothing else."""
    robot = parallel_robot("delta")
    errors = []
    for h in (2e-3, 1e-3):
        built, res = servo_inverse(robot, h)
        r = robot.reactions(*smooth_path(robot, res.t))
        k = int(round(0.05 / h))
        errors.append(max(np.abs(res.multipliers(j)[k:, :3] - f[k:]).max() for j, f in r.force.items()))
    assert 3.5 < errors[0] / errors[1] < 4.5
