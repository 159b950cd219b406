"""Estimators: exact recovery from noise-free data, covariance consistency (Monte Carlo), global = least squares
on a linear problem, physical-consistency checks."""
import numpy as np
import pytest

from femdyn.errors import ModelError
from femdyn.identification import (base_parameters, global_fit, least_squares, linearized_iteration,
                                   momentum_rows, parameter_names, torque_rows)
from femdyn.identification.base_parameters import structural
from femdyn.identification.excitation import optimize_fourier
from femdyn.identification.parameters import consistency, to_parameters, with_parameters
from femdyn.solvers.recursive import Data
from femdyn.solvers.recursive.regressor import inertial_parameters, torque_regressor
from support.identification_cases import arm, arm_experiment, study_experiments
from support.trees import random_inertia


def test_noise_free_torques_recover_base_parameters():
    """Joint forces simulated by the forward solver (computed-torque tracking of a Fourier trajectory, RK4): least
    squares on the base columns gives β = E π to 1e-8 relative. The samples' accelerations are the solver's, so
    τ = Y_τ π holds to round-off and only the conditioning (≈1e2) scales it."""
    meas, model = arm_experiment()
    W, y = torque_rows(model, meas)
    base = base_parameters(W, parameter_names(model))
    est = least_squares(base.regressor(W), y)
    beta = base.project(inertial_parameters(model))
    assert np.abs(est.x - beta).max() <= 1e-8 * np.abs(beta).max()


def test_noise_free_wheel_momentum_recovers_base_parameters():
    """The space-robot identification study's three plans, linear form (planar channels Lz, px, py): β to 1e-8 relative. Here the data obey
    L + L_RW = L₀ only to the RK4 drift of the simulation (≈5e-9 N·m·s at h = 0.01 s), which bounds the error."""
    meas, model = study_experiments()
    W, y = momentum_rows(model, meas, ("Lz", "px", "py"))
    base = base_parameters(W, parameter_names(model))
    est = least_squares(base.regressor(W), y)
    beta = base.project(inertial_parameters(model))
    assert base.rank == 10
    assert np.abs(est.x - beta).max() <= 1e-8 * np.abs(beta).max()


@pytest.mark.parametrize("known_sigma", [True, False])
def test_least_squares_covariance_is_consistent(known_sigma):
    """Monte Carlo, 400 noise draws on the study's momentum data (σ = 0.01 N·m·s): the normalized estimation error
    eᵀC⁻¹e averages to the number of base parameters r (χ²_r; with σ estimated from residuals, C carries σ̂²: mean
    ≈ r (N−r)/(N−r−2), 1 % more here). Tolerance: 4 standard errors of the mean, 4√(2r/400)/r relative; and each
    empirical standard deviation matches the reported one within 15 % (sampling error of a std from 400 draws: 3.5 %)."""
    meas, model = study_experiments()
    W, y0 = momentum_rows(model, meas, ("Lz", "px", "py"))
    base = base_parameters(W, parameter_names(model))
    W1 = base.regressor(W)
    beta = base.project(inertial_parameters(model))
    rng, sigma, draws = np.random.default_rng(0), 0.01, 400
    nees, errors, stds = [], [], []
    for _ in range(draws):
        est = least_squares(W1, y0 + sigma * rng.standard_normal(len(y0)), sigma=sigma if known_sigma else None)
        e = est.x - beta
        nees.append(e @ np.linalg.solve(est.covariance, e))
        errors.append(e)
        stds.append(est.std)
    r = base.rank
    assert abs(np.mean(nees) / r - 1) <= 4 * np.sqrt(2 * r / draws) / r + 0.01
    np.testing.assert_allclose(np.std(errors, axis=0), np.mean(stds, axis=0), rtol=0.15)


def test_global_optimizer_finds_the_least_squares_optimum_of_a_linear_problem():
    """f(θ) = W₁ θ (the study's linear form, 10 base parameters, noisy data): differential evolution within ±50 % (and
    ±1 around zero-valued β) plus its polish lands on the least-squares solution to 1e-7 relative, and one
    linearized step from anywhere is the least-squares solution (the problem is linear)."""
    meas, model = study_experiments()
    W, y0 = momentum_rows(model, meas, ("Lz", "px", "py"))
    base = base_parameters(W, parameter_names(model))
    W1 = base.regressor(W)
    beta = base.project(inertial_parameters(model))
    y = y0 + 0.01 * np.random.default_rng(1).standard_normal(len(y0))
    ls = least_squares(W1, y)
    bounds = [(b - 0.5 * abs(b) - 1, b + 0.5 * abs(b) + 1) for b in beta]
    de = global_fit(lambda th: W1 @ th, y, bounds, seed=3, maxiter=300, popsize=10)
    step = linearized_iteration(lambda th: W1 @ th, y, beta + 0.3, iterations=1)
    scale = np.abs(ls.x).max()
    assert np.abs(de.x - ls.x).max() <= 1e-7 * scale
    assert np.abs(step.x - ls.x).max() <= 1e-9 * scale
    np.testing.assert_allclose(de.std, ls.std, rtol=1e-5)


def test_fourier_excitation_lowers_the_condition_number():
    """Optimized Fourier coefficients (Swevers et al. 1997) for the random 3-joint arm: the condition number of the
    base regressor falls at least 2× below that of the random start, within the joint limits (1 rad, 2 rad/s)."""
    model = arm()
    data = Data(model)

    def rows(q, v, a):
        return torque_regressor(model, data, q, v, a)

    base = structural(model, rows, parameter_names(model))
    times = np.linspace(0, 2.0, 25, endpoint=False)
    traj, start, best = optimize_fourier(rows, base, 3, 2, np.pi, times, 1.0, 2.0, seed=0, maxiter=300)
    q, v, _ = traj(times)
    assert best < 0.5 * start
    assert np.abs(q).max() <= 1.0 + 1e-9 and np.abs(v).max() <= 2.0 + 1e-9


def test_consistency_checks_agree_with_the_pseudo_inertia():
    """Random bodies: the pseudo-inertia test (Wensing et al. 2017) is positive exactly when mass > 0, I_c ≻ 0 and
    the triangle inequalities hold (strictly; violations built by stretching one principal moment)."""
    rng = np.random.default_rng(4)
    for k in range(200):
        Ic = random_inertia(rng)
        if k % 2:
            w, V = np.linalg.eigh(Ic)
            w[2] = w[0] + w[1] + rng.uniform(0.01, 0.5)          # triangle inequality violated
            Ic = V @ np.diag(w) @ V.T
        report = consistency(to_parameters(rng.uniform(0.5, 2), rng.uniform(-0.3, 0.3, 3), Ic), ["b"])[0]
        assert report.ok == (k % 2 == 0) == report.triangle
        assert (report.pseudo_inertia_min > 0) == report.ok
    bad = consistency(np.r_[to_parameters(1.0, (0, 0, 0), np.eye(3)), -1.0, np.zeros(9)], ["good", "negative"])
    assert bad[0].ok and not bad[1].ok and "mass -1 kg ≤ 0" in bad[1].describe()


def test_with_parameters_round_trip_and_errors():
    """A model rebuilt from its own π has the same spatial inertias (1e-12); a non-physical π names the body."""
    model = arm()
    pi = inertial_parameters(model)
    np.testing.assert_allclose(with_parameters(model, pi).inertia, model.inertia, atol=1e-12)
    pi[10] = -2.0
    with pytest.raises(ModelError, match="body 'b1'"):
        with_parameters(model, pi)
    with pytest.raises(ModelError, match="rank deficient"):
        least_squares(np.ones((5, 2)), np.ones(5))
