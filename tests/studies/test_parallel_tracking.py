"""The parallel study's tracking experiment on any robot: a rotary Delta (torque drives on the motor angles)
and a linear Delta (force drives on the carriages' strokes, prismatic joints) run a short experiment; the
drives follow the rigid inverse solution to a few encoder counts and the platform follows the task.
Clearance in a ball joint and a revolute starts seated; a clearance name the robot does not have is refused
with its joints listed."""
import pytest

from femdyn.errors import ModelError
from femdyn.schema import config_from_dict
from femdyn.studies.parallel_study import ParallelStudyConfig, run_parallel_study
from femdyn.studies.parallel_tracking import TrackingConfig
from femdyn.studies.tracking_contacts import time_step

SHORT = {"duration": 0.03, "h": 5e-4, "paraview_every": 0, "task": {"kind": "circle", "radius": 0.05, "speed": 0.5}}
# a 10 mm lead screw (628 motor rad per metre) with a 1e-5 kg·m² rotor: 3.9 kg reflected; a 16 Hz, ζ ≈ 0.7 loop
SCREW = {"enabled": True, "kp": 4e4, "ki": 4e5, "kd": 560.0, "gear_ratio": 628.3, "motor_inertia": 1e-5,
         "effort_limit": 500.0, "resolution": 1e-6}


def _run(robot, tracking, output=None):
    config = config_from_dict({"robot": robot, **SHORT, "tracking": tracking}, ParallelStudyConfig)
    return run_parallel_study(config, output)


def test_a_rotary_delta_tracks_a_circle_under_torque_drives(tmp_path):
    """Fed with the rigid inverse of the same (rigid) model, the loops have nothing to correct but the encoder's
    rounding (±δ/2, δ = 2π/2¹⁶ rad) and the feedforward's spline and step error: the joint error stays within
    2 counts, the platform within 10 µm of the task (measured 4e-6 rad, 3.4 µm). A wrong reference (offset or
    sign of the actuator coordinates) would give errors of whole degrees."""
    study = _run("delta", {"enabled": True}, str(tmp_path))
    s, resolution = study["summary"], TrackingConfig().resolution
    assert list(study["tracking"]["runs"]) == ["rigid"]           # no flexible link: one feedforward
    assert 0 < s["tracking_rigid_joint_error_max"] < 2 * resolution
    assert s["tracking_rigid_deviation_max"] < 10e-6
    assert s["tracking_steps"] == round(0.03 / time_step(TrackingConfig())[0])
    assert "stroke_error_max" not in " ".join(s)
    assert (tmp_path / "tracking_drives.png").stat().st_size > 0 and (tmp_path / "tracking.md").stat().st_size > 0
    assert "Tracking experiment" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_a_linear_delta_tracks_a_circle_under_force_drives():
    """The carriages' strokes under force drives (1 µm encoders): within 3 counts, the platform within 5 µm
    (measured 1.9 µm and 0.8 µm)."""
    s = _run("linear_delta", SCREW)["summary"]
    assert 0 < s["tracking_rigid_stroke_error_max"] < 3e-6
    assert s["tracking_rigid_deviation_max"] < 5e-6
    assert "tracking_rigid_joint_error_max" not in s


def test_clearance_in_a_joint_the_robot_does_not_have_is_refused():
    with pytest.raises(ModelError, match=r"tracking.joints: 'arm 0.knee' is not a joint of robot 'delta'; its "
                                         r"joints: \[.*'arm 0.joint0'"):
        _run("delta", {"enabled": True, "clearance": 30e-6, "joints": "arm 0.knee"})


def test_clearance_in_a_ball_joint_and_a_revolute_of_a_delta_starts_seated():
    """20 µm in a forearm bar's upper ball joint (spherical) and another arm's motor bearing (revolute): each
    journal starts on its loaded side, in contact by the Hertz penetration of its load (below 1 µm), not
    dropped across the gap from the centre; the short run has no impacts and the drives still hold."""
    clearance = {"enabled": True, "clearance": 20e-6, "joints": "arm 0.bar0.upper,arm 1.joint0",
                 "journal_radius": 5e-3, "clearance_h": 2.3e-5}
    config = config_from_dict({"robot": "delta", **SHORT, "duration": 0.01, "tracking": clearance},
                              ParallelStudyConfig)
    study = run_parallel_study(config)
    run = study["tracking"]["runs"]["rigid"]
    for joint in ("arm 0.bar0.upper", "arm 1.joint0"):
        assert 20e-6 < run[f"{joint}.eccentricity"][0] < 21e-6 and run[f"{joint}.force"][0] > 1.0
        assert study["tracking"]["contacts"]["rigid"][joint]["verdict"] == "no impacts (stays in contact)"
    assert study["summary"]["tracking_rigid_joint_error_max"] < 2 * TrackingConfig().resolution
