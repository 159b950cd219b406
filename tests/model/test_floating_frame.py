"""Floating-frame-of-reference bodies: every analytic tangent against finite differences,
the inertia against the kinetic energy of the mesh itself and against Lagrange's
equations, the interface frames' exact rotation, sensors, output and input errors."""
import numpy as np
import pytest

import femdyn
from femdyn.errors import ModelError
from femdyn.geometry import rotated_vector, skew
from femdyn.sparse import Pattern
from support.ffr_models import B, L, bar, pendulum, rotation


def general_state():
    """A rotated, deformed bar on a spherical joint under oblique gravity, perturbed off
    the constraint manifold (every formula is exact for any q, not only Φ = 0)."""
    _, _, comp = bar()
    m = femdyn.Model("general", gravity=(0.3, -1.0, -9.81))
    link = m.flexible_body("bar", comp, (0.1, 0.2, 0.3), rotation((1, 2, 3), 0.7), eta=1e-3 * np.arange(10))
    m.spherical("ball", m.ground, link.interface("x0"), link.interface("x0").origin0)
    s = m.assemble()
    rng = np.random.default_rng(0)
    q = s.q0 + 0.05 * rng.standard_normal(s.n)
    q[link.dofs[12:]] = 0.02 * rng.standard_normal(10)        # rotations of the interfaces up to ~0.1 rad
    return s, link, q, rng.standard_normal(s.n), rng.standard_normal(s.n), rng.standard_normal(s.m)


def dense(s, rows, cols, values):
    return Pattern(rows, cols, (s.n, s.n)).matrix(values).toarray()


def central(f, x, h):
    return np.column_stack([(f(x + h * e) - f(x - h * e)) / (2 * h) for e in np.eye(len(x))])


def test_mass_derivative_matches_finite_differences():
    """∂(M(q)a)/∂q: M is a polynomial of degree 2 in q, so the central difference is exact
    up to round-off (h = 1e-3, relative 1e-9)."""
    s, _, q, _, a, _ = general_state()
    D = dense(s, s.patterns.mass_derivative.rows, s.patterns.mass_derivative.cols, s.mass_derivative_values(q, a))
    fd = central(lambda x: s.mass(x) @ a, q, 1e-3)
    assert np.abs(D - fd).max() < 1e-9 * np.abs(D).max()


def test_force_tangents_match_finite_differences():
    """K = −∂Q/∂q and C = −∂Q/∂q̇ against central differences. Q is affine in q and
    quadratic in q̇, so central differences with h = 1 are exact but for round-off: Q
    holds K_η η with ω² up to 1e10 s⁻², hence the tolerance 100 ε max|Q(q ± h)|/h."""
    s, _, q, v, _, _ = general_state()
    k, c = s.tangent_values(q, v, 0.0)
    K, C = s.patterns.stiffness.matrix(k).toarray(), s.patterns.damping.matrix(c).toarray()
    fdK = -central(lambda x: s.forces(x, v, 0.0), q, 1.0)
    fdC = -central(lambda x: s.forces(q, x, 0.0), v, 1.0)
    roundoff = lambda f, x: 100 * np.finfo(float).eps * max(np.abs(f(x + e)).max() for e in np.eye(s.n))
    assert np.abs(K - fdK).max() < roundoff(lambda x: s.forces(x, v, 0.0), q)
    assert np.abs(C - fdC).max() < roundoff(lambda x: s.forces(q, x, 0.0), v)
    assert np.abs(K).max() > 1e9 and np.abs(C).max() > 1.0


def test_attachment_jacobian_and_hessian_match_finite_differences():
    """Φ_q and ∂(Φ_qᵀλ)/∂q of all rows (attachments with rotations up to 0.1 rad, rigid
    conditions, joint): central differences with h = 1e-6 are accurate to ~h² ≈ 1e-12
    relative plus round-off ε/h ≈ 1e-10; tolerance 1e-8."""
    s, _, q, _, _, lam = general_state()
    c = s.constraints
    J = c.jacobian(q, 0.0).toarray()
    assert np.abs(J - central(lambda x: c.phi(x, 0.0), q, 1e-6)).max() < 1e-8 * np.abs(J).max()
    H = dense(s, c.hess_rows, c.hess_cols, c.hessian_values(q, lam))
    fd = central(lambda x: c.jacobian(x, 0.0).T @ lam, q, 1e-6)
    assert np.abs(H - fd).max() < 1e-8 * np.abs(H).max()


def test_acceleration_terms_are_the_second_derivative_of_the_constraints():
    """γ = −q̇ᵀΦ_qq q̇: Φ̈ along q(t) = q + t v + ½t²a equals Φ_q a − γ (central second
    difference, h = 1e-5, with q̇ and q̈ scaled to 0.1 so that the interface rotations change
    by ~1e-5 rad over h: truncation ~1e-10, round-off ε|Φ|/h² ≈ 1e-7 relative; tolerance 1e-6)."""
    s, _, q, v, a, _ = general_state()
    v, a = 0.1 * v, 0.1 * a
    c = s.constraints
    _, gamma = c.acceleration_terms(q, v, 0.0)
    h = 1e-5
    path = lambda t: c.phi(q + t * v + 0.5 * t * t * a, 0.0)
    second = (path(h) - 2 * path(0.0) + path(-h)) / h ** 2
    exact = c.jacobian(q, 0.0) @ a - gamma
    assert np.abs(second - exact).max() < 1e-6 * np.abs(exact).max()


