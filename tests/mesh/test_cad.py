"""CAD parts drawn in millimetres, written as STEP, IGES and BREP, meshed by femdyn.mesh.cad_mesh: units from
the file, mass and clamped frequency against closed forms, bores found from the geometry, the mesh report and
its refusals, assemblies. Meshes with one Gmsh thread: HXT is then deterministic (same file, same mesh)."""
import os
import subprocess
import sys

import numpy as np
import pytest
import scipy.sparse.linalg as sla

from femdyn.elements.solid_body import SolidBody
from femdyn.mesh.cad import cad_faces, file_unit
from femdyn.mesh.cad_mesh import mesh_cad
from femdyn.mesh.solid import MeshError, read_solid_mesh, select
from femdyn.solvers.reduction import Interface, craig_bampton
from support import ROOT
from support.cad_parts import BAR_BOX, LINK_BORES, LINK_BOX, write_part

E, NU, RHO = 6.9e10, 0.3, 2700.0


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    """The link (bores) as STEP, IGES and BREP, and the bar as STEP, all drawn in mm."""
    folder = tmp_path_factory.mktemp("cad")
    files = {ext: write_part(folder / f"link.{ext}", [LINK_BOX], LINK_BORES) for ext in ("step", "iges", "brep")}
    files["bar"] = write_part(folder / "bar.step", [BAR_BOX])
    return files


def bore_interface(cad, k):
    """The rigid Interface on bore face ``k``, its origin on the bore's axis."""
    nodes, origin = cad.interface(f"bore:{k}")
    return Interface(f"b{k}", nodes, "rigid", origin)


def test_units_come_from_the_file(parts):
    """STEP and IGES declare mm; BREP declares nothing and needs a unit; a contradicting unit is refused."""
    assert file_unit(parts["step"]) == file_unit(parts["iges"]) == "mm" and file_unit(parts["brep"]) is None
    with pytest.raises(MeshError, match="BREP file declares no length unit; pass --unit mm"):
        cad_faces(parts["brep"])
    with pytest.raises(MeshError, match="declares its lengths in mm, not m"):
        cad_faces(parts["step"], unit="m")


def test_step_bar_in_mm_mass_and_clamped_frequency(parts):
    """The 200 × 10 × 10 mm bar from STEP: mass ρ L b h to 0.5 % (a box: to 1e-9, the mesh fills it exactly),
    clamped first frequency 1.8751²/2π √(EI/ρAL⁴) to 2 % (Euler–Bernoulli; shear and the clamped root's Poisson
    stiffening of L/h = 20 add about 0.1 %, the Tet10 mesh of 5 mm about 0.1 %)."""
    cad = mesh_cad(parts["bar"], 0.005, threads=1)
    assert np.allclose(np.ptp(cad.mesh.points, axis=0), [0.2, 0.01, 0.01], rtol=1e-12)
    assert cad.mesh.element_types() == ["tet10"] and cad.origin["unit"] == "mm"
    body = SolidBody(cad.mesh, E, NU, RHO)
    mass = body.mass_properties()["mass"]
    assert mass == pytest.approx(RHO * 0.2 * 0.01 * 0.01, rel=1e-9)
    root, _ = cad.interface("face:1")
    assert np.allclose(cad.mesh.points[root, 0], 0.0)
    red = craig_bampton(body, [Interface("root", root, "rigid", None)], 2)
    f_beam = 1.8751040687 ** 2 / (2 * np.pi) * np.sqrt(E * 0.01 ** 4 / 12 / (RHO * 0.01 ** 2 * 0.2 ** 4))
    assert red.omega_fixed[0] / (2 * np.pi) == pytest.approx(f_beam, rel=0.02)


def test_bores_found_from_the_geometry_to_1e_9(tmp_path):
    """An oblique bore (axis (1, 2, 2)/3, radius 4.2 mm) and a straight one: axis, radius and centre on the axis to
    1e-9 of the drawn values; the bore's centre is the middle of its length inside the block."""
    axis = np.array([1.0, 2.0, 2.0]) / 3
    start = np.array([30.0, 30.0, 30.0]) - 40 * axis
    path = write_part(tmp_path / "block.step", [(0, 0, 0, 60, 60, 60)],
                      [(*start, *(80 * axis), 4.2), (10, 10, -1, 0, 0, 62, 3.0)])
    bores = [f for f in cad_faces(path) if f.is_bore]
    assert len(bores) == 2
    oblique = next(f for f in bores if f.radius > 0.004)
    straight = next(f for f in bores if f.radius < 0.004)
    assert abs(oblique.radius - 0.0042) < 1e-9 * 0.0042 and abs(straight.radius - 0.003) < 1e-9 * 0.003
    assert np.abs(oblique.axis - axis).max() < 1e-9 and np.abs(straight.axis - [0, 0, 1]).max() < 1e-9
    assert np.abs(oblique.centre - 0.03).max() < 1e-9 * 0.06          # the block's centre is on the oblique axis
    assert np.abs(straight.centre - [0.01, 0.01, 0.03]).max() < 1e-9 * 0.06
    assert not any(f.is_bore for f in cad_faces(path) if f.kind == "Plane")


