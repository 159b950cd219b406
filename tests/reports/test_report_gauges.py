"""Strain gauges on ANCF beams: grid averaging, position, wall angle, direction, rosettes.

Truths: exact averages of a strain field the elements represent exactly (axial
displacement u = a x³ is cubic, so the cubic ANCF cable carries ε = u' = 3a x² without
discretization error); Euler–Bernoulli bending of a tip-loaded cantilever; Mohr's circle
of the classic rosette formulas; pure torsion (γ = κ_x R on the wall of a circle).
"""
import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.errors import ModelError
from femdyn.model.sensors import Gauge
from femdyn.reports.gauges import principal_strains
from femdyn.solvers.static import static_equilibrium

R, E, L = 0.01, 2.1e11, 1.0
EI = E * np.pi * R**4 / 4


def measure(sensor, q):
    return sensor.measure(q, None, None, None, 0.0)


def free_beam(element="cable", n=4):
    m = femdyn.Model("gauges", gravity=(0, 0, 0))
    m.straight_beam("beam", (0, 0, 0), (L, 0, 0), n, E=E, rho=7800, section=sections.circular(R), element=element)
    return m


def stretched(m, system, a):
    """q with every node of 'beam' at r = (x + a x³, 0, 0), r_x = (1 + 3a x², 0, 0)."""
    q = system.q0.copy()
    for i in range(5):
        node = m.node(f"beam.{i}")
        x = node.initial[0]
        q[node.start:node.start + 6] = [x + a * x**3, 0, 0, 1 + 3 * a * x**2, 0, 0]
    return q


def test_grid_average_equals_the_exact_average_of_the_strain_field():
    """ε = 3a x²: the 3-point grid gives (1/L_g)∫ε dx = a(x₂³ − x₁³)/L_g to rounding (the
    grid straddles the element boundary at 0.5 m); the point gauge reads ε(centre), short
    by a L_g²/4 = 2.5e-6, which the test must see (tolerance 1e-13 ≪ 2.5e-6)."""
    a, lg = 1e-3, 0.1
    m = free_beam()
    grid = m.sensor_gauge(Gauge("grid", "beam", "beam.0", 0.5, wall_angle_deg=30.0, grid_length=lg))
    point = m.sensor_gauge(Gauge("point", "beam", "beam.0", 0.5, wall_angle_deg=30.0))
    from_end = m.sensor_gauge(Gauge("end", "beam", "beam.4", 0.2, grid_length=lg))   # centre at 0.8 m
    system = m.assemble()
    q = stretched(m, system, a)
    exact = lambda x1, x2: a * (x2**3 - x1**3) / (x2 - x1)
    reading, axial = measure(grid, q)
    assert reading == pytest.approx(exact(0.45, 0.55), abs=1e-13) and axial == reading
    assert measure(point, q)[0] == pytest.approx(3 * a * 0.25, abs=1e-13)
    assert exact(0.45, 0.55) - 3 * a * 0.25 == pytest.approx(a * lg**2 / 4, rel=1e-9)
    assert measure(from_end, q)[0] == pytest.approx(exact(0.75, 0.85), abs=1e-13)


def cantilever(element, gauges, force=-10.0, nu=0.3):
    m = femdyn.Model("cantilever", gravity=(0, 0, 0))
    m.straight_beam("beam", (0, 0, 0), (L, 0, 0), 8, E=E, rho=7800, section=sections.circular(R), element=element,
                    nu=nu)
    m.clamp("root", "beam.0")
    m.beam_force("tip", "beam", 7, 1.0, (0, 0, force))
    sensors = [m.sensor_gauge(g) for g in gauges]
    system = m.assemble()
    q, _ = static_equilibrium(system)
    return [measure(s, q) for s in sensors]


def test_axial_gauges_around_a_bent_cantilever_follow_beam_theory():
    """Tip force F down: ε(x, φ) = F(L − x) R sin φ/EI on the wall (Euler–Bernoulli);
    the linear field averages to its centre value over the grid. Tolerance 1e-4 relative
    to the top value: the cable's bending strain is exact for a linear moment, what is
    left is the geometric non-linearity, (w/L)² ≈ 4e-6."""
    x = 0.3
    top = 10.0 * (L - x) * R / EI
    angles = (90.0, 270.0, 0.0, 45.0)
    got = cantilever("cable", [Gauge(f"g{k}", "beam", "beam.0", x, wall_angle_deg=a, grid_length=0.02)
                               for k, a in enumerate(angles)])
    for (reading, _), a in zip(got, angles):
        assert reading == pytest.approx(top * np.sin(np.radians(a)), abs=1e-4 * top)


def test_rosette_on_a_bent_full_beam_gives_the_uniaxial_state():
    """0°/45°/90° gauges on the top wall of a full ANCF beam under a tip force: the readings
    are ε_x, (1 − ν)ε_x/2, −νε_x (no surface shear on top for a z load); principal
    strains ε_x and −νε_x at 0°, to 1e-6 relative. Against beam theory the full beam's
    recovered bending strain agrees to 1 %."""
    nu, x = 0.3, 0.4
    got = cantilever("beam", [Gauge(f"r{k}", "beam", "beam.0", x, direction_deg=d) for k, d in
                              enumerate((0.0, 45.0, 90.0))], nu=nu)
    readings = np.array([g[0] for g in got])
    ex = readings[0]
    assert ex == pytest.approx(10.0 * (L - x) * R / EI, rel=1e-2)
    np.testing.assert_allclose(readings, [ex, (1 - nu) * ex / 2, -nu * ex], rtol=1e-6, atol=1e-6 * abs(ex))
    e1, e2, angle = principal_strains(readings, (0, 45, 90))
    assert (e1, e2) == (pytest.approx(ex, rel=1e-6), pytest.approx(-nu * ex, rel=1e-6))
    assert abs(angle) < 1e-3