def test_quadratic_velocity_force_follows_from_the_kinetic_energy():
    """Lagrange's equations: the velocity-dependent, non-dissipative force of the body is
    Q_v = −Ṁq̇ + ∂T/∂q with T = ½q̇ᵀM(q)q̇ — an independent check of Q_v against M(q)
    (T is a polynomial of degree 2 in q: central differences with h = 1e-3 are exact; the
    subtraction Q(q̇) − Q(0) loses ε|K_η η| ≈ 1e-8: tolerance 100 ε max|Q|)."""
    s, _, q, v, _, _ = general_state()
    link = s.bodies["bar"]
    at_rest = link.force(q, np.zeros(s.n), 0.0)
    Qv = link.force(q, v, 0.0) - at_rest                      # the component is undamped
    Mdot_v = central(lambda x: s.mass(x) @ v, q, 1e-3) @ v
    dT = central(lambda x: np.atleast_1d(0.5 * v @ (s.mass(x) @ v)), q, 1e-3)[0]
    assert np.abs(Qv - (-Mdot_v + dT)).max() < 100 * np.finfo(float).eps * np.abs(at_rest).max()
    assert np.abs(Qv).max() > 1.0


def test_conservative_forces_derive_from_the_potential_energy():
    """Gravity (configuration dependent through A and η) and the elastic force equal
    −∂V/∂q (h = 1e-6; V ≈ 1e4 J-scale terms: round-off ε|V|/h; tolerance 1e-7 relative)."""
    s, _, q, _, _, _ = general_state()
    Q = s.forces(q, np.zeros(s.n), 0.0)
    dV = central(lambda x: np.atleast_1d(s.potential_energy(x)), q, 1e-6)[0]
    assert np.abs(Q + dV).max() < 1e-7 * np.abs(dV).max()


def test_mass_matrix_equals_the_mesh_integral():
    """M(q) = J_hᵀ M_h J_h with M_h the consistent mass of the solid mesh and J_h = ∂u_h/∂q
    the Jacobian of the mesh nodes' positions u_h = r_ref + A(x_h + Φ_h η) — direct
    integration over the stored mesh shapes, at a q off the manifold (relative 1e-11:
    both are sums of ~1e3 products, round-off only)."""
    solid, _, comp = bar()
    s, link, q, _, _, _ = general_state()
    X, P = solid.mesh.points, comp.mesh_shapes
    R = q[link.dofs]
    r, A, eta = R[:3], R[3:12].reshape(3, 3).T, R[12:]
    y = X + P @ eta                                            # (nodes, 3)
    J = np.zeros((len(X), 3, link.dofs.size))
    J[:, :, :3] = np.eye(3)
    for c in range(3):
        J[:, :, 3 + 3 * c:6 + 3 * c] = y[:, c, None, None] * np.eye(3)
    J[:, :, 12:] = np.einsum("ic,nck->nik", A, P)
    J = J.reshape(-1, link.dofs.size)
    expected = J.T @ (solid.mass() @ J)
    M = s.mass(q).toarray()[np.ix_(link.dofs, link.dofs)]
    assert np.abs(M - expected).max() < 1e-11 * np.abs(expected).max()
    assert np.allclose(link.deformed(q, X, P), r + y @ A.T, atol=1e-15)


def test_interface_frames_carry_the_exact_rotation_of_their_modes():
    """With η giving the tip a rotation vector of 0.6 rad, the tip frame's axes are
    A exp([Ψη]×) (not I + [Ψη]×): initial nodes and the attachment rows agree with the
    matrix exponential to round-off."""
    _, _, comp = bar()
    Psi = comp.interface_shapes[1, 3:]
    eta = np.linalg.lstsq(Psi, np.array([0.2, -0.3, 0.45]), rcond=None)[0]
    R = rotation((0, 0, 1), 0.3)
    m = femdyn.Model("rotated tip")
    link = m.flexible_body("bar", comp, (1.0, 0, 0), R, eta=eta)
    tip = link.interface("x1")
    theta = Psi @ eta
    exact = R @ _expm(skew(theta))
    assert np.allclose(tip.B0, exact, atol=1e-13)
    s = m.assemble()
    assert np.abs(s.constraints.phi(s.q0, 0.0)).max() < 1e-13
    with_linear_rotation = R @ (np.eye(3) + skew(theta))
    assert np.abs(with_linear_rotation - exact).max() > 0.05     # the linear rotation would be far off


def _expm(S):
    from scipy.linalg import expm
    return expm(S)


