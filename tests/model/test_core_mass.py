"""Natural-coordinate mass matrices against independent rigid-body mechanics.

The kinetic energy ½ q̇ᵀ M q̇ of any rigid motion must equal ½ m v_G² + ½ ωᵀ I_G ω, and the
generalized gravity force must do the work m g·δr_G: both are computed here from the
mass properties directly, not from the natural-coordinate formulas. Tolerances 1e-12
relative: the identities are exact, only round-off remains.
"""
import numpy as np
import pytest

import femdyn
from femdyn.elements import ncf


def rigid_velocity(body, omega, v_ref):
    out = {}
    ref = body.points[0].initial
    for p in body.points:
        out[p.name] = v_ref + np.cross(omega, p.initial - ref)
    for u in body.vectors:
        out[u.name] = np.cross(omega, u.initial)
    return out


def full_body_model():
    m = femdyn.Model("body", gravity=(0.1, 0.2, -9.81))
    P0, P1 = m.point("P0", (0.1, 0.2, 0.3)), m.point("P1", (0.5, 0.1, 0.4))
    u = m.vector("u", np.array([0.3, 1.0, 0.2]) / np.linalg.norm([0.3, 1.0, 0.2]))
    v = m.vector("v", np.array([-0.2, 0.1, 1.0]) / np.linalg.norm([-0.2, 0.1, 1.0]))
    R = np.linalg.qr(np.random.default_rng(1).standard_normal((3, 3)))[0]
    inertia = R @ np.diag([0.3, 0.5, 0.7]) @ R.T
    body = m.rigid_body("b", [P0, P1], [u, v], mass=3.0, com=(0.3, 0.4, 0.2), inertia=inertia)
    return m, body, inertia


@pytest.mark.parametrize("which", ["full", "rod", "platform"])
def test_kinetic_energy_of_rigid_motion(which):
    if which == "full":
        m, body, inertia = full_body_model()
        com = body.com
    elif which == "rod":
        m = femdyn.Model("rod")
        body = m.rigid_beam("rod", m.point("A", (0, 0, 0)), m.point("B", (0.3, 0.4, 1.2)), mass=2.0)
        com, inertia = body.com, body.inertia
        assert np.isclose(np.trace(inertia), 2 * 2.0 * 1.3**2 / 12)
    else:
        m = femdyn.Model("platform")
        body = m.triangle_platform("p", (0.1, 0.2, 0.3), (0, 0, 1), 0.06, 0.01, density=2700)
        com, inertia = body.com, body.inertia
    s = m.assemble()
    omega, v_ref = np.array([0.7, -1.3, 2.1]), np.array([0.4, 0.5, -0.6])
    vel = np.zeros(s.n)
    for name, val in rigid_velocity(body, omega, v_ref).items():
        node = m.nodes[name]
        vel[node.start:node.start + 3] = val
    v_com = v_ref + np.cross(omega, com - body.points[0].initial)
    expected = 0.5 * body.mass * v_com @ v_com
    if which != "rod":
        expected += 0.5 * omega @ inertia @ omega
    else:   # a slender rod has no spin inertia: remove the axial component of ω
        e = body.B0[:, 0] / np.linalg.norm(body.B0[:, 0])
        w = omega - e * (e @ omega)
        expected += 0.5 * w @ inertia @ w
    assert abs(s.kinetic_energy(vel) - expected) <= 1e-12 * expected


def test_gravity_does_the_work_of_the_centre_of_mass():
    m, body, _ = full_body_model()
    s = m.assemble()
    rng = np.random.default_rng(2)
    omega, v_ref = rng.standard_normal(3), rng.standard_normal(3)
    dq = np.zeros(s.n)
    for name, val in rigid_velocity(body, omega, v_ref).items():
        dq[m.nodes[name].start:m.nodes[name].start + 3] = val
    v_com = v_ref + np.cross(omega, body.com - body.points[0].initial)
    assert np.isclose(s.gravity_force @ dq, body.mass * m.gravity @ v_com, rtol=1e-12)


def test_rigid_beam_mass_matrix_is_the_seed_002_rod():
    m = femdyn.Model("rod")
    m.rigid_beam("rod", m.point("A", (0, 0, 0)), m.point("B", (0, 0, 2.0)), density=7800, area=1e-4,
                 end_masses=(0.5, 0.25))
    M = m.assemble().M.toarray()
    mass = 7800 * 1e-4 * 2.0
    expected = np.kron(mass * np.array([[1 / 3, 1 / 6], [1 / 6, 1 / 3]]) + np.diag([0.5, 0.25]), np.eye(3))
    assert np.allclose(M, expected, rtol=1e-13, atol=1e-15)


def test_equilateral_plate_inertia_by_quadrature():
    """Thin plate inertia against a centroid-rule sum over a grid of n² equal sub-triangles
    (upright and inverted); the rule's error is O(1/n²) ≈ 1e-5 relative at n = 400."""
    R = 0.06
    mass, I = ncf.equilateral_plate(R, 0.0, mass=1.0)
    verts = np.array([[R * np.cos(a), R * np.sin(a)] for a in (0, 2 * np.pi / 3, 4 * np.pi / 3)])
    n = 400
    i, j = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    up, down = i + j < n, i + j < n - 1
    s = np.concatenate([i[up] + 1 / 3, i[down] + 2 / 3]) / n
    t = np.concatenate([j[up] + 1 / 3, j[down] + 2 / 3]) / n
    pts = verts[0] + s[:, None] * (verts[1] - verts[0]) + t[:, None] * (verts[2] - verts[0])
    Ixx = np.mean(pts[:, 1] ** 2)
    Izz = np.mean((pts ** 2).sum(1))
    assert np.isclose(I[0, 0], Ixx, rtol=1e-4) and np.isclose(I[2, 2], Izz, rtol=1e-4)
    assert np.isclose(I[1, 1], I[0, 0]) and np.isclose(mass, 1.0)


def test_mass_matrix_is_constant_symmetric_positive_definite():
    m, _, _ = full_body_model()
    M = m.assemble().M.toarray()
    assert np.allclose(M, M.T, atol=1e-15)
    assert np.linalg.eigvalsh(M).min() > 0
