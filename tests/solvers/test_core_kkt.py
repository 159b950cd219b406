"""The KKT factors used by every Newton iteration against SuperLU on the exact matrix.

The generalized-α iteration matrix of a flexible pendulum (no massless coordinate: only
the multiplier block is regularized) and of a rigid chain whose joint-axis vectors are
massless (the coordinate block is regularized too) is factorized by CHOLMOD's LDLᵀ, and
solves of a random right-hand side are compared with scipy's SuperLU on the exact,
unregularized matrix. Bounds: solves used without refinement must be within the 1e-4
relative error that :mod:`femdyn.solvers.kkt` admits for Newton corrections (block by
block, coordinates and multipliers); refined solves must meet S x = b to 1e-8 relative to
‖S‖‖x‖.
"""
import numpy as np
import pytest
import scipy.sparse.linalg as spla

import femdyn
from femdyn.elements import sections
from femdyn.solvers.generalized_alpha import NewtonStep, Options, Parameters, State, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers import kkt as kkt_module
from femdyn.solvers.kkt import ACCEPT, PLAIN


def flexible_pendulum():
    m = femdyn.Model("flexible pendulum", gravity=(0, 0, -9.81))
    m.straight_beam("beam", (0, 0, 0), (1.2, 0, 0), 16, E=0.7e6, rho=5540.0, section=sections.circular(0.024))
    m.spherical("pin", "ground", "beam.0", (0, 0, 0))
    return m


def rigid_chain(n=6):
    m = femdyn.Model("chain", gravity=(0, 0, -9.81))
    u = m.vector("axis", (0, 1, 0))
    nodes = [m.point(f"P{i}", (0.1 * i, 0, 0)) for i in range(n + 1)]
    links = [m.rigid_beam(f"link{i}", nodes[i], nodes[i + 1], mass=0.1, axis=u) for i in range(n)]
    m.revolute("pivot", m.ground, links[0], (0, 0, 0), (0, 1, 0))
    for i in range(n - 1):
        m.revolute(f"joint{i}", links[i], links[i + 1], (0.1 * (i + 1), 0, 0), (0, 1, 0))
    return m


def factorized_step(model):
    system = model.assemble()
    q, v, a, lam = consistent_state(system)
    step = NewtonStep(system, 1e-3, Parameters.from_rho(0.9), Options())
    x = State(0.0, q, v, a, a.copy(), lam)
    step.factorize(x, step.residuals(x))
    return system, step.kkt


@pytest.mark.parametrize("model, massless", [(flexible_pendulum, False), (rigid_chain, True)])
def test_ldl_solves_match_superlu(model, massless):
    system, kkt = factorized_step(model())
    assert kkt.backend == "cholmod-ldl"
    assert kkt.massless.any() == massless
    S = kkt.matrix
    rng = np.random.default_rng(3)
    for _ in range(3):
        b = rng.standard_normal(S.shape[0])
        exact = spla.spsolve(S.tocsc(), b)
        x = kkt.solve(b)
        for block in (slice(0, system.n), slice(system.n, None)):
            assert np.abs(x[block] - exact[block]).max() <= PLAIN * np.abs(exact[block]).max()
        if kkt.refine:
            scale = abs(S).sum(axis=1).max() * np.abs(x).max()
            assert np.abs(S @ x - b).max() <= 1e-8 * scale


def test_plain_factors_are_used_when_refinement_changes_nothing():
    """The pendulum's factors need no refinement: its regularization (−1e-12 relative on
    the multiplier block) moves the solution by far less than the 1e-4 a Newton
    correction tolerates, so solves cost one triangular pair each."""
    _, kkt = factorized_step(flexible_pendulum())
    assert kkt.refine is False


class _Counting:
    """A factor that counts its solves; ``error``: it returns (1 − error) S⁻¹b, so that every
    refinement step multiplies the residual by ``error`` exactly."""

    def __init__(self, factor, error=0.0):
        self.factor, self.error, self.calls = factor, error, 0

    def __call__(self, b):
        self.calls += 1
        return (1.0 - self.error) * self.factor(b)


