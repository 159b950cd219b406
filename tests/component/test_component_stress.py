"""Strains, stresses and strain gauges of a component (file version 1.2), proven on a clamped
solid cantilever (0.5 m steel bar, 20 mm × 20 mm, Tet10, 25 × 2 × 2 cells) under a static tip
load F: the surface axial strain against M c/(E I) within 2 % away from the ends (the coarse
mesh's gauges sit within 1.3 % of beam theory, nodal recovery within 1.8 %), the same strain
read by a floating-frame body in static equilibrium and by a recursive modal body after a
damped run, von Mises two bar heights from the clamp against the beam's M c/I, and the patch
test: a constant strain field is recovered to round-off at every node and gauge."""
import functools

import numpy as np
import pytest

import femdyn
from femdyn import component as fc
from femdyn.elements.solid_body import SolidBody
from femdyn.mesh.generate import box_mesh
from femdyn.solvers import static_equilibrium
from femdyn.solvers.recursive import FlexibleTreeModel, Joint, ModalBody, body_gauges, body_stresses, simulate_flexible
from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton
from femdyn.solvers.stress_modes import nodal_strain_modes, surface_nodes, with_strains

L, B, H, E, NU, F = 0.5, 0.02, 0.02, 2.1e11, 0.3, 100.0
XS = (0.1, 0.2, 0.3, 0.4)
I = B * H ** 3 / 12


def beam_strain(x):
    """Top-fibre axial strain M c/(E I) of the cantilever under the tip load F [N] pointing down."""
    return F * (L - x) * (H / 2) / (E * I)


@functools.lru_cache(maxsize=None)
def bar():
    """(body, reduction, component): the bar reduced to its root (rigid) and tip (averaging) frames, 10 modes."""
    mesh = box_mesh((L, B, H), (25, 2, 2), "tet10", origin=(0, -B / 2, -H / 2))
    body = SolidBody(mesh, E, NU, 7850.0)
    red = craig_bampton(body, [Interface("root", mesh.node_sets["x0"]), Interface("tip", mesh.node_sets["x1"], "average")],
                        10, damping_ratio=0.7)
    gauges = [fc.ComponentGauge(f"g{x:g}", (x, 0, H / 2), (1, 0, 0), 0.01) for x in XS]
    return body, red, with_strains(component_from_reduction(red), red, "surface", gauges)


def static_eta(component):
    """Modal coordinates of the clamped static equilibrium under the tip load."""
    return np.linalg.solve(component.modal_stiffness, component.interface_shapes[1, :3].T @ np.array([0, 0, -F]))


def test_surface_strain_and_von_mises_match_beam_theory():
    """Gauges (10 mm grids) and recovered surface nodes at 0.1 … 0.4 m against M c/(E I) within 2 %;
    von Mises at the top surface 2 H from the clamp (St-Venant: the rigid clamp's Poisson restraint
    has decayed) against M c/I within 1 % (the coarse mesh gives 0.45 %)."""
    _, _, comp = bar()
    clamped = fc.reference_to_interface(comp, "root")
    eta = static_eta(clamped)
    names, rows = fc.gauge_modes(clamped)
    assert names == [f"g{x:g}" for x in XS]
    want = np.array([beam_strain(x) for x in XS])
    assert np.allclose(rows @ eta, want, rtol=0.02)
    nodal = np.array([fc.stress_rows(clamped, (x, 0, H / 2)) @ eta for x in XS])
    assert np.allclose(nodal[:, 0], want, rtol=0.02)
    state = fc.stress_state(clamped, fc.stress_rows(clamped, (2 * H, 0, H / 2)) @ eta)
    assert state[9] == pytest.approx(F * (L - 2 * H) * (H / 2) / I, rel=0.01)
    assert state[6] == pytest.approx(state[9], rel=0.02) and abs(state[8]) < 0.02 * state[6]


