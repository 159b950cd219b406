"""Recursive dynamics of flexible bodies with modal coordinates against independent truth.

Bodies: 0.5 m steel bars reduced from a Tet10 mesh (tests/flexible_cases.py), chains and a
branched tree with a rigid tool, random joint axes, placements and states with η ≠ 0 (so
the interface frames are displaced and turned and every η-dependent inertia term is active).
"""
import numpy as np
import pytest

from femdyn.errors import ModelError
from femdyn.solvers.recursive import flexible_dynamics as fd
from femdyn.solvers.recursive.flexible import FlexibleTreeModel, ModalBody
from femdyn.solvers.recursive.model import Joint
from support.flexible_cases import (bar, node_masses, random_flexible_tree, random_state, rigid_cloud,
                            velocity_jacobian)

CASES = [dict(branched=False), dict(branched=True)]


def tree_and_nodes(rng, **case):
    model = random_flexible_tree(rng, **case)
    tool = model.index("tool")
    Ic = np.array([[2e-3, 1e-4, 0.0], [1e-4, 3e-3, 0.0], [0.0, 0.0, 4e-3]])
    points, masses = rigid_cloud(model.mass[tool], model.first_moment[tool] / model.mass[tool], Ic)
    return model, {"tool": points}, {"tool": (points, masses)}


@pytest.mark.parametrize("case", CASES, ids=["chain", "tree"])
def test_mass_matrix_is_the_kinetic_energy_hessian(case):
    """CRBA over extended bodies = Jᵀ M_nodes J with J the nodal velocity Jacobian of an independent forward
    kinematics (scipy expm for the interface rotations) and the solid's consistent mass: 1e-8 relative
    (central differences with h = 1e-6: truncation ~h² ≈ 1e-12, round-off ~ε/h ≈ 1e-10)."""
    rng = np.random.default_rng(1)
    model, points, clouds = tree_and_nodes(rng, **case)
    q, _, _ = random_state(rng, model)
    J = velocity_jacobian(model, q, points)
    Ms = node_masses(model, clouds)
    J3 = J.reshape(-1, 3, model.nv)
    reference = sum(J3[:, k].T @ (Ms @ J3[:, k]) for k in range(3))
    M = fd.mass_matrix(model, fd.FlexibleData(model), q)
    assert np.abs(M - reference).max() <= 1e-8 * np.abs(reference).max()


@pytest.mark.parametrize("case", CASES, ids=["chain", "tree"])
def test_gravity_and_elastic_forces(case):
    """RNEA at rest = −Jᵀ(m_nodes ⊗ g) + [0; Kη]: the gravity load of every node through the independent
    kinematics, 1e-8 relative (same differences as the mass matrix)."""
    rng = np.random.default_rng(2)
    model, points, clouds = tree_and_nodes(rng, **case)
    q, _, _ = random_state(rng, model)
    J = velocity_jacobian(model, q, points).reshape(-1, 3, model.nv)
    w = np.asarray(node_masses(model, clouds).sum(axis=1)).ravel()
    reference = -np.einsum("n,nak,a->k", w, J, model.gravity)
    for i, c in enumerate(model.components):
        if c is not None:
            eta = q[model.eq_index[i]:model.eq_index[i] + c.n_modes]
            reference[model.ev_index[i]:model.ev_index[i] + c.n_modes] += c.modal_stiffness @ eta
    tau = fd.inverse_dynamics(model, fd.FlexibleData(model), q, np.zeros(model.nv), np.zeros(model.nv))
    assert np.abs(tau - reference).max() <= 1e-8 * np.abs(reference).max()


