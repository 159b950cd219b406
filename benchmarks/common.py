"""Shared pieces of the benchmark scripts: per-step timing of femdyn runs without set-up,
and Exudyn's solver settings matched to femdyn's (same h, ρ∞, sparse linear solver)."""
import time
import warnings

from femdyn.solvers.generalized_alpha import Options, integrate

warnings.filterwarnings("ignore", category=DeprecationWarning)   # Exudyn's renamed settings


def femdyn_step_time(system, steps, h, rho_inf, warmup=5):
    """(seconds per step, mean Newton iterations): the difference of a run of
    warmup + steps and a run of warmup steps, so set-up and first-step costs cancel."""
    runs = {}
    for k in (warmup, steps + warmup):
        t0 = time.perf_counter()
        runs[k] = integrate(system, k * h, h, Options(rho_inf=rho_inf)), time.perf_counter() - t0
    return (runs[steps + warmup][1] - runs[warmup][1]) / steps, runs[steps + warmup][0]["iterations"][1:].mean()


def exudyn_step_time(mbs, exu, steps, h, rho_inf):
    """Seconds per step of Exudyn's generalized-α (index 3, sparse solver) on an assembled mbs."""
    settings = exu.SimulationSettings()
    settings.timeIntegration.numberOfSteps = steps
    settings.timeIntegration.endTime = steps * h
    settings.timeIntegration.generalizedAlpha.spectralRadius = rho_inf
    settings.timeIntegration.newton.relativeTolerance = 1e-8
    settings.timeIntegration.verboseMode = 0
    settings.linearSolverType = exu.LinearSolverType.EigenSparse
    settings.solutionSettings.writeSolutionToFile = False
    t0 = time.perf_counter()
    mbs.SolveDynamic(settings)
    return (time.perf_counter() - t0) / steps
