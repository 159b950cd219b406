"""The workspace study: the linearized platform stiffness and frequencies against closed forms, the effort
envelope against sampled accelerations, Dask equal to serial bit for bit, and the command line."""
import json
import math

import numpy as np
import pytest
import scipy.linalg as sla
from dataclasses import replace

from femdyn.cli import main
from femdyn.errors import ModelError, SchemaError
from femdyn.robots.parallel import BeamSpec, ParallelRobot
from femdyn.studies.workspace import (WorkspaceConfig, dexterity, effort_envelope, linear_pose, robot_of,
                                      workspace_map, workspace_slice)
from femdyn.studies.workspace_linear import hold_actuators, linearize, moved
from support.parallel_robots import delta, description_toml, stewart


@pytest.fixture(scope="module")
def delta_file(tmp_path_factory):
    """A Delta with flexible forearms (two cable elements per bar) as a description file."""
    path = tmp_path_factory.mktemp("robots") / "delta.toml"
    path.write_text(description_toml(delta(flex=BeamSpec(elements=2, radius=0.006))))
    return str(path)


def test_stewart_stiffness_is_jacobian_transpose_k_jacobian_and_its_frequencies_the_platform_s():
    """Rigid massless legs held by axial springs k, gravity off, at a pose without rotation (there the
    rotation-vector increments of ``jacobian`` equal the rotation increments of the compliance): the
    linearized femdyn model's K_x equals Jᵀ diag(k) J to round-off (1e-8 relative; 5e-16 seen), and its
    frequencies the eigenvalues of K v = ω² M v with M the platform's 6 × 6 rigid-body mass (com at the
    origin: diag(m, m, m, I)); 1e-7 relative because the massless legs keep 1 µg each (build.MASSLESS)."""
    k = 2.0e6
    d = stewart(leg_mass=(0.0, 0.0), gravity=(0.0, 0.0, 0.0))
    pose = np.array([0.03, -0.02, 0.63, 0.0, 0.0, 0.0])
    result = linear_pose(d, pose, stiffness=k, modes=6)
    assert result["error"] == ""
    J = ParallelRobot(d).jacobian(pose)
    K = k * J.T @ J
    K_femdyn = np.linalg.inv(result["compliance"])
    assert np.abs(K_femdyn - K).max() <= 1e-8 * np.abs(K).max()
    M = sla.block_diag(d.platform.mass * np.eye(3), np.array(d.platform.inertia))
    expected = np.sqrt(sla.eigh(K, M, eigvals_only=True)) / (2 * np.pi)
    np.testing.assert_allclose(result["frequencies"], expected, rtol=1e-7)


def test_delta_forearm_bars_vibrate_as_pinned_pinned_euler_bernoulli_beams():
    """A Delta with flexible forearm bars (ANCF cables, ball joints at both ends), arms locked, under a heavy
    platform (10 t, 100 kg·m²: its six modes stay below 5 Hz and its motion under the bars' end forces is
    negligible): modes 7–18 are the twelve bars' first bending modes (two planes each), f = π/(2L²)·√(EI/ρA),
    modes 19–20 the second ones at 4f. The cubic cable converges as h⁴: error 2.6e-4 with 4 elements, 2.0e-5
    with 8 (tolerance 3e-5: that, and the 1e-6 coupling to the platform); the second mode, 2.6e-4 with 8 (5e-4)."""
    errors = {}
    for elements in (4, 8):
        spec = BeamSpec(elements=elements, radius=0.003)
        d = delta(flex=spec, payload=0.0)
        d = replace(d, platform=replace(d.platform, mass=1.0e4, inertia=np.diag([100.0, 100.0, 100.0]).tolist()))
        f = linear_pose(d, [0.03, -0.02, -0.72], modes=20)["frequencies"]
        EI, rho_a = spec.E * math.pi * spec.radius**4 / 4, spec.density * spec.area
        f1 = math.pi / (2 * 0.8**2) * math.sqrt(EI / rho_a)
        assert f[5] < 5.0 < f1
        errors[elements] = np.abs(f[6:18] / f1 - 1).max()
        second = np.abs(f[18:20] / (4 * f1) - 1).max()
    assert errors[8] < 3e-5 and second < 5e-4
    assert errors[4] / errors[8] > 12          # h⁴: 16 in the limit


def test_locked_actuators_and_stiff_springs_agree():
    """A very stiff actuator spring gives the locked robot's compliance (the lock is the limit k → ∞)."""
    d = delta(flex=BeamSpec(elements=2, radius=0.006)).with_gravity((0.0, 0.0, 0.0))
    locked = linear_pose(d, [0.02, 0.01, -0.75])["compliance"]
    sprung = linear_pose(d, [0.02, 0.01, -0.75], stiffness=1e13)["compliance"]
    assert np.abs(sprung - locked).max() <= 1e-5 * np.abs(locked).max()


