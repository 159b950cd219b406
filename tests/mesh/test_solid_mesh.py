"""Volume mesh import (meshio formats, Gmsh physical groups, node sets), node selectors,
and a clear MeshError or ModelError for every kind of bad input."""
import meshio
import numpy as np
import pytest

from femdyn.elements.solid import TET4
from femdyn.elements.solid_body import SolidBody
from femdyn.errors import ModelError
from femdyn.mesh.generate import box_mesh, rod_mesh
from femdyn.mesh.solid import MeshError, SolidMesh, read_solid_mesh, select


@pytest.fixture(scope="module")
def rod(tmp_path_factory):
    path = tmp_path_factory.mktemp("rod") / "rod.msh"
    return rod_mesh(0.2, 0.01, 0.005, order=2, path=str(path)), str(path)


def test_gmsh_rod_has_physical_groups_and_quadratic_tetrahedra(rod):
    """Physical groups become node sets; Tet10 mid-edge nodes (VTK order, meshio permutes
    Gmsh's) lie within 15 % of an edge length of their edges' midpoints — on the curved
    surface they sit on the circle, up to r(1 − cos(l/2r)) ≈ 6 % of l off the chord for
    l = 5 mm, r = 10 mm; a wrong node order would put them 50 % or more away."""
    mesh, _ = rod
    assert mesh.element_types() == ["tet10"]
    assert {"end0", "end1", "surface", "link"} <= set(mesh.node_sets)
    assert np.allclose(mesh.points[mesh.node_set("end0"), 0], 0.0, atol=1e-12)
    (etype, conn), = mesh.blocks
    edges = np.array([[0, 1], [1, 2], [0, 2], [0, 3], [1, 3], [2, 3]])
    P = mesh.points
    mid = 0.5 * (P[conn[:, edges[:, 0]]] + P[conn[:, edges[:, 1]]])
    length = np.linalg.norm(P[conn[:, edges[:, 0]]] - P[conn[:, edges[:, 1]]], axis=-1)
    assert np.all(np.linalg.norm(P[conn[:, 4:]] - mid, axis=-1) < 0.15 * length)


@pytest.mark.parametrize("fmt,ext", [("vtu", ".vtu"), ("vtk", ".vtk"), ("abaqus", ".inp"), ("gmsh22", ".msh")])
def test_formats_give_the_same_stiffness(tmp_path, fmt, ext):
    """A mesh written by meshio in VTU, legacy VTK, Abaqus and Gmsh 2.2 reads back to the same
    stiffness to round-off (1e-12 relative); the Abaqus node set survives."""
    mesh = box_mesh((0.3, 0.1, 0.1), (3, 1, 1), "tet10")
    (etype, conn), = mesh.blocks
    path = str(tmp_path / f"box{ext}")
    out = meshio.Mesh(mesh.points, [("tetra10", conn)],
                      point_sets={"clamp": mesh.node_sets["x0"]} if fmt == "abaqus" else None)
    meshio.write(path, out, file_format=fmt)
    back = read_solid_mesh(path)
    K0 = SolidBody(mesh, 2e11, 0.3, 7800).stiffness()
    K1 = SolidBody(back, 2e11, 0.3, 7800).stiffness()
    assert abs(K0 - K1).max() < 1e-12 * abs(K0).max()
    if fmt == "abaqus":
        assert np.array_equal(np.sort(back.node_set("clamp")), np.sort(mesh.node_sets["x0"]))


def test_units_scale_and_mm_read_as_m_is_refused(tmp_path):
    """unit='mm' scales by 1e-3; an 815 mm link read as metres spans 815 m > 100 m: MeshError
    naming the fix."""
    mesh = box_mesh((815.0, 20.0, 20.0), (4, 1, 1))
    path = str(tmp_path / "link.vtu")
    meshio.write(path, meshio.Mesh(mesh.points, [("tetra", mesh.blocks[0][1])]))
    assert np.isclose(np.ptp(read_solid_mesh(path, unit="mm").points[:, 0]), 0.815)
    with pytest.raises(MeshError, match="unit='mm'"):
        read_solid_mesh(path)
    with pytest.raises(MeshError, match="unknown length unit"):
        read_solid_mesh(path, unit="furlong")