def test_patch_test_recovers_a_constant_strain_exactly():
    """u = G x with a random gradient G: every surface node and every gauge reads the strain of G to round-off."""
    body, red, _ = bar()
    G = np.random.default_rng(7).normal(size=(3, 3)) * 1e-3
    u = (body.mesh.points @ G.T).reshape(-1, 1)
    want = np.array([G[0, 0], G[1, 1], G[2, 2], G[1, 2] + G[2, 1], G[0, 2] + G[2, 0], G[0, 1] + G[1, 0]])
    nodes = surface_nodes(body.mesh)
    assert len(nodes) == body.mesh.n_nodes - 49 * 3 * 3           # every node but the 49 × 3 × 3 interior ones
    got = nodal_strain_modes(body, u, nodes)[..., 0]
    assert np.abs(got - want).max() <= 1e-13
    gauge = fc.ComponentGauge("diagonal", (0.25, 0.0, H / 2), (1, 1, 0), 0.01)
    points, weights, d = gauge.places()
    read = weights @ (body.strain_operator(points) @ u).reshape(-1, 6) @ fc.stress.direction_row(d)
    assert read == pytest.approx(d @ (0.5 * (G + G.T)) @ d, abs=1e-15)


def test_points_between_nodes_read_the_interpolated_surface_strain():
    """Top-surface points between the stored nodes (x off the 10 mm node rows, y off the 5 mm ones):
    the nodal strain modes interpolated inside the cell holding the point against M c/(E I) within
    2 % (measured 0.3–1.5 %), away from the ends as in the gauges' test."""
    _, _, comp = bar()
    clamped = fc.reference_to_interface(comp, "root")
    eta = static_eta(clamped)
    for x, y in ((0.113, 0.003), (0.215, -0.007), (0.333, 0.0099)):
        assert fc.stress_rows(clamped, (x, y, H / 2))[0] @ eta == pytest.approx(beam_strain(x), rel=0.02)


