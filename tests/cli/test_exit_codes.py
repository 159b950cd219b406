"""The command line as a script sees it: exit code 0 when everything succeeded, 1 when a run
failed, 2 for bad input with a one-line message saying what kind of problem and naming it
(input, output folder, scheduler, key); a closed output pipe ends quietly. Each command runs
as a subprocess (``python -m femdyn``), as a user's shell would."""
import os
import subprocess
import sys

import pytest

from support import ROOT

# 10 steps of the rigid and the flexible inverse dynamics, 2 elements per link (as tests/studies/test_sweep.py);
# speed 50 m/s cannot be reached on the circle: that case fails
SWEEP = ('[base]\nduration = 0.01\nparameters = {elements = 2}\nparaview_every = 0\nforward = false\n'
         '[sweep]\ngrid = {"parameters.E" = [6.9e8, -6.9e8]}\n')     # a negative modulus fails in its case


def femdyn(*args, pipe=None, cwd=None):
    """Run ``femdyn ARGS`` (through ``| pipe`` when given, in a shell): the completed process."""
    command = [sys.executable, "-m", "femdyn", *map(str, args)]
    env = dict(os.environ, PYTHONPATH=ROOT)
    if pipe:
        line = " ".join(f"'{a}'" for a in command) + f" | {pipe}; exit ${{PIPESTATUS[0]}}"
        return subprocess.run(["bash", "-c", line], capture_output=True, text=True, env=env, cwd=cwd)
    return subprocess.run(command, capture_output=True, text=True, env=env, cwd=cwd)


@pytest.fixture
def sweep_file(tmp_path):
    path = tmp_path / "sweep.toml"
    path.write_text(SWEEP)
    return path


def test_python_m_femdyn_runs_the_command_line_without_warnings():
    """``python -m femdyn`` (femdyn/__main__.py) is the command line, and Python warns of nothing."""
    run = subprocess.run([sys.executable, "-W", "error", "-m", "femdyn", "--help"], capture_output=True, text=True,
                         env=dict(os.environ, PYTHONPATH=ROOT))
    assert run.returncode == 0 and run.stdout.startswith("usage: femdyn") and run.stderr == ""


def test_a_sweep_with_a_failed_case_exits_1(sweep_file, tmp_path):
    run = femdyn("sweep", sweep_file, "-o", tmp_path / "out", "--workers", "1", "--quiet")
    assert run.returncode == 1, run.stderr
    assert "2 cases (grid)" in run.stdout and "1 case completed, 1 failed" in run.stdout
    assert (tmp_path / "out" / "cases.csv").exists()


def test_a_closed_pipe_ends_quietly(sweep_file, tmp_path):
    run = femdyn("sweep", sweep_file, "-o", tmp_path / "out", "--workers", "1", "--quiet", pipe="head -1")
    assert run.stdout.startswith("2 cases (grid)") and run.stdout.count("\n") == 1
    assert "Broken pipe" not in run.stderr and "Traceback" not in run.stderr
    assert run.returncode == 0 and (tmp_path / "out" / "sweep.json").exists()


def test_an_unreachable_scheduler_is_named(sweep_file, tmp_path):
    run = femdyn("sweep", sweep_file, "-o", tmp_path / "out", "--scheduler", "tcp://127.0.0.1:1", "--quiet")
    assert run.returncode == 2
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in run.stderr and "None" not in run.stderr
    assert "Traceback" not in run.stderr


@pytest.mark.parametrize("address", ["foo", "tcp://host", "tcp://host:port"])
def test_a_scheduler_that_is_no_address_is_bad_input(sweep_file, tmp_path, address):
    run = femdyn("sweep", sweep_file, "-o", tmp_path / "out", "--scheduler", address)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert f"--scheduler {address!r} is not a scheduler address" in run.stderr


def test_a_missing_input_and_an_unwritable_output_are_told_apart(sweep_file, tmp_path):
    run = femdyn("show", tmp_path / "no-such.fdc")
    assert run.returncode == 2 and "no-such.fdc" in run.stderr and "writable" not in run.stderr
    blocker = tmp_path / "measured.csv"
    blocker.write_text("t\n0\n")
    run = femdyn("sweep", sweep_file, "-o", blocker / "sub", "--workers", "1", "--quiet")
    assert run.returncode == 2 and "measured.csv" in run.stderr and "not a folder" in run.stderr, run.stderr


def test_the_exit_codes_are_in_the_help():
    run = femdyn("--help")
    assert run.returncode == 0
    assert "exit codes (all commands)" in run.stdout and "1  a run or a tolerance failed" in run.stdout


def test_every_command_names_its_output_folder_with_o():
    for command in ("demo", "study", "sweep", "fit", "report strain", "show", "identify"):
        run = femdyn(*command.split(), "--help")
        assert "-o OUT, --out OUT" in run.stdout, command


def test_a_one_node_rigid_interface_is_bad_input(tmp_path):
    from femdyn.mesh.generate import rod_mesh
    mesh = str(tmp_path / "rod.msh")
    rod_mesh(0.2, 0.01, 0.008, order=1, path=mesh)
    run = femdyn("reduce", mesh, "--interface", "a=group:end0", "--interface", "tip=nearest:0.2,0,0",
                 "-o", tmp_path / "rod.fdc", "--quiet")
    assert run.returncode == 2 and "LinAlgError" not in run.stderr
    assert "interface 'tip': a rigid coupling of 1 node" in run.stderr and "at least 3 nodes" in run.stderr
    for modes in ("0", "-2"):
        run = femdyn("reduce", mesh, "--interface", "a=group:end0", "--modes", modes, "-o", tmp_path / "rod.fdc")
        assert run.returncode == 2 and f"--modes must be ≥ 1, got {modes}" in run.stderr
    run = femdyn("reduce", mesh, "--interface", "a=group:end0", "--modes", "5000", "-o", tmp_path / "rod.fdc",
                 "--max-mb", "1")
    assert run.returncode == 2 and "MB" in run.stderr and "--no-mesh" in run.stderr
    assert not (tmp_path / "rod.fdc").exists()


@pytest.mark.parametrize("text, message", [
    ("duration = -1", "duration must be ≥ 0 s, got -1.0 s"),
    ("h = 0.5", "h = 0.5 s: a run of 1.51 s needs at least 4 time steps"),
    ("h = 0", "h must be positive"),
    ("parameters = {E = -6.9e10}", "Young's modulus E must be positive; give it in Pa (got -6.9e+10)"),
])
def test_study_settings_are_refused_by_key(tmp_path, text, message):
    config = tmp_path / "study.toml"
    config.write_text(text + "\n")
    run = femdyn("study", "rrru", config, "-o", tmp_path / "out", "--quiet")
    assert run.returncode == 2 and message in run.stderr, run.stderr
    assert "Tabulated" not in run.stderr and not (tmp_path / "out").exists()