def test_refinement_stops_where_a_newton_correction_is_accurate_enough():
    """A Newton solve (accuracy=ACCEPT) is refined until the equilibrated residual is at
    most 1e-8 of the right-hand side and no further. With factors of relative error 1e-3
    the residuals run 1e-3, 1e-6, 1e-9: the plain solve and two refinements (3 triangular
    solves), where a solve refined to round-off takes more. The result agrees with SuperLU
    on the exact matrix within 1e-6 relative (the 1e-9 residual times the condition number
    ≈ 21 of the equilibrated chain matrix, with room), inside the 1e-4 a Newton correction tolerates."""
    system, kkt = factorized_step(rigid_chain())
    kkt.refine = True                         # as the eigenmodes ask; the factor below needs it
    b = np.random.default_rng(8).standard_normal(kkt.matrix.shape[0])
    counting = kkt.solve_factor = _Counting(kkt.solve_factor, error=1e-3)
    newton = kkt.solve(b, accuracy=ACCEPT)
    newton_calls, counting.calls = counting.calls, 0
    full = kkt.solve(b)
    assert newton_calls == 3 < counting.calls
    scaled_rhs = kkt.d * b
    assert np.abs(scaled_rhs - kkt.scaled @ (newton / kkt.d)).max() <= ACCEPT * np.abs(scaled_rhs).max()
    exact = spla.spsolve(kkt.matrix.tocsc(), b)
    assert np.abs(newton - exact).max() <= 1e-6 * np.abs(exact).max()
    assert np.abs(full - exact).max() <= 1e-12 * np.abs(exact).max()


def test_plain_factors_serve_a_newton_correction_in_one_solve():
    """Factors the probe accepts as they are (the pendulum) give a Newton correction
    (accuracy=ACCEPT) in one triangular pair; a solve at the default accuracy (statics,
    initial conditions) is still refined against the exact matrix, to a residual of
    1e-14 relative to ‖Ŝ‖‖y‖ (round-off: a few ulps per entry of a row)."""
    _, kkt = factorized_step(flexible_pendulum())
    assert not kkt.refine
    b = np.random.default_rng(6).standard_normal(kkt.matrix.shape[0])
    counting = kkt.solve_factor = _Counting(kkt.solve_factor)
    kkt.solve(b, accuracy=ACCEPT)
    assert counting.calls == 1
    y = kkt.solve(b) / kkt.d
    assert counting.calls >= 2
    scale = abs(kkt.scaled).sum(axis=1).max() * np.abs(y).max()
    assert np.abs(kkt.d * b - kkt.scaled @ y).max() <= 1e-14 * scale


@pytest.mark.parametrize("multiplier, refine", [(1e-12, True), (kkt_module.MULTIPLIER, False)])
def test_refinement_decision_follows_the_probe(monkeypatch, multiplier, refine):
    """The chain's LDLᵀ without pivoting loses accuracy as 1/δ (δ the multiplier-block
    regularization): at δ = 1e-12 one refinement step changes the probe solution by
    ~1e-4 relative, more than PLAIN, and every solve is refined; at the default 1e-10 by
    ~1e-6, and the factors are used as they are. Either way the solve agrees with SuperLU
    on the exact matrix within the 1e-4 a Newton correction tolerates."""
    monkeypatch.setattr(kkt_module, "MULTIPLIER", multiplier)
    system, kkt = factorized_step(rigid_chain())
    assert kkt.refine is refine
    b = np.random.default_rng(4).standard_normal(kkt.matrix.shape[0])
    exact = spla.spsolve(kkt.matrix.tocsc(), b)
    assert np.abs(kkt.solve(b, accuracy=ACCEPT) - exact).max() <= PLAIN * np.abs(exact).max()


def test_rejected_steps_reuse_one_symbolic_analysis(monkeypatch):
    """A run whose steps are rejected and halved (on_failure="retry": steppers of h, h/2, h/4)
    makes one CHOLMOD symbolic analysis (AMD ordering) for the start and every step size, and
    gives bit for bit the results of one analysis per step size (the numeric factors stay per
    step size). (The stabilized form's unsymmetric matrix goes to SuperLU, not analysed here.)"""
    from support.models import pendulum
    calls = []

    def counted(*args, **kwargs):
        calls.append(args[0].shape)
        return analyze(*args, **kwargs)

    analyze = kkt_module.analyze
    monkeypatch.setattr(kkt_module, "analyze", counted)
    # index 3 throughout: the swing reaches ωh = 0.27, where the run would switch to the stabilized form
    options = Options(max_iterations=4, on_failure="retry", step_check=False)
    shared = integrate(pendulum(0.0).assemble(), 1.0, 0.05, options)
    rejected = [e for e in shared.events if e["event"] == "step rejected"]
    assert rejected and len({e["h"] for e in rejected}) >= 2
    assert len(calls) == 1

    fresh = kkt_module.SymbolicAnalysis.factor
    monkeypatch.setattr(kkt_module.SymbolicAnalysis, "factor",
                        lambda self, R: (setattr(self, "symbolic", None), fresh(self, R))[1])
    calls.clear()
    separate = integrate(pendulum(0.0).assemble(), 1.0, 0.05, options)
    assert len(calls) == 1 + len({e["h"] for e in rejected}) + 1     # start, h and each halving
    for key in ("q", "v", "a", "lam"):
        assert np.array_equal(getattr(shared, key), getattr(separate, key))
    assert np.array_equal(shared.iterations, separate.iterations)