@pytest.mark.parametrize("element", ["tet10", "tet10 quadratic", "hex8"])
def test_patch_test_holds_between_the_nodes(element):
    """u = G x per mode (random G): at random points of every face, and on edges, the interpolated
    strain equals the strain of G to round-off (1e-13 on strains of order 1e-3: linear over the
    corners, quadratic Tet10 and trilinear shape functions reproduce a constant nodal field
    exactly); an interior point is refused."""
    from types import SimpleNamespace
    element, quadratic = element.split()[0], element.endswith("quadratic")
    mesh = box_mesh((L, B, H), (5, 2, 2), element, origin=(0, -B / 2, -H / 2))
    body = SolidBody(mesh, E, NU, 7850.0)
    rng = np.random.default_rng(3)
    G = rng.normal(size=(2, 3, 3)) * 1e-3
    u = np.einsum("kij,nj->nik", G, mesh.points).reshape(-1, 2)
    nodes = surface_nodes(mesh)
    corners = np.vstack([conn[:, etype.corners] for etype, conn in mesh.blocks])
    key = "mesh_tetra" if element == "tet10" else "mesh_hexahedron"
    fake = SimpleNamespace(header={"name": element}, arrays={
        "mesh_points": mesh.points, key: corners, "stress_nodes": nodes, "gauge_points": np.zeros((0, 3)),
        "stress_strain_modes": nodal_strain_modes(body, u, nodes)})
    if quadratic:
        fake.arrays["mesh_tetra10"] = mesh.blocks[0][1]
    want = np.stack([[g[0, 0], g[1, 1], g[2, 2], g[1, 2] + g[2, 1], g[0, 2] + g[2, 0], g[0, 1] + g[1, 0]] for g in G], 1)
    low, high = np.array([0, -B / 2, -H / 2]), np.array([L, B / 2, H / 2])
    for face in range(6):
        p = low + rng.uniform(size=3) * (high - low)
        p[face // 2] = (low, high)[face % 2][face // 2]
        assert np.abs(fc.stress_rows(fake, p) - want).max() <= 1e-13
    assert np.abs(fc.stress_rows(fake, (0.17, B / 2, H / 2)) - want).max() <= 1e-13
    with pytest.raises(fc.ComponentShapeError, match="nor on a face of its stress nodes"):
        fc.stress_rows(fake, (0.17, 0.001, 0.002))


def test_quadratic_cells_reproduce_a_quadratic_nodal_field():
    """Nodal strain modes sampled from a random quadratic polynomial of position (6 strains × 2 modes):
    at random points of every face of a Tet10 bar the quadratic cells reproduce it to round-off
    (1e-12 relative: the 10 shape functions span the quadratics on a straight-sided tetrahedron);
    linear interpolation over the corners misses by the curvature × h², measured 4.0 % of the field
    here (asserted > 0.5 %)."""
    from types import SimpleNamespace
    mesh = box_mesh((L, B, H), (5, 2, 2), "tet10", origin=(0, -B / 2, -H / 2))
    rng = np.random.default_rng(11)
    c, G, Q = rng.normal(size=(12,)), rng.normal(size=(12, 3)), rng.normal(size=(12, 3, 3))

    def field(x):
        """The quadratic field (…, 6, 2) at positions x, in coordinates scaled by the bar's size."""
        s = np.asarray(x) / (L, B, H)
        return (c + s @ G.T + np.einsum("...i,kij,...j->...k", s, Q, s)).reshape(s.shape[:-1] + (6, 2))
    nodes = surface_nodes(mesh)
    arrays = {"mesh_points": mesh.points, "mesh_tetra": mesh.blocks[0][1][:, :4], "stress_nodes": nodes,
              "gauge_points": np.zeros((0, 3)), "stress_strain_modes": field(mesh.points[nodes])}
    linear = SimpleNamespace(header={"name": "linear"}, arrays=arrays)
    quadratic = SimpleNamespace(header={"name": "quadratic"}, arrays=dict(arrays, mesh_tetra10=mesh.blocks[0][1]))
    low, high = np.array([0, -B / 2, -H / 2]), np.array([L, B / 2, H / 2])
    scale, miss = np.abs(arrays["stress_strain_modes"]).max(), 0.0
    for face in range(6):
        for _ in range(5):
            p = low + rng.uniform(size=3) * (high - low)
            p[face // 2] = (low, high)[face % 2][face // 2]
            assert np.abs(fc.stress_rows(quadratic, p) - field(p)).max() <= 1e-12 * scale
            miss = max(miss, np.abs(fc.stress_rows(linear, p) - field(p)).max() / scale)
    assert miss > 0.005


def test_uniform_load_cantilever_reads_closer_with_quadratic_cells():
    """The clamped Tet10 bar (25 × 2 × 2) under its own weight (uniform load w: M = w (L − x)²/2,
    quadratic in x), solved in full: at 135 top-surface points between the nodes (x at ¼, ½, ¾ of
    each cell row from 0.1 to 0.4 m), the axial strain interpolated from the recovered nodal strains
    against M c/(E I). Measured: quadratic cells 1.36 %, linear over the corners 5.05 %, the FE strain
    at the point itself 2.40 %; against that FE strain, quadratic 0.78 % and linear 1.77 % of its
    largest value. Asserted: quadratic within 2 % of beam theory and at most half the linear error,
    and closer to the FE strain than linear."""
    from types import SimpleNamespace
    import scipy.sparse.linalg as spla
    body, _, _ = bar()
    mesh, rho, g = body.mesh, 7850.0, 9.81
    acc = np.zeros(body.ndof)
    acc[2::3] = -g
    free = np.ones(body.ndof, bool)
    free[(3 * mesh.node_sets["x0"][:, None] + np.arange(3)).ravel()] = False
    K = body.stiffness().tocsr()[free][:, free]
    u = np.zeros(body.ndof)
    u[free] = spla.spsolve(K.tocsc(), (body.mass() @ acc)[free])
    nodes = surface_nodes(mesh)
    arrays = {"mesh_points": mesh.points, "mesh_tetra": mesh.blocks[0][1][:, :4], "stress_nodes": nodes,
              "gauge_points": np.zeros((0, 3)), "stress_strain_modes": nodal_strain_modes(body, u[:, None], nodes)}
    linear = SimpleNamespace(header={"name": "linear"}, arrays=arrays)
    quadratic = SimpleNamespace(header={"name": "quadratic"}, arrays=dict(arrays, mesh_tetra10=mesh.blocks[0][1]))
    xs = [x0 + 0.02 * f for x0 in np.arange(0.1, 0.39, 0.02) for f in (0.25, 0.5, 0.75)]
    points = np.array([(x, y, H / 2) for x in xs for y in (-B / 4 + 3e-4, 1.1e-3, B / 2 - 2.3e-3)])
    beam = rho * B * H * g * (L - points[:, 0]) ** 2 / 2 * (H / 2) / (E * I)
    fe = body.strain(u, points)[:, 0]
    lin, quad = (np.array([fc.stress_rows(c, p)[0, 0] for p in points]) for c in (linear, quadratic))
    error = {k: np.abs(v / beam - 1).max() for k, v in (("linear", lin), ("quadratic", quad))}
    assert error["quadratic"] < 0.02 and error["quadratic"] < 0.5 * error["linear"]
    assert np.abs(quad - fe).max() < np.abs(lin - fe).max()


def test_gauges_off_the_surface_are_placed_on_it_and_far_ones_are_refused():
    """Gauges given 0.1 mm above and 0.1 mm below the bar's top face (as a CAD point off the facets
    would be) are placed on it: centre and grid points at z = H/2 to round-off, the header's point is
    the placed centre and its offset the move (±0.1 mm), the summary and `femdyn show` say so, and they
    read what a gauge given on the face reads (1e-12 relative). A centre 10 mm inside (the bar's
    axis) or 10 mm outside, farther than 0.25 × the local face size (22 mm diagonal here), is
    refused with a ComponentShapeError naming the gauge, the distance and the nearest surface point."""
    from femdyn.cli.show import strain_lines
    _, red, _ = bar()
    plain = component_from_reduction(red)
    given = {"on": H / 2, "above": H / 2 + 1e-4, "below": H / 2 - 1e-4}
    comp = with_strains(plain, red, gauges=[fc.ComponentGauge(k, (0.2, 0.001, z), (1, 0.3, 0), 0.01)
                                            for k, z in given.items()])
    entries = {g["name"]: g for g in comp.header["gauges"]}
    for name, z in given.items():
        g = entries[name]
        assert np.allclose(g["point"], (0.2, 0.001, H / 2), rtol=0, atol=1e-15)
        assert np.allclose(g["offset"], (0, 0, H / 2 - z), rtol=0, atol=1e-15)
        assert np.allclose(comp.gauge_points[g["rows"], 2], H / 2, rtol=0, atol=1e-15)
    names, rows = fc.gauge_modes(comp)
    assert np.abs(rows - rows[0]).max() <= 1e-12 * np.abs(rows[0]).max()
    assert "3 strain gauges placed on the nearest point of the meshed surface, moved at most 0.0001 m" in comp.summary()
    assert "(moved 0.0001 m onto the surface)" in "\n".join(strain_lines(comp))
    for z, where in ((0.0, "inside the body, below"), (H / 2 + 0.01, "off")):
        with pytest.raises(fc.ComponentShapeError, match=f"gauge 'far': its centre .* lies 0.01 m {where} the meshed "
                                                         r"surface .* give a point on the surface \(the nearest is"):
            with_strains(plain, red, gauges=[fc.ComponentGauge("far", (0.2, 0.0, z), (1, 0, 0))])


def test_gauges_on_the_nominal_cylinder_land_on_the_meshed_rod():
    """A rod (r = 10 mm, Gmsh, 6 mm elements): hoop gauges (4 mm grids) given on the nominal cylinder
    at four angles land on the meshed surface, grid points too (their straight grid's ends would
    lie outside). Tet10: the quadratic faces follow the cylinder, the gauges move at most 5 µm
    (measured 1.9 µm, grid points included); Tet4: the flat facets lie inside it, the gauges move
    up to the sagitta r (1 − cos(π/6)) of a 60° facet, bound asserted (measured 0.33 mm). A point on
    the axis is refused, naming the distance."""
    from femdyn.component.stress import boundary_faces, place_gauge
    from femdyn.mesh.generate import rod_mesh
    for order, most in ((2, 5e-6), (1, 0.01 * (1 - np.cos(np.pi / 6)))):
        mesh = rod_mesh(0.2, 0.01, 0.006, order=order)
        cells = [conn for _, conn in mesh.blocks]
        faces = boundary_faces(cells)
        for angle in np.radians([0.0, 7.0, 13.0, 90.0]):
            gauge = fc.ComponentGauge("hoop", (0.1, 0.01 * np.sin(angle), 0.01 * np.cos(angle)),
                                      (0, np.cos(angle), -np.sin(angle)), 0.004)
            grid, _, _, centre = place_gauge(gauge, mesh.points, cells, faces)
            assert np.linalg.norm(centre - gauge.point) <= most
            assert np.all(np.hypot(grid[:, 1], grid[:, 2]) <= 0.01 + 1e-9)
        with pytest.raises(fc.ComponentShapeError, match=r"gauge 'axis': its centre .* lies 0.009\d* m inside"):
            place_gauge(fc.ComponentGauge("axis", (0.1, 0.0, 0.0)), mesh.points, cells, faces)


def test_referenced_gauges_keep_their_centre_with_their_grid_points():
    """After re-referencing to an interface, each gauge's header point is the weighted centre of its
    grid points (both in the new reference frame, to round-off)."""
    _, _, comp = bar()
    for c in (comp, fc.reference_to_interface(comp, "tip")):
        for g in c.header["gauges"]:
            assert np.allclose(np.asarray(g["weights"]) @ c.gauge_points[g["rows"]], g["point"], atol=1e-15)
    moved = fc.reference_to_interface(comp, "tip").header["gauges"][0]["point"]
    assert np.allclose(moved, np.array(comp.header["gauges"][0]["point"]) - comp.interface_origins[1], atol=1e-15)


def test_floating_frame_body_and_recursive_body_read_the_same_strains():
    """Floating-frame body welded at its root, static equilibrium under the tip force (geometric
    nonlinearity of a 1.5 mm tip deflection: 1e-4 relative), and the recursive modal body clamped
    by motion-given joints under the same force, critically damped (ζ = 1 in every clamped mode) and
    run for 0.05 s (the first clamped mode, 67 Hz, decays by e⁻²¹): gauges and stresses agree with
    the clamped static solution within 1e-3 relative."""
    _, _, comp = bar()
    clamped = fc.reference_to_interface(comp, "root")
    eta = static_eta(clamped)
    names, rows = fc.gauge_modes(clamped)
    m = femdyn.Model("clamped bar", gravity=(0, 0, 0))
    link = m.flexible_body("bar", clamped)
    m.weld("clamp", m.ground, link.interface("root"), (0, 0, 0))
    tip = clamped.interface_origins[1]
    m.force("F", link.interface("tip"), tip, (0, 0, -F))
    for name in names:
        m.sensor_component_gauge(name, "bar")
    m.sensor_stress("root", "bar", (2 * H, 0, H / 2))
    s = m.assemble()
    q, lam = static_equilibrium(s)
    read = {c: val for sensor in s.sensors for c, val in zip(sensor.columns, sensor.measure(q, 0 * q, None, lam, 0.0))}
    assert np.allclose([read[f"{n}.strain"] for n in names], rows @ eta, rtol=1e-3)
    stress = fc.stress_state(clamped, fc.stress_rows(clamped, (2 * H, 0, H / 2)) @ eta)
    assert read["root.von_mises"] == pytest.approx(stress[9], rel=1e-3)

    omega = 2 * np.pi * clamped.frequencies
    damped = fc.Component(clamped.header, dict(clamped.arrays, modal_damping=np.diag(2 * omega)))   # ζ = 1
    model = FlexibleTreeModel([ModalBody("bar", "world", Joint("revolute", (0, 1, 0)), component=damped, inner="root"),
                               ModalBody("tip", "bar", Joint("revolute", (0, 1, 0)), at="tip", mass=1e-3,
                                         inertia=(1e-9, 1e-9, 1e-9, 0.0, 0.0, 0.0))], gravity=(0, 0, 0))
    f_ext = np.zeros((2, 6))
    f_ext[1, 5] = -F
    run = simulate_flexible(model, model.neutral_configuration(), np.zeros(model.nv), 0.05, 2e-5, method="rk4",
                            prescribed=[True, True], f_ext=f_ext)
    gauges = body_gauges(model, run, "bar")
    assert np.allclose([gauges[f"{n}.strain"][-1] for n in names], rows @ eta, rtol=1e-3)
    assert body_stresses(model, run, "bar", (2 * H, 0, H / 2))[-1, 9] == pytest.approx(stress[9], rel=1e-3)


def test_version_1_0_and_1_1_files_still_read_and_1_2_round_trips(tmp_path):
    """A file written as version 1.0 (no stress nodes, no gauges) reads; a 1.2 file with both round-trips bit for bit,
    its quadratic cells (``mesh_tetra10``, the Tet10 blocks' cells, corners first as ``mesh_tetra``) included; a
    1.1 file (the same without ``mesh_tetra10``) reads and interpolates linearly over the corners, as a 1.1 reader
    does with a 1.2 file (it ignores the field it does not know); quadratic cells that disagree with the corners are
    refused."""
    body, _, comp = bar()
    assert comp.header["version"] == fc.VERSION == "1.3"
    assert np.array_equal(comp.mesh_tetra10, body.mesh.blocks[0][1]) and np.array_equal(comp.mesh_tetra10[:, :4],
                                                                                         comp.mesh_tetra)
    old = fc.Component(dict(comp.header, version="1.0"), {k: v for k, v in comp.arrays.items()
                                                            if not k.startswith("stress")})
    old.header.pop("gauges")
    old.header.pop("stress")
    fc.write_component(tmp_path / "old.fdc", old)
    back = fc.read_component(tmp_path / "old.fdc")
    assert back.header["version"] == "1.0" and "stress_nodes" not in back.arrays and fc.gauge_modes(back)[0] == []
    fc.write_component(tmp_path / "new.fdc", comp)
    again = fc.read_component(tmp_path / "new.fdc")
    assert again.header["gauges"] == comp.header["gauges"]
    assert again.stress_strain_modes.tobytes() == comp.stress_strain_modes.tobytes()
    assert again.mesh_tetra10.tobytes() == comp.mesh_tetra10.tobytes()
    assert "4 strain gauges" in again.summary() and f"{len(comp.stress_nodes)} stress nodes" in again.summary()
    linear = fc.Component(dict(comp.header, version="1.1"),
                          {k: v for k, v in comp.arrays.items() if k != "mesh_tetra10"})
    fc.write_component(tmp_path / "linear.fdc", linear)
    linear = fc.read_component(tmp_path / "linear.fdc")
    x, y = 0.113, 0.003                                          # on the top face, between the nodes
    P, want = comp.mesh_points, None
    for cell in comp.mesh_tetra:                                 # the top triangle holding (x, y), by hand
        top = cell[np.isclose(P[cell, 2], H / 2)]
        if len(top) == 3:
            lam = np.linalg.solve(np.vstack([P[top, :2].T, np.ones(3)]), [x, y, 1.0])
            if lam.min() >= 0:
                want = lam @ comp.stress_strain_modes[np.searchsorted(comp.stress_nodes, top)].reshape(3, -1)
    got = fc.stress_rows(linear, (x, y, H / 2)).ravel()
    assert np.abs(got - want).max() <= 1e-12 * np.abs(want).max()
    assert np.abs(fc.stress_rows(comp, (x, y, H / 2)).ravel() - want).max() > 1e-3 * np.abs(want).max()
    swapped = comp.mesh_tetra10[:, [1, 0, 2, 3, 4, 5, 6, 7, 8, 9]]
    bad = fc.Component(comp.header, dict(comp.arrays, mesh_tetra10=swapped))
    with pytest.raises(fc.ComponentShapeError, match="'mesh_tetra10' needs 'mesh_tetra' holding its first four nodes"):
        fc.write_component(tmp_path / "bad.fdc", bad)


def test_bad_stress_points_and_gauges_raise_named_errors():
    """A point that is neither a stress node nor a gauge point, an unknown gauge, a zero direction."""
    _, _, comp = bar()
    with pytest.raises(fc.ComponentShapeError, match="neither a stress node, a gauge point nor on a face"):
        fc.stress_rows(comp, (0.123, 0.001, 0.0))
    m = femdyn.Model("bar", gravity=(0, 0, 0))
    m.flexible_body("bar", comp)
    with pytest.raises(femdyn.errors.ModelError, match="no such strain gauge"):
        m.sensor_component_gauge("nope", "bar")
    with pytest.raises(fc.ComponentShapeError, match="non-zero 3-vector"):
        fc.ComponentGauge("g", (0, 0, 0), (0, 0, 0)).places()


def test_paraview_series_carries_von_mises_at_the_stress_nodes(tmp_path):
    """The series' point data holds von Mises of the deformed bar at its surface nodes (NaN inside)
    equal to the component's own recovery at the same η."""
    import meshio
    from types import SimpleNamespace
    from femdyn.mesh.vtk import write_series
    _, _, comp = bar()
    m = femdyn.Model("bar", gravity=(0, 0, 0))
    link = m.flexible_body("bar", comp, eta=np.linspace(1e-4, 2e-4, comp.n_modes))
    s = m.assemble()
    write_series(s, SimpleNamespace(t=[0.0], q=[s.q0]), tmp_path, name="bar")
    data = meshio.read(tmp_path / "bar_00000.vtu").point_data
    vm = data["von_mises"][-len(comp.mesh_points):]
    want = fc.stress_state(comp, comp.stress_strain_modes @ link.modal_coordinates(s.q0))[:, 9]
    assert np.allclose(vm[comp.stress_nodes], want, rtol=1e-12) and np.isnan(vm).sum() == 49 * 3 * 3
    assert data["strain"].shape[1] == 6 and data["principal_stress"].shape[1] == 3


def test_recursive_series_places_the_deformed_mesh_and_its_stresses(tmp_path):
    """A recursive run of the bar held at 0.3 rad about y under a tip force: the written steps hold
    the mesh at R_y(0.3)(x + Φ η) (round-off, 1e-14 m) and von Mises at the stress nodes equal to
    the component's recovery at the run's η (1e-12 relative), NaN inside; the PVD lists the steps.
    The points start with the bar's outline (root and tip interfaces), then the tip body's marker."""
    import meshio
    from femdyn.solvers.recursive import write_series
    _, _, comp = bar()
    clamped = fc.reference_to_interface(comp, "root")
    model = FlexibleTreeModel([ModalBody("bar", "world", Joint("revolute", (0, 1, 0)), component=clamped, inner="root"),
                               ModalBody("tip", "bar", Joint("revolute", (0, 1, 0)), at="tip", mass=1e-3,
                                         inertia=(1e-9, 1e-9, 1e-9, 0.0, 0.0, 0.0))], gravity=(0, 0, 0))
    f_ext = np.zeros((2, 6))
    f_ext[1, 5] = -F
    q0 = model.neutral_configuration()
    q0[0] = 0.3
    run = simulate_flexible(model, q0, np.zeros(model.nv), 2e-4, 2e-5, method="rk4", prescribed=[True, True],
                            f_ext=f_ext)
    pvd = write_series(model, run, tmp_path, every=5, name="bar")
    assert open(pvd).read().count("<DataSet") == len(range(0, len(run.t), 5))
    k = 5 * (open(pvd).read().count("<DataSet") - 1)
    eta = run.state_q[k, model.eta_slice("bar")]
    assert np.abs(eta).max() > 0
    out = meshio.read(tmp_path / f"bar_{k:05d}.vtu")
    c, s = np.cos(0.3), np.sin(0.3)
    R = np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])
    mesh = slice(3, 3 + len(clamped.mesh_points))
    assert len(out.points) == 3 + len(clamped.mesh_points)
    assert np.abs(out.points[mesh] - (clamped.mesh_points + clamped.mesh_shapes @ eta) @ R.T).max() < 1e-14
    vm = out.point_data["von_mises"]
    want = fc.stress_state(clamped, clamped.stress_strain_modes @ eta)[:, 9]
    assert np.allclose(vm[mesh][clamped.stress_nodes], want, rtol=1e-12) and np.isnan(vm).sum() == 49 * 3 * 3 + 3
    with pytest.raises(femdyn.errors.ModelError, match="pass the run of this very model"):
        write_series(FlexibleTreeModel([ModalBody("bar", "world", Joint("revolute", (0, 1, 0)), component=clamped,
                                                  inner="root")]), run, tmp_path)


