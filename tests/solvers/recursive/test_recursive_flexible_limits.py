"""Flexible recursive solvers in their limits and under conservation laws: zero modes against
the rigid recursive solvers and Pinocchio, energy of a free flexible chain with RK4 (order 4),
momentum of a free-floating flexible chain, Zhai's method against RK4."""
import numpy as np
import pytest

from femdyn.solvers.recursive import Data, TreeModel, forward_dynamics, inverse_dynamics, mass_matrix
from femdyn.solvers.recursive import flexible_dynamics as fd
from femdyn.solvers.recursive.flexible import FlexibleTreeModel, ModalBody, flexible_chain
from femdyn.solvers.recursive.flexible_simulation import simulate_flexible
from femdyn.solvers.recursive.model import Body, Joint
from support.flexible_cases import bar, random_flexible_tree, rotation

pin = pytest.importorskip("pinocchio")


def rigid_twin(model):
    """The same tree of rigid bodies (each bar's mass, centre of mass and inertia; joints placed at the
    interface origins): what a flexible tree without modes must reproduce."""
    bodies = []
    for i, b in enumerate(model.bodies):
        p = model.parent[i]
        c = model.components[i]
        origin = np.zeros(3) if b.at is None else model.at_origin[i]
        if c is None:
            com, inertia = np.asarray(b.com, float), b.inertia
        else:
            com, inertia = c.com, c.inertia
        bodies.append(Body(b.name, "world" if p < 0 else model.names[p], b.joint, float(model.mass[i]), tuple(com),
                           inertia, placement_R=b.placement_R, placement_p=tuple(origin + np.asarray(b.placement_p))))
    return TreeModel(bodies, model.gravity)


@pytest.mark.parametrize("branched", [False, True], ids=["chain", "tree"])
def test_zero_modes_is_the_rigid_tree_and_pinocchio(branched):
    """Without modes the flexible sweeps are the rigid ones: inverse and forward dynamics and the mass matrix
    equal the rigid recursive solver's and Pinocchio's to 1e-10 relative (the same recursions in double
    precision, round-off ~1e-15; 1e-10 as in test_recursive_pinocchio)."""
    from support.trees import to_pinocchio
    rng = np.random.default_rng(7)
    model = random_flexible_tree(rng, branched=branched, modes=0)
    rigid = rigid_twin(model)
    assert model.nv == rigid.nv == 4
    data, rdata = fd.FlexibleData(model), Data(rigid)
    pm = to_pinocchio(rigid)
    pd = pm.createData()
    q, v, a, tau = (rng.standard_normal(4) for _ in range(4))

    def close(x, y):
        return np.abs(x - y).max() <= 1e-10 * max(1.0, np.abs(y).max())

    for ours, theirs, pinocchio in (
            (fd.inverse_dynamics(model, data, q, v, a), inverse_dynamics(rigid, rdata, q, v, a), pin.rnea(pm, pd, q, v, a)),
            (fd.forward_dynamics(model, data, q, v, tau), forward_dynamics(rigid, rdata, q, v, tau),
             pin.aba(pm, pd, q, v, tau)),
            (fd.mass_matrix(model, data, q), mass_matrix(rigid, rdata, q), pin.crba(pm, pd, q))):
        assert close(ours, theirs) and close(ours, pinocchio)


def free_chain(modes=2, floating=False, gravity=(0.0, 0.0, -9.81)):
    """Three 0.5 m bars on revolute joints about skew axes, hanging under gravity (or floating in space on a
    free joint)."""
    comp, _ = bar()
    rng = np.random.default_rng(11)
    joints = [Joint("free") if floating else Joint("revolute", (0.0, 1.0, 0.0)),
              Joint("revolute", (0.0, 0.6, 0.8)), Joint("revolute", (0.0, 0.0, 1.0))]
    placements = [(rotation(rng), (0.0, 0.0, 0.0)) for _ in joints]
    return flexible_chain([comp] * 3, joints, placements, inner="root", outer="tip", modes=modes, gravity=gravity)