@pytest.mark.parametrize("case", CASES, ids=["chain", "tree"])
def test_velocity_terms_are_lagrangian(case):
    """RNEA(q, v, 0) − RNEA(q, 0, 0) = Ṁ v − ½ ∂(vᵀMv)/∂q (Lagrange's equations) with Ṁ v and the gradient
    by central differences of the mass matrix (already checked against the nodal energy): 1e-7 relative
    (h = 1e-5 on q: truncation h² × third derivatives ≈ 1e-10, round-off ε/h ≈ 1e-11, times the spread of
    the entries)."""
    rng = np.random.default_rng(3)
    model, _, _ = tree_and_nodes(rng, **case)
    data = fd.FlexibleData(model)
    q, v, _ = random_state(rng, model)
    h = 1e-5
    Mdot_v = (fd.mass_matrix(model, data, q + h * v) - fd.mass_matrix(model, data, q - h * v)) @ v / (2 * h)
    grad = np.array([v @ (fd.mass_matrix(model, data, q + h * e) - fd.mass_matrix(model, data, q - h * e)) @ v
                     for e in np.eye(model.nq)]) / (2 * h)
    reference = Mdot_v - 0.5 * grad
    zero = np.zeros(model.nv)
    c = fd.inverse_dynamics(model, data, q, v, zero) - fd.inverse_dynamics(model, data, q, zero, zero)
    assert np.abs(c - reference).max() <= 1e-7 * np.abs(reference).max()


@pytest.mark.parametrize("case", CASES + [dict(branched=True, floating=True)], ids=["chain", "tree", "floating"])
def test_hybrid_consistency(case):
    """Tian et al. 2010's checks. All joints torque-given = forward dynamics = M⁻¹(τ − RNEA(q, v, 0));
    all motion-given returns the joint torques and η̈ that RNEA maps back to the given joint forces with zero
    modal force; a mixed split, then the roles swapped and the computed quantities fed back, reproduces the
    motion. 1e-10 relative to the largest term of the balance (the elastic forces Kη ~ 1e5 for forces, the
    modal accelerations ω²η ~ 1e6 for accelerations): the joint forces are O(1) differences of those terms,
    so their round-off is ε × that scale (observed ~1e-13 of it), times the conditioning of M (~1e5)."""
    rng = np.random.default_rng(4)
    model, _, _ = tree_and_nodes(rng, **case)
    data = fd.FlexibleData(model)
    q, v, _ = random_state(rng, model)
    tau = rng.standard_normal(model.nv)
    tau[model.n_joint_v:] = 0.0

    qdd = fd.forward_dynamics(model, data, q, v, tau)
    bias = fd.inverse_dynamics(model, data, q, v, np.zeros(model.nv))

    force_scale, acceleration_scale = np.abs(bias).max(), np.abs(qdd).max()

    def close(a, b, scale):
        return np.abs(a - b).max() <= 1e-10 * scale

    assert close(qdd, np.linalg.solve(fd.mass_matrix(model, data, q), tau - bias), acceleration_scale)
    everything = np.ones(model.n, bool)
    qdd_none, tau_none = fd.hybrid_dynamics(model, data, q, v, ~everything, tau, np.zeros(model.nv))
    assert close(qdd_none, qdd, acceleration_scale)
    # all motion-given: the motion just computed is reproduced by the torques that caused it
    qdd_all, tau_all = fd.hybrid_dynamics(model, data, q, v, everything, np.zeros(model.nv), qdd)
    assert close(tau_all, tau, force_scale) and close(qdd_all, qdd, acceleration_scale)
    assert close(fd.inverse_dynamics(model, data, q, v, qdd_all), tau_all, force_scale)
    # mixed split and its complement
    split = np.array([True, False, True, False])
    qdd_a, tau_a = fd.hybrid_dynamics(model, data, q, v, split, tau, np.where(_mask(model, split), qdd, 0.0))
    assert close(qdd_a, qdd, acceleration_scale) and close(tau_a, tau, force_scale)
    qdd_b, tau_b = fd.hybrid_dynamics(model, data, q, v, ~split, tau_a, qdd_a)
    assert close(qdd_b, qdd, acceleration_scale) and close(tau_b, tau, force_scale)


