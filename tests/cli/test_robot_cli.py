"""``femdyn robot list | show | ik | fk``: the ready parallel robots and description files from the
command line; exit 0 with the numbers the library gives, exit 2 with one line for bad input."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from support import ROOT

from femdyn.cli.main import main
from femdyn.robots.parallel import READY, parallel_robot

MY_DELTA = ROOT / "examples" / "robots" / "my_delta.toml"


def run(capsys, *args):
    """``femdyn ARGS`` in this process: (exit code, stdout, stderr)."""
    code = main([str(a) for a in args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_list_names_the_six_ready_robots_as_a_script_sees_it():
    done = subprocess.run([sys.executable, "-m", "femdyn", "robot", "list"], capture_output=True, text=True,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()] == list(READY)


def test_show_prints_the_summary_and_writes_the_picture(capsys, tmp_path):
    code, out, err = run(capsys, "robot", "show", "delta", "-o", tmp_path / "delta.png")
    assert code == 0, err
    assert "arm 0      R* – Pa" in out and "mobility: 3 (closure Jacobian rank 6 of 9 coordinates; " \
                                           "Grübler–Kutzbach count 3)" in out
    assert "workspace: x [-0.3, 0.3] m" in out and "Williams" in out
    assert (tmp_path / "delta.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "delta.png").stat().st_size > 30_000


@pytest.mark.parametrize("name, mobility, count", [("stewart", 6, 6), ("3rrr", 3, -3), ("3rps", 3, 3),
                                                   ("3rrru", 3, 3), ("linear_delta", 3, 3)])
def test_show_json_gives_mobility_beside_the_grubler_kutzbach_count(capsys, name, mobility, count):
    """The planar 3-RRR counted in space (6 per body) gives −3: the count ignores overconstraint."""
    code, out, _ = run(capsys, "robot", "show", name, "--json")
    s = json.loads(out)
    assert code == 0 and s["mobility"] == mobility and s["grubler_kutzbach"] == count
    assert len(s["actuators"]) == mobility and s["task"] == list(READY[name]().task)


def test_ik_and_fk_give_the_librarys_numbers(capsys):
    robot = parallel_robot("stewart")
    pose = [0.01, -0.02, 0.62, 0.05, -0.03, 0.1]
    code, out, _ = run(capsys, "robot", "ik", "stewart", "--pose", *pose, "--json")
    data = json.loads(out)
    legs = np.array(list(data["actuators"].values()))
    assert code == 0 and np.abs(legs - robot.inverse_kinematics(pose)).max() < 1e-15
    code, out, _ = run(capsys, "robot", "fk", "stewart", "--actuators", *(repr(float(x)) for x in legs), "--json")
    assert code == 0 and np.abs(np.array(list(json.loads(out)["pose"].values())) - pose).max() < 1e-9


def test_ik_reports_the_3rps_parasitic_motions(capsys):
    code, out, _ = run(capsys, "robot", "ik", "3rps", "--pose", 0.5, 0.1, -0.1)
    assert code == 0
    platform = out.splitlines()[-1]
    assert platform.startswith("platform pose: x ") and "(task: z, rx, ry)" in platform
    y = float(platform.split("y ")[1].split(",")[0])
    assert y == pytest.approx(parallel_robot("3rps").state([0.5, 0.1, -0.1])[-5], rel=1e-8)   # printed to 9 digits and abs(y) > 1e-4


def test_set_overrides_a_parameter_or_a_files_key(capsys):
    code, out, _ = run(capsys, "robot", "show", "delta", "--set", "arm_length=0.6", "--set", "home_z=-1.2", "--json")
    home = json.loads(out)["actuators"][0]["home"]
    assert code == 0 and home == pytest.approx(parallel_robot("delta", arm_length=0.6, home_z=-1.2).offsets[0])
    code, out, _ = run(capsys, "robot", "show", MY_DELTA, "--set", "platform.mass=2.5", "--json")
    assert code == 0 and json.loads(out)["masses"]["platform"] == 2.5


@pytest.mark.parametrize("args, message", [
    (["show", "hexapod"], "unknown robot 'hexapod': give a ready robot (delta, linear_delta"),
    (["show", "delta", "--set", "arm=0.3"], "ready robot 'delta': unknown parameter ['arm']; it takes"),
    (["show", "delta", "--set", "arm_length"], "--set 'arm_length': write KEY=VALUE"),
    (["ik", "delta", "--pose", "0", "0"], "robot 'delta': pose must have 3 finite values per row (x, y, z)"),
    (["ik", "delta", "--pose", "2", "0", "-1.1"], "robot 'delta': inverse kinematics: no assembly found"),
    (["fk", "3rps", "--actuators", "0.5"], "robot '3rps': actuators must have 3 finite values per row"),
    (["show", "no-such-robot.toml"], "cannot read the robot description 'no-such-robot.toml'"),
])
def test_bad_input_exits_2_with_one_line(capsys, args, message):
    code, out, err = run(capsys, "robot", *args)
    assert code == 2 and out == ""
    assert err.startswith("femdyn: error: ") and err.count("\n") == 1 and message in err, err


def test_fk_all_lists_every_assembly_mode_with_home_marked(capsys):
    """The Delta's two modes (below and above the base) as the library finds them; text and JSON."""
    robot = parallel_robot("delta")
    a = robot.inverse_kinematics([0.05, -0.02, -1.0])
    code, out, _ = run(capsys, "robot", "fk", "delta", "--actuators", *(repr(float(x)) for x in a), "--all", "--json")
    data = json.loads(out)
    poses = np.array([list(m["pose"].values()) for m in data["modes"]])
    assert code == 0 and len(poses) == 2 and [m["home"] for m in data["modes"]] == [True, False]
    assert np.abs(poses - robot.assembly_modes(a).poses).max() == 0.0
    assert np.abs(poses[0] - [0.05, -0.02, -1.0]).max() < 1e-9 and poses[1][2] > 0
    code, out, _ = run(capsys, "robot", "fk", "delta", "--actuators", *(repr(float(x)) for x in a), "--all")
    assert code == 0 and "(home branch" in out.splitlines()[0] and "2 assembly modes found from 256 starts" in out
    code, _, err = run(capsys, "robot", "fk", "delta", "--actuators", *(repr(float(x)) for x in a), "--all",
                       "--starts", "0")
    assert code == 2 and "starts ≥ 1" in err and len(err.strip().splitlines()) == 1
