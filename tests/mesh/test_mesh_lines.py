"""Line meshes read with meshio become ANCF cable chains."""
import meshio
import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.mesh.lines import chains, polyline_tangents
from femdyn.solvers.eigen import eigenmodes
from femdyn.solvers.static import static_equilibrium

POINTS = np.array([[0, 0, 0], [0.25, 0, 0], [0.5, 0, 0], [0.75, 0, 0], [1.0, 0, 0]], float)


def write(path, fmt):
    order = [2, 0, 4, 1, 3]                                 # shuffled points and cells
    cells = np.array([[1, 3], [3, 0], [4, 2], [0, 4]])
    meshio.write_points_cells(str(path), POINTS[order], [("line", cells)], file_format=fmt)


@pytest.mark.parametrize("name,fmt", [("beam.vtk", "vtk"), ("beam.msh", "gmsh22")])
def test_mesh_gives_the_same_cantilever_as_the_builder(tmp_path, name, fmt):
    """A shuffled line mesh is ordered into one chain; its cantilever deflection equals the
    one of ``straight_beam`` to round-off (same nodes, same elements)."""
    write(tmp_path / name, fmt)
    tips = []
    for source in ("mesh", "builder"):
        m = femdyn.Model(source, gravity=(0, 0, 0))
        args = dict(E=2.1e11, rho=7800, section=sections.circular(0.01))
        if source == "mesh":
            (beam,) = m.beam_from_mesh("b", str(tmp_path / name), **args)
            root, tip = ("b.0", "b.4") if np.allclose(m.nodes["b.0"].initial[:3], 0) else ("b.4", "b.0")
        else:
            beam = m.straight_beam("b", (0, 0, 0), (1, 0, 0), 4, **args)
            root, tip = "b.0", "b.4"
        m.clamp("root", root)
        m.force("load", tip, m.nodes[tip].initial[:3], (0, 0, -5.0))
        q, _ = static_equilibrium(m.assemble())
        tips.append(q[m.nodes[tip].start + 2])
    assert beam.count == 4 and np.isclose(tips[0], tips[1], rtol=1e-10)


def test_branched_mesh_is_refused():
    with pytest.raises(femdyn.ModelError, match="join more than two lines"):
        chains(np.array([[0, 1], [1, 2], [1, 3]]))


def test_closed_chain_ends_on_its_first_point():
    """A loop of 4 segments gives 5 indices, first = last: one element per segment."""
    (loop,) = chains(np.array([[0, 1], [2, 3], [1, 2], [3, 0]]))
    assert len(loop) == 5 and loop[0] == loop[-1] and sorted(loop[:-1]) == [0, 1, 2, 3]


def test_mesh_without_lines(tmp_path):
    meshio.write_points_cells(str(tmp_path / "tri.vtk"), POINTS[:3], [("triangle", np.array([[0, 1, 2]]))])
    with pytest.raises(femdyn.ModelError, match="no 2-node 'line' cells"):
        femdyn.Model().beam_from_mesh("b", str(tmp_path / "tri.vtk"), E=1e9, rho=1e3,
                                      section=sections.circular(0.01))


def ellipse(theta):
    """Points and unit tangents of the ellipse (2 cos θ, sin θ, 0)."""
    t = np.stack([-2 * np.sin(theta), np.cos(theta), 0 * theta], -1)
    return np.stack([2 * np.cos(theta), np.sin(theta), 0 * theta], -1), t / np.linalg.norm(t, axis=1, keepdims=True)


def test_polyline_tangents_are_second_order_and_exact_on_circles():
    """Tangents estimated from points on an ellipse, non-uniformly spaced: the largest
    error (at the first point) falls by 3.62, 3.86, 3.95 from 16 to 32 to 64 segments
    (second order: 4; the chord direction, first order, would halve it); bound 3.5.
    On a circle, interior parabola tangents and end tangents of the circle through three
    points are exact: 7e-14 measured for 7 random points, bound 1e-12."""
    errors = []
    for n in (16, 32, 64):
        u = np.linspace(0, 1, n + 1)
        points, exact = ellipse(0.3 + 1.2 * (u + 0.2 * u * (1 - u)))
        errors.append(np.linalg.norm(polyline_tangents(points) - exact, axis=1).max())
    assert errors[0] / errors[1] > 3.5 and errors[1] / errors[2] > 3.5
    phi = np.sort(np.random.default_rng(1).uniform(0, 2, 7))
    circle = np.stack([3 + 0.5 * np.cos(phi), 1 + 0.5 * np.sin(phi), 0 * phi], -1)
    assert np.abs(polyline_tangents(circle) - np.stack([-np.sin(phi), np.cos(phi), 0 * phi], -1)).max() < 1e-12


