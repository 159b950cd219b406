"""`femdyn study rrru`: the whole study on a short stretch, its outputs (the summary with
verdicts, the figures, the report page in a browser) and its configuration errors."""
import contextlib
import html
import io
import json
import math
import re

import pytest

from femdyn.cli import main
from femdyn.errors import ModelError
from femdyn.schema import read_config
from femdyn.studies import rrru_outputs
from femdyn.studies.rrru_outputs import (FACTOR_2, NOT_REPORTED, NOT_RUN, QUANTITIES, REASONS, WITHIN, Band,
                                         summary_table, verdict, verdicts)
from femdyn.studies.rrru_study import StudyConfig, run_study

from support.browser import browse, needs_chromium, spread
from support import ROOT


@pytest.fixture(scope="module")
def short_study(tmp_path_factory):
    """20 ms of the study with 2 elements per link through ``femdyn study rrru``: its
    folder and what it printed."""
    tmp_path = tmp_path_factory.mktemp("short_study")
    config = tmp_path / "short.toml"
    config.write_text("duration = 0.02\nn_elements = 2\nparaview_every = 10\n[geometry]\nE = 6.9e10\n")
    out = tmp_path / "study"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["study", "rrru", str(config), "-o", str(out), "--quiet"]) == 0
    return out, printed.getvalue()


def test_study_command_writes_the_summary_beside_the_paper(short_study):
    """All four parts run; the inverse run tracks the circle to 1e-10 m; every output the
    command lists is there, the verdicts in the JSON and on the console."""
    out, printed = short_study
    written = json.loads((out / "summary.json").read_text())
    summary = written["summary"]
    assert summary["inverse_tracking_error"] < 1e-10 and summary["steps"] == 20
    assert -12 < summary["rigid_torque_min"] < summary["rigid_torque_max"] < -5
    for name in ("summary.md", "report.html", "torques.png", "forward.png", "angles.png", "tilt.png",
                 "deformation.png", "strains.png", "results.npz", "channels.csv", "paraview/motion.pvd"):
        assert (out / name).exists(), name
        assert name.split("/")[0] in printed, name
    assert [row["id"] for row in written["verdicts"]] == [q.id for q in QUANTITIES]
    assert {row["id"]: row["verdict"] for row in written["verdicts"]}["inverse_tracking_error"] == WITHIN
    assert "Liu et al. 2018" in printed and "| verdict |" in printed and WITHIN in printed


@needs_chromium
def test_report_page_opens_offline_in_chromium(short_study, tmp_path):
    """report.html: self-contained (nothing to fetch, every figure embedded), the shared
    print stylesheet, no console error in headless Chromium and a page that is not blank."""
    out, _ = short_study
    page = out / "report.html"
    text = page.read_text()
    assert not re.search(r"""(src|href)\s*=\s*['"]?(https?:)?//""", text)
    assert text.count("src='data:image/png;base64,") == len(list(out.glob("*.png"))) == 6
    assert "@media print" in text and "StudyConfig" in text and "Newton iterations" in text
    shown = html.unescape(text)
    for q in QUANTITIES:
        assert q.label in shown, q.label
    console, image = browse(page, tmp_path / "shot.png", tmp_path)
    assert console == []
    assert spread(image) > 0.05


def full_summary():
    """A summary with every figure but the forward tilt, as the new inverse will write it."""
    return {"duration": 1.5, "steps": 1507, "forward_deviation_x": 9.2e-3, "forward_deviation_yz": 3e-3,
            "inverse_tracking_error": 1e-15, "static_tilt_deg": 7.8, "tilt_start_stop_deg": 5.0,
            "tilt_cruise_deg": 17.2, "inverse_torque_min": -11.5, "inverse_torque_max": -6.0,
            "torque_difference": 0.3, "torque_difference_at_rest": 0.07, "mid_link_deformation": 7.0e-3,
            "shear_angle_deg": 3e-4, "rigid_torque_min": -11.27, "rigid_torque_max": -5.97,
            "gauge_strain_peaks": {"gauge 0.0.strain": [1.0e-5, -1.2e-5], "gauge 0.1.strain": [5e-6, -5e-6],
                                   "gauge 0.2.strain": [2e-4, -1e-4]},
            "inverse_angle_max_deg": 12.3, "rigid_angle_max_deg": 12.3, "angle_difference_deg": 0.5,
            "inverse_torque_extreme_limb": {"1": -8.1, "2": -11.3, "3": -25.0}, "inverse_method": "stable",
            "zero_dynamics": {"statement": "The zero dynamics are stable.", "lowest_hz": 2.5, "max_real_part": -0.1,
                              "classification": "minimum phase"},
            "inverse_dynamics_residual": 1e-9}