def test_bore_interface_equals_the_same_nodes_by_coordinates(parts):
    """bore:N selects exactly the cylinder selector's nodes at the drawn axis and radius, its origin is the drawn
    bore centre (to 1e-12 m: the drawn numbers in m differ in the last bit), and the reduced matrices agree to
    1e-12 of their largest entry (the level at which two reductions of the same interfaces differ: the
    iterative eigensolver's start)."""
    cad = mesh_cad(parts["step"], 0.006, threads=1)
    by_bore = [bore_interface(cad, k) for k in (7, 8)]
    by_xyz = [Interface(f"b{k}", select(cad.mesh, f"cylinder:{x / 1e3},{y / 1e3},0,0,0,1,0.005"), "rigid",
                        np.array([x, y, 5.0]) / 1e3) for k, (x, y, *_) in zip((7, 8), LINK_BORES)]
    for a, b in zip(by_bore, by_xyz):
        assert np.array_equal(a.nodes, b.nodes) and np.abs(a.origin - b.origin).max() < 1e-12
    body = SolidBody(cad.mesh, E, NU, RHO)
    r1, r2 = craig_bampton(body, by_bore, 4), craig_bampton(body, by_xyz, 4)
    again = craig_bampton(body, by_bore, 4)
    for A, B, C in ((r1.K_cb, r2.K_cb, again.K_cb), (r1.M_cb, r2.M_cb, again.M_cb)):
        tol = 1e-12 * np.abs(A).max()
        assert np.abs(A - B).max() < tol and np.abs(A - C).max() < tol


def test_iges_and_brep_give_the_step_component(parts):
    """The link as STEP, IGES and BREP: the same faces (areas, centres, bores to 1e-9) and, meshed, the same mass
    (closed form ρ t (L w − 2πr²) to 0.5 %, one another to 1e-5) and bore-to-bore clamped frequencies to 0.3 %
    (0.07 % found: three meshes of the same exact geometry differ, OpenCASCADE's parametrizations differing
    between the formats)."""
    faces = {ext: cad_faces(parts[ext], unit="mm" if ext == "brep" else None) for ext in ("step", "iges", "brep")}
    for ext in ("iges", "brep"):
        for a, b in zip(faces["step"], faces[ext]):
            assert a.number == b.number and a.is_bore == b.is_bore
            assert abs(a.area - b.area) < 1e-9 * a.area and np.abs(a.centre - b.centre).max() < 1e-9
            if a.is_bore:
                assert abs(a.radius - b.radius) < 1e-12 and np.abs(a.axis - b.axis).max() < 1e-9
    closed = RHO * 0.01 * (0.2 * 0.02 - 2 * np.pi * 0.005 ** 2)
    found = {}
    for ext in ("step", "iges", "brep"):
        cad = mesh_cad(parts[ext], 0.008, unit="mm" if ext == "brep" else None, threads=1)
        body = SolidBody(cad.mesh, E, NU, RHO)
        assert body.mass_properties()["mass"] == pytest.approx(closed, rel=0.005)
        red = craig_bampton(body, [bore_interface(cad, k) for k in (7, 8)], 3)
        found[ext] = (body.mass_properties()["mass"], red.omega_fixed[:3])
    for ext in ("iges", "brep"):
        assert found[ext][0] == pytest.approx(found["step"][0], rel=1e-5)
        assert np.allclose(found[ext][1], found["step"][1], rtol=3e-3)