def initial_state(model, rng):
    q = model.neutral_configuration()
    q[model.scalar_q_index] = rng.uniform(-1, 1, len(model.scalar_q_index))
    q[model.n_joint_q:] = 1e-3 * rng.standard_normal(model.n_eta)
    v = rng.standard_normal(model.nv)
    v[model.n_joint_v:] *= 0.1
    return q, v


def test_energy_drift_converges_at_order_four():
    """Free flexible chain, no damping, no torques, gravity: the RK4 energy error E(T) − E(0) converges at
    order four or better between h = 2e-4, 1e-4, 5e-5 s (the stiffest coupled mode, ~4400 rad/s, keeps
    ωh ≤ 0.9, the asymptotic range). Observed orders 4.2 and 4.9: RK4's global error is O(h⁴), and its energy
    error on a fast oscillation is the dissipation |R(iωh)|² − 1 ≈ −(ωh)⁶/72 per step, O(h⁵) over a fixed time,
    which takes over as h falls; so the bracket is [3.8, 5.5]. The energy itself is computed by an
    independent formula (Σ ½ νᵀMν + gravity + ½ηᵀKη)."""
    model = free_chain()
    data = fd.FlexibleData(model)
    q0, v0 = initial_state(model, np.random.default_rng(5))
    e0 = fd.energy(model, data, q0, v0)["total"]
    drift = []
    for h in (2e-4, 1e-4, 5e-5):
        run = simulate_flexible(model, q0, v0, 0.05, h, method="rk4")
        drift.append(abs(fd.energy(model, data, run.state_q[-1], run.state_v[-1])["total"] - e0))
    orders = np.log2(np.array(drift[:-1]) / np.array(drift[1:]))
    assert np.all((orders > 3.8) & (orders < 5.5)), (drift, orders)
    assert drift[-1] < 1e-4 * abs(e0)


def test_floating_flexible_chain_conserves_momentum():
    """A free-floating chain of three bars (base bar on a free joint), no gravity: the spatial momentum about
    the world origin is constant. Instantaneously: its rate along the computed motion, by central differences
    (ε = 1e-6 s), is below 1e-6 of the momentum (the difference's truncation ε² ḧ' with modal accelerations
    ~1e6 is ~1e-8 of it; a missing inertia term would give O(1)). Integrated with RK4: the drift after
    0.05 s is the integration error, converging at order ≥ 3.8 between h = 5e-5 and 2.5e-5 s (observed 3.6
    from 1e-4 to 5e-5 s, where ωh ≈ 0.5 for the stiffest coupled mode is not yet asymptotic)."""
    from femdyn.solvers.recursive.configuration import TreeSpace
    model = free_chain(floating=True, gravity=(0.0, 0.0, 0.0))
    data = fd.FlexibleData(model)
    q0, v0 = initial_state(model, np.random.default_rng(6))
    h0 = fd.momentum(model, data, q0, v0)
    a = fd.forward_dynamics(model, data, q0, v0, np.zeros(model.nv))
    qd, eps = TreeSpace(model).rate(q0, v0), 1e-6
    rate = (fd.momentum(model, data, q0 + eps * qd, v0 + eps * a)
            - fd.momentum(model, data, q0 - eps * qd, v0 - eps * a)) / (2 * eps)
    assert np.abs(rate).max() <= 1e-6 * np.abs(h0).max()
    drift = []
    for h in (1e-4, 5e-5, 2.5e-5):
        run = simulate_flexible(model, q0, v0, 0.05, h, method="rk4")
        drift.append(np.abs(fd.momentum(model, data, run.state_q[-1], run.state_v[-1]) - h0).max())
    assert np.log2(drift[1] / drift[2]) > 3.8, drift
    assert np.abs(run.eta).max() > 1e-4                 # the bars did deform


