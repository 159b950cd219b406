"""The transient rigid-body correction (Liu et al. 2018) on a rigid-flexible four-bar."""
import numpy as np
import pytest

from femdyn.solvers.correction import RigidBodyCorrection, correct_positions
from femdyn.solvers.generalized_alpha import Options, integrate
from support.models import flexible_four_bar


@pytest.fixture(scope="module")
def run():
    s = flexible_four_bar().assemble()
    return s, integrate(s, 0.4, 1e-3, Options(rho_inf=0.8))


def test_correction_closes_the_constraints_and_keeps_the_strain_energy(run):
    """From a deformed state of the run, perturbed by 1e-4 m in every coordinate: after the
    correction |Φ| ≤ 1e-12 m, and the coupler's strain energy equals the perturbed state's
    to round-off (it moved as a rigid shape: exact rotations of its positions and slopes)."""
    s, r = run
    rng = np.random.default_rng(4)
    q = r.q[-1] + 1e-4 * rng.standard_normal(s.n)
    coupler = s.elements[0]
    energy = coupler.strain_energy(q)
    corrected = correct_positions(s, q, r.t[-1])
    assert np.abs(s.constraints.phi(corrected, r.t[-1])).max() <= 1e-12
    assert coupler.strain_energy(corrected) == pytest.approx(energy, rel=1e-9)
    assert np.abs(corrected - q).max() < 1e-2


def test_a_correction_that_never_triggers_changes_nothing(run):
    s, r = run
    with_corrector = integrate(s, 0.4, 1e-3, Options(rho_inf=0.8, corrector=RigidBodyCorrection()))
    assert with_corrector["corrections"].sum() == 0
    assert np.array_equal(with_corrector.q, r.q)


def test_the_trigger_waits_for_a_stall_in_both_residuals():
    c = RigidBodyCorrection(after=2, stall=0.5)
    falling = [(0, 1.0, 1e-3), (1, 0.1, 1e-5), (2, 0.01, 1e-7)]
    stalled = [(0, 1.0, 1e-3), (1, 0.5, 1e-5), (2, 0.45, 0.9e-5)]
    constraints_only = [(0, 1.0, 1e-3), (1, 0.5, 1e-5), (2, 0.1, 0.9e-5)]
    assert not c.needed(falling) and c.needed(stalled) and not c.needed(constraints_only)