@pytest.mark.parametrize("value, band, expected, factor", [
    (9.2e-3, Band.about(8.7e-3, "up to 8.7 mm"), WITHIN, 1.0),               # a reported value ± 10 %
    (-11.5, Band.about(-11.1, "−11.1 N·m"), WITHIN, 1.0),
    (1e-15, Band.below(2e-11, "< 2e-11 m"), WITHIN, 1.0),                    # a bound: anything from 0 to it
    (0.75, Band.below(0.5, "< 0.5°"), FACTOR_2, 1.5),
    (-5.0, Band.about(-11.1, "−11.1 N·m"), FACTOR_2, 9.99 / 5.0),             # below the band: the nearer edge
    (17.2, Band.below(0.5, "< 0.5°"), "outside (×34)", 34.4),
    (-25.69, Band.about(-11.1, "−11.1 N·m"), "outside (×2.1)", 25.69 / 12.21),
    (6.2, Band.about(-11.1, "−11.1 N·m"), "outside (×∞)", math.inf),         # the opposite sign
    (7.8, None, NOT_REPORTED, None),
    (None, Band.below(0.5, "< 0.5°"), NOT_RUN, None),
    (None, None, NOT_RUN, None),
])
def test_the_verdict_rule(value, band, expected, factor):
    label, k = verdict(value, band)
    assert label == expected
    assert k == (None if factor is None else pytest.approx(factor))


def test_summary_table_and_json_rows_have_every_figure(tmp_path):
    """Every row of QUANTITIES in the table, the JSON list and the report; the new figures
    (per-limb torques, angles, method, zero dynamics) shown; a missing figure is "not run";
    a row outside the band carries a reason and its docs section."""
    summary = full_summary()
    table = summary_table(summary)
    rows = {r["id"]: r for r in rrru_outputs.verdicts(summary)}
    assert list(rows) == [q.id for q in QUANTITIES] and len(set(rows)) == len(QUANTITIES)
    for q in QUANTITIES:
        assert f"| {q.label} | {rows[q.id]['femdyn']} |" in table
    assert rows["forward_tilt_deg"]["verdict"] == NOT_RUN
    assert rows["forward_deviation_x"]["verdict"] == WITHIN and rows["forward_deviation_x"]["femdyn"] == "9.2 mm"
    assert rows["inverse_torque_extreme_limb_1"]["value"] == -8.1 and rows["inverse_torque_extreme_limb_1"][
        "verdict"] == WITHIN
    assert rows["inverse_torque_extreme_limb_3"]["verdict"] == NOT_REPORTED
    assert rows["gauge_range_0"]["value"] == pytest.approx(2.2e-5) and rows["gauge_range_0"]["verdict"] == WITHIN
    assert rows["gauge_range_2"]["verdict"] == "outside (×15)" and rows["gauge_range_2"]["reason"]   # 300 / 20.4 µε
    assert rows["tilt_cruise_deg"]["reason"] and rows["tilt_cruise_deg"]["docs"].startswith("docs/rrru.md#")
    assert rows["forward_deviation_x"]["reason"] is None
    assert "Inverse method: stable." in table
    assert "Zero dynamics: The zero dynamics are stable (minimum phase; lowest 2.5 Hz; largest real part -0.1 1/s)." \
        in table
    assert "[1] " in table and "| outside (×34) [" in table
    rrru_outputs.write_report(str(tmp_path / "report.html"), StudyConfig(), summary, {"rigid": None}, figures={})
    page = html.unescape((tmp_path / "report.html").read_text())
    assert all(r["verdict"] in page for r in rows.values())
    assert "The zero dynamics are stable" in page