def test_the_model_assembled_at_home_and_moved_equals_one_built_at_the_pose():
    """The locked robot's System is assembled once at home and moved to each pose: the moved configuration
    satisfies every joint constraint but the locks (1e-12 m), and the compliance and frequencies equal those of
    a model built and assembled at the pose to 1e-9 (round-off of the two placements)."""
    d = delta(flex=BeamSpec(elements=2, radius=0.006)).with_gravity((0.0, 0.0, 0.0))
    robot = ParallelRobot(d)
    built = hold_actuators(robot.model())
    system = built.model.assemble()
    locks = np.concatenate([system.joint_rows[f"{name}.lock"] for name in built.actuated])
    for pose in ([0.07, -0.04, -0.8], [-0.2, -0.2, -0.7]):
        fresh = linearize(hold_actuators(robot.model(pose)), 4)
        q = moved(robot, built, system, pose)
        phi = system.constraints.evaluate(q, 0.0)[0]
        assert np.abs(np.delete(phi, locks)).max() < 1e-12 and np.abs(phi[locks]).max() > 1e-2
        again = linearize(built, 4, system=system, q=q)
        assert np.abs(again.compliance - fresh.compliance).max() <= 1e-9 * np.abs(fresh.compliance).max()
        np.testing.assert_allclose(again.frequencies, fresh.frequencies, rtol=1e-9)
    with pytest.raises(ModelError, match="nodes differ"):
        moved(ParallelRobot(delta(flex=BeamSpec(elements=3))), built, system, [0.0, 0.0, -0.7])


def test_the_effort_envelope_bounds_every_sampled_acceleration_and_is_reached():
    """|u_i(a)| over 2000 random accelerations on the ellipsoid stays below the envelope, and the acceleration
    of the ellipsoid along S A_iᵀ (A from unit accelerations) reaches it (the dynamics are affine in a at rest)."""
    robot = ParallelRobot(stewart())
    pose = np.array([[0.01, 0.02, 0.6, 0.05, -0.03, 0.1]])
    S = np.diag([5.0, 5.0, 5.0, 2.0, 2.0, 2.0])
    static, envelope = effort_envelope(robot, pose, 5.0, 2.0)
    rng = np.random.default_rng(1)
    a = rng.normal(size=(2000, 6))
    a = a / np.linalg.norm(a, axis=1)[:, None] @ S
    u = robot.efforts(np.repeat(pose, len(a), axis=0), None, a)
    assert np.all(np.abs(u) <= envelope + 1e-9 * np.abs(envelope).max())
    A = np.column_stack([robot.efforts(pose[0], None, e) - static[0] for e in np.eye(6)])
    for i in range(6):
        d = np.sign(static[0, i]) * S @ A[i] / np.linalg.norm(S @ A[i])
        assert abs(robot.efforts(pose[0], None, S @ d)[i]) == pytest.approx(envelope[0, i], rel=1e-9)
    np.testing.assert_array_equal(static[0], robot.efforts(pose[0]))


def test_dexterity_homogenizes_rotations_by_the_characteristic_length():
    """Scaling L scales the rotational columns: κ equals the condition number of J diag(1, 1, 1, 1/L, …)."""
    robot = ParallelRobot(stewart())
    pose = np.array([[0.0, 0.01, 0.62, 0.02, 0.0, -0.05]])
    J = robot.jacobian(pose[0])
    for L in (0.1, 0.3):
        condition, smallest, largest = dexterity(robot, pose, L)
        s = np.linalg.svd(J @ np.diag([1, 1, 1, 1 / L, 1 / L, 1 / L]), compute_uv=False)
        assert condition[0] == pytest.approx(s[0] / s[-1], rel=1e-12) and smallest[0] == pytest.approx(s[-1])


def test_bad_settings_are_named(delta_file):
    robot = robot_of(WorkspaceConfig(robot=delta_file))
    with pytest.raises(SchemaError, match="axes must name two distinct task coordinates"):
        workspace_slice(robot, WorkspaceConfig(robot=delta_file, axes=["x", "rz"]))
    with pytest.raises(SchemaError, match=r"bounds must be \[\[low, high\]"):
        workspace_slice(robot, WorkspaceConfig(robot=delta_file, bounds=[[0.1, -0.1], [0, 1]]))
    with pytest.raises(SchemaError, match="fixed sets"):
        workspace_slice(robot, WorkspaceConfig(robot=delta_file, fixed={"rx": 0.1}))
    with pytest.raises(ModelError, match="actuator_stiffness must be positive"):
        hold_actuators(robot.model(), stiffness=-1.0)


