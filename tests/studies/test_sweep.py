"""Sweeps: the same cases on a Dask cluster of worker processes and on threads give the
same table to the last bit; a failing case is reported without losing the others; random
samples depend on the seed and the case number only; bad sweep files are named.

A ``distributed.LocalCluster`` with ``processes=True`` starts its workers with the
"spawn" method, which re-imports the parent's ``__main__``: pytest's entry points guard
it with ``if __name__ == "__main__"``, so the cluster can be built inside a test; the
study function travels by name (``femdyn.studies.rrru_preset.preset_case``: femdyn study rrru),
importable on the workers. The sweep files' checks use the 3-RRRU's dedicated configuration
(``rrru_study.StudyConfig``) as a schema with tables, lists and whole numbers.
"""
import csv
import json
import math
import re
import tomllib
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from femdyn.cli import main
from femdyn.errors import ModelError
from femdyn.schema import with_overrides
from femdyn.studies.sweep_file import read_sweep, sweep_from_dict
from femdyn.studies.rrru_preset import preset_case
from femdyn.studies.rrru_study import StudyConfig
from femdyn.studies.sweep import grid_cases, random_cases, run_sweep

# 10 steps of the rigid and the flexible inverse dynamics, 2 elements per link: about 1 s a case
BASE = {"duration": 0.01, "parameters": {"elements": 2}, "paraview_every": 0, "forward": False}
# speed −0.5 m/s: the configuration's check refuses it (a SchemaError)
GRID = {"parameters.E": [6.9e8, 6.9e10], "task.speed": [0.5, -0.5]}


@pytest.fixture(scope="module")
def thread_sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("threads")
    with ThreadPoolExecutor(2) as pool:
        records = run_sweep(preset_case, BASE, grid_cases(GRID), str(out), executor=pool)
    return out, records


def test_dask_worker_processes_and_threads_give_identical_tables(thread_sweep, tmp_path):
    """Workers rebuild the model from the plain dict with one BLAS thread each: the CSV
    (floats written with repr, i.e. every bit) must be byte for byte the same."""
    from distributed import Client, LocalCluster
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        records = run_sweep(preset_case, BASE, grid_cases(GRID), str(tmp_path), executor=client.get_executor())
    threads, thread_records = thread_sweep
    assert (tmp_path / "cases.csv").read_text() == (threads / "cases.csv").read_text()
    assert (tmp_path / "cases.md").read_text() == (threads / "cases.md").read_text()
    workers = {r["worker"] for r in records}
    assert len(workers) >= 1 and not workers & {r["worker"] for r in thread_records}   # really other processes


def test_a_failing_case_is_reported_and_the_others_complete(thread_sweep):
    """Cases 1 and 3 (speed −0.5 m/s) fail with the configuration's message; cases 0 and 2 run
    with their own stiffness (read back from the case folder) and track the circle to
    round-off; the stiffer links bend less (deflection ∝ 1/E: about 100× less)."""
    out, records = thread_sweep
    rows = list(csv.DictReader(open(out / "cases.csv")))
    assert [r["status"] for r in rows] == ["completed", "failed", "completed", "failed"]
    for r in (rows[1], rows[3]):
        assert "SchemaError" in r["error"] and "task.speed must be positive" in r["error"] and r["duration"] == ""
    for k, E in ((0, 6.9e8), (2, 6.9e10)):
        case = json.loads((out / f"case-{k:04d}" / "summary.json").read_text())
        assert case["config"]["parameters"]["E"] == E and case["summary"]["duration"] == 0.01
        assert float(rows[k]["inverse_tracking_error"]) < 1e-10 and rows[k]["error"] == ""
    ratio = float(rows[0]["mid_link_deformation"]) / float(rows[2]["mid_link_deformation"])
    assert 30 < ratio < 300          # linear statics would give 100; the dynamic start changes it
    assert "task.speed must be positive" in (out / "cases.md").read_text()


def test_random_cases_depend_on_the_seed_and_the_case_only():
    spec = {"geometry.E": {"log_uniform": [6.9e8, 6.9e10]}, "payload": {"uniform": [0.0, 2.0]},
            "n_elements": {"integers": [2, 4]}, "forward": {"choice": [True, False]}}
    few, many = random_cases(spec, 3, seed=7), random_cases(spec, 2000, seed=7)
    assert few == many[:3] and few == random_cases(dict(reversed(spec.items())), 3, seed=7)
    assert random_cases(spec, 3, seed=8) != few
    E = np.array([c["geometry.E"] for c in many])
    assert 6.9e8 <= E.min() and E.max() <= 6.9e10
    # uniform in log: mean of log10 E is 9.839 ± 0.58/√2000 (standard error 0.013): 5σ band
    assert abs(np.log10(E).mean() - math.log10(6.9e9)) < 0.065
    assert {c["n_elements"] for c in many} == {2, 3, 4} and {c["forward"] for c in many} == {True, False}
    assert all(isinstance(c["n_elements"], int) and isinstance(c["payload"], float) for c in many)