def test_zhai_agrees_with_rk4_at_order_two():
    """Zhai's method (ψ = φ = 0.5) on the hanging chain: its gap to a fine RK4 run shrinks about 4× per halving
    of h (second order; observed orders 1.98 and 2.0 over h = 1e-4 … 2.5e-5 s, bracket [1.6, 2.4]); the RK4
    reference at 1.25e-5 s is ~1e-9 from the exact solution, far below the gaps (~1e-5)."""
    model = free_chain(modes=1)
    q0, v0 = initial_state(model, np.random.default_rng(5))
    reference = simulate_flexible(model, q0, v0, 0.02, 1.25e-5, method="rk4")
    gaps = []
    for h in (1e-4, 5e-5, 2.5e-5):
        run = simulate_flexible(model, q0, v0, 0.02, h, method="zhai")
        gaps.append(np.abs(run.state_q[-1] - reference.state_q[-1]).max())
    orders = np.log2(np.array(gaps[:-1]) / np.array(gaps[1:]))
    assert np.all((orders > 1.6) & (orders < 2.4)), (gaps, orders)


def test_rigid_body_on_a_flexible_interface():
    """ModalBody.rigid attaches a rigid Body at a flexible parent's interface: same mass matrix as the
    equivalent ModalBody (exact: the same arrays)."""
    comp, _ = bar()
    tool = Body("tool", "b", Joint("revolute", (1.0, 0.0, 0.0)), 0.5, (0.02, 0.0, 0.0), (1e-3, 1e-3, 1e-3, 0, 0, 0))
    a = FlexibleTreeModel([ModalBody("b", "world", Joint("revolute"), component=comp, inner="root", modes=2),
                           ModalBody.rigid(tool, at="tip")])
    b = FlexibleTreeModel([ModalBody("b", "world", Joint("revolute"), component=comp, inner="root", modes=2),
                           ModalBody("tool", "b", Joint("revolute", (1.0, 0.0, 0.0)), at="tip", mass=0.5,
                                     com=(0.02, 0.0, 0.0), inertia=(1e-3, 1e-3, 1e-3, 0, 0, 0))])
    q = np.array([0.3, -0.2, 1e-3, -2e-3])
    assert np.array_equal(fd.mass_matrix(a, fd.FlexibleData(a), q), fd.mass_matrix(b, fd.FlexibleData(b), q))


def test_stiff_links_approach_the_rigid_motion():
    """Stiffening every bar's modes by s (K → s K) drives the motion from rest under gravity to the rigid
    twin's: after 0.02 s the joint-angle gap falls with s (η ~ load / (sK) ~ 1/s, and the joint motion feels it
    through the deformed inertia and the ringing it starts), at least 4× from s = 100 to 1000 (observed 5.8;
    3.6 after 0.01 s, where the ringing phase still matters), and stays below
    1 % of the rigid motion. RK4 with ωh ≈ 0.3 of the stiffest mode; the rigid twin integrated at 1e-5 s."""
    from femdyn.component import Component, reference_to_interface
    from femdyn.solvers.recursive import simulate
    comp = reference_to_interface(bar()[0], "root")
    rng = np.random.default_rng(3)
    joints = [Joint("revolute", (0.0, 1.0, 0.0)), Joint("revolute", (0.0, 0.6, 0.8)), Joint("revolute", (0.0, 0.0, 1.0))]
    placements = [(rotation(rng), (0.0, 0.0, 0.0)) for _ in joints]
    q0, T = np.array([0.3, -0.5, 0.8]), 0.02
    gaps = []
    for s in (1e2, 1e3):
        arrays = dict(comp.arrays, modal_stiffness=comp.modal_stiffness * s, frequencies=comp.frequencies * s**0.5)
        model = flexible_chain([Component(comp.header, arrays)] * 3, joints, placements, inner="root", outer="tip",
                               modes=2)
        if not gaps:
            rigid = rigid_twin(model)
            rdata = Data(rigid)
            reference = simulate(lambda t, q, v: forward_dynamics(rigid, rdata, q, v, np.zeros(3)), q0, np.zeros(3),
                                 T, 1e-5, "rk4")
        h = T / np.ceil(T * 4400 * s**0.5 / 0.3)
        run = simulate_flexible(model, np.r_[q0, np.zeros(6)], np.zeros(9), T, h, method="rk4")
        gaps.append(np.abs(run.q[-1] - reference.q[-1]).max())
    motion = np.abs(reference.q[-1] - q0).max()
    assert gaps[0] / gaps[1] > 4 and gaps[1] < 1e-2 * motion, (gaps, motion)
