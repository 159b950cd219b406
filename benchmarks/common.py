"""Side-by-side benchmarks: femdyn and Exudyn on one problem in the same run.

Each benchmark builds the same model in both codes and, for every size N:

1. times a run of ``warmup + steps`` and a run of ``warmup`` generalized-α steps of each
   code, interleaved (femdyn, Exudyn, femdyn, …) ``repeat`` times; the per-step cost of
   one repetition is its long run less the best short run, divided by ``steps`` (set-up
   and first steps cancel), the reported cost is the best repetition, and the
   femdyn/Exudyn ratio is also given as the range over the repetitions (the machine is
   shared: single timings scatter);
2. records nothing while timing (femdyn: ``record_every`` = the run's length; Exudyn:
   no solution file, no sensors);
3. states each code's accuracy against its own references: the node positions of a run
   with tighter Newton tolerances (the iteration error; 10⁻⁴ times the timed run's, or
   10⁻³, 10⁻², 10⁻¹ where the code cannot converge that far, as Exudyn cannot for fine
   meshes) and of a run with half the step (the time-discretization error, Richardson:
   ≈ 4/3 of the difference for a second-order method). Exudyn runs with its step
   adaptation off, so that a Newton failure stops the benchmark instead of shrinking h;
4. asserts that the two codes' positions of every node (the tip included) agree to the
   benchmark's stated tolerance and stops with a :class:`Disagreement` otherwise (a
   benchmark that times two different answers measures nothing). Every node, not the tip
   alone: a long chain's or a fine cable's tip falls freely until the wave from the pin
   arrives, and free fall is integrated exactly by both codes.

Distances are max norms over the nodes and components (m).

The cost slope d log(cost)/d log(N) is fitted over the sizes at the end.
"""
import argparse
import math
import time
import warnings

import numpy as np

from femdyn.errors import SolverError
from femdyn.solvers.generalized_alpha import Options, integrate

warnings.filterwarnings("ignore", category=DeprecationWarning)   # Exudyn's renamed settings
H, RHO_INF = 1e-3, 0.9
TIGHT = (1e-4, 1e-3, 1e-2, 1e-1)      # reference runs: every Newton tolerance times the first that converges


class Disagreement(AssertionError):
    """femdyn and Exudyn computed different node positions for the same problem."""