def test_a_sweep_file_gives_the_cases_and_whole_configurations(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('study = "rrru"\n[base]\nduration = 0.01\n[sweep]\n'
                    'random = {count = 4, seed = 1, "geometry.E" = {log_uniform = [6.9e8, 6.9e10]}, '
                    'payload = {uniform = [0, 2]}}\n')
    sweep = read_sweep(str(path), StudyConfig)
    assert sweep.kind == "random" and sweep.seed == 1 and sweep.study == "rrru"
    assert sweep.cases == random_cases({"geometry.E": {"log_uniform": [6.9e8, 6.9e10]},
                                        "payload": {"uniform": [0, 2]}}, 4, 1)
    config = with_overrides(sweep.base, sweep.cases[2])
    assert config["duration"] == 0.01 and config["geometry"]["E"] == sweep.cases[2]["geometry.E"]
    grid = tmp_path / "g.toml"
    grid.write_text('[sweep]\ngrid = {"geometry.E" = [6.9e8, 6.9e9], payload = [0, 1.6], n_elements = [2.0]}\n')
    assert read_sweep(str(grid), StudyConfig).cases == [
        {"geometry.E": 6.9e8, "payload": 0.0, "n_elements": 2}, {"geometry.E": 6.9e8, "payload": 1.6, "n_elements": 2},
        {"geometry.E": 6.9e9, "payload": 0.0, "n_elements": 2}, {"geometry.E": 6.9e9, "payload": 1.6, "n_elements": 2}]


@pytest.mark.parametrize("text, message", [
    ('[sweep]\ngrid = {"geometry.EE" = [1.0]}\n', "unknown key geometry.EE"),
    ('[sweep]\ngrid = {payloadd = [1.0]}\n', "unknown key payloadd"),
    ('[sweep]\ngrid = {geometry = [1.0]}\n', "geometry is a table of settings"),
    ('[sweep]\ngrid = {"payload.x" = [1.0]}\n', "payload is a single setting"),
    ('[sweep]\ngrid = {payload = []}\n', "sweep.grid.payload needs a non-empty list"),
    ('[sweep]\ngrid = {payload = ["heavy"]}\n', "sweep.grid.payload must be a number"),
    ('[sweep]\ngrid = {n_elements = [2.5]}\n', "sweep.grid.n_elements must be a whole number"),
    ('[sweep]\ngrid = {centre = [[0, 0]]}\n', "sweep.grid.centre must be a list of 3 numbers"),
    ('[base]\ndurationn = 1.0\n[sweep]\ngrid = {payload = [0.0]}\n', "unknown key durationn"),
    ('[base]\n[base.geometry]\nE = "soft"\n[sweep]\ngrid = {payload = [0.0]}\n', "geometry.E must be a number"),
    ('[sweep]\nrandom = {count = 2, seed = 1, payload = {normal = [0, 1]}}\n', "payload must be a table with one of"),
    ('[sweep]\nrandom = {count = 2, seed = 1, "geometry.E" = {log_uniform = [0, 1]}}\n',
     "geometry.E.log_uniform needs 0 < low"),
    ('[sweep]\nrandom = {count = 2, seed = 1, payload = {uniform = [2, 1]}}\n', "payload.uniform needs"),
    ('[sweep]\nrandom = {count = 2, seed = 1, n_elements = {uniform = [2, 8]}}\n',
     "n_elements is a whole number: draw it with integers or choice"),
    ('[sweep]\nrandom = {count = 0, seed = 1, payload = {uniform = [0, 1]}}\n', "count must be"),
    ('[sweep]\nrandom = {count = 2, payload = {uniform = [0, 1]}}\n', "needs count"),
    ('[sweep]\nrandom = {count = 2, seed = 1, forward = {choice = [1]}}\n', "forward.choice must be true or false"),
    ('[sweep]\ngrid = {payload = [0.0]}\nrandom = {count = 1, seed = 1}\n', "exactly one of 'grid' and 'random'"),
    ('[sweep]\ngrids = {payload = [0.0]}\n', "unknown key sweep.grids"),
    ('[base]\nduration = 0.1\n', "a [sweep] table"),
    ('[sweeps]\n', "unknown key sweeps"),
])
def test_a_bad_sweep_file_names_the_key(text, message):
    with pytest.raises(ModelError, match="^bad.toml.*" + re.escape(message)):
        sweep_from_dict(tomllib.loads(text), StudyConfig, where="bad.toml")


def test_the_command_names_a_bad_file_in_one_line(tmp_path, capsys):
    path = tmp_path / "bad.toml"
    path.write_text('study = "puma"\n[sweep]\ngrid = {payload = [0.0]}\n')
    assert main(["sweep", str(path), "-o", str(tmp_path / "x")]) == 2
    assert "unknown study 'puma'" in capsys.readouterr().err
    path.write_text('[sweep]\ngrid = {"parameters.EE" = [1.0]}\n')
    assert main(["sweep", str(path), "-o", str(tmp_path / "x")]) == 2
    assert "unknown key parameters.EE; known keys: ['parameters.E', 'parameters.base_radius', 'parameters.damping'" in capsys.readouterr().err
    path.write_text('[sweep\n')
    assert main(["sweep", str(path), "-o", str(tmp_path / "x")]) == 2
    assert "is not valid TOML" in capsys.readouterr().err


def test_the_command_runs_a_random_sample_on_a_local_cluster(tmp_path, capsys):
    """Two random cases on a one-worker local cluster: the table holds the drawn settings
    (the same draws as random_cases) and each case's numbers."""
    path = tmp_path / "sweep.toml"
    path.write_text('[base]\nduration = 0.01\nparameters = {elements = 2}\nparaview_every = 0\nforward = false\n'
                    '[sweep]\nrandom = {count = 2, seed = 3, payload = {uniform = [0, 2]}}\n')
    out = tmp_path / "out"
    assert main(["sweep", str(path), "-o", str(out), "--workers", "1", "--quiet"]) == 0
    assert "2 cases completed, 0 failed" in capsys.readouterr().out
    rows = list(csv.DictReader(open(out / "cases.csv")))
    drawn = random_cases({"payload": {"uniform": [0, 2]}}, 2, 3)
    assert [float(r["payload"]) for r in rows] == [c["payload"] for c in drawn]
    assert all(r["status"] == "completed" and float(r["inverse_tracking_error"]) < 1e-10 for r in rows)
    assert (out / "case-0001" / "efforts.png").exists() and (out / "sweep.json").exists()
