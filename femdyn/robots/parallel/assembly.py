"""Assembly modes: every platform pose a parallel robot can take for the same actuator coordinates.

Forward kinematics (:meth:`ParallelRobot.forward_kinematics`) follows one branch, the one connected to
home. Here the closure F(Z) = 0 is solved with the actuated joints locked from many starts (multi-start
Gauss–Newton, :func:`.kinematics.solve_closure`): passive revolute coordinates drawn over (−π, π], the
task position over the workspace bounds widened to the robot's size on every side (so that mirror
assemblies above the base are reached), task rotations within π/2, the other coordinates at home. The
converged states are verified (closure residual, and inverse kinematics from the found state returns the
actuators) and deduplicated on the platform's position and rotation matrix (not the rotation vector,
which is not unique).
"""
from dataclasses import dataclass

import numpy as np

from .chain import closure, rotation
from .kinematics import solve_closure

SAME = 1e-7            # poses closer than this (m, and rotation-matrix entries) are one assembly mode
VERIFIED = 1e-9        # accepted closure residual and inverse-kinematics error (m, rad)


@dataclass
class AssemblyModes:
    """The distinct assembly modes found for one set of actuator coordinates.

    Parameters
    ----------
    actuators : (n_act,) ndarray
        The actuator coordinates, rad or m.
    poses : (m, n_task) ndarray
        Each mode's task pose (m, rad), sorted by distance from the home pose.
    platform : (m, 6) ndarray
        Each mode's whole platform pose (x, y, z, rx, ry, rz): m, rotation vector in rad.
    states : (m, n) ndarray
        Each mode's closure coordinates Z = (θ, pose).
    residual : (m,) ndarray
        Each mode's largest closure residual, m (or dimensionless for axis rows).
    home : int or None
        Index of the mode forward kinematics returns (the branch connected to home), None if it
        returns none.
    starts : int
        Number of starts tried.

    Examples
    --------
    >>> from femdyn.robots.parallel import parallel_robot
    >>> robot = parallel_robot("delta")
    >>> modes = robot.assembly_modes(robot.inverse_kinematics([0.05, 0.0, -1.0]))
    >>> len(modes.poses), modes.home
    (2, 0)
    """

    actuators: np.ndarray
    poses: np.ndarray
    platform: np.ndarray
    states: np.ndarray
    residual: np.ndarray
    home: int
    starts: int


def _starts(robot, count, seed):
    """``count`` starting states with the actuators unset: random passive angles and poses (module docstring)."""
    rng = np.random.default_rng(seed)
    Z = np.tile(robot.home, (count, 1))
    for chain in robot.chains.limbs:
        for s, kind in enumerate(chain.kinds):
            if kind == "R":
                Z[:, chain.first + s] = rng.uniform(-np.pi, np.pi, count)
    bounds = robot.workspace_bounds()
    centre, half = bounds.mean(axis=1), 0.5 * (bounds[:, 1] - bounds[:, 0])
    positions = np.array([c in "xyz" for c in robot.description.task])
    size = float(np.abs(robot.home[-6:-3]).max() + np.max(half[positions], initial=0.0))   # the robot's size
    for k, (coordinate, column) in enumerate(zip(robot.description.task, robot.task)):
        reach = size + half[k] if coordinate in "xyz" else np.pi / 2
        Z[:, column] = rng.uniform(centre[k] - reach, centre[k] + reach, count)
    return Z


def _distinct(robot, Z):
    """Indices of the rows of Z with distinct platform poses (position and rotation matrix)."""
    key = np.hstack([Z[:, -6:-3], rotation(Z[:, -3:]).reshape(len(Z), 9)])
    kept = []
    for k in range(len(Z)):
        if all(np.abs(key[k] - key[j]).max() > SAME for j in kept):
            kept.append(k)
    return np.array(kept, int)


def assembly_modes(robot, actuators, starts=256, seed=0):
    """The :class:`AssemblyModes` of a robot for one set of actuator coordinates (module docstring).

    Parameters
    ----------
    robot : ParallelRobot
    actuators : (n_act,) ndarray
        rad, m.
    starts : int
        Number of random starts (more find rarer modes; each is one Gauss–Newton solve in the batch).
    seed : int
        Seed of numpy's default generator (the same seed gives the same modes).

    Returns
    -------
    AssemblyModes
    """
    a = np.asarray(actuators, float)
    Z = _starts(robot, int(starts), seed)
    Z[:, robot.actuators] = a - robot.offsets
    free = np.ones(robot.chains.n, bool)
    free[robot.actuators] = False
    Z, done = solve_closure(robot.chains, Z, free)
    Z = Z[done]
    if len(Z):
        again, ok = solve_closure(robot.chains, Z, ~robot.task_mask)     # inverse kinematics from the found state
        ok &= np.abs(again[:, robot.actuators] + robot.offsets - a).max(axis=1, initial=0.0) < VERIFIED
        Z = Z[ok]
    Z = Z[_distinct(robot, Z)] if len(Z) else Z
    order = np.argsort(np.linalg.norm(Z[:, robot.task] - robot.home[robot.task], axis=1))
    Z = Z[order]
    residual = np.abs(closure(robot.chains, Z)[0]).max(axis=1, initial=0.0) if len(Z) else np.zeros(0)
    return AssemblyModes(a, Z[:, robot.task], Z[:, -6:], Z, residual, _home_index(robot, a, Z), int(starts))


def _home_index(robot, a, Z):
    """Index of the row of Z that forward kinematics from home reaches, or None."""
    fixed = np.tile(robot.home, (1, 1))
    fixed[:, robot.actuators] = a - robot.offsets
    free = np.ones(robot.chains.n, bool)
    free[robot.actuators] = False
    home, done = solve_closure(robot.chains, fixed, free)
    if not done[0] or not len(Z):
        return None
    k = int(np.argmin(np.abs(Z[:, -6:] - home[0, -6:]).max(axis=1)))
    return k if np.abs(Z[k, -6:] - home[0, -6:]).max() < 1e-6 else None