def arguments(sizes, doc, steps=200):
    """--sizes, --steps (timed steps per run), --repeat (interleaved repetitions), --h, --quick."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=sizes)
    ap.add_argument("--steps", type=int, default=steps)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--h", type=float, default=H, help="time step (s)")
    ap.add_argument("--quick", action="store_true", help="sizes up to 64, 50 steps, 3 repetitions")
    a = ap.parse_args()
    if a.quick:
        a.sizes, a.steps, a.repeat = [s for s in a.sizes if s <= 64] or a.sizes[:1], 50, 3
    return a


def exudyn_or_none():
    """The exudyn module, or None with a note (the femdyn column is still timed)."""
    try:
        import exudyn
    except ImportError:
        print("Exudyn is not installed (pip install exudyn): femdyn alone is timed, nothing is compared")
        return None
    return exudyn


class FemdynCase:
    """A femdyn System and the first coordinates of its compared nodes (points; the tip last)."""

    name = "femdyn"
    failure = SolverError

    def __init__(self, system, starts):
        self.system, self.points = system, np.asarray(starts)[:, None] + np.arange(3)

    def run(self, steps, h=H, tight=1.0):
        """(seconds, node positions (k, 3) (m), Newton iterations per step) of ``steps`` steps from t = 0,
        the Newton tolerances times ``tight``."""
        o = Options(rho_inf=RHO_INF)
        o.tol_dynamic, o.tol_constraint = o.tol_dynamic * tight, o.tol_constraint * tight
        t0 = time.perf_counter()
        r = integrate(self.system, steps * h, h, o, record_every=steps)
        seconds = time.perf_counter() - t0
        return seconds, r.q[-1][self.points], len(r.iterations) / steps


class ExudynCase:
    """An assembled Exudyn mbs and a function giving its node positions (k, 3) after a run."""

    name = "Exudyn"

    def __init__(self, exu, mbs, points):
        self.exu, self.mbs, self.points = exu, mbs, points

    failure = RuntimeError           # what SolveDynamic raises when Newton fails

    def settings(self, steps, h, tight):
        exu = self.exu
        s = exu.SimulationSettings()
        s.timeIntegration.numberOfSteps = steps
        s.timeIntegration.endTime = steps * h
        s.timeIntegration.generalizedAlpha.spectralRadius = RHO_INF      # index 3 (Exudyn's default)
        s.timeIntegration.newton.relativeTolerance = 1e-8 * tight
        s.timeIntegration.newton.absoluteTolerance = 1e-10 * tight
        s.timeIntegration.adaptiveStep = False
        s.timeIntegration.verboseMode = 0
        s.linearSolver.solverType = exu.LinearSolverType.EigenSparse
        s.solution.file.write = False
        s.solution.sensors.writePeriod = 1e9
        return s

    def run(self, steps, h=H, tight=1.0):
        """(seconds, node positions (k, 3) (m), Newton iterations per step); every run starts from the
        initial state."""
        s = self.settings(steps, h, tight)
        t0 = time.perf_counter()
        self.mbs.SolveDynamic(s)
        seconds = time.perf_counter() - t0
        return seconds, np.asarray(self.points(), float), self.mbs.sys["dynamicSolver"].it.newtonStepsCount / steps


def compare(cases, steps, repeat, tolerance, h=H, warmup=5):
    """Time the cases side by side and check them (see the module docstring).

    Returns
    -------
    dict
        Per case name: ``cost`` (best s/step), ``costs`` (per repetition), ``iterations``
        (per step), ``points`` (m), ``newton_error`` and ``step_error`` (m, max norm),
        ``tight`` (the tolerance factor of the Newton reference; nan and a nan error where
        no tighter run converges); and
        ``difference`` (m) between the first two cases' node positions.

    A case whose timed run fails (Newton does not converge) gets ``failed`` (the reason)
    instead, and the others are timed and checked without it.

    Raises
    ------
    Disagreement
        When a node position of the first two cases differs by more than ``tolerance`` (m).
    """
    out = {c.name: {"long": [], "short": []} for c in cases}
    for _ in range(repeat):
        for c in [c for c in cases if "failed" not in out[c.name]]:
            rec = out[c.name]
            try:
                seconds, rec["points"], rec["iterations"] = c.run(warmup + steps, h)
                rec["short"].append(c.run(warmup, h)[0])
            except c.failure as err:          # reported in its row; the other code is still timed
                rec["failed"] = f"{type(err).__name__}: {str(err).splitlines()[0][:90]}"
                continue
            rec["long"].append(seconds)
    cases = [c for c in cases if "failed" not in out[c.name]]
    for c in cases:
        rec = out[c.name]       # each long run less the best short run: a slow short run cannot make it negative
        rec["costs"] = [(t - min(rec["short"])) / steps for t in rec["long"]]
        rec["cost"] = min(rec["costs"])
        rec["tight"], points = _reference(c, warmup + steps, h)
        rec["newton_error"] = _distance(rec["points"], points)
        try:
            rec["step_error"] = 4.0 / 3.0 * _distance(rec["points"], c.run(2 * (warmup + steps), h / 2)[1])
        except c.failure:
            rec["step_error"] = math.nan
    if len(cases) > 1:
        a, b = (out[c.name]["points"] for c in cases[:2])
        out["difference"] = _distance(a, b)
        if not out["difference"] <= tolerance:
            k = int(np.nanargmax(np.abs(a - b).max(axis=1))) if a.shape == b.shape else -1
            raise Disagreement(f"{cases[0].name} and {cases[1].name} disagree on node {k} of {len(a)} after "
                               f"{warmup + steps} steps: {a[k]} against {b[k]} m, |Δ| = {out['difference']:.3g} m > "
                               f"{tolerance:.3g} m")
    return out


def _reference(case, steps, h):
    """(tolerance factor, positions) of the tightest reference run that converges; (nan, nan)
    when none does (the timed run is then at the code's own round-off floor)."""
    for factor in TIGHT:
        try:
            return factor, case.run(steps, h, tight=factor)[1]
        except case.failure:
            continue
    return math.nan, math.nan


def ratios(out, first="femdyn", second="Exudyn"):
    """(best-to-best ratio, lowest and highest ratio of the same repetition)."""
    pairs = [x / y for x, y in zip(out[first]["costs"], out[second]["costs"])]
    return out[first]["cost"] / out[second]["cost"], min(pairs), max(pairs)


def slope(sizes, costs):
    """d log(cost)/d log(N) fitted over the sizes (least squares), or nan for fewer than two."""
    if len(sizes) < 2:
        return math.nan
    return float(np.polyfit(np.log(sizes), np.log(costs), 1)[0])


def _distance(a, b):
    return float(np.abs(np.asarray(a) - np.asarray(b)).max())


HEADER = f"{'it/step':>7} {'ms/step':>8} {'µs/N':>6} {'Newton err':>10} {'(tol×)':>6} {'h err':>8}"
COMPARISON = f"{'|Δx| m':>8} {'ratio':>5} {'range':>11}"


def columns(rec, n):
    """One code's columns of a table row: iterations and cost per step, cost per step and unit
    of N (µs), the error against the tight reference (m) with its tolerance factor, the
    estimated time-discretization error (m); or why its run failed."""
    if "failed" in rec:
        return f"{'failed: ' + rec['failed']:<{len(HEADER)}}"
    return (f"{rec['iterations']:7.2f} {rec['cost'] * 1e3:8.3f} {rec['cost'] / n * 1e6:6.1f} "
            f"{rec['newton_error']:10.1e} {rec['tight']:6.0e} {rec['step_error']:8.1e}")


def comparison(out):
    """The comparison columns: largest node position difference (m), best-to-best ratio, range of
    same-repetition ratios."""
    best, low, high = ratios(out)
    return f"{out['difference']:8.1e} {best:5.2f} {low:5.2f}–{high:4.2f}"


def table(n, prefix, out):
    """A table row: ``prefix`` columns, femdyn's, Exudyn's (when run) and their comparison."""
    text = f"{n:5d} {prefix} | {columns(out['femdyn'], n)} |"
    if "Exudyn" in out:
        text += f" {columns(out['Exudyn'], n)} |"
        if "difference" in out:
            text += f" {comparison(out)}"
    return text


def header(prefix, compared):
    if not compared:
        return f"{'N':>5} {prefix} | {HEADER}   (femdyn)"
    return f"{'N':>5} {prefix} | {HEADER} | {HEADER} | {COMPARISON}   (femdyn | Exudyn | comparison)"


def run_sizes(sizes, cases_of, steps, repeat, tolerance, prefix_of, header_prefix, h=H):
    """Compare the codes at every size, print a row each and the fitted slopes at the end;
    ``cases_of(n)`` gives the cases, ``prefix_of(n)`` the leading columns of its row,
    ``tolerance(n)`` the agreement tolerance (m)."""
    costs = {}                 # name: [(N, cost)]
    for n in sizes:
        cases = cases_of(n)
        if not costs:
            print(header(header_prefix, len(cases) > 1))
        out = compare(cases, steps, repeat, tolerance(n), h)
        print(table(n, prefix_of(n), out), flush=True)
        for c in cases:
            if "failed" not in out[c.name]:
                costs.setdefault(c.name, []).append((n, out[c.name]["cost"]))
    for name, c in costs.items():
        print(f"slope of log(cost) against log(N), {name}: {slope(*zip(*c)):.2f}")
    return costs


def best_of(f, repeat=3):
    """The best wall time of ``repeat`` calls of f() [s]."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)