def test_rotated_vector_derivatives_match_finite_differences():
    """R(θ)b against scipy's matrix exponential; its first and second θ-derivatives against
    central differences (h = 1e-6: error ~1e-10), at small, moderate and large angles (the
    series and the closed form)."""
    rng = np.random.default_rng(3)
    for scale in (1e-5, 0.4, 1.5, 3.0):
        theta, b = scale * rng.standard_normal((5, 3)), rng.standard_normal((5, 3))
        f, df, d2f = rotated_vector(theta, b)
        assert np.allclose(f, [_expm(skew(t)) @ v for t, v in zip(theta, b)], atol=1e-13)
        for k in range(3):
            e = 1e-6 * np.eye(3)[k]
            plus, minus = rotated_vector(theta + e, b), rotated_vector(theta - e, b)
            assert np.abs(df[:, :, k] - (plus[0] - minus[0]) / 2e-6).max() < 1e-8
            assert np.abs(d2f[:, :, :, k] - (plus[1] - minus[1]) / 2e-6).max() < 1e-8


def test_sensors_read_the_modes():
    """Output-point position and velocity, and gauge strains, equal the formulas of the
    component (r = r_ref + A(x + Φη), ṙ by a central difference along q̇ (exact: r is
    bilinear), ε = E_g η)."""
    _, _, comp = bar()
    m, link = pendulum(comp, axes=rotation((0, 1, 0), 0.2), eta=1e-4 * np.ones(10))
    tip = m.sensor_point("tip", link, (L, 0, 0))
    gauge = m.sensor_gauge_point("root", link, (0.05, 0, B / 2))
    s = m.assemble()
    rng = np.random.default_rng(5)
    q, v = s.q0 + 1e-3 * rng.standard_normal(s.n), rng.standard_normal(s.n)
    sensors = {x.name: x for x in s.sensors}
    reading = sensors["tip"].measure(q, v, None, None, 0.0)
    h = 1e-3
    position = lambda x: link.deformed(x, comp.output_points[:1], comp.output_shapes[:1])[0]
    assert np.allclose(reading[:3], position(q), atol=1e-15)
    assert np.allclose(reading[3:], (position(q + h * v) - position(q - h * v)) / (2 * h), atol=1e-12)
    eta = q[link.dofs[12:]]
    assert np.allclose(sensors["root"].measure(q, v, None, None, 0.0), comp.gauge_strain_modes[0] @ eta, atol=1e-18)
    assert gauge.columns == ("root.exx", "root.eyy", "root.ezz", "root.gyz", "root.gxz", "root.gxy")
    assert tip.columns[0] == "tip.x"


def test_deformed_mesh_in_the_paraview_series(tmp_path):
    """The VTU files carry the bar's hexahedra at the deformed mesh positions of each step."""
    import meshio
    import re
    from femdyn.mesh.vtk import write_series
    from femdyn.solvers.generalized_alpha import integrate
    solid, _, comp = bar(E=2.1e9)
    m, link = pendulum(comp)
    s = m.assemble()
    r = integrate(s, 2e-3, 1e-3)
    pvd = write_series(s, r, str(tmp_path))
    last = meshio.read(str(tmp_path / re.findall(r'file="([^"]+)"', open(pvd).read())[-1]))
    hexa = last.cells_dict["hexahedron"]
    assert len(hexa) == 10
    expected = link.deformed(r.q[-1], solid.mesh.points, comp.mesh_shapes)
    assert np.allclose(last.points[hexa.min():hexa.max() + 1], expected, atol=1e-12)


def test_total_mass_and_summary_count_the_flexible_body():
    _, _, comp = bar()
    m, _ = pendulum(comp)
    s = m.assemble()
    assert s.total_mass == pytest.approx(float(comp.mass), rel=1e-15)
    assert s.degrees_of_freedom() == 1 + comp.n_modes


def test_input_errors_name_the_body_and_the_fix():
    _, _, comp = bar()
    m = femdyn.Model("errors")
    with pytest.raises(ModelError, match="axes must be a 3×3 rotation"):
        m.flexible_body("a", comp, axes=np.diag([1.0, 1.0, -1.0]))
    with pytest.raises(ModelError, match="modes = 11, but the component has 10"):
        m.flexible_body("b", comp, modes=11)
    with pytest.raises(ModelError, match="eta must hold 10"):
        m.flexible_body("c", comp, eta=[0.0])
    link = m.flexible_body("d", comp)
    with pytest.raises(ModelError, match="attach to its interface frames"):
        m.spherical("s", m.ground, link, (0, 0, 0))
    with pytest.raises(ModelError, match="not an output point"):
        m.sensor_point("p", link, (0.1, 0, 0))
    with pytest.raises(ModelError, match="has 2 gauges"):
        m.sensor_gauge_point("g", link, 5)
    with pytest.raises(ModelError, match="no interface 'x2'"):
        link.interface("x2")
    with pytest.raises(femdyn.FemdynError, match="cannot read a component file"):
        m.flexible_body("e", __file__)