def _mask(model, prescribed):
    """Entries of v belonging to prescribed joints."""
    out = np.zeros(model.nv, bool)
    for i in np.flatnonzero(prescribed):
        out[model.v_index[i]:model.v_index[i] + model.joint_nv[i]] = True
    return out


def test_errors_name_the_fix():
    comp, _ = bar()
    rigid = ModalBody("base", "world", Joint("revolute"), mass=1.0, inertia=(1, 1, 1, 0, 0, 0))
    with pytest.raises(ModelError, match="has no component"):
        FlexibleTreeModel([rigid, ModalBody("b", "base", Joint("revolute"), component=comp, inner="root", at="tip")])
    with pytest.raises(Exception, match="no interface named 'elbow'"):
        FlexibleTreeModel([ModalBody("b", "world", Joint("revolute"), component=comp, inner="elbow")])
    model = FlexibleTreeModel([ModalBody("b", "world", Joint("revolute"), component=comp, inner="root", modes=2)])
    with pytest.raises(ModelError, match="expected 3 values"):
        fd.forward_dynamics(model, fd.FlexibleData(model), np.zeros(2), np.zeros(3), np.zeros(3))
    other = FlexibleTreeModel([ModalBody("b", "world", Joint("revolute"), component=comp, inner="root", modes=1)])
    with pytest.raises(ModelError, match="one FlexibleData"):
        fd.mass_matrix(model, fd.FlexibleData(other), np.zeros(3))


@pytest.mark.parametrize("size", [0.05, 0.4, 1.3], ids=["series", "near-switch", "closed-form"])
def test_interface_frame_against_matrix_exponential(size):
    """The interface frame on a flexible body for rotation vectors |θ| = Ψη of 0.05, 0.4 and 1.3 rad (both
    branches of the SO(3) coefficients): R = expm([θ]×) (scipy), the relative twist S_F η̇ = [ω; v] with
    [ω]× = Rᵀ Ṙ and v = Rᵀ d/dt(o + Φη) by central differences along η + t η̇, and Ṡ_F η̇ = d/dt(S_F(η + t η̇) η̇)
    by central differences: 1e-12 for R, 1e-8 for the rates (differences with h = 1e-5: truncation ~1e-10,
    round-off ~1e-11)."""
    import scipy.linalg as sla
    from femdyn.solvers.recursive import modal_kernels as mk
    rng = np.random.default_rng(9)
    m = 3
    o, T, P = rng.standard_normal(3), rng.standard_normal((3, m)), rng.standard_normal((3, m))
    eta = rng.standard_normal(m)
    eta *= size / np.linalg.norm(P @ eta)
    etad = rng.standard_normal(m)

    def frame(e):
        R, pF, SF, w, sdot = np.empty((3, 3)), np.empty(3), np.empty((6, m)), np.empty(6), np.empty(6)
        mk.interface_frame(o, T, P, m, e, etad, R, pF, SF, w, sdot)
        return R, pF, SF, w, sdot

    def skew(x):
        return np.array([[0.0, -x[2], x[1]], [x[2], 0.0, -x[0]], [-x[1], x[0], 0.0]])

    R, pF, SF, w, sdot = frame(eta)
    assert np.abs(R - sla.expm(skew(P @ eta))).max() <= 1e-12
    assert np.allclose(pF, o + T @ eta, atol=1e-14)
    h = 1e-5
    Rp, Rm = sla.expm(skew(P @ (eta + h * etad))), sla.expm(skew(P @ (eta - h * etad)))
    W = R.T @ (Rp - Rm) / (2 * h)
    omega = np.array([W[2, 1], W[0, 2], W[1, 0]])
    assert np.abs(w[:3] - omega).max() <= 1e-8 * np.abs(omega).max()
    assert np.allclose(w[3:], R.T @ T @ etad, atol=1e-13)
    plus, minus = frame(eta + h * etad), frame(eta - h * etad)
    rate = (plus[2] @ etad - minus[2] @ etad) / (2 * h)
    assert np.abs(sdot - rate).max() <= 1e-8 * max(np.abs(rate).max(), 1.0)