def test_rosette_under_pure_torsion_gives_principal_strains_at_45_degrees():
    """Nodes of a full beam turned by α = kx about its axis: twist k, wall shear γ = kR, so
    ε₁,₂ = ±kR/2 at +45° (pure shear on Mohr's circle). Tolerance 1e-3 relative: the
    fibre stretch (kR)²/2 and the linear interpolation of the directors (error (kh)²)
    are below 1e-4 of kR/2."""
    k = 0.01
    m = free_beam("beam")
    rosette = [m.sensor_gauge(Gauge(f"t{j}", "beam", "beam.0", 0.3, direction_deg=d, grid_length=0.01))
               for j, d in enumerate((0.0, 45.0, 90.0))]
    system = m.assemble()
    q = system.q0.copy()
    for i in range(5):
        node = m.node(f"beam.{i}")
        c, s = np.cos(k * node.initial[0]), np.sin(k * node.initial[0])
        q[node.start + 6:node.start + 12] = [0, c, s, 0, -s, c]
    readings = np.array([measure(g, q)[0] for g in rosette])
    assert readings[1] == pytest.approx(k * R / 2, rel=1e-3)
    e1, e2, angle = principal_strains(readings, (0, 45, 90))
    assert (e1, e2) == (pytest.approx(k * R / 2, rel=1e-3), pytest.approx(-k * R / 2, rel=1e-3))
    assert angle == pytest.approx(45.0, abs=0.1)


@pytest.mark.parametrize("seed", range(4))
def test_principal_strains_match_mohrs_circle_of_rectangular_and_delta_rosettes(seed):
    """Rectangular (0/45/90) rosette: centre (ε_a + ε_c)/2, radius √((ε_a − ε_b)² + (ε_b − ε_c)²)/√2;
    delta (0/60/120): centre (ε_a + ε_b + ε_c)/3, radius (√2/3)√((ε_a−ε_b)² + (ε_b−ε_c)² + (ε_c−ε_a)²)
    (Dally & Riley 2005, eqs. 9.12 and 9.14). Readings from a random strain state."""
    rng = np.random.default_rng(seed)
    ex, es, g = rng.normal(0, 1e-4, 3)
    read = lambda th: ex * np.cos(th) ** 2 + es * np.sin(th) ** 2 + g * np.sin(th) * np.cos(th)
    a, b, c = (read(np.radians(d)) for d in (0, 45, 90))
    centre, radius = (a + c) / 2, np.hypot(a - b, b - c) / np.sqrt(2)
    e1, e2, _ = principal_strains([a, b, c], (0, 45, 90))
    assert (e1, e2) == (pytest.approx(centre + radius, abs=1e-16), pytest.approx(centre - radius, abs=1e-16))
    a, b, c = (read(np.radians(d)) for d in (0, 60, 120))
    centre = (a + b + c) / 3
    radius = np.sqrt(2) / 3 * np.sqrt((a - b) ** 2 + (b - c) ** 2 + (c - a) ** 2)
    e1, e2, angle = principal_strains([a, b, c], (0, 60, 120))
    assert (e1, e2) == (pytest.approx(centre + radius, abs=1e-16), pytest.approx(centre - radius, abs=1e-16))
    assert read(np.radians(angle)) == pytest.approx(e1, abs=1e-16)       # ε₁ lies along the angle returned


def test_hoop_gauge_on_a_cable_uses_the_given_poisson_ratio():
    """Cable elements carry no ν: a 90° gauge needs one (error naming the gauge without),
    then reads −ν ε_x of the stretched beam exactly."""
    m = free_beam()
    with pytest.raises(ModelError, match="gauge 'hoop' at 90° to the axis needs the Poisson ratio"):
        m.sensor_gauge(Gauge("hoop", "beam", "beam.0", 0.5, direction_deg=90.0))
    hoop = m.sensor_gauge(Gauge("hoop", "beam", "beam.0", 0.5, direction_deg=90.0, poisson=0.33))
    system = m.assemble()
    reading, axial = measure(hoop, stretched(m, system, 1e-3))
    assert reading == pytest.approx(-0.33 * axial, rel=1e-14) and axial == pytest.approx(7.5e-4, rel=1e-12)


def test_gauge_off_the_link_or_on_a_foreign_node_is_an_error_naming_it():
    m = free_beam()
    with pytest.raises(ModelError, match="gauge 'far' is off the link.*1 m long"):
        m.sensor_gauge(Gauge("far", "beam", "beam.0", 0.98, grid_length=0.05))
    m.point("P", (0, 1, 0))
    with pytest.raises(ModelError, match="gauge 'lost': 'P' is neither a node of beam 'beam' nor a joint"):
        m.sensor_gauge(Gauge("lost", "beam", "P", 0.1))


def test_distance_from_a_named_joint_is_measured_from_the_node_it_holds():
    """A clamp named 'tip clamp' on the last node: 0.2 m from it is 0.8 m from the first
    node, and reads what a gauge 0.2 m from that node reads."""
    m = free_beam()
    m.clamp("tip clamp", "beam.4")
    by_joint = m.sensor_gauge(Gauge("j", "beam", "tip clamp", 0.2, grid_length=0.1))
    by_node = m.sensor_gauge(Gauge("n", "beam", "beam.0", 0.8, grid_length=0.1))
    system = m.assemble()
    q = stretched(m, system, 1e-3)
    assert measure(by_joint, q)[0] == pytest.approx(measure(by_node, q)[0], abs=1e-15)