def test_material_in_wrong_units_is_refused():
    """E given in GPa or ρ in g/cm³ is caught with the conversion in the message."""
    mesh = box_mesh((1, 0.1, 0.1), (2, 1, 1))
    with pytest.raises(ModelError, match="give E in Pa"):
        SolidBody(mesh, 210.0, 0.3, 7800)
    with pytest.raises(ModelError, match="g/cm³"):
        SolidBody(mesh, 2.1e11, 0.3, 7.8)
    with pytest.raises(ModelError, match="Poisson"):
        SolidBody(mesh, 2.1e11, 0.5, 7800)


def _tets():
    return np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 1]], float), np.array([[0, 1, 2, 3], [1, 2, 3, 4]])


def test_inverted_element_is_named():
    """Swapping two nodes inverts element 1: MeshError naming 'inverted' and id 1."""
    P, C = _tets()
    C[1] = C[1][[1, 0, 2, 3]]
    with pytest.raises(MeshError, match=r"inverted tet4 element\(s\).*ids \[1\]"):
        SolidMesh(P, [(TET4, C)])


def test_degenerate_element_is_named():
    """A flat tetrahedron (4th node nearly in the plane of the others) is degenerate."""
    P, C = _tets()
    P[4] = [0.5, 0.5, 1e-9]
    P[4] = P[1] + 0.3 * (P[2] - P[1]) + 0.2 * (P[3] - P[1]) + [1e-9, 1e-9, 1e-9]
    with pytest.raises(MeshError, match=r"degenerate tet4.*ids \[1\]"):
        SolidMesh(P, [(TET4, C)])


def test_disconnected_mesh_is_refused():
    """Two tetrahedra sharing no node form two parts."""
    P, C = _tets()
    P = np.vstack([P[:4], P[:4] + 5.0])
    with pytest.raises(MeshError, match="2 disconnected parts"):
        SolidMesh(P, [(TET4, np.array([[0, 1, 2, 3], [4, 5, 6, 7]]))])
    with pytest.raises(MeshError, match=r"nodes \[4, 5, 6, 7\] belong to no element"):
        SolidMesh(P, [(TET4, np.array([[0, 1, 2, 3]]))])


def test_unsupported_and_missing_volume_cells(tmp_path):
    """Wedges (and other volume cells) are refused by name; a surface-only mesh too."""
    P = np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1]], float)
    path = str(tmp_path / "wedge.vtu")
    meshio.write(path, meshio.Mesh(P, [("wedge", np.array([[0, 1, 2, 3, 4, 5]]))]))
    with pytest.raises(MeshError, match="unsupported volume cells.*wedge"):
        read_solid_mesh(path)
    meshio.write(path, meshio.Mesh(P, [("triangle", np.array([[0, 1, 2]]))]))
    with pytest.raises(MeshError, match="no volume cells"):
        read_solid_mesh(path)
    with pytest.raises(MeshError, match="cannot read mesh"):
        read_solid_mesh(str(tmp_path / "missing.msh"))


def test_selectors(rod):
    """box, cylinder, nearest and group selectors agree with each other and with geometry;
    bad selectors raise MeshError."""
    mesh, _ = rod
    end = select(mesh, "box:-1,-1,-1,1e-9,1,1")
    assert np.array_equal(end, np.sort(mesh.node_set("end0")))
    assert np.array_equal(select(mesh, "group:end1"), mesh.node_set("end1"))
    ring = select(mesh, "cylinder:0,0,0,1,0,0,0.01,1e-6")
    r = np.linalg.norm(mesh.points[ring, 1:], axis=1)
    assert np.allclose(r, 0.01, atol=1e-6) and set(ring) <= set(mesh.node_set("surface")) | set(end)
    (k,) = select(mesh, "nearest:0.1,0.0,0.01")
    assert np.linalg.norm(mesh.points[k] - [0.1, 0, 0.01]) < 0.005
    for bad, msg in [("box:1,2", "takes 6"), ("sphere:1,2,3", "unknown kind"), ("box:a,b,c,d,e,f", "numbers"),
                     ("group:nothere", "no node set"), ("box:5,5,5,6,6,6", "selects no node")]:
        with pytest.raises(MeshError, match=msg):
            select(mesh, bad)
