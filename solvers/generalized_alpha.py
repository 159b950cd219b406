"""Generalized-α for index-3 DAEs M q̈ + Φ_qᵀλ = Q(q, q̇, t), Φ(q, t) = 0.

Arnold & Brüls (2007), "Convergence of the generalized-α scheme for constrained
mechanical systems", Multibody Syst. Dyn. 18:185–202, eqs. (9)–(11): with the
pseudo-acceleration ã,
    q_{n+1} = q_n + h q̇_n + h²(½ − β) ã_n + h² β ã_{n+1},
    q̇_{n+1} = q̇_n + h(1 − γ) ã_n + h γ ã_{n+1},
    (1 − α_m) ã_{n+1} + α_m ã_n = (1 − α_f) q̈_{n+1} + α_f q̈_n,
and the equations of motion and Φ = 0 enforced at t_{n+1}. Parameters from the spectral
radius at infinity ρ∞ (Chung & Hulbert 1993): α_m = (2ρ∞ − 1)/(ρ∞ + 1),
α_f = ρ∞/(ρ∞ + 1), γ = ½ + α_f − α_m, β = ¼(γ + ½)². Second-order accurate; ρ∞ = 1 is
non-dissipative for ODEs, ρ∞ < 1 damps high frequencies. For the index-3 DAE the map of
a constrained coordinate's (q̇, ã, q̈) has the defective triple eigenvalue −ρ∞, so ρ∞ = 1
lets oscillations of q̈ and λ grow with the step count (as Cardona & Géradin 1989 showed for
undamped Newmark); the index-3 form therefore accepts ρ∞ ≤ 0.95 (default 0.9, which costs
almost no accuracy at low frequencies), and ``formulation="stabilized"`` (see
:class:`StabilizedStep`) is the choice for ρ∞ up to 1 (tests/test_core_dynamics.py
measures all of this).

Newton on the KKT system with the constraint rows scaled by 1/(βh²) (see
:mod:`femdyn.solvers.kkt`), factorization reuse while the contraction is good.
Convergence (seed 002): dynamic residual ‖M q̈ + Φ_qᵀλ − Q‖₂ / max(1 N, ‖Q‖₂) ≤ tol_dynamic
(default 1e-6) and constraint residual ‖Φ‖₂ ≤ tol_constraint (default 1e-8, m).
"""
import math
from dataclasses import asdict, dataclass

import numpy as np

from femdyn.errors import ConvergenceError, SolverError
from femdyn.results.store import ResultsWriter

from .initial import consistent_state
from .kkt import KKTMatrix


@dataclass
class Parameters:
    alpha_m: float
    alpha_f: float
    gamma: float
    beta: float

    @classmethod
    def from_rho(cls, rho_inf):
        if not 0.0 <= rho_inf <= 1.0:
            raise SolverError(f"generalized-α: ρ∞ must lie in [0, 1], got {rho_inf}")
        am, af = (2 * rho_inf - 1) / (rho_inf + 1), rho_inf / (rho_inf + 1)
        g = 0.5 + af - am
        return cls(am, af, g, 0.25 * (g + 0.5) ** 2)


@dataclass
class Options:
    rho_inf: float = 0.9
    tol_dynamic: float = 1e-6
    tol_constraint: float = 1e-8
    max_iterations: int = 25
    contraction: float = 0.1        # refactorize when a residual drops by less than this factor
    # (0.1: a stale iteration matrix costs a Newton iteration (residual + solve) per step sooner
    # than its refactorization costs; measured on benchmarks/bench_*.py, see RESULTS.md)
    max_correction: float = 1e-3    # largest position change allowed to make q₀ consistent (m)
    formulation: str = "index3"     # or "stabilized": enforce Φ = 0 and Φ_q q̇ + Φ_t = 0 (GGL)


class State:
    """q, q̇, q̈, pseudo-acceleration ã and λ at one time."""

    def __init__(self, t, q, v, a, at, lam):
        self.t, self.q, self.v, self.a, self.at, self.lam = t, q, v, a, at, lam


