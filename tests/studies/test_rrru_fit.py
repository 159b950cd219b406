"""Reconstructing the 3-RRRU robot's lost data: the sensitivities by central differences
against the statics they must reproduce, a seeded fit that gives the same result on a Dask
cluster of worker processes and on threads, unreachable settings as penalties, and the
sweep and fit files' checks.
"""
import math
import re
import tomllib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from femdyn.cli import main
from femdyn.errors import ModelError
from femdyn.studies.sweep_file import read_sweep, sweep_from_dict
from femdyn.identification.estimators import global_fit
from femdyn.robots.parallel import parallel_robot
from femdyn.robots.rrru import RRRUGeometry
from femdyn.studies.rrru_preset import RRRUStudyConfig
from femdyn.studies.rrru_figures import FLEXIBLE_FIGURES, check_reachable, flexible_case, misfit, rigid_case, within
from femdyn.studies.rrru_fit import PENALTY, FitResiduals, fit, fit_config, residual_table, write_fit
from femdyn.studies.sensitivity import central_cases, run_sensitivities
from femdyn.studies.sweep import ExecutorMap

# A small fit: two unknowns, 5 members (scipy's least), 2 generations (10 cases), the rigid run at h = 0.02 s
# (76 samples of the circle: the generic 3rrru robot's efforts, well under 0.1 s a case)
SMALL = {"base": {"h": 0.02}, "bounds": {"parameters.link1_mass": [0.5, 4.0], "parameters.platform_mass": [0.2, 3.0]},
         "popsize": 2, "maxiter": 1, "seed": 3}
MASSES = ("parameters.link1_mass", "parameters.link2_mass", "parameters.platform_mass", "parameters.density")


@pytest.fixture(scope="module")
def thread_fit():
    with ThreadPoolExecutor(2) as pool:
        return fit(SMALL, pool)


def test_the_seeded_fit_is_the_same_on_a_dask_cluster_and_on_threads(thread_fit):
    """Each case rebuilds its model from plain settings with one BLAS thread and the
    generation's costs come back in order: the optimizer sees the same numbers."""
    try:
        from distributed import Client, LocalCluster
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    except Exception as err:             # no sockets, no spawn: nothing to compare with
        pytest.skip(f"dask.distributed cannot start a local cluster here: {type(err).__name__}: {err}")
    with cluster, Client(cluster) as client:
        dask = fit(SMALL, client.get_executor())
    assert dask.best == thread_fit.best and dask.history == thread_fit.history and dask.cost == thread_fit.cost
    assert dask.figures_best == thread_fit.figures_best
    assert dask.evaluations == thread_fit.evaluations == 10


def test_the_fit_reports_every_figure_and_writes_its_outputs(thread_fit, tmp_path):
    assert set(thread_fit.best) == set(SMALL["bounds"]) and thread_fit.error == ""
    assert all(SMALL["bounds"][k][0] <= v <= SMALL["bounds"][k][1] for k, v in thread_fit.best.items())
    assert thread_fit.history == sorted(thread_fit.history, reverse=True)      # the best cost never rises
    table = residual_table(thread_fit)
    for name in ("torque_peak_largest", "torque_peak_smallest", "angle_max_deg", "angle_max_up_deg",
                 "angle_excursion_deg", "torque_max"):
        assert f"| {name}" in table
    paths = write_fit(thread_fit, str(tmp_path))
    assert all((tmp_path / p.split("/")[-1]).stat().st_size > 0 for p in paths)
    assert (tmp_path / "history.csv").read_text().count("\n") == len(thread_fit.history) + 1


def test_mass_sensitivities_of_the_holding_torque_match_the_statics(tmp_path):
    """At rest (t = 0 of the S-curve) the motor torque is the gravity torque, linear and
    homogeneous in the masses at the fixed pose: τ = Σ c_k m_k. So d ln τ / d ln m_k =
    c_k m_k / τ, with c_k m_k = τ(2 m_k) − τ(m_k) from two rigid static efforts of the
    3rrru robot at the circle's start (no motion, no time sampling), and the four sensitivities
    add up to 1 (Euler's theorem). The central difference in logarithms at ±1 % is exact
    to O(δ²) ≈ 1e-4."""
    defaults = RRRUStudyConfig().parameters
    values = {key: defaults[key.split(".")[1]] for key in MASSES}
    start = RRRUStudyConfig().task.start
    with ThreadPoolExecutor(2) as pool:
        out = run_sensitivities(rigid_case, {"h": 0.02}, values, ["torque_start_1"], str(tmp_path), pool, step=0.01)
    S = out["S"][0]
    tau = parallel_robot("3rrru", **defaults).efforts(start)[0]
    for j, key in enumerate(MASSES):
        name = key.split(".")[1]
        exact = (parallel_robot("3rrru", **{**defaults, name: 2 * values[key]}).efforts(start)[0] - tau) / tau
        assert S[j] == pytest.approx(exact, abs=2e-4), key
    assert S.sum() == pytest.approx(1.0, abs=5e-4)
    assert (tmp_path / "sensitivities.png").stat().st_size > 0 and "torque_start_1" in out["table"]


