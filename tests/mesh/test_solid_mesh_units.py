"""A solid mesh read through the API without its unit warns, as ``femdyn reduce`` refuses, when
its span says millimetres (the one check: femdyn.mesh.solid.mesh_unit_suspect)."""
import warnings

import meshio
import pytest

from femdyn.errors import UnitsWarning
from femdyn.mesh.generate import box_mesh
from femdyn.mesh.solid import mesh_unit_suspect, read_solid_mesh


@pytest.fixture
def bar_mm(tmp_path):
    """A 100 × 10 × 10 mm bar of Tet4 written in millimetres."""
    mesh = box_mesh((0.1, 0.01, 0.01), (10, 1, 1))
    path = tmp_path / "bar.vtu"
    meshio.write(path, meshio.Mesh(mesh.points * 1e3, [("tetra", mesh.blocks[0][1])]))
    return path


def test_a_mesh_in_mm_read_without_unit_warns_with_the_fix(bar_mm):
    with pytest.warns(UnitsWarning, match=r"bar.vtu: the mesh spans 100 m read in metres, .*probably in mm: pass "
                                          r"unit='mm' .*or unit='m' if the part really is that large"):
        mesh = read_solid_mesh(bar_mm)
    assert mesh.points.max() == pytest.approx(100.0)                       # still read in metres, as asked


@pytest.mark.parametrize("unit, span", [("mm", 0.1), ("m", 100.0)])
def test_a_stated_unit_is_taken_without_a_warning(bar_mm, unit, span):
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnitsWarning)
        mesh = read_solid_mesh(bar_mm, unit=unit)
    assert mesh.points[:, 0].max() - mesh.points[:, 0].min() == pytest.approx(span)


def test_a_link_sized_mesh_in_metres_reads_quietly(tmp_path):
    mesh = box_mesh((0.8, 0.02, 0.02), (8, 1, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnitsWarning)
        read_solid_mesh(meshio.Mesh(mesh.points, [("tetra", mesh.blocks[0][1])]))


def test_the_check_is_the_command_lines():
    """The API warning and femdyn reduce's refusal are the one function; the CLI adds the density."""
    from femdyn.model.checks import mesh_unit_suspect as cli_check
    assert cli_check is mesh_unit_suspect
    assert mesh_unit_suspect("m", 9.0) is None and mesh_unit_suspect("m", 100.0, rho=500.0) is None
    assert "at 2700 kg/m³" in mesh_unit_suspect("m", 100.0, rho=2700.0)