class Residuals:
    """Residuals of one Newton iterate: dynamic r, constraint Φ, the scaled right-hand
    side of the linear system, their error measures, and what the matrix needs."""

    def __init__(self, r, phi, rhs, e_dyn, e_con, jac, Phi_q=None):
        self.r, self.phi, self.rhs, self.e_dyn, self.e_con = r, phi, rhs, e_dyn, e_con
        self.jac, self.Phi_q = jac, Phi_q


class NewtonStep:
    """One generalized-α step of the index-3 form, solved by (modified) Newton on the
    scaled KKT system; subclasses change the unknowns and equations, not the iteration."""

    def __init__(self, system, h, params, options):
        self.sys, self.h, self.p, self.o = system, h, params, options
        self.kkt = KKTMatrix(system)
        p = params
        self.beta_h2 = p.beta * h * h
        self.d_acc = (1 - p.alpha_m) / (self.beta_h2 * (1 - p.alpha_f))   # ∂q̈/∂q
        self.d_vel = p.gamma / (p.beta * h)                                  # ∂q̇/∂q

    def predict(self, s, t):
        p, h = self.p, self.h
        a = s.a.copy()
        at = ((1 - p.alpha_f) * a + p.alpha_f * s.a - p.alpha_m * s.at) / (1 - p.alpha_m)
        q = s.q + h * s.v + h * h * ((0.5 - p.beta) * s.at + p.beta * at)
        v = s.v + h * ((1 - p.gamma) * s.at + p.gamma * at)
        return State(t, q, v, a, at, s.lam.copy())

    def begin(self, s_old, t_new):
        return self.predict(s_old, t_new)

    def residuals(self, x):
        sys = self.sys
        Q = sys.forces(x.q, x.v, x.t)
        phi, jac = sys.constraints.evaluate(x.q, x.t)
        r = sys.M @ x.a + sys.constraints.transpose_product(jac, x.lam) - Q
        return Residuals(r, phi, np.concatenate([self.beta_h2 * r, phi]), _relative(r, Q), _norm(phi), jac)

    def matrix_parts(self, x):
        sys = self.sys
        k_vals, c_vals = sys.tangent_values(x.q, x.v, x.t)
        return (self.beta_h2 * self.d_acc, self.beta_h2 * self.d_vel, self.beta_h2, c_vals, k_vals,
                sys.constraints.hessian_values(x.q, x.lam))

    def factorize(self, x, res):
        self.kkt.factorize(self.kkt.assemble(*self.matrix_parts(x), res.jac), x.q, x.t)

    def update(self, x, dx):
        n = self.sys.n
        dq = dx[:n]
        x.q += dq
        x.v += self.d_vel * dq
        x.a += self.d_acc * dq
        x.lam += dx[n:n + self.sys.m] / self.beta_h2

    def finish(self, s_old, x):
        p = self.p
        x.at = ((1 - p.alpha_f) * x.a + p.alpha_f * s_old.a - p.alpha_m * s_old.at) / (1 - p.alpha_m)

    def solve(self, s_old, t_new):
        """Advance from ``s_old`` to ``t_new``; returns (state, iteration history, factorizations)."""
        o = self.o
        x = self.begin(s_old, t_new)
        history, factorizations, previous = [], self.kkt.factorizations, np.inf
        for it in range(o.max_iterations):
            res = self.residuals(x)
            history.append((it, res.e_dyn, res.e_con))
            if res.e_dyn <= o.tol_dynamic and res.e_con <= o.tol_constraint:
                break
            measure = res.e_dyn / o.tol_dynamic + res.e_con / o.tol_constraint
            if not np.isfinite(measure):
                raise ConvergenceError(self._diagnosis(x, res, "the residual became non-finite"))
            if self.kkt.lu is None or measure > o.contraction * previous:
                self.factorize(x, res)
            previous = measure
            self.update(x, self.kkt.solve(-res.rhs))
        else:
            raise ConvergenceError(self._diagnosis(x, res, f"no convergence in {o.max_iterations} iterations"))
        self.finish(s_old, x)
        return x, history, self.kkt.factorizations - factorizations

    def _diagnosis(self, x, res, reason):
        sys, r, phi = self.sys, res.r, res.phi
        worst_q = np.argsort(-np.abs(r))[:4]
        worst_c = np.argsort(-np.abs(phi))[:4] if phi.size else []
        return (f"generalized-α step to t = {x.t:.6g} s: {reason}. Largest dynamic residuals at "
                f"{[(sys.labels[i], float(f'{r[i]:.3g}')) for i in worst_q]}; largest constraint residuals "
                f"{[(sys.constraints.labels[i], float(f'{phi[i]:.3g}')) for i in worst_c]}. Try a smaller step h, "
                "a smaller ρ∞, Options(formulation='stabilized') (fast-spinning bodies make the index-3 "
                "form's multiplier mode unstable at ρ∞ near 1, docs/validation.md), or check the loads and "
                "the initial configuration.")


