"""What the parallel-robot study measures on its runs, for any robot: the platform's tilt from the task's orientation, the deviation per task direction, the mid-link
deformation, shear and strain of every flexible link, and the phases of the task.

Every quantity is named by what it is (per actuator index, per flexible set of the description), SI units,
angles of the platform in degrees. The study (:mod:`.parallel_study`) adds the sensors with
:func:`shear_sensors` and reads the runs with the other functions.
"""
import numpy as np

from ..robots.parallel.chain import rotation

CRUISE = 1e-6       # relative distance from the task's top speed within which a sample is at cruise


def shear_sensors(built):
    """Add to a built model (not yet assembled) a shear sensor at the middle of every flexible set that reports
    shear (``shear SET.gamma_y``, ``.gamma_z``), read by :func:`shear_angles`.

    Parameters
    ----------
    built : RobotModel
        :meth:`~femdyn.robots.parallel.ParallelRobot.model`'s result.
    """
    m = built.model
    for name in built.flexible:
        beam = m.element_set(name)
        if "shear" in beam.kernel.sensor_quantities:
            m.sensor_beam(f"shear {name}", name, beam.count // 2, 0.0 if beam.count % 2 == 0 else 0.5, "shear")


def commanded_frames(robot, poses):
    """The platform's orientation the task commands (the rigid robot's at each pose), (samples, 3, 3):
    the columns are the platform's frame vectors, the third its normal for a planar platform.

    Parameters
    ----------
    robot : ParallelRobot
    poses : (samples, n_task) ndarray
        Task poses.
    """
    Z = np.atleast_2d(robot.state(poses))
    return rotation(Z[:, -3:])


def platform_normals(results, system):
    """The platform's third axis in a run, (samples, 3): its frame vector ``platform.e2``."""
    return results.q[:, system.nodes["platform.e2"].dofs]


def angle_between(a, b):
    """Angle (deg) between two rows of vectors, row by row."""
    cosine = np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))
    return np.degrees(np.arccos(np.clip(cosine, -1.0, 1.0)))


def cruise(motion, t, samples=4001):
    """Whether each time lies in a constant-speed phase of the task (speed within :data:`CRUISE` of the
    top speed of the whole task, found on ``samples`` times from its start to its end)."""
    def speed(times):
        return np.linalg.norm(motion.sampled(np.asarray(times, float))[1], axis=1)
    top = speed(np.linspace(0.0, motion.end, samples)).max(initial=0.0)
    return speed(t) >= (1.0 - CRUISE) * top if top > 0 else np.zeros(len(t), bool)


def mid_deflections(results, system, sets):
    """Largest distance (m) of each flexible set's middle node from its chord (the line of its end nodes),
    over the run: set name → m.

    Parameters
    ----------
    results : Results
    system : System
    sets : dict
        Flexible set name → element count (or anything with ``elements``).
    """
    out = {}
    for name, spec in sets.items():
        n = spec.elements
        a, b, c = (system.nodes[f"{name}.{k}"].start for k in (0, n // 2, n))
        ra, rm, rb = (results.q[:, s:s + 3] for s in (a, b, c))
        chord = (rb - ra) / np.linalg.norm(rb - ra, axis=1, keepdims=True)
        offset = rm - ra
        out[name] = float(np.linalg.norm(offset - chord * np.sum(offset * chord, axis=1, keepdims=True),
                                         axis=1).max())
    return out


def shear_angles(results):
    """Largest shear angle (deg) at mid-link over the run, per flexible set with a shear sensor."""
    out = {}
    for column in results.sensor_columns:
        if column.startswith("shear ") and column.endswith((".gamma_y", ".gamma_z")):
            name = column[len("shear "):-len(".gamma_y")]
            out[name] = max(out.get(name, 0.0), float(np.degrees(np.abs(results[column]).max())))
    return out


def gauge_peaks(results):
    """Largest and smallest strain of every gauge of a run: gauge name → [max, min]."""
    return {name[:-len(".strain")]: [float(results[name].max()), float(results[name].min())]
            for name in results.sensor_columns if name.startswith("gauge ") and name.endswith(".strain")}