def test_the_slice_holds_the_other_coordinates_and_unreachable_poses_are_blank(delta_file):
    config = WorkspaceConfig(robot=delta_file, axes=["x", "z"], bounds=[[-0.3, 0.3], [-1.2, -0.6]], n=4,
                             fixed={"y": 0.05}, linear=False)
    result = workspace_map(config)
    poses = result["slice"].poses
    assert np.all(poses[:, 1] == 0.05) and poses[1, 2] == -1.0 and poses[4, 0] == -0.1
    ok = result["reachable"]
    assert ok.any() and not ok.all()                  # z = −1.2 m is beyond the arms' reach
    assert np.all(np.isnan(result["condition"][~ok])) and np.all(np.isfinite(result["condition"][ok]))


def test_dask_local_cluster_equals_serial_bit_for_bit(delta_file):
    pytest.importorskip("distributed", reason="install dask[distributed] (a femdyn dependency) for the Dask test")
    from femdyn.studies.sweep import dask_executor
    config = WorkspaceConfig(robot=delta_file, n=2, bounds=[[-0.1, 0.1], [-0.1, 0.1]], modes=2)
    serial = workspace_map(config)
    with dask_executor(n_workers=2) as executor:
        parallel = workspace_map(config, executor)
    for key in ("reachable", "condition", "static", "envelope", "compliance", "frequencies"):
        assert np.array_equal(serial[key], parallel[key], equal_nan=True), key
    assert np.all(np.isfinite(serial["frequencies"])) and list(serial["errors"]) == [""] * 4


def test_command_line_writes_the_maps_table_summary_and_report(delta_file, tmp_path, capsys, monkeypatch):
    """``femdyn study workspace --robot FILE -o DIR`` end to end; the executor is a thread pool standing in for
    the local cluster (the Dask test above covers Dask itself) so that no cluster starts here."""
    import concurrent.futures
    import contextlib
    import femdyn.studies.sweep as sweep
    asked = []

    @contextlib.contextmanager
    def pool(scheduler=None, n_workers=None, timeout=None):
        asked.append((scheduler, n_workers))
        with concurrent.futures.ThreadPoolExecutor(1) as executor:
            yield executor

    monkeypatch.setattr(sweep, "dask_executor", pool)
    config = tmp_path / "workspace.toml"
    config.write_text("n = 3\nmodes = 1\nbounds = [[-0.1, 0.1], [-0.1, 0.1]]\nactuator_stiffness = 1e4\n")
    out = tmp_path / "out"
    assert main(["study", "workspace", str(config), "--robot", delta_file, "-o", str(out), "--quiet",
                 "--workers", "1"]) == 0
    assert "reachable_fraction = 1.0" in capsys.readouterr().out and asked == [(None, 1)]
    names = {p.name for p in out.iterdir()}
    assert {"workspace.csv", "summary.json", "report.html", "reachable.png", "condition.png",
            "effort_envelope.png", "translational_stiffness.png", "rotational_stiffness.png",
            "first_frequency.png"} <= names
    rows = (out / "workspace.csv").read_text().splitlines()
    assert len(rows) == 10 and rows[0].startswith("x [m],y [m],z [m],reachable [-]")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["poses"] == 9 and summary["actuators"] == "springs of 10000"
    assert summary["translational_stiffness_min_N_per_m"] > 0 and summary["first_frequency_min_Hz"] > 0
    assert "data:image/png;base64," in (out / "report.html").read_text()


def test_a_rigid_robot_with_locked_actuators_gets_no_empty_stiffness_maps(tmp_path):
    """Rigid links and locked actuators: infinitely stiff, no modes. No blank map with a meaningless colour
    bar is drawn; the summary says why and what to set."""
    from femdyn.studies.workspace_outputs import map_figures, summary_of
    path = tmp_path / "stewart.toml"
    path.write_text(description_toml(stewart()))
    config = WorkspaceConfig(robot=str(path), n=2, bounds=[[-0.02, 0.02], [-0.02, 0.02]], modes=1)
    result = workspace_map(config)
    summary = summary_of(result, config)
    assert summary["reachable_fraction"] == 1.0 and summary["translational_stiffness_min_N_per_m"] is None
    figures = map_figures(result, config)
    assert {"reachable", "condition", "effort_envelope"} <= set(figures)
    assert not {"translational_stiffness", "rotational_stiffness", "first_frequency"} & set(figures)
    assert "set actuator_stiffness or give it flexible links" in summary["not_mapped"]