def test_an_unreachable_setting_is_a_penalty_not_a_crash():
    f = FitResiduals(rigid_case, {"h": 0.02}, ["parameters.link3_length"], ["torque_peak_largest"], {}, 0.1, [0.815])
    assert f([0.3]).tolist() == [PENALTY, PENALTY]
    with pytest.raises(ModelError, match="out of reach of limb 0"):
        check_reachable(parallel_robot("3rrru", link3_length=0.3), np.array([[0.1, 0.0, -0.8]]))


def test_a_pose_near_a_singularity_is_refused():
    """The default robot's circle keeps 1/cond(J) ≥ 0.40 (rigid_case's singularity_margin); a margin above
    it refuses the circle, naming the pose."""
    robot, poses = parallel_robot("3rrru"), np.array([[0.1, 0.0, -0.8], [0.0, 0.1, -0.8]])
    margin = check_reachable(robot, poses)
    assert margin == pytest.approx(rigid_case({"h": 0.02})["singularity_margin"], rel=0.05)
    with pytest.raises(ModelError, match="of a singularity"):
        check_reachable(robot, poses, margin=1.01 * margin)


def test_the_flexible_case_reports_the_papers_flexible_figures():
    """20 ms of the study with 2 elements per link (about 3 s): every figure the paper
    reports for the flexible robot is computed and finite (the cruise has not begun: 0)."""
    f = flexible_case({"duration": 0.02, "parameters": {"elements": 2}, "paraview_every": 0})
    assert set(FLEXIBLE_FIGURES) <= set(f) and all(math.isfinite(f[k]) for k in FLEXIBLE_FIGURES)
    assert f["tilt_cruise_deg"] == 0.0 and 0 < f["mid_link_deformation"] < 0.05
    assert f["inverse_torque_peak_largest"] < 0 and "torque_peak_largest" in f


def test_global_fit_gives_the_same_result_with_workers_as_without():
    def f(th):
        return np.array([th[0] ** 2, th[0] * th[1], th[1]])
    y = f(np.array([2.0, 3.0]))
    serial = global_fit(f, y, [(0.1, 5), (0.1, 5)], seed=1, maxiter=20, popsize=5, polish=False)
    with ThreadPoolExecutor(2) as pool:
        workers = ExecutorMap(pool)
        parallel = global_fit(f, y, [(0.1, 5), (0.1, 5)], seed=1, maxiter=20, popsize=5, polish=False,
                              workers=workers)
    assert np.array_equal(serial.x, parallel.x) and serial.history == parallel.history
    assert workers.evaluations == 10 * len(parallel.history)     # 10 members a generation, the first one included


def test_misfit_and_agreement():
    figures = {"torque_peak_largest": -11.1 * math.e, "angle_max_deg": -1.0, "tilt_cruise_deg": 0.4}
    r = misfit(figures, ["torque_peak_largest", "angle_max_deg", "tilt_cruise_deg"], {"torque_peak_largest": 2.0})
    assert r == pytest.approx([2.0, math.log(1e-3), 0.0])
    assert within("torque_peak_smallest", -9.2) and not within("torque_peak_smallest", -9.4)
    assert within("tilt_cruise_deg", 0.9) and not within("tilt_cruise_deg", 1.1)       # a bound, factor 2
    with pytest.raises(ModelError, match="reports no figure 'torque'"):
        misfit({"torque": 1.0}, ["torque"])


def test_central_cases():
    assert central_cases({"h": 0.01, "n_elements": 2}, 0.05) == [{"h": 0.0105}, {"h": 0.0095}, {"n_elements": 3},
                                                                {"n_elements": 1}]
    with pytest.raises(ModelError, match="parameters.damping = 0.0 has no logarithm"):
        central_cases({"parameters.damping": 0.0})


