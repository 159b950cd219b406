"""Assembly modes of the parallel robots against independent solution sets.

- Delta: the platform lies where three spheres meet (centres: the elbows less each limb's platform offset,
  radii: the bars' length), two points in closed form (trilateration); both are found.
- 3-RRR: with the actuated angles fixed, the elbows are fixed and the platform's three points each lie on a
  circle about an elbow; for a platform angle φ two circle equations less the first are linear in (x, y),
  leaving one scalar equation in φ, whose roots are bracketed on a fine grid and refined (Brent): the
  complete real solution set, against which the modes found are compared, count and values.
- Every mode: closure residual ≤ 1e-9 and inverse kinematics from it returns the actuators to 1e-9.
"""
import numpy as np
import pytest
from scipy.optimize import brentq

from femdyn.errors import ModelError
from femdyn.robots.parallel import parallel_robot


def _trilaterate(centres, radius):
    """The two points at distance ``radius`` from three centres (3, 3), by the classical construction."""
    p1, p2, p3 = centres
    ex = (p2 - p1) / np.linalg.norm(p2 - p1)
    i = ex @ (p3 - p1)
    ey = (p3 - p1 - i * ex) / np.linalg.norm(p3 - p1 - i * ex)
    ez = np.cross(ex, ey)
    d, j = np.linalg.norm(p2 - p1), ey @ (p3 - p1)
    x = d / 2                                   # equal radii: r1² − r2² = 0
    y = (i * i + j * j) / (2 * j) - i * x / j
    z = np.sqrt(radius**2 - x * x - y * y)
    return np.array([p1 + x * ex + y * ey + s * z * ez for s in (1.0, -1.0)])


def test_the_delta_has_the_two_three_sphere_solutions_and_home_is_the_lower_one():
    """Sphere centres from the description alone: elbow B = A + L (cos θ e_r − sin θ e_z) (the catalogue's
    actuator convention), less the platform offset of the limb; both intersections found to 1e-9 m."""
    robot = parallel_robot("delta")
    d = robot.description
    home = np.array(d.platform.home[:3])
    for pose in robot.sample_poses(3, seed=8):
        a = robot.inverse_kinematics(pose)
        centres, radius = [], None
        for limb, theta in zip(d.limbs, a):
            A, E, C = (np.array(v, float) for v in (limb.joints[0].point, limb.joints[1].point, limb.joints[1].end))
            e_r = np.array([A[0], A[1], 0.0]) / np.hypot(A[0], A[1])
            L = np.linalg.norm(E - A)
            elbow = A + L * (np.cos(theta) * e_r - np.sin(theta) * np.array([0.0, 0.0, 1.0]))
            centres.append(elbow - (C - home))
            radius = np.linalg.norm(C - E)
        expected = _trilaterate(np.array(centres), radius)
        modes = robot.assembly_modes(a)
        assert len(modes.poses) == 2
        for point in expected:
            assert np.abs(modes.poses - point).max(axis=1).min() < 1e-9
        np.testing.assert_allclose(modes.poses[modes.home], pose, atol=1e-9)
        assert modes.poses[modes.home][2] < 0 < modes.poses[1 - modes.home][2]    # below / above the base


def _rrr_solutions(robot, a):
    """All (x, y, φ) of the 3-RRR platform for actuator angles a, by the scalar equation in φ (module doc)."""
    d = robot.description
    elbows, offsets, lengths = [], [], []
    for limb, angle in zip(d.limbs, a):
        A, E, C = (np.array(limb.joints[k].point[:2], float) for k in range(3))
        elbows.append(A + np.linalg.norm(E - A) * np.array([np.cos(angle), np.sin(angle)]))
        offsets.append(C - np.array(d.platform.home[:2]))
        lengths.append(np.linalg.norm(C - E))
    elbows, offsets, phi0 = np.array(elbows), np.array(offsets), d.platform.home[5]

    def position(phi):
        c, s = np.cos(phi - phi0), np.sin(phi - phi0)
        D = offsets @ np.array([[c, s], [-s, c]]) - elbows      # R c_i − B_i
        M = 2 * (D[1:] - D[0])
        rhs = -(np.sum(D[1:]**2, axis=1) - np.sum(D[0]**2)) + np.array(lengths[1:])**2 - lengths[0]**2
        p = np.linalg.solve(M, rhs)
        return p, np.sum((p + D[0])**2) - lengths[0]**2

    grid = np.linspace(-np.pi, np.pi, 20001)
    values = np.array([position(phi)[1] for phi in grid])
    roots = [brentq(lambda phi: position(phi)[1], grid[k], grid[k + 1], xtol=1e-15)
             for k in np.flatnonzero(np.sign(values[:-1]) != np.sign(values[1:]))]
    return np.array([[*position(phi)[0], phi] for phi in roots])


@pytest.mark.parametrize("a", [None, (-3.1097, -1.3789, 2.1101), (-3.4317, -1.0511, 2.916)])
def test_the_3rrr_modes_are_the_complete_independent_solution_set(a):
    """Count and values equal the scalar-equation roots (x, y to 1e-9 m, φ to 1e-9 rad modulo 2π): two
    modes near home, four for the second set of actuator angles, none (no assembly) for the third."""
    robot = parallel_robot("3rrr")
    a = robot.inverse_kinematics(robot.sample_poses(1, seed=0)[0]) if a is None else np.array(a)
    expected = _rrr_solutions(robot, a)
    modes = robot.assembly_modes(a, starts=512)
    assert len(modes.poses) == len(expected)
    for x, y, phi in expected:
        gap = np.abs(modes.poses[:, :2] - [x, y]).max(axis=1)
        turn = np.abs(np.angle(np.exp(1j * (modes.poses[:, 2] - phi))))
        assert np.min(np.maximum(gap, turn)) < 1e-9
    assert len(expected) in (0, 2, 4) and (modes.home is None) == (len(expected) == 0)


@pytest.mark.parametrize("name", ["delta", "linear_delta", "stewart", "3rrr", "3rps", "3rrru"])
def test_every_mode_closes_and_inverse_kinematics_returns_the_actuators(name):
    """Residual ≤ 1e-9; IK from each mode's state gives back the actuators (1e-9); home's mode is FK's."""
    robot = parallel_robot(name)
    pose = robot.sample_poses(1, seed=6)[0]
    a = robot.inverse_kinematics(pose)
    modes = robot.assembly_modes(a, starts=128, seed=1)
    assert len(modes.poses) >= 1 and modes.residual.max() <= 1e-9
    for state, p in zip(modes.states, modes.poses):
        again = robot.state(p, guess=state)
        np.testing.assert_allclose(again[robot.actuators] + robot.offsets, a, atol=1e-9)
    np.testing.assert_allclose(modes.poses[modes.home], robot.forward_kinematics(a), atol=1e-9)
    again = robot.assembly_modes(a, starts=128, seed=1)
    np.testing.assert_array_equal(again.poses, modes.poses)


def test_assembly_modes_refuses_bad_input():
    robot = parallel_robot("delta")
    with pytest.raises(ModelError, match="3 finite values"):
        robot.assembly_modes([0.1, 0.2])
    with pytest.raises(ModelError, match="starts"):
        robot.assembly_modes([0.1, 0.2, 0.3], starts=0)