def test_cli_reduce_stores_stress_nodes_and_gauges_and_show_lists_them(tmp_path, capsys):
    """femdyn reduce --stress surface --strain-gauge …; femdyn show lists the gauges and the stress nodes; its
    modes.vtu reads back through meshio with the corner cells of the Tet10 link."""
    from femdyn.cli.main import main
    from femdyn.mesh.generate import rod_mesh
    mesh_path = str(tmp_path / "link.msh")
    rod_mesh(0.4, 0.01, 0.008, order=2, path=mesh_path)
    out = str(tmp_path / "link.fdc")
    assert main(["reduce", mesh_path, "--interface", "a=group:end0", "--interface", "b=group:end1", "--modes", "4",
                 "--stress", "surface", "--strain-gauge", "top=0.1,0,0.0099,1,0,0,0.005",
                 "--strain-gauge", "side=0.1,0.0099,0,0,0,1", "-o", out, "--quiet"]) == 0
    c = fc.read_component(out)
    assert fc.gauge_modes(c)[0] == ["top", "side"] and c.header["stress"]["nodes"] == "surface"
    capsys.readouterr()
    assert main(["show", out, "--no-pictures", "--out", str(tmp_path / "modes")]) == 0
    text = capsys.readouterr().out
    assert "strain gauges (2" in text and "top " in text and f"stress nodes: {len(c.stress_nodes)} (surface)" in text
    assert "von_mises_01" in text
    import meshio
    vtu = meshio.read(tmp_path / "modes" / "modes.vtu")              # a 1.2 Tet10 file: corner cells in ParaView
    assert "mesh_tetra10" in c.arrays and np.array_equal(vtu.cells_dict["tetra"], c.mesh_tetra)
    assert len(vtu.points) == len(c.mesh_points)
    modes = vtu.point_data
    want = fc.stress_state(c, c.stress_strain_modes[..., 3])[:, 9]
    assert np.allclose(modes["von_mises_04"][c.stress_nodes], want, rtol=1e-12) and len([k for k in modes if k.startswith("von_mises_")]) == c.n_modes
    assert main(["reduce", mesh_path, "--interface", "a=group:end0", "--strain-gauge", "top=0.1,0,0.01", "-o", out,
                 "--quiet"]) == 2
    assert "expected NAME=x,y,z,dx,dy,dz" in capsys.readouterr().err


