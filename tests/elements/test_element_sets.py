"""Proofs for the one-call compiled evaluation of element sets (ElementSet energy, force, tangent).

The compiled path gathers from the global q and scatters into the global force itself; the
staged path (kernel methods on q[dofs], then np.bincount) is its reference. Both run the same
arithmetic per element, so they agree to round-off: only the order in which the elements'
forces are summed at shared nodes differs (1e-13 of the largest entry allows for it).
"""
import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.solvers.generalized_alpha import integrate

from support.parts import PointMass, Spring

ROUND_OFF = 1e-13
KINDS = ["cable", "cable2d", "ring2d", "beam", "beam3"]


def element_set(kind, n=5):
    """(system, element set) of a few elements of ``kind`` ("ring2d": a closed planar ring)."""
    m = femdyn.Model(f"set {kind}", gravity=(0, 0, -9.81))
    section = sections.rectangular(0.02, 0.03) if kind.startswith("beam") else sections.circular(0.01)
    if kind in ("cable2d", "ring2d"):
        phi = np.linspace(0.0, 2 * np.pi if kind == "ring2d" else 1.5, n + 1)
        points = np.column_stack([0.7 * np.cos(phi), 0.5 * np.sin(phi), np.zeros(n + 1)])
        if kind == "ring2d":
            points[-1] = points[0]
        m.beam_through_points("set", points, E=2e9, rho=1200.0, section=section, element="cable2d")
    else:
        m.straight_beam("set", (0, 0, 0), (1.0, 0.2, 0.1), n, E=2e9, rho=1200.0, section=section, element=kind)
    s = m.assemble()
    return s, next(p for p in s.parts if p.name == "set")


def random_state(s, size, seed):
    rng = np.random.default_rng(seed)
    return s.q0 + size * rng.standard_normal(s.n), np.zeros(s.n)


@pytest.mark.parametrize("kind", KINDS)
def test_compiled_set_equals_staged_path(kind):
    s, part = element_set(kind)
    assert part._compiled() is not None
    for seed in range(3):
        q, v = random_state(s, 0.05, seed)
        F, F_ref = part.internal_force(q, v), part._staged_force(q, v)
        K, K_ref = part.tangent_values(q, v)[0], part._staged_tangent_values(q, v)[0]
        U, U_ref = part.strain_energy(q), part._staged_strain_energy(q)
        assert np.abs(F - F_ref).max() <= ROUND_OFF * np.abs(F_ref).max()
        assert np.abs(K - K_ref).max() <= ROUND_OFF * np.abs(K_ref).max()
        assert U == pytest.approx(U_ref, rel=ROUND_OFF, abs=0.0)
        assert np.array_equal(part.force(q, v, 0.0), -F)


@pytest.mark.parametrize("kind", KINDS)
def test_compiled_set_derivatives_match_finite_differences(kind):
    """F = ∂U/∂q and K = ∂F/∂q by central differences, h = 1e-6 (truncation and round-off
    below 1e-6 of the largest entry on these O(1) coordinates)."""
    s, part = element_set(kind, n=3)
    q, v = random_state(s, 0.01, 7)
    F = part.internal_force(q, v)
    K = np.zeros((s.n, s.n))
    np.add.at(K, (part.k_rows, part.k_cols), part.tangent_values(q, v)[0])
    h, cols = 1e-6, np.unique(part.dofs)
    dU = np.array([(part.strain_energy(q + h * e) - part.strain_energy(q - h * e)) / (2 * h) for e in np.eye(s.n)[cols]])
    dF = np.column_stack([(part.internal_force(q + h * e, v) - part.internal_force(q - h * e, v)) / (2 * h)
                          for e in np.eye(s.n)[cols]])
    assert np.abs(F[cols] - dU).max() <= 1e-6 * np.abs(F).max()
    assert np.abs(K[:, cols] - dF).max() <= 1e-6 * np.abs(K).max()


def test_damped_set_keeps_the_staged_path():
    m = femdyn.Model("damped", gravity=(0, 0, -9.81))
    m.straight_beam("set", (0, 0, 0), (1.0, 0, 0), 3, E=2e9, rho=1200.0, section=sections.circular(0.01),
                    damping=1e-3)
    s = m.assemble()
    part = next(p for p in s.parts if p.name == "set")
    q, _ = random_state(s, 0.01, 3)
    v = np.random.default_rng(4).standard_normal(s.n)
    assert part._compiled() is None
    assert np.abs(part.internal_force(q, v) - part.internal_force(q, 0 * v)).max() > 0


def test_plain_python_part_runs_beside_a_compiled_set():
    """A spring–mass written against the part protocol (tests/support/parts.py) beside a pinned
    cable: the system's forces are the parts' forces (plus the constant gravity),
    the cable's taken from the staged path, and the run completes."""
    m = femdyn.Model("beside", gravity=(0, 0, -9.81))
    m.straight_beam("set", (0, 0, 0), (1.0, 0, 0), 4, E=2e7, rho=1200.0, section=sections.circular(0.01))
    m.spherical("pin", "ground", "set.0", (0, 0, 0))
    top, bob = m.point("top", (0, 1, 0)), m.point("bob", (0, 1, -0.5))
    m.fix(top)
    m.add(PointMass("bob mass", bob, 2.0))
    m.add(Spring("spring", top, bob, 400.0, 0.5))
    s = m.assemble()
    part = next(p for p in s.parts if p.name == "set")
    q, v = random_state(s, 0.01, 5)
    assert part._compiled() is not None
    others = sum(p.force(q, v, 0.0) for p in s.force_parts if p is not part)
    expected = s.gravity_force + others - part._staged_force(q, v)
    assert np.abs(s.forces(q, v, 0.0) - expected).max() <= ROUND_OFF * np.abs(expected).max()
    r = integrate(s, 0.02, 1e-3)
    assert r.status == "completed"
