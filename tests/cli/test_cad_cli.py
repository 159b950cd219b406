"""``femdyn reduce PART.step``, ``femdyn mesh``, ``femdyn show PART.step --faces`` and ``femdyn show`` of a component
reduced from a CAD file, as a user runs them; unreadable mesh and CAD files end in one line with exit code 2."""
import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from femdyn.cli.main import main
from femdyn.component import read_component
from femdyn.mesh.solid import read_solid_mesh
from support import ROOT
from support.cad_parts import LINK_BORES, LINK_BOX, write_part


@pytest.fixture(scope="module")
def link(tmp_path_factory):
    """The 200 × 20 × 10 mm link with two bores, drawn in mm and written as STEP."""
    return write_part(tmp_path_factory.mktemp("cad-cli") / "link.step", [LINK_BOX], LINK_BORES)


def test_reduce_a_step_file_in_one_command(link, tmp_path, capsys):
    """Meshed, reported (unit, counts, quality), reduced on its bores, the origin in the header and in femdyn show."""
    out = tmp_path / "link.fdc"
    assert main(["reduce", str(link), "--size", "0.006", "--fine", "0.004", "--threads", "1", "--interface",
                 "a=bore:7", "--interface", "b=bore:8", "--modes", "2", "--quiet", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "mesh of link.step (STEP, lengths in mm converted to m)" in printed and "tet10 elements" in printed
    assert "minimum scaled Jacobian" in printed and "origin [0.015, 0.01, 0.005] m" in printed
    component = read_component(out)
    origin = component.header["origin"]
    assert origin["sha256"] == hashlib.sha256(link.read_bytes()).hexdigest() and origin["unit"] == "mm"
    assert origin["mesh"]["fine_faces"] == [7, 8] and origin["mesh"]["size"] == 0.006
    assert origin["counts"]["nodes"] == len(component.mesh_points)
    assert np.allclose(component.interface_origins, [[0.015, 0.01, 0.005], [0.185, 0.01, 0.005]], atol=1e-15)
    assert float(component.mass) == pytest.approx(2700 * 0.01 * (0.2 * 0.02 - 2 * np.pi * 0.005 ** 2), rel=0.005)
    assert main(["show", str(out), "--no-pictures"]) == 0
    shown = capsys.readouterr().out
    assert f"origin: link.step (STEP, mm), sha256 {origin['sha256']}" in shown
    assert "fine 0.004 m at faces [7, 8] and 0 point(s)" in shown


def test_mesh_command_writes_a_reusable_mesh_in_metres(link, tmp_path, capsys):
    """femdyn mesh writes a .msh in m whose face groups femdyn reduce selects (group:face7)."""
    out = tmp_path / "link.msh"
    assert main(["mesh", str(link), "--size", "0.008", "--order", "1", "--threads", "1", "-o", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    mesh = read_solid_mesh(out)
    assert mesh.element_types() == ["tet4"] and np.allclose(mesh.points.max(0), [0.2, 0.02, 0.01])
    r = np.linalg.norm(mesh.points[mesh.node_set("face7")][:, :2] - [0.015, 0.01], axis=1)
    assert np.allclose(r, 0.005, rtol=1e-9)


@pytest.mark.parametrize("name, content, words", [
    ("text.msh", b"hello world\n", "cannot read mesh 'text.msh' (meshio: Error: Couldn't read file"),
    ("noise.vtu", bytes(range(256)), "cannot read mesh 'noise.vtu' (meshio:"),
    ("empty.msh", b"", "cannot read mesh 'empty.msh' (meshio:"),
    ("cut.msh", b"$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$Nodes\n1 2 1 2\n", "cannot read mesh 'cut.msh' (meshio:"),
    ("text.step", b"not a step file\n", "no STEP length unit found in the file: not a STEP file"),
], ids=["text.msh", "noise.vtu", "empty.msh", "cut.msh", "text.step"])
def test_unreadable_files_end_in_one_line_exit_2(tmp_path, capsys, name, content, words):
    """Mesh files meshio cannot read (it prints and exits, or raises) and a CAD file that is not one: femdyn's one
    line, exit code 2, nothing else printed."""
    (tmp_path / name).write_bytes(content)
    code = main(["reduce", str(tmp_path / name), "--size", "0.01", "--interface", "a=nearest:0,0,0", "--quiet",
                 "-o", str(tmp_path / "x.fdc")])
    said = capsys.readouterr()
    assert code == 2 and said.out == ""
    assert said.err.count("\n") == 1 and said.err.startswith("femdyn: error: ") and words in said.err.replace(
        str(tmp_path) + os.sep, "")


def test_unreadable_mesh_as_a_shell_sees_it(tmp_path):
    """The same in a subprocess: meshio's own exit (code 1) and messages do not get through."""
    (tmp_path / "text.msh").write_text("hello world\n")
    run = subprocess.run([sys.executable, "-m", "femdyn", "reduce", "text.msh", "--interface", "a=nearest:0,0,0",
                          "--quiet"],
                         cwd=tmp_path, capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=ROOT))
    assert run.returncode == 2 and run.stdout == "" and run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith("femdyn: error: cannot read mesh 'text.msh'")


def test_cad_selectors_and_size_are_asked_for(link, tmp_path, capsys):
    """A CAD file without --size, and face:/bore: on a mesh file, are refused naming the fix."""
    assert main(["reduce", str(link), "--interface", "a=bore:7", "-o", str(tmp_path / "x.fdc")]) == 2
    assert "give --size H" in capsys.readouterr().err
    from femdyn.mesh.generate import box_mesh
    import meshio
    mesh = box_mesh((0.1, 0.01, 0.01), (4, 1, 1))
    meshio.write(tmp_path / "bar.vtu", meshio.Mesh(mesh.points, [("tetra", mesh.blocks[0][1])]))
    assert main(["reduce", str(tmp_path / "bar.vtu"), "--interface", "a=bore:7", "-o", str(tmp_path / "x.fdc")]) == 2
    assert "face: and bore: select faces of a CAD file" in capsys.readouterr().err