def test_iges_first_in_a_process_is_read_in_its_unit(parts):
    """OpenCASCADE cannot be told the target unit of an IGES file before its STEP reader has run in the process:
    the IGES file then comes in mm and femdyn scales it; a fresh process that reads the IGES file first finds the
    same bores in m."""
    code = ("from femdyn.mesh.cad import cad_faces; "
            f"print([(f.radius, *f.centre) for f in cad_faces({str(parts['iges'])!r}) if f.is_bore])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))
    bores = np.array(eval(run.stdout.strip().splitlines()[-1]))
    assert np.abs(bores - [[0.005, 0.015, 0.01, 0.005], [0.005, 0.185, 0.01, 0.005]]).max() < 1e-12, run.stderr


def test_direct_mesh_equals_the_written_msh_file(parts, tmp_path):
    """The mesh taken from Gmsh's memory (Tet10 node order converted) is the .msh file read by meshio, face sets too."""
    cad = mesh_cad(parts["brep"], 0.006, unit="mm", threads=1, msh=tmp_path / "link.msh")
    back = read_solid_mesh(tmp_path / "link.msh")
    assert np.abs(back.points - cad.mesh.points).max() < 1e-15
    assert np.array_equal(back.blocks[0][1], cad.mesh.blocks[0][1])
    assert np.array_equal(back.node_set("face7"), cad.mesh.node_set("face7"))


def test_mesh_report_and_refusal_naming_where(parts):
    """Counts and quality are reported; thresholds above what the mesh reaches refuse it, naming the element and
    its centre."""
    cad = mesh_cad(parts["step"], 0.006, threads=1, order=1)
    r = cad.report
    assert r["elements"] == cad.mesh.n_elements and r["dof"] == 3 * r["nodes"] == cad.mesh.ndof
    assert r["min_scaled_jacobian"] == pytest.approx(1.0) and 1 < r["worst_aspect"] < 20   # straight Tet4: SJ = 1
    assert r["smallest_feature"] == pytest.approx(0.01)
    assert "minimum scaled Jacobian" in cad.report_lines()[1] and "lengths in mm" in cad.report_lines()[0]
    quadratic = mesh_cad(parts["step"], 0.006, threads=1)
    assert 0.1 < quadratic.report["min_scaled_jacobian"] < 1          # curved Tet10 on the bores
    with pytest.raises(MeshError, match=r"minimum scaled Jacobian .* at element \d+, Gmsh \d+, centre \("):
        mesh_cad(parts["step"], 0.006, threads=1, min_jacobian=0.999)
    with pytest.raises(MeshError, match=r"aspect .* at element \d+, Gmsh \d+, centre \("):
        mesh_cad(parts["step"], 0.006, threads=1, max_aspect=1.01)
    with pytest.raises(MeshError, match="not a bore; its bores are faces \\[7, 8\\]"):
        quadratic.interface("bore:3")
    with pytest.raises(MeshError, match="no face '99'"):
        quadratic.interface("face:99")


def test_assembly_needs_a_solid_or_fuse(tmp_path):
    """Two touching boxes kept apart: refused listing both; --solid 2 meshes the second; --fuse the union."""
    path = write_part(tmp_path / "pair.step", [(0, 0, 0, 50, 10, 10), (50, 0, 0, 30, 10, 10)], fuse=False)
    with pytest.raises(MeshError, match="holds 2 solids .*choose one with --solid N or join them with --fuse"):
        mesh_cad(path, 0.01, threads=1)
    second = mesh_cad(path, 0.01, threads=1, solid=2)
    assert np.allclose(second.mesh.points.min(0), [0.05, 0, 0]) and np.allclose(second.mesh.points.max(0), [0.08, 0.01, 0.01])
    both = mesh_cad(path, 0.01, threads=1, fuse=True)
    assert SolidBody(both.mesh, E, NU, RHO).mass_properties()["mass"] == pytest.approx(RHO * 0.08 * 1e-4, rel=1e-9)
    with pytest.raises(MeshError, match="--solid 3: the file holds 2 solid"):
        cad_faces(path, solid=3)


@pytest.mark.slow
def test_free_frequencies_converge_at_the_order_tet10_promises(parts):
    """The bar's first free-free bending frequency under --size 5, 3.5, 2.5 mm against 1.77 mm: the eigenvalue error
    of quadratic elements falls as h⁴ (2p, p = 2). h is the mesh's own length (volume / elements)^(1/3), Gmsh's
    sizes being targets; the fitted order ≥ 3.5. (Clamped frequencies converge more slowly: the clamped root's
    edges are singular.)"""
    h, f = [], []
    for size in (0.005, 0.0035, 0.0025, 0.00177):
        cad = mesh_cad(parts["bar"], size, threads=1, curvature=0)
        body = SolidBody(cad.mesh, E, NU, RHO)
        lam = sla.eigsh(body.stiffness().tocsc(), k=8, M=body.mass().tocsc(), sigma=-1e3, which="LM",
                        return_eigenvectors=False)
        f.append(np.sqrt(np.sort(np.abs(lam))[6]) / (2 * np.pi))
        h.append((0.2 * 1e-4 / cad.mesh.n_elements) ** (1 / 3))
    error = np.abs(np.array(f[:-1]) - f[-1])
    order = np.polyfit(np.log(h[:-1]), np.log(error), 1)[0]
    assert order >= 3.5, (h, f)


def test_example_cad_link(example, tmp_path, capsys):
    """examples/cad_link.py: femdyn show --faces lists the 8 faces (the bores with radius and axis) and draws them in
    several colours; the bores found to 1e-9 of the drawn ones, the component's mass against ρ t (L w − 2πr²) to
    0.5 %, its origin recorded."""
    code, bores, component, closed = example("cad_link").run(str(tmp_path), size=0.008, modes=4)
    assert code == 0 and [f.number for f in bores] == [7, 8]
    assert all(abs(f.radius - 0.005) < 1e-9 * 0.005 for f in bores)
    assert float(component.mass) == pytest.approx(closed, rel=0.005)
    assert component.header["origin"]["unit"] == "mm"
    printed = capsys.readouterr().out
    assert printed.count("  face ") == 8 and printed.count("bore r=0.005 m") == 2 and "axis (0, 0, 1)" in printed
    assert "closed form" in printed
    from PIL import Image
    picture = np.asarray(Image.open(tmp_path / "link-faces" / "faces.png").convert("RGB")).reshape(-1, 3)
    assert len(np.unique(picture // 16, axis=0)) > 6             # several face colours, not an empty frame
