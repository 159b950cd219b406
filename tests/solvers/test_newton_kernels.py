"""The compiled pieces of a Newton iteration against the numpy statements they replace.

System.residual (M q̈ + Gᵀλ − Q in one compiled pass), NewtonStep.predict and
NewtonStep.update (one compiled loop each) are compared on random states with the
reference formulas kept here (the implementation before). They sum the same terms in the
same order, so they agree bit for bit on this machine; the bound allowed is 4 ulp of the
largest term, what a fused multiply-add on another machine could change.
"""
import numpy as np
import pytest

import femdyn
from femdyn.results.store import ResultsWriter
from femdyn.solvers.generalized_alpha import NewtonStep, Options, Parameters, State
from femdyn.sparse import product
from support.parts import PolarParticle
from support.servo_chains import chain as servo_chain
from test_core_kkt import flexible_pendulum, rigid_chain

ULPS = 4 * np.finfo(float).eps


def polar():
    m = femdyn.Model("polar", gravity=(0, 0, 0))
    node = m.add_node("P", "polar", (1.0, 0.2, 0.0))
    m.fix(node, components=(2,))
    m.add(PolarParticle("particle", node, 1.5, g=9.81, k=40.0, rest_length=0.5))
    return m


MODELS = {"rigid chain": rigid_chain, "flexible pendulum": flexible_pendulum, "polar (variable mass)": polar,
          "servo chain": lambda: servo_chain(2)[0]}


def reference_residual(s, q, v, a, lam, t):
    """r = Gᵀλ − Q + M q̈ as System.residual computed it before (bincount, then the CSR product)."""
    Q = s.forces(q, v, t)
    _, jac = s.constraints.evaluate(q, t)
    G = s.patterns.transpose
    r = np.bincount(G.cols, weights=s.force_transpose_values(q, jac) * lam[G.rows], minlength=s.n) - Q
    if a is not None:
        r += product(s.mass(q), a)
    return r, Q


def close(x, y, *scales):
    return np.abs(x - y).max(initial=0.0) <= ULPS * max(np.abs(s).max(initial=0.0) for s in scales)


@pytest.mark.parametrize("name", MODELS)
def test_compiled_residual_equals_the_reference(name):
    s = MODELS[name]().assemble()
    rng = np.random.default_rng(7)
    for _ in range(4):
        q = s.q0 + 0.05 * rng.standard_normal(s.n)
        v, a = rng.standard_normal((2, s.n))
        lam = rng.standard_normal(s.m)
        for acc in (a, None):
            r, Q, _, _ = s.residual(q, v, acc, lam, 0.1)
            expected, _ = reference_residual(s, q, v, acc, lam, 0.1)
            inertia = product(s.mass(q), acc) if acc is not None else Q
            assert close(r, expected, Q, inertia, s.constraint_force(q, s.constraints.evaluate(q, 0.1)[1], lam))


@pytest.mark.parametrize("initial", [False, True])
def test_compiled_predictor_and_update_equal_the_reference(initial):
    s = rigid_chain().assemble()
    rng = np.random.default_rng(11)
    p, h = Parameters.from_rho(0.6), 2e-3
    step = NewtonStep(s, h, p, Options())
    old = State(0.0, *rng.standard_normal((4, s.n)), rng.standard_normal(s.m), initial=initial)
    x = step.predict(old, h)
    a = np.zeros(s.n) if initial else old.a
    at = ((1 - p.alpha_f) * a + p.alpha_f * old.a - p.alpha_m * old.at) / (1 - p.alpha_m)
    q = old.q + h * old.v + h * h * ((0.5 - p.beta) * old.at + p.beta * at)
    v = old.v + h * ((1 - p.gamma) * old.at + p.gamma * at)
    for got, want in ((x.q, q), (x.v, v), (x.a, a), (x.at, at), (x.lam, old.lam)):
        assert close(got, want, want)
    dx = rng.standard_normal(s.n + s.m)
    before = [y.copy() for y in (x.q, x.v, x.a, x.lam)]
    step.update(x, dx)
    dq = dx[:s.n]
    want = (before[0] + dq, before[1] + step.d_vel * dq, before[2] + step.d_acc * dq,
            before[3] + dx[s.n:] / step.beta_h2)
    for got, w in zip((x.q, x.v, x.a, x.lam), want):
        assert close(got, w, w)


def test_a_steps_newton_history_is_kept_row_by_row():
    s = rigid_chain().assemble()
    writer = ResultsWriter(s)
    rows = [[(1, 0, 0.5, 1e-3), (1, 1, 1e-9, 1e-12)], [], [(2, 0, 0.25, 2e-3)]]
    for step_rows in rows:
        writer.add_iterations(step_rows)
    assert np.array_equal(writer.results().iterations, np.array([r for step in rows for r in step], float))
