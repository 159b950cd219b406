"""The 3-RRRU runs' channels on femdyn.robots.rrru's hand-made model as arrays, shared by the rigid runs
(:mod:`.rrru`), the tracking experiment and the inverse comparison: one row per sample,
one column per limb or coordinate; SI units, angles in rad."""
import numpy as np


def motor_torques(results):
    """Motor torques (N·m), one column per limb: the ``actuator {i}.torque`` channels."""
    return np.column_stack([results[f"actuator {i}.torque"] for i in range(3)])


def motor_angles(results):
    """Active joint angles θ1 (rad), one column per limb: the ``motor {i}.angle`` channels."""
    return np.column_stack([results[f"motor {i}.angle"] for i in range(3)])


def platform_positions(results):
    """Platform-centre positions (m, global frame): the ``P.x``, ``P.y``, ``P.z`` channels."""
    return np.column_stack([results[f"P.{c}"] for c in "xyz"])


def commanded_positions(results, motion):
    """The commanded platform-centre positions (m) at the run's samples."""
    return np.array([motion.position(t) for t in results.t])


def tracking_error(results, motion):
    """Distance (m) of the platform centre from its commanded position, per sample."""
    return np.linalg.norm(platform_positions(results) - commanded_positions(results, motion), axis=1)


def platform_tilt(results, system, q_reference=None):
    """Angle (rad) of the platform normal from its direction in ``q_reference`` (by default
    the rigid robot's, global z) at each sample."""
    n = system.nodes["platform.n"]
    reference = np.array([0.0, 0.0, 1.0]) if q_reference is None else q_reference[n.dofs]
    cosine = results.q[:, n.dofs] @ reference / np.linalg.norm(reference)
    return np.arccos(np.clip(cosine, -1.0, 1.0))


def resampled(results, t, values):
    """Samples of a run's channel matrix (rows at ``results.t``) at other times, linearly."""
    return np.column_stack([np.interp(t, results.t, values[:, k]) for k in range(values.shape[1])])


def gauge_channels(results):
    """The names of the run's gauge channels (``gauge {limb}.{k}.strain``)."""
    return [c for c in results.sensor_columns if c.startswith("gauge ")]