def test_the_sensitivity_sweep_file_gives_the_central_cases():
    sweep = read_sweep("examples/rrru_sensitivity.toml", RRRUStudyConfig)
    assert sweep.kind == "sensitivity" and sweep.step == 0.05 and len(sweep.cases) == 2 * len(sweep.parameters)
    assert sweep.parameters["parameters.link1_length"] == 0.35
    assert sweep.cases[0] == {"parameters.link1_length": 0.35 * 1.05}
    assert "torque_peak_largest" in sweep.figures


def test_the_example_fit_file_fits_both_readings_of_the_angle():
    from femdyn.schema import read_toml
    config = fit_config(read_toml("examples/rrru_fit_both_angle_readings.toml"))
    assert {"angle_max_deg", "angle_max_up_deg"} <= set(config.figures) and config.popsize == 6


@pytest.mark.parametrize("text, message", [
    ('[sweep.sensitivity]\nkeys = ["parameters.link1_mass"]\n', "sweep.sensitivity.figures needs a non-empty list"),
    ('[sweep.sensitivity]\nkeys = ["parameters.mass"]\nfigures = ["a"]\n', "unknown key parameters.mass"),
    ('[sweep.sensitivity]\nkeys = ["parameters.damping"]\nfigures = ["a"]\n', "parameters.damping = 0.0 has no logarithm"),
    ('[sweep.sensitivity]\nkeys = ["h"]\nfigures = ["a"]\nstep = 2\n', "relative step must lie in (0, 1)"),
    ('[sweep.sensitivity]\nkey = ["h"]\n', "unknown key sweep.sensitivity.key"),
])
def test_a_bad_sensitivity_sweep_names_the_key(text, message):
    with pytest.raises(ModelError, match="^bad.toml.*" + re.escape(message)):
        sweep_from_dict(tomllib.loads(text), RRRUStudyConfig, where="bad.toml")


@pytest.mark.parametrize("data, message", [
    ({"seeds": 1}, "unknown key seeds"),
    ({"bounds": {"parameters.link1_mass": [2.0, 1.0]}}, "bounds.parameters.link1_mass needs 0 < low < high"),
    ({"bounds": {"parameters.mass": [1.0, 2.0]}}, "unknown key parameters.mass"),
    ({"figures": ["torque"]}, "reports no figure 'torque'"),
    ({"angle_convention": "sideways"}, "angle_convention must be one of"),
    ({"study": "flexible"}, "unknown study 'flexible'"),
    ({"base": {"hh": 0.01}}, "unknown key hh"),
    ({"popsize": 0}, "popsize must be ≥ 1"),
])
def test_a_bad_fit_file_names_the_key(data, message):
    with pytest.raises(ModelError, match=re.escape(message)):
        fit_config(data)


def test_the_fit_command_names_a_bad_file_in_one_line(tmp_path, capsys):
    path = tmp_path / "fit.toml"
    path.write_text('maxiter = 2\n[bounds]\n"parameters.link1_mass" = [3.0, 1.0]\n')
    assert main(["fit", "rrru", str(path), "-o", str(tmp_path / "out")]) == 2
    assert "bounds.parameters.link1_mass needs 0 < low < high" in capsys.readouterr().err


@pytest.mark.slow
def test_the_rigid_figures_do_not_move_with_the_step():
    """The fit's h = 10 ms against the study's 1 ms: torque peaks within 2e-4 N·m, the
    angle maximum within 0.002°."""
    coarse, fine = rigid_case({"h": 0.01}), rigid_case({"h": 0.001})
    for name in ("torque_peak_largest", "torque_peak_smallest", "torque_max"):
        assert coarse[name] == pytest.approx(fine[name], abs=2e-4), name
    assert coarse["angle_max_deg"] == pytest.approx(fine["angle_max_deg"], abs=2e-3)


def test_the_reconstructed_robot_meets_the_rigid_figures():
    """RRRUGeometry.reconstructed(): the fitted set meets the paper's rigid figures as the fit
    reported — torque peaks within 1 N·m of −11.1 and −8.3 N·m, the angle maximum within 1° of
    9.8° under both signs (femdyn's reading and its opposite)."""
    from dataclasses import asdict
    from femdyn.robots.rrru import RRRUGeometry
    from femdyn.studies.rrru_figures import rigid_case
    defaults = RRRUStudyConfig().parameters
    geometry = asdict(RRRUGeometry.reconstructed())
    figures = rigid_case({"h": 1e-2, "parameters": {k: geometry[k] for k in defaults if k in geometry}})
    assert abs(figures["torque_peak_largest"] + 11.1) < 1.0 and abs(figures["torque_peak_smallest"] + 8.3) < 1.0
    assert abs(figures["angle_max_deg"] - 9.8) < 1.0 and abs(figures["angle_max_up_deg"] - 9.8) < 1.0