class StabilizedStep(NewtonStep):
    """Stabilized index-2 (Gear–Gupta–Leimkuhler) generalized-α: the position update gets a
    correction Φ_qᵀν, q_{n+1} = q_n + h q̇_n + h²(½ − β) ã_n + h² β ã_{n+1} + Φ_qᵀν, and both
    Φ = 0 and Φ_q q̇_{n+1} + Φ_t = 0 are enforced (Arnold, Cardona & Brüls 2016,
    Multibody Syst. Dyn. 38:1–22, §2; Lunk & Simeon 2006). Velocities then satisfy the
    constraints exactly and ρ∞ = 1 is stable: the scheme conserves energy up to O(h²).
    Unknowns (q, λ, ν); q̈, q̇, ã follow from q and ν by inverting the update formulas."""

    def begin(self, s_old, t_new):
        p, h = self.p, self.h
        self.s_old = s_old
        self.q_hat = s_old.q + h * s_old.v + h * h * (0.5 - p.beta) * s_old.at
        self.nu = np.zeros(self.sys.m)
        return self.predict(s_old, t_new)

    def kinematics(self, x, Phi_q):
        p, h, s = self.p, self.h, self.s_old
        x.at = (x.q - self.q_hat - Phi_q.T @ self.nu) / self.beta_h2
        x.a = ((1 - p.alpha_m) * x.at + p.alpha_m * s.at - p.alpha_f * s.a) / (1 - p.alpha_f)
        x.v = s.v + h * ((1 - p.gamma) * s.at + p.gamma * x.at)

    def residuals(self, x):
        sys, p, h = self.sys, self.p, self.h
        phi, jac = sys.constraints.evaluate(x.q, x.t)
        Phi_q = sys.constraints.jac_pattern.assemble(jac)
        self.kinematics(x, Phi_q)
        Q = sys.forces(x.q, x.v, x.t)
        r = sys.M @ x.a + Phi_q.T @ x.lam - Q
        r3 = Phi_q @ x.v + sys.constraints.acceleration_terms(x.q, x.v, x.t)[0]
        rhs = np.concatenate([self.beta_h2 * r, phi, (h * p.beta / p.gamma) * r3])
        return Residuals(r, phi, rhs, _relative(r, Q), max(_norm(phi), h * _norm(r3)), jac, Phi_q)

    def factorize(self, x, res):
        S = self.kkt.stabilized(*self.matrix_parts(x), res.Phi_q)
        self.kkt.factorize(S, x.q, x.t, symmetric=False)

    def update(self, x, dx):
        n, m = self.sys.n, self.sys.m
        x.q += dx[:n]
        x.lam += dx[n:n + m] / self.beta_h2
        self.nu += dx[n + m:]

    def finish(self, s_old, x):
        pass  # ã, q̈, q̇ were set from the converged (q, ν) by the last residual evaluation


STEPPERS = {"index3": NewtonStep, "stabilized": StabilizedStep}


