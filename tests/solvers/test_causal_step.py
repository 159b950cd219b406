"""The zero dynamics of servo inverse dynamics (solvers/causal_step.py): the generalized-α
amplification of an unstable zero, the fast zeros of a coarse ANCF mesh, and the 3-RRRU
inverse run with 2 elements per link that they blew up at t ≈ 0.107 s."""
import numpy as np
import pytest

from femdyn.errors import ConvergenceError, StepSizeWarning
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium
from femdyn.solvers.causal_step import amplification, servo_halvings, servo_step, servo_zeros
from femdyn.studies.rrru import circle_motion, servo_robot
from femdyn.studies.rrru_channels import motor_torques, resampled, tracking_error
from femdyn.studies.rrru_study import StudyConfig, run_rigid


def test_amplification_of_a_real_unstable_zero():
    """ρ∞ = 0: e^{μt} with μh = 0.5 grows as it should (1.72 per step against e^0.5 = 1.65);
    1 < μh < 3.45 is amplified with alternating sign (−1.26 at μh = 3); an unresolved zero
    (μh = 6) is damped (−0.5). An undamped oscillation is kept at ρ∞ = 1 and damped at ρ∞ = 0."""
    assert amplification(0.5, 0.0).real == pytest.approx(1.723, abs=1e-3)
    assert amplification(3.0, 0.0).real == pytest.approx(-1.259, abs=1e-3)
    assert amplification(6.0, 0.0).real == pytest.approx(-0.5, abs=1e-9)
    assert abs(amplification(3.4, 0.0)) > 1 > abs(amplification(3.5, 0.0))
    assert abs(amplification(2j, 1.0)) == pytest.approx(1.0, abs=1e-12)
    assert abs(amplification(20j, 0.0)) < 0.15


@pytest.fixture(scope="module")
def coarse_servo():
    """The flexible 3-RRRU servo inverse with 2 elements per link at its static start."""
    config = StudyConfig(n_elements=2)
    motion = circle_motion(config)
    system = servo_robot(config, motion, flexible=True, n_elements=2).model.assemble()
    q0, lam0 = static_equilibrium(system)
    return system, q0, lam0


def test_a_coarse_mesh_has_a_fast_unstable_zero_at_the_knees(coarse_servo):
    """A real zero at μ ≈ 3.06e3 1/s moving the upper nodes' gradients of the links 3
    (the knees): μh = 3.06 at h = 1 ms, amplified by −1.22 per step; 2 ms damps it."""
    system, q0, lam0 = coarse_servo
    real = [z for z in servo_zeros(system, q0, lam0) if abs(z.s.imag) < 1e-6 * abs(z.s) and z.s.real > 1e3]
    assert real[0].s.real == pytest.approx(3.06e3, rel=0.01)
    assert any(label.startswith("link3_") and ".0." in label for label in real[0].coordinates)
    assert amplification(real[0].s * 1e-3, 0.0).real == pytest.approx(-1.22, abs=0.01)
    assert servo_step(system, q0, lam0, 1e-3, 0.0) == pytest.approx(2e-3)


def test_the_step_that_amplifies_it_is_warned_and_named_in_the_failure(coarse_servo):
    """h = 1 ms: the torques alternate and grow until Newton stalls near t = 0.107 s; the
    run was warned at its start and the failure's diagnosis repeats the zero and the step."""
    system, q0, _ = coarse_servo
    with pytest.warns(StepSizeWarning, match="unstable zero") as warned, pytest.raises(ConvergenceError) as failure:
        integrate(system, 0.15, 1e-3, Options(rho_inf=0.0, tol_dynamic=1e-8, tol_constraint=1e-12), q0=q0)
    assert [w.filename for w in warned if "unstable zero" in str(w.message)] == [__file__]   # the caller of integrate
    assert 0.09 < failure.value.results.t[-1] < 0.12
    assert "use h = 0.002 s" in str(failure.value).lower()


def test_the_coarse_study_runs_past_the_old_stall(coarse_servo):
    """The plain causal inverse with 2 elements per link over 0.15 s (it stalled at 0.107 s), as the dedicated
    3-RRRU study ran it: from the static equilibrium at rest, with the 2 ms step servo_step chooses, it tracks
    the circle and its torques stay within a few N·m of the rigid ones."""
    system, q0, lam0 = coarse_servo
    config = StudyConfig(n_elements=2, duration=0.15)
    motion = circle_motion(config)
    h = servo_step(system, q0, lam0, config.h, 0.0, zeros=servo_zeros(system, q0, lam0, coordinates=False))
    assert h == pytest.approx(2e-3)
    res = integrate(system, 0.15, h, Options(rho_inf=0.0, tol_dynamic=1e-8, tol_constraint=1e-12), q0=q0,
                    start=(0.0, lam0))
    assert tracking_error(res, motion).max() < 1e-10
    rigid = run_rigid(config, motion, 0.15)
    assert np.abs(motor_torques(res) - resampled(rigid, res.t, motor_torques(rigid))).max() < 8.0


def test_a_failed_servo_step_is_halved_only_while_no_half_step_amplifies_a_zero(coarse_servo):
    """The knee zero (μ ≈ 3.06e3 1/s) is amplified from h = 1 ms down (μh = 3.06, see above) and
    damped at 2 ms: a failed 8 ms step may be halved twice (to 2 ms), a 2 ms step not at all, so
    the default policy ("retry") ends a servo run where a half step would drive the inverse."""
    system, q0, lam0 = coarse_servo
    assert [servo_halvings(system, q0, lam0, h, 0.0, 4) for h in (8e-3, 4e-3, 2e-3, 1e-3)] == [2, 1, 0, 0]
    assert servo_halvings(system, q0, lam0, 8e-3, 0.0, 1) == 1           # never deeper than asked
