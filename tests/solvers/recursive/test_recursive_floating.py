"""Free-floating base (Qiu et al.): momentum, hybrid inverse dynamics, Lie-group update."""
import numpy as np
import pytest

from femdyn.solvers.recursive import (Data, center_of_mass, forward_dynamics, inverse_dynamics, momentum)
from femdyn.solvers.recursive.configuration import TreeSpace
from femdyn.solvers.recursive.floating import floating_base_inverse_dynamics
from femdyn.solvers.recursive.integrators import simulate
from support.trees import random_state, random_tree, to_pinocchio, to_pinocchio_vector

pin = pytest.importorskip("pinocchio")


def space_tree(seed, n=8):
    rng = np.random.default_rng(seed)
    model = random_tree(rng, n, floating=True, gravity=(0.0, 0.0, 0.0))
    q, v, _ = random_state(rng, model)
    return model, Data(model), q, v


def test_momentum_conserved_at_fourth_order():
    """No gravity, no external force, joint torques sin(k t) (internal): the momentum is constant.

    RK4's drift must shrink like h⁴: the observed order over h = 0.04, 0.02, 0.01 s must
    lie in [3.7, 4.3] (observed 4.00); the bound at h = 0.01 s is 1e-7 N·m·s (observed 3e-8)
    for |v| ~ 1 rad/s and T = 2 s.
    """
    model, data, q0, v0 = space_tree(1)
    space = TreeSpace(model)
    drive = np.arange(1, model.nv - 5)

    def acceleration(t, q, v):
        tau = np.zeros(model.nv)
        tau[6:] = np.sin(t * drive)
        return forward_dynamics(model, data, q, v, tau)

    h0, com0 = momentum(model, data, q0, v0), center_of_mass(model, data, q0)
    drift = []
    for h in (0.04, 0.02, 0.01):
        run = simulate(acceleration, q0, v0, 2.0, h, space=space)
        drift.append(max(np.abs(momentum(model, data, q, v) - h0).max() for q, v in zip(run.q, run.v)))
    orders = np.log2(np.array(drift[:-1]) / drift[1:])
    assert np.all((orders > 3.7) & (orders < 4.3)), orders
    assert drift[-1] < 1e-7
    # the centre of mass moves uniformly: c(T) = c(0) + p T / m (1e-6 m: integration error, same order)
    c_end = center_of_mass(model, data, run.q[-1])
    np.testing.assert_allclose(c_end, com0 + h0[3:] * 2.0 / model.mass.sum(), atol=1e-6)


def test_momentum_and_com_against_pinocchio():
    """Centroidal momentum and centre of mass against Pinocchio (1e-12 relative: round-off)."""
    model, data, q, v = space_tree(2)
    pm = to_pinocchio(model)
    pd = pm.createData()
    hg = pin.computeCentroidalMomentum(pm, pd, q, to_pinocchio_vector(model, v))
    ours = momentum(model, data, q, v, about="com")
    scale = np.abs(ours).max()
    assert np.abs(ours[:3] - hg.angular).max() <= 1e-12 * scale
    assert np.abs(ours[3:] - hg.linear).max() <= 1e-12 * scale
    assert np.abs(center_of_mass(model, data, q) - pin.centerOfMass(pm, pd, q)).max() <= 1e-12
    # about the origin: L_O = L_G + c × p
    about_origin = momentum(model, data, q, v)
    c = center_of_mass(model, data, q)
    np.testing.assert_allclose(about_origin[:3], ours[:3] + np.cross(c, ours[3:]), rtol=0, atol=1e-12 * scale)