def integrate(system, t_end, h, options=None, output=None, progress=False, q0=None, v0=None, t0=0.0,
              record_every=1):
    """Simulate from ``t0`` to ``t_end`` (s) with fixed step ``h`` (s).

    The run takes ⌈(t_end − t0)/h⌉ steps: it ends at the first step at or after ``t_end``.
    Every ``record_every``-th step (and the last) is recorded; the Newton residual history
    is kept for every step. Returns :class:`~femdyn.results.store.Results` (also written to the
    ``output`` folder if given). On failure raises :class:`~femdyn.errors.SolverError`
    whose ``results`` hold every step computed before it; any other exception (an error in
    a user function, Ctrl-C) also leaves every computed step in the folder, marked
    "interrupted", before it propagates.
    """
    o = options or Options()
    if not h > 0 or not t_end > t0:
        raise SolverError(f"integrate: need h > 0 and t_end > t0, got h={h}, t0={t0}, t_end={t_end}")
    params = Parameters.from_rho(o.rho_inf)
    q, v, a, lam = consistent_state(system, q0, v0, t0, o.max_correction)
    state = State(t0, q, v, a, a.copy(), lam)
    if o.formulation == "index3" and o.rho_inf > 0.95:
        raise SolverError(f"generalized-α: ρ∞ = {o.rho_inf} is (weakly) unstable for the index-3 form; "
                          "use ρ∞ ≤ 0.95 or Options(formulation='stabilized')")
    if o.formulation not in STEPPERS:
        raise SolverError(f"generalized-α: unknown formulation '{o.formulation}'; choose one of {list(STEPPERS)}")
    stepper = STEPPERS[o.formulation](system, h, params, o)
    writer = ResultsWriter(system, output, solver={"method": "generalized-alpha", "h": h,
                                                   **asdict(o), **asdict(params)})
    writer.record(t0, q, v, a, lam, _stats(system, state, 0, 0, _initial_residuals(system, state)))
    steps = max(1, math.ceil((t_end - t0) / h - 1e-9))
    bar = _progress(steps, progress, system.model.name)
    k = 0
    try:
        for k in range(1, steps + 1):
            state, history, nfact = stepper.solve(state, t0 + k * h)
            writer.add_iterations([(k,) + tuple(hh) for hh in history])
            if k % record_every == 0 or k == steps:
                writer.record(state.t, state.q, state.v, state.a, state.lam,
                              _stats(system, state, len(history), nfact, history[-1][1:]))
            bar.update(1)
    except SolverError as err:
        err.results = writer.close(f"failed at t = {t0 + k * h:.6g} s: {err}")
        raise
    except BaseException as err:
        writer.close(f"interrupted at t = {t0 + k * h:.6g} s: {type(err).__name__}: {err}")
        raise
    finally:
        bar.close()
    return writer.close("completed")


def _initial_residuals(system, s):
    """(dynamic, constraint) residuals of the consistent initial state, as for a step."""
    Q = system.forces(s.q, s.v, s.t)
    phi, jac = system.constraints.evaluate(s.q, s.t)
    r = system.M @ s.a + system.constraints.transpose_product(jac, s.lam) - Q
    return _relative(r, Q), _norm(phi)


def _norm(x):
    """Euclidean norm (np.linalg.norm costs more than the arithmetic on these vectors)."""
    return math.sqrt(x @ x)


def _relative(r, Q):
    """The dynamic error of seed 002: ‖r‖₂ / max(1 N, ‖Q‖₂)."""
    return _norm(r) / max(1.0, _norm(Q))


def _stats(system, s, iterations, factorizations, residuals):
    return [iterations, factorizations, residuals[0], residuals[1], system.kinetic_energy(s.v),
            system.potential_energy(s.q), 0]


def _progress(total, enabled, name):
    if enabled:
        from tqdm import tqdm
        return tqdm(total=total, desc=name, unit="step")

    class _Silent:
        def update(self, k):
            pass

        def close(self):
            pass
    return _Silent()