def test_rrru_component_links_read_the_ancf_links_gauges_at_g_over_10():
    """The 3-RRRU robot held at its motors, sagging under g/10, with ANCF links and with component
    links (gauges stored in each link's component, same names and wall positions): the nine gauges
    agree within 1.5 % (measured 0.65–1.34 %; the sag differs by 0.12 %). Both differences are the
    links' geometric nonlinearity, which linear modes lack: they fall in proportion to the load
    (at g/100 the gauges agree within 0.14 %)."""
    from femdyn.robots.rrru import rrru
    read = {}
    for link_model in ("ancf", "component"):
        robot = rrru(flexible=True, link_model=link_model, n_elements=4, gravity=(0, 0, -0.981))
        for k, motor in enumerate(robot.motors):
            robot.model.drive_angle(f"hold {k}", motor, float(robot.pose.angles[k]))
        s = robot.model.assemble()
        q, lam = static_equilibrium(s)
        read[link_model] = {c: v for sensor in s.sensors for c, v in zip(sensor.columns, sensor.measure(q, 0 * q, None,
                                                                                                         lam, 0.0))}
        assert len(robot.gauges) == 9
    names = [f"{g}.strain" for g in robot.gauges]
    ancf, comp = (np.array([read[k][n] for n in names]) for k in ("ancf", "component"))
    assert np.all(np.abs(ancf) > 4e-5) and np.allclose(comp, ancf, rtol=0.015)


@pytest.mark.slow
def test_the_component_gauge_report_example_runs_end_to_end(tmp_path):
    """examples/component_gauge_report.py: Gmsh Tet10 link → `femdyn reduce --stress --strain-gauge` →
    run → `femdyn report strain` against its synthetic measurement; the report command exits 0 (every
    gauge within its tolerance) and writes its page. ~10 s warm (mesh, reduction, run, report)."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location(
        "component_gauge_report", Path(__file__).parents[2] / "examples" / "component_gauge_report.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    assert example.main(str(tmp_path), t_end=0.3) == 0
    assert (tmp_path / "report" / "report.html").exists() and (tmp_path / "paraview").is_dir()