def test_every_reason_points_at_a_section_of_the_docs():
    """The anchors of REASONS (and of the reading guide) are headings of docs/rrru.md, by
    MyST's rule (lower case, punctuation dropped, spaces to hyphens)."""
    text = (ROOT / "docs" / "rrru.md").read_text(encoding="utf-8")
    anchors = {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
               for h in re.findall(r"^#{1,3} (.+)$", text, re.M)}
    links = {docs for _, docs in REASONS.values()} | {"docs/rrru.md#reading-the-summary-and-the-report"}
    for link in links:
        assert link.split("#")[1] in anchors, link
    assert set(REASONS) <= {q.id for q in QUANTITIES}


@pytest.mark.parametrize("text, message", [
    ("durationn = 1.0\n", "unknown key durationn"),
    ("[geometry]\nEE = 1.0\n", "unknown key geometry.EE"),
    ("n_elements = 'eight'\n", "n_elements must be a number"),
    ("centre = [0, 0]\n", "centre must be a list of 3 numbers"),
    ("forward = 1\n", "forward must be true or false"),
    ("geometry = 3\n", "geometry must be a table"),
])
def test_a_bad_key_or_value_is_named(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(ModelError, match=message):
        read_config(str(path), StudyConfig)


def test_the_command_reports_a_bad_config_in_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text("speed = 'fast'\n")
    assert main(["study", "rrru", str(path), "-o", str(tmp_path / "x")]) == 2
    assert "speed must be a number" in capsys.readouterr().err


def test_a_part_that_stops_keeps_every_result_so_far(tmp_path):
    """A forward run that cannot converge (a Newton tolerance below its round-off floor, no
    step halvings) stops the study with StudyStopped; the rigid part's outputs and the
    forward run's steps are written, and the summary says which part stopped, where and why."""
    from femdyn.studies.rrru_study import StudyStopped, run_study
    config = StudyConfig(n_elements=2, duration=0.01, tol_flexible=1e-16, max_halvings=0, paraview_every=0)
    with pytest.raises(StudyStopped, match=r"flexible forward dynamics \(b\) stopped at t = 0 s") as stop:
        run_study(config, output=str(tmp_path))
    summary = stop.value.study["summary"]
    assert summary["stopped"]["part"] == "flexible forward dynamics (b)" and "rigid_torque_min" in summary
    assert stop.value.results is stop.value.study["forward"] and stop.value.study["inverse"] is None
    for name in ("summary.md", "summary.json", "torques.png", "forward.png", "results.npz"):
        assert (tmp_path / name).exists(), name
    assert "**Stopped**: flexible forward dynamics (b)" in (tmp_path / "summary.md").read_text()


@pytest.mark.parametrize("argv, message", [
    (["study", "rrru", "--rho-inf", "0.99"], "--rho-inf must be in [0, 0.95]"),
    (["study", "rrru", "--halvings", "-1"], "--halvings must be in 0 … 20"),
    (["study", "rrru", "--elements", "0"], "--elements must be ≥ 1"),
    (["demo", "--rho-inf", "-0.1"], "--rho-inf must be in [0, 0.95]"),
    (["demo", "--halvings", "21"], "--halvings must be in 0 … 20"),
    (["demo", "--elements", "0"], "--elements must be ≥ 1"),
])
def test_a_bad_solver_option_exits_with_2_naming_it(tmp_path, capsys, argv, message):
    assert main(argv + ["--out" if argv[0] == "demo" else "-o", str(tmp_path / "x")]) == 2
    assert message in capsys.readouterr().err


def test_an_unknown_formulation_is_refused_by_name(capsys):
    with pytest.raises(SystemExit) as done:
        main(["study", "rrru", "--formulation", "index2"])
    assert done.value.code == 2 and "--formulation" in capsys.readouterr().err


def test_the_solver_options_reach_the_study(tmp_path):
    """--elements, --rho-inf, --formulation and --halvings override the TOML file's values."""
    config = tmp_path / "short.toml"
    config.write_text("duration = 0.005\nn_elements = 8\nparaview_every = 0\ninverse = false\n")
    out = tmp_path / "study"
    assert main(["study", "rrru", str(config), "-o", str(out), "--quiet", "--elements", "2", "--rho-inf", "0.3",
                 "--formulation", "stabilized", "--halvings", "2"]) == 0
    saved = json.loads((out / "summary.json").read_text())["config"]
    assert (saved["n_elements"], saved["flexible_rho_inf"], saved["formulation"], saved["max_halvings"]) == \
        (2, 0.3, "stabilized", 2)


def test_a_demo_that_stops_still_writes_its_picture(tmp_path, capsys, monkeypatch):
    """A (plain causal) inverse run that stops after its first steps (forward run off, a Newton tolerance
    below the round-off floor reached only at the start): exit code 2 with the part, the
    time and the command-line hint; the summary table, the outputs and demo.png are there."""
    import femdyn.studies.rrru_study as study

    def failing(**kwargs):
        return StudyConfig(**kwargs, forward=False, inverse_method="causal", tol_flexible=1e-16, max_halvings=0,
                           paraview_every=0)
    monkeypatch.setattr(study, "StudyConfig", failing)
    assert main(["demo", "--out", str(tmp_path), "--t-end", "0.01", "--elements", "2", "--quiet"]) == 2
    captured = capsys.readouterr()
    assert "flexible inverse dynamics (c) stopped at t = " in captured.err and "--halvings" in captured.err
    assert "**Stopped**: flexible inverse dynamics (c)" in captured.out
    for name in ("demo.png", "summary.md", "torques.png", "strains.png", "results.npz"):
        assert (tmp_path / name).exists(), name


@pytest.mark.slow
def test_the_default_study_meets_the_paper_where_it_can():
    """The whole circle with the defaults (2 elements per link: every inverse figure is
    mesh-converged there, docs/rrru.md): the figures the stable causal inverse brings into
    the paper's band or within a factor of 2 stay there; the tilt stays outside, for the
    reason docs/rrru.md gives (the platform's orientation held by the soft links)."""
    summary = run_study(StudyConfig(n_elements=2, paraview_every=0, validate_inverse=False))["summary"]
    rows = {r["id"]: r for r in rrru_outputs.verdicts(summary)}
    for figure in ("inverse_tracking_error", "inverse_torque_min", "inverse_torque_extreme_limb_2", "shear_angle_deg",
                   "mid_link_deformation"):
        assert rows[figure]["verdict"] == "within the paper's band", (figure, rows[figure])
    for figure in ("torque_difference", "inverse_angle_max_deg", "inverse_torque_extreme_limb_1",
                   "forward_deviation_x"):
        assert rows[figure]["verdict"] in ("within the paper's band", "within a factor of 2"), (figure, rows[figure])
    assert rows["tilt_cruise_deg"]["verdict"].startswith("outside") and rows["tilt_cruise_deg"]["reason"]
    assert summary["zero_dynamics"]["classification"] == "non-minimum phase"
    assert 3.0 < summary["zero_dynamics"]["lowest_hz"] < 4.0


def test_a_stable_inverse_that_stops_keeps_the_parts_before(tmp_path, monkeypatch):
    """The stable inverse stopping in its first approximation (a Newton failure forced at
    t = 10 ms): the study writes the rigid and forward parts' outputs and the inverse's
    samples so far, says where it stopped and raises StudyStopped."""
    import femdyn.solvers.stable_inverse as stable
    from femdyn.errors import ConvergenceError
    from femdyn.studies.rrru_study import StudyStopped
    solve = stable._sample

    def failing(system, kkt, q, lam, rate_forces, a, t, options):
        if t > 0.0099:
            raise ConvergenceError(f"stable inverse at t = {t:.6g} s: forced")
        return solve(system, kkt, q, lam, rate_forces, a, t, options)
    monkeypatch.setattr(stable, "_sample", failing)
    with pytest.raises(StudyStopped, match="flexible inverse dynamics") as stopped:
        run_study(StudyConfig(duration=0.03, n_elements=2, paraview_every=0, validate_inverse=False), str(tmp_path))
    summary = stopped.value.study["summary"]
    assert summary["stopped"]["key"] == "inverse" and summary["stopped"]["t"] == pytest.approx(0.005)
    assert "forward_deviation_x" in summary and len(stopped.value.study["inverse"].t) == 2
    for name in ("summary.md", "forward.png", "torques.png"):
        assert (tmp_path / name).exists(), name
    assert "**Stopped**: flexible inverse dynamics (c)" in (tmp_path / "summary.md").read_text()
