"""``femdyn reduce`` as a user runs it: a mesh in mm without ``--unit``, messages naming the command's flags."""
import os
import subprocess
import sys

import meshio
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _femdyn(*argv, cwd):
    """Run ``python -m femdyn reduce ...``; the completed process."""
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "femdyn", "reduce", *argv, "--quiet"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(params=["vtu", "gmsh22"])
def bar_mm(tmp_path, request):
    """A 100 × 10 × 10 bar of Tet4 written in millimetres (VTU or Gmsh 2.2 file)."""
    from femdyn.mesh.generate import box_mesh
    mesh = box_mesh((0.1, 0.01, 0.01), (10, 1, 1))
    path = tmp_path / ("bar.vtu" if request.param == "vtu" else "bar.msh")
    meshio.write(path, meshio.Mesh(mesh.points * 1e3, [("tetra", mesh.blocks[0][1])]), file_format=request.param,
                 **({"binary": False} if request.param == "gmsh22" else {}))
    return path


def test_mesh_in_mm_without_unit_is_refused_with_the_fix(bar_mm, tmp_path):
    r = _femdyn(str(bar_mm), "--interface", "root=box:-1,-1,-1,1,100,100", "-o", "bar.fdc", cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    assert "spans 100 m" in r.stderr and "pass --unit mm" in r.stderr
    assert "Traceback" not in r.stderr and not (tmp_path / "bar.fdc").exists()


def test_mesh_in_mm_with_unit_mm_reduces(bar_mm, tmp_path):
    r = _femdyn(str(bar_mm), "--unit", "mm", "--interface", "root=box:-0.001,-1,-1,0.001,1,1", "--modes", "2",
                "-o", "bar.fdc", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "bar.fdc").exists()


def test_explicit_unit_m_keeps_a_large_part(bar_mm, tmp_path):
    """--unit m says the metres are meant: the 100 m part is not refused for its size."""
    r = _femdyn(str(bar_mm), "--unit", "m", "--interface", "root=box:-1,-1,-1,1,100,100", "--modes", "2",
                "-o", "bar.fdc", cwd=tmp_path)
    assert r.returncode == 0, r.stderr


def test_density_message_names_the_cli_flag(bar_mm, tmp_path):
    """The material check shared with the API (check_units=False there) names --no-unit-check here."""
    args = [str(bar_mm), "--unit", "mm", "--rho", "2.7", "--interface", "root=box:-0.001,-1,-1,0.001,1,1",
            "--modes", "2", "-o", "bar.fdc"]
    r = _femdyn(*args, cwd=tmp_path)
    assert r.returncode == 2
    assert "pass --no-unit-check" in r.stderr and "check_units" not in r.stderr
    assert _femdyn(*args, "--no-unit-check", cwd=tmp_path).returncode == 0


def test_span_refusal_names_the_cli_flag(tmp_path):
    """The mesh reader's hard limit (more than 100 m) says --unit mm, not unit='mm'."""
    from femdyn.mesh.generate import box_mesh
    mesh = box_mesh((0.5, 0.01, 0.01), (5, 1, 1))
    meshio.write(tmp_path / "long.vtu", meshio.Mesh(mesh.points * 1e3, [("tetra", mesh.blocks[0][1])]))
    r = _femdyn("long.vtu", "--unit", "m", "--interface", "root=box:-1,-1,-1,1,100,100", cwd=tmp_path)
    assert r.returncode == 2
    assert "pass --unit mm" in r.stderr and "unit='" not in r.stderr


def _selector_section():
    """The text of docs/components.md's "Interface selectors" section."""
    text = open(os.path.join(ROOT, "docs", "components.md"), encoding="utf-8").read()
    return text.split("## Interface selectors", 1)[1].split("\n## ", 1)[0]


def test_selector_table_lists_what_select_accepts():
    """The documented selector kinds and their counts of numbers are those of femdyn.mesh.solid.select."""
    from femdyn.mesh.solid import SELECTOR_NUMBERS
    documented = {}
    for row in _selector_section().splitlines():
        if row.startswith("| `"):
            syntax = row.split("`")[1]
            kind, _, numbers = syntax.partition(":")
            required = numbers.split("[")[0].split(",")
            optional = numbers.count("[,")
            documented[kind] = tuple(range(len(required), len(required) + optional + 1))
    assert documented.pop("group") == (1,)
    assert documented == SELECTOR_NUMBERS


def test_selector_example_runs(tmp_path):
    """The section's command line, copied literally, reduces the bar it describes."""
    import shlex

    import numpy as np
    from femdyn.mesh.generate import box_mesh
    block = _selector_section().split("```bash\n", 1)[1].split("```", 1)[0]
    argv = shlex.split(block.replace("\\\n", " "))
    assert argv[:2] == ["femdyn", "reduce"]
    mesh = box_mesh((0.1, 0.01, 0.01), (10, 1, 1))
    x0 = np.isin(np.arange(mesh.n_nodes), mesh.node_set("x0")).astype(np.int32)
    meshio.write(tmp_path / "bar.vtu", meshio.Mesh(mesh.points * 1e3, [("tetra", mesh.blocks[0][1])],
                                                   point_data={"x0": x0}))
    r = _femdyn(*argv[2:], cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "root (4 nodes, rigid, origin [0.0, 0.005, 0.005] m)" in r.stdout
    assert "tip (4 nodes, average, origin [0.1, 0.005, 0.005] m)" in r.stdout
    assert (tmp_path / "bar.fdc").exists()