@pytest.mark.parametrize("gravity", [(0.0, 0.0, 0.0), (0.0, 0.0, -9.81)])
def test_floating_inverse_dynamics(gravity):
    """Prescribed joint motion, free base: joint forces, base acceleration, disturbance wrench.

    Forward dynamics with the returned joint forces and a free base must give back the
    prescribed joint accelerations and the base acceleration; the disturbance wrench must
    satisfy the base's Newton–Euler equation I_b a_b + v_b ×* I_b v_b = w + (gravity).
    Tolerance 1e-10 relative: exact identities, round-off only.
    """
    rng = np.random.default_rng(7)
    model = random_tree(rng, 8, floating=True, gravity=gravity)
    data = Data(model)
    q, v, qdd = random_state(rng, model)
    tau_j, base_acc, wrench = floating_base_inverse_dynamics(model, data, q, v, qdd[6:])
    tau = np.r_[np.zeros(6), tau_j]
    qdd_fd = forward_dynamics(model, data, q, v, tau)
    scale = max(1.0, np.abs(qdd_fd).max())
    assert np.abs(qdd_fd[6:] - qdd[6:]).max() <= 1e-10 * scale
    assert np.abs(qdd_fd[:6] - base_acc).max() <= 1e-10 * scale
    # base Newton–Euler in base coordinates; gravity as the fictitious acceleration −g of the world
    I_b, v_b = model.inertia[0], v[:6]
    R = data.R_world[0]
    a_g = np.r_[np.zeros(3), R.T @ np.asarray(gravity)]
    w_hat = np.r_[np.cross(v_b[:3], (I_b @ v_b)[:3]) + np.cross(v_b[3:], (I_b @ v_b)[3:]),
                  np.cross(v_b[:3], (I_b @ v_b)[3:])]
    lhs = I_b @ (base_acc - a_g) + w_hat
    assert np.abs(lhs - wrench).max() <= 1e-10 * max(1.0, np.abs(wrench).max())
    # the joint forces equal plain inverse dynamics with that base acceleration and zero base wrench
    full = inverse_dynamics(model, data, q, v, np.r_[base_acc, qdd[6:]])
    assert np.abs(full[:6]).max() <= 1e-10 * max(1.0, np.abs(full).max())
    assert np.abs(full[6:] - tau_j).max() <= 1e-10 * max(1.0, np.abs(full).max())


def test_lie_group_update_against_pinocchio():
    """q ⊕ δ with the SE(3) exponential equals pinocchio.integrate (1e-12: closed-form maps)."""
    model, data, q, v = space_tree(3)
    pm = to_pinocchio(model)
    for scale in (1e-9, 0.3, 2.0):
        ours = TreeSpace(model).integrate(q, scale * v)
        ref = pin.integrate(pm, q, to_pinocchio_vector(model, scale * v))
        k = model.q_index[0]
        if ours[k + 6] * ref[k + 6] < 0:                   # q and −q are the same rotation
            ref[k + 3:k + 7] *= -1
        np.testing.assert_allclose(ours, ref, rtol=0, atol=1e-12)


def test_zhai_on_the_lie_group_is_second_order():
    """Zhai's method with the SE(3) update q ⊕ δ on a free-floating tree (ψ = φ = ½).

    Error at T = 1 s against RK4 with h = 1e-3 s (error ~1e-12, negligible); observed
    order over h = 0.01, 0.005, 0.0025 s must lie in [1.8, 2.2] (observed 2.00): the exponential update
    keeps Zhai's second order (adding R δ_v to the position without the SE(3) coupling
    would drop the ½ h² R (ω × v) term of the Taylor series).
    """
    model, data, q0, v0 = space_tree(4, n=5)
    space = TreeSpace(model)
    tau = np.zeros(model.nv)

    def acceleration(t, q, v):
        return forward_dynamics(model, data, q, v, tau)

    ref = simulate(acceleration, q0, v0, 1.0, 1e-3, space=space).q[-1]
    errors = [np.abs(simulate(acceleration, q0, v0, 1.0, h, method="zhai", space=space).q[-1] - ref).max()
              for h in (0.01, 0.005, 0.0025)]
    orders = np.log2(np.array(errors[:-1]) / errors[1:])
    assert np.all((orders > 1.8) & (orders < 2.2)), orders
