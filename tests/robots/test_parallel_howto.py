"""docs/howto/new-robot.md and docs/parallel-robots.md as a reader uses them: the description file the
how-to writes (examples/robots/my_delta.toml) reads and round-trips its kinematics, every ``femdyn
robot`` command the pages show exits 0, and the reference page's ``pycon`` blocks run."""
import doctest
import re
import subprocess
import sys

import numpy as np
import pytest
from support import ROOT

from femdyn.cli.main import main
from femdyn.robots.parallel import ParallelRobot, read_description

HOWTO = ROOT / "docs" / "howto" / "new-robot.md"
REFERENCE = ROOT / "docs" / "parallel-robots.md"
MY_DELTA = ROOT / "examples" / "robots" / "my_delta.toml"
BASH = re.compile(r"```bash\n(.*?)```", re.S)


def test_the_howto_shows_the_example_file_and_it_round_trips():
    """The page includes examples/robots/my_delta.toml; read, it assembles at home with 3 actuators at 0 rad
    and FK(IK(p)) = p to 1e-9 at 20 sampled poses."""
    assert "```{literalinclude} ../../examples/robots/my_delta.toml" in HOWTO.read_text(encoding="utf-8")
    robot = ParallelRobot(read_description(MY_DELTA))
    assert robot.description.name == "my_delta" and np.abs(robot.offsets).max() == 0.0
    assert np.abs(robot.inverse_kinematics([0.0, 0.0, -0.6])).max() < 1e-12      # arms horizontal at home
    poses = robot.sample_poses(20, seed=8)
    assert np.abs(robot.forward_kinematics(robot.inverse_kinematics(poses)) - poses).max() < 1e-9


def test_femdyn_robot_show_of_the_file_exits_0_as_a_script(tmp_path):
    done = subprocess.run([sys.executable, "-m", "femdyn", "robot", "show", str(MY_DELTA), "-o",
                           str(tmp_path / "my_delta.png")], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "mobility: 3 (closure Jacobian rank 6 of 9 coordinates; Grübler–Kutzbach count 3)" in done.stdout
    assert (tmp_path / "my_delta.png").stat().st_size > 30_000


def _commands(page):
    """The ``femdyn robot …`` lines of a page's bash blocks, comments dropped."""
    lines = [line.split("#")[0].split() for block in BASH.findall(page.read_text(encoding="utf-8"))
             for line in block.splitlines()]
    return [words[1:] for words in lines if words[:2] == ["femdyn", "robot"]]


@pytest.mark.parametrize("args", _commands(HOWTO) + _commands(REFERENCE), ids=" ".join)
def test_every_command_the_pages_show_exits_0(args, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)                                  # pictures land here
    args = [str(MY_DELTA) if a == "examples/robots/my_delta.toml" else a for a in args]
    assert main(args) == 0, capsys.readouterr().err
    assert capsys.readouterr().out


def test_the_reference_pages_python_runs():
    """docs/parallel-robots.md's ``pycon`` blocks, in order, as one doctest."""
    source = "\n".join(re.findall(r"```pycon\n(.*?)```", REFERENCE.read_text(encoding="utf-8"), re.S))
    test = doctest.DocTestParser().get_doctest(source, {}, REFERENCE.name, str(REFERENCE), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 8 and result.failed == 0
