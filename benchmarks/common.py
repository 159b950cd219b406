"""Shared pieces of the benchmark scripts: per-step timing of femdyn runs without set-up,
and Exudyn's solver settings matched to femdyn's (same h, ρ∞, sparse linear solver).
Both take the best of ``REPEAT`` runs: on a shared VM single timings scatter by ±30 %."""
import argparse
import time
import warnings

from femdyn.solvers.generalized_alpha import Options, integrate

warnings.filterwarnings("ignore", category=DeprecationWarning)   # Exudyn's renamed settings
REPEAT = 5


def size_arguments(sizes, doc):
    """--sizes (problem sizes N) and --steps (generalized-α steps per timed run) from the command line."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=sizes)
    ap.add_argument("--steps", type=int, default=200)
    return ap.parse_args()


def femdyn_step_time(system, steps, h, rho_inf, warmup=5):
    """(seconds per step, mean Newton iterations): the difference of a run of
    warmup + steps and a run of warmup steps, so set-up and first-step costs cancel."""
    def run(k):
        t0 = time.perf_counter()
        return integrate(system, k * h, h, Options(rho_inf=rho_inf)), time.perf_counter() - t0

    short = min(run(warmup)[1] for _ in range(REPEAT))
    runs = [run(steps + warmup) for _ in range(REPEAT)]
    best = min(r[1] for r in runs)
    return (best - short) / steps, runs[0][0]["iterations"][1:].mean()


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
    best = float("inf")
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        mbs.SolveDynamic(settings)
        best = min(best, time.perf_counter() - t0)
    return best / steps
