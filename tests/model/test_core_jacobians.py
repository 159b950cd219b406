"""Finite-difference checks of every analytic derivative of the core: Φ_q, the
constraint Hessian term, Φ_t and γ, joint-torque forces and stiffness (tolerances: see
tests/checks.py)."""
import numpy as np
import pytest

from support.checks import assert_close, fd_jacobian
from support.models import zoo


@pytest.fixture(scope="module")
def system():
    return zoo().assemble()


@pytest.fixture(scope="module")
def state(system):
    rng = np.random.default_rng(7)
    q = system.q0 + 0.05 * rng.standard_normal(system.n)   # deliberately inconsistent
    v = rng.standard_normal(system.n)
    return q, v, 0.37


def test_zoo_has_every_kind(system):
    kinds = {j.kind for j in system.model.joints.values()}
    assert kinds >= {"revolute", "universal", "prismatic", "spherical", "distance", "angle drive", "coordinate drive"}


def test_constraint_jacobian(system, state):
    q, _, t = state
    c = system.constraints
    assert_close(c.jacobian(q, t).toarray(), fd_jacobian(lambda x: c.phi(x, t), q))


def test_constraint_hessian_term(system, state):
    q, _, t = state
    c = system.constraints
    lam = np.random.default_rng(3).standard_normal(system.m)
    from femdyn.sparse import Pattern
    H = Pattern(c.hess_rows, c.hess_cols, (system.n, system.n)).matrix(c.hessian_values(q, lam)).toarray()
    assert_close(H, fd_jacobian(lambda x: c.jacobian(x, t).T @ lam, q))


def test_phi_t_and_gamma(system, state):
    """Along q(τ) = q + v τ + ½ a τ²: dΦ/dτ = Φ_q v + Φ_t and d²Φ/dτ² = Φ_q a − γ."""
    q, v, t = state
    c = system.constraints
    a = np.random.default_rng(5).standard_normal(system.n)
    path = lambda tau: c.phi(q + v * tau + 0.5 * a * tau * tau, t + tau)
    d = 1e-4
    first = (path(d) - path(-d)) / (2 * d)
    second = (path(d) - 2 * path(0.0) + path(-d)) / d**2
    phi_t, gamma = c.acceleration_terms(q, v, t)
    Phi_q = c.jacobian(q, t)
    assert_close(Phi_q @ v + phi_t, first, 1e-7)
    assert_close(Phi_q @ a - gamma, second, 1e-5)   # second difference: error O(d²) + O(ε/d²) ~ 1e-8


def test_load_tangent(system, state):
    q, v, t = state
    k_vals, _ = system.tangent_values(q, v, t)
    K = system.patterns.stiffness.matrix(k_vals).toarray()
    assert_close(K, -fd_jacobian(lambda x: system.forces(x, v, t), q))


def test_joint_torque_is_virtual_work_of_angle(system, state):
    """Q_torque·δq = T δθ: the generalized force equals T ∂θ/∂q by finite differences of θ."""
    q, v, t = state
    torque = next(ld for ld in system.loads if ld.name == "motor2")
    from femdyn.model.vectorfunctions import Angle
    theta = lambda x: Angle.angle(torque.group.vectors(x))[0][0]
    expected = torque.function.value(t) * fd_jacobian(lambda x: np.array([theta(x)]), q)[0]
    assert_close(torque.force(q, v, t), expected)


def test_revolute_rows_stay_independent_through_a_quarter_turn():
    """A link carrying its own axis node, hinged to the ground about z and driven through
    a quarter turn: the orientation rows come from one carrier (the link's axis against two
    ground vectors), so Φ_q keeps full rank all the way; rows mixed from both bodies (the
    ground's axis against the link, the link's axis against the ground) lose rank when the
    link turns onto the ground vector they used."""
    import femdyn
    from femdyn.motion.timefunctions import Polynomial
    from femdyn.solvers.generalized_alpha import Options, integrate
    m = femdyn.Model("hinge", gravity=(0, 0, 0))
    O, A, u = m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), m.vector("u", (0, 0, 1))
    link = m.rigid_beam("link", O, A, mass=1.0, axis=u)
    hinge = m.revolute("hinge", m.ground, link, (0, 0, 0), (0, 0, 1))
    m.drive_angle("drive", hinge, Polynomial([0.0, 0.0, np.pi / 2]))      # θ = π t²/2: a quarter turn at t = 1
    s = m.assemble()
    r = integrate(s, 1.0, 1e-2, Options(rho_inf=0.5))
    smallest = [np.linalg.svd(s.constraints.jacobian(q, t).toarray(), compute_uv=False)[-1] for q, t in zip(r.q, r.t)]
    assert min(smallest) > 0.1