def quarter_circle_tip(n, direction, radius=1.0, section=sections.circular(0.01), E=2.1e11):
    """Tip displacement along ``direction`` (0: x, 1: y) of a quarter-circle cantilever
    built by beam_through_points (default tangents and element) under a tip force
    F = 1e-7 EI/R² along it, and the Castigliano value of the thin ring (bending and
    stretch): δ_x = πFR³/4EI + πFR/4EA, δ_y = (3π/4 − 2)FR³/EI + πFR/4EA."""
    EI, EA = E * section.Iy, E * section.area
    F = 1e-7 * EI / radius**2
    phi = np.linspace(0, np.pi / 2, n + 1)
    m = femdyn.Model("quarter", gravity=(0, 0, 0))
    beam = m.beam_through_points("b", np.stack([radius * np.sin(phi), radius * (1 - np.cos(phi)), 0 * phi], -1),
                                 E=E, rho=7800, section=section)
    m.clamp("root", "b.0")
    m.beam_force("P", "b", n - 1, 1.0, np.eye(2)[direction] * F)
    q, _ = static_equilibrium(m.assemble())
    tip = m.nodes[f"b.{n}"]
    bending = (np.pi / 4, 3 * np.pi / 4 - 2)[direction] * F * radius**3 / EI
    return q[tip.start + direction] - tip.initial[direction], bending + np.pi / 4 * F * radius / EA, beam


def test_quarter_circle_from_points_converges_to_castigliano():
    """A planar quarter circle from points only: the model picks the planar cable, the
    tangents are those of the circle, and the tip deflections converge to Castigliano's
    values: errors 0.71/1.5 %, 0.040/0.069 %, 0.0034/0.0039 % (x/y) at 4, 8, 16 elements
    (with chord tangents at the ends, 24 and 32 % at 4). Bound 1e-4 at 16 elements: the
    thin-ring formula leaves out the coupling of bending and stretch of a curved bar,
    relative I/(AR²) = 2.5e-5; the load keeps the geometric nonlinearity at 1e-7."""
    for direction in (0, 1):
        errors = []
        for n in (4, 8, 16):
            value, exact, beam = quarter_circle_tip(n, direction)
            errors.append(abs(value / exact - 1))
        assert type(beam.kernel).__name__ == "ANCFCable2D"
        assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-4, errors


def test_closed_line_mesh_makes_a_ring(tmp_path):
    """A ring of 32 line cells becomes 32 elements whose last one ends on the first node
    (shared). Its lowest in-plane bending frequencies (free ring, after the 3 rigid planar
    modes) match the inextensional thin-ring values ω_k = k(k²−1)/√(k²+1) √(EI/ρAR⁴),
    k = 2, 3 (Hoppe 1871; Blevins, Formulas for Natural Frequency and Mode Shape, 1979,
    rings): measured 0.080 % and 0.17 % high (7.7 % and 11 % at 8 elements: the curved
    cable stiffens inextensional bending on coarse meshes), bound 0.3 %; rotary inertia,
    neglected by the formula, is ~(r/R)² = 1e-4."""
    n, R, E, rho, section = 32, 1.0, 2.1e11, 7800.0, sections.circular(0.01)
    phi = np.linspace(0, 2 * np.pi, n, endpoint=False)
    cells = np.array([[i, (i + 1) % n] for i in range(n)])
    meshio.write_points_cells(str(tmp_path / "ring.vtk"), np.stack([R * np.cos(phi), R * np.sin(phi), 0 * phi], -1),
                              [("line", cells)])
    m = femdyn.Model("ring", gravity=(0, 0, 0))
    (ring,) = m.beam_from_mesh("ring", str(tmp_path / "ring.vtk"), E=E, rho=rho, section=section)
    assert ring.count == n and len(m.nodes) == n and ring.element_nodes[-1][1] is ring.element_nodes[0][0]
    omega, _ = eigenmodes(m.assemble(), count=7)
    k = np.array([2.0, 3.0])
    exact = k * (k**2 - 1) / np.sqrt(k**2 + 1) * np.sqrt(E * section.Iy / (rho * section.area * R**4))
    assert np.abs(omega[:3]).max() < 1e-3 * exact[0]
    assert np.allclose(omega[3:7], np.repeat(exact, 2), rtol=3e-3)


def test_open_chain_starts_at_an_end_point():
    assert [c.tolist() for c in chains([[2, 1], [0, 1]])] == [[2, 1, 0]]


def test_section_y_axis_is_the_hint_projected_normal_to_the_tangent():
    from femdyn.mesh.lines import section_y_axes
    assert section_y_axes("beam", np.array([[1.0, 0, 0]]), (1.0, 1.0, 0)).tolist() == [[0.0, 1.0, 0.0]]
