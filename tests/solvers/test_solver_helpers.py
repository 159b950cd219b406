"""Checks of solver helpers (formerly examples in their docstrings)."""
import warnings

import numpy as np
import scipy.sparse as sp

import femdyn
from femdyn.elements import sections
from femdyn.motion import SmoothStep
from femdyn.solvers import StableInverseOptions, consistent_state, stable_causal_inverse
from femdyn.solvers.beam_component import ancf_beam_component
from femdyn.solvers.blocks import BlockLayout, SaddlePattern, TangentValues
from femdyn.solvers.servo import check_servo_settings
from femdyn.solvers.stable_inverse import path_residual, rate_limited_derivatives


def test_beam_component_modes():
    c = ancf_beam_component(1.0, 2.1e11, 7800.0, sections.circular(0.01), 4)
    assert c.n_modes == 48                 # 5 nodes × 12 − 18 held at the ends + 12 frame − 6 rigid


def test_block_layout():
    layout = BlockLayout(q=4, lam=1, nu=1)
    assert (layout.slice("lam"), layout.size) == (slice(4, 5, None), 6)
    layout = BlockLayout(q=2, lam=1)
    S = layout.bmat({("q", "q"): sp.identity(2), ("lam", "q"): sp.csc_matrix([[1.0, -1.0]])})
    assert S.toarray().tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, -1.0, 0.0]]


def pendulum(servo=False):
    m = femdyn.Model("pendulum", gravity=(0, 0, -9.81))
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0.8, 0, 0)), mass=1.2)
    m.revolute("pivot", m.ground, rod, (0, 0, 0), (0, 1, 0))
    if servo:
        m.actuator("motor", "pivot")
        m.servo("tip", rod, (0.8, 0, 0), [SmoothStep(0.0, 0.5, 0.0, -0.3)], [(0, 0, 1)])
    return m.assemble()


def test_saddle_pattern_is_symmetric():
    system = pendulum()
    q = system.q0
    _, jac = system.constraints.evaluate(q, 0.0)
    S = SaddlePattern(system).matrix(TangentValues(system.mass_values(q), jac))
    assert S.shape == (11, 11) and abs(S - S.T).max() == 0


def test_servo_least_squares_starts_at_rest():
    """A non-collocated servo whose motion starts at rest: the minimum-norm start is rest."""
    m = femdyn.Model("chain", gravity=(0, 0, 0))
    a = m.rigid_beam("a", m.point("A1", (-1.0, 0, 0)), m.point("A2", (-0.9, 0, 0)), mass=1.0)
    b = m.rigid_beam("b", m.point("B1", (0.0, 0, 0)), m.point("B2", (0.1, 0, 0)), mass=1.0)
    m.prismatic("guide a", "ground", a, (-1.0, 0, 0), (1, 0, 0))
    m.prismatic("guide b", "ground", b, (0.0, 0, 0), (1, 0, 0))
    m.spring("spring", a, (-0.9, 0, 0), b, (0.0, 0, 0), stiffness=100.0)
    m.actuator("push", "guide a")
    m.servo("out", b, (0, 0, 0), [femdyn.SmoothStep(0.0, 1.0, 0.0, 0.1)], [(1, 0, 0)])
    q, v, acc, lam = consistent_state(m.assemble())
    assert np.allclose(acc, 0.0) and np.allclose(lam, 0.0)


def test_check_servo_settings_collocated():
    m = femdyn.Model("arm")
    rod = m.rigid_beam("arm", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    m.actuator("motor", "pivot")
    m.servo("tip", "arm", (1.0, 0, 0), [0.0], [(0, 0, 1)])
    system = m.assemble()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert check_servo_settings(system, system.q0, 0.9).verdict.split(" (")[0] == "collocated"


def test_rate_limited_derivatives_fit_a_cubic():
    t = np.linspace(0.0, 1.0, 101)
    v, a = rate_limited_derivatives(t, (t**3)[:, None], 0.05, rest_before=False)
    assert np.allclose(a[:, 0], 6 * t)


def test_path_residual_of_stable_inverse():
    system = pendulum(servo=True)
    path = stable_causal_inverse(system, 0.6, 0.005, StableInverseOptions(iterations=2, rest_after=True))
    r, inertia = path_residual(system, path, 0.02, rest_after=True)
    assert abs(r).max() < 1e-6 * inertia
