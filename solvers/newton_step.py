"""One Newton-solved generalized-α step of the index-3 or the stabilized form (the integrator's stepper).

:class:`NewtonStep` (index 3, Arnold & Brüls 2007) and its stabilized index-2 variant (Arnold,
Cardona & Brüls 2016) advance a :class:`State` to a new time by (modified) Newton on the scaled
KKT system; :func:`~femdyn.solvers.generalized_alpha.integrate` strings them into a run (fixed
step) and :mod:`.adaptive` into an error-controlled one. Method notes: docs/solvers.md.
"""
import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from .blocks import TangentValues
from .kkt import ACCEPT, KKTMatrix

CONVERGED, STALLED_CONSTRAINTS, STALLED_DYNAMICS, DIVERGED = ("converged", "stalled in the constraints",
                                                               "stalled in the dynamics", "diverged")


@dataclass
class _NewtonOutcome:
    """How one step's Newton iteration ended."""

    status: str
    state: object
    history: list
    factorizations: int
    corrections: list
    diagnosis: str = ""

    @property
    def converged(self):
        return self.status == CONVERGED


def _stalled(history, o):
    """Status of an iteration that used up its iterations."""
    _, e_dyn, e_con = history[-1]
    first = history[0][1] / o.tol_dynamic + history[0][2] / o.tol_constraint
    if e_dyn / o.tol_dynamic + e_con / o.tol_constraint > 1e3 * first:
        return DIVERGED
    if e_dyn <= o.tol_dynamic:
        return STALLED_CONSTRAINTS
    return STALLED_DYNAMICS


class State:
    """Coordinates, velocities, accelerations, pseudo-acceleration and multipliers at one time."""

    def __init__(self, t, q, v, a, at, lam, initial=False):
        self.t, self.q, self.v, self.a, self.at, self.lam = t, q, v, a, at, lam
        self.initial = initial


class Residuals:
    """Residuals of one Newton iterate and what the iteration matrix needs."""

    def __init__(self, r, phi, rhs, e_dyn, e_con, jac, Phi_q=None, merit=None):
        self.r, self.phi, self.rhs, self.e_dyn, self.e_con = r, phi, rhs, e_dyn, e_con
        self.jac, self.Phi_q = jac, Phi_q
        self.merit = norm2(rhs) if merit is None else merit


class NewtonStep:
    """One generalized-α step of the index-3 form, solved by (modified) Newton on the scaled KKT system.
    Constraint rows scaled by 1/(βh²) (Bottasso, Bauchau & Cardona 2007); ``analysis``: a
    :class:`~femdyn.solvers.kkt.SymbolicAnalysis` shared with the run's other step sizes."""

    def __init__(self, system, h, params, options, analysis=None):
        self.sys, self.h, self.p, self.o = system, h, params, options
        self.kkt = KKTMatrix(system, analysis)
        p = params
        self.beta_h2 = p.beta * h * h
        self.d_acc = (1 - p.alpha_m) / (self.beta_h2 * (1 - p.alpha_f))   # ∂q̈/∂q
        self.d_vel = p.gamma / (p.beta * h)                                  # ∂q̇/∂q

    def predict(self, s, t):
        """Predicted state at the start of the Newton iteration.
        Géradin & Cardona 2001, Flexible Multibody Dynamics, §9.4."""
        p, h = self.p, self.h
        q, v, a, at = np.empty((4, len(s.q)))
        _predict(s.q, s.v, s.a, s.at, not (s.initial or self.o.predictor == "zero"), h, p.alpha_m, p.alpha_f,
                 p.beta, p.gamma, q, v, a, at)
        return State(t, q, v, a, at, s.lam.copy())

    def begin(self, s_old, t_new):
        """Start a step: the predicted iterate (subclasses also reset their own unknowns)."""
        return self.predict(s_old, t_new)

    def increment_size(self, x):
        """Length of a Newton increment of the iterate x: [Δq, Δλ]."""
        return len(x.q) + len(x.lam)

    def residuals(self, x):
        """Residuals of the iterate and the scaled right-hand side [βh² r; Φ]."""
        r, Q, phi, jac = self.sys.residual(x.q, x.v, x.a, x.lam, x.t)
        r2, phi2 = r @ r, phi @ phi
        return Residuals(r, phi, np.concatenate([self.beta_h2 * r, phi]), math.sqrt(r2) / max(1.0, norm2(Q)),
                         math.sqrt(phi2), jac, merit=math.sqrt(self.beta_h2 ** 2 * r2 + phi2))

    def matrix_values(self, x, jac):
        """The pieces of the iteration matrix at an iterate."""
        sys = self.sys
        k_vals, c_vals = sys.tangent_values(x.q, x.v, x.t)
        return TangentValues(sys.mass_values(x.q), jac, c_vals, k_vals, sys.mass_derivative_values(x.q, x.a),
                             sys.hessian_values(x.q, x.lam),
                             (self.beta_h2 * self.d_acc, self.beta_h2 * self.d_vel, self.beta_h2),
                             transpose=sys.force_transpose_values(x.q, jac) if sys.servo else None)

    def factorize(self, x, res):
        """Assemble and factorize the iteration matrix at an iterate."""
        self.kkt.factorize(self.kkt.saddle_matrix(self.matrix_values(x, res.jac)), x.q, x.t)

    def update(self, x, dx):
        """Apply a Newton correction to the iterate in place."""
        _update(x.q, x.v, x.a, x.lam, dx, self.d_vel, self.d_acc, self.beta_h2)

    def finish(self, s_old, x):
        """Complete a converged step: the pseudo-acceleration ã_{n+1} from q̈_{n+1}."""
        p = self.p
        x.at = ((1 - p.alpha_f) * x.a + p.alpha_f * s_old.a - p.alpha_m * s_old.at) / (1 - p.alpha_m)

    def solve(self, s_old, t_new, corrector=None):
        """Advance from ``s_old`` to ``t_new`` by (modified) Newton."""
        o = self.o
        x = self.begin(s_old, t_new)
        history, corrections, factorizations, previous = [], [], self.kkt.factorizations, np.inf
        status, dx, fresh, backtracks, base_merit = DIVERGED, None, False, 0, np.inf
        for it in range(o.max_iterations):
            res = self.residuals(x)
            history.append((it, res.e_dyn, res.e_con))
            if res.e_dyn <= o.tol_dynamic and res.e_con <= o.tol_constraint:
                status = CONVERGED
                break
            measure = res.e_dyn / o.tol_dynamic + res.e_con / o.tol_constraint
            merit = res.merit         # what Newton reduces (e_dyn saturates at 1 when elastic forces dominate Q)
            if fresh and merit > base_merit and backtracks < o.max_backtracks:
                dx *= 0.5                 # a fresh Newton step made the residual grow: take half of it
                self.update(x, -dx)
                backtracks += 1
                continue
            backtracks = 0
            if not math.isfinite(measure):
                return self._outcome(DIVERGED, x, res, history, corrections, factorizations,
                                     "the residual became non-finite")
            if corrector is not None and corrector.needed(history):
                corrections.append(corrector.apply(self, x))
                previous, fresh = np.inf, False
                continue
            fresh = self.kkt.solve_factor is None or measure > o.contraction * previous
            if fresh:
                self.factorize(x, res)
            previous, base_merit = measure, merit
            dx = self.kkt.solve(-res.rhs, accuracy=ACCEPT)
            self.update(x, dx)
        else:
            status = _stalled(history, o)
            return self._outcome(status, x, res, history, corrections, factorizations,
                                 f"no convergence in {o.max_iterations} iterations ({status})")
        self.finish(s_old, x)
        return _NewtonOutcome(status, x, history, self.kkt.factorizations - factorizations, corrections)

    def _outcome(self, status, x, res, history, corrections, factorizations, reason):
        return _NewtonOutcome(status, x, history, self.kkt.factorizations - factorizations, corrections,
                             self._diagnosis(x, res, reason))

    def _diagnosis(self, x, res, reason):
        sys, r, phi = self.sys, res.r, res.phi
        worst_q = np.argsort(-np.abs(r))[:4]
        worst_c = np.argsort(-np.abs(phi))[:4] if phi.size else []
        return (f"generalized-α step to t = {x.t:.6g} s: {reason}. Largest dynamic residuals at "
                f"{[(sys.labels[i], float(f'{r[i]:.3g}')) for i in worst_q]}; largest constraint residuals "
                f"{[(sys.constraints.labels[i], float(f'{phi[i]:.3g}')) for i in worst_c]}. Try a smaller step h, "
                "a smaller ρ∞, Options(formulation='stabilized') (fast-spinning bodies make the index-3 "
                "form's multiplier mode unstable at ρ∞ near 1, docs/validation.md), Options(max_halvings=8), "
                "or check the loads and the initial configuration.")


class _StabilizedStep(NewtonStep):
    """Stabilized index-2 (Gear–Gupta–Leimkuhler) generalized-α step.
    Arnold, Cardona & Brüls 2016, Multibody Syst. Dyn. 38:1–22, §2; Lunk & Simeon 2006."""

    def begin(self, s_old, t_new):
        # ν = 0 and the predicted iterate; q − q̂ (q̂ = q_n + h q̇_n + h²(½ − β) ã_n) kept from its increments:
        # q − q̂ formed from q loses the digits of q, amplified by 1/(βh²) in ã (a floor on the residual at small h)
        self.s_old = s_old
        self.nu = np.zeros(self.sys.m)
        x = self.predict(s_old, t_new)
        self.dq = self.beta_h2 * x.at
        return x

    def increment_size(self, x):
        """Length of a Newton increment of the iterate x: [Δq, Δλ, Δν]."""
        return len(x.q) + len(x.lam) + len(self.nu)

    def kinematics(self, x, Phi_q):
        """Set ã, q̈ and q̇ of the iterate from its q and the current ν (inverted update formulas)."""
        p, h, s = self.p, self.h, self.s_old
        x.at = (self.dq - Phi_q.T @ self.nu) / self.beta_h2
        x.a = ((1 - p.alpha_m) * x.at + p.alpha_m * s.at - p.alpha_f * s.a) / (1 - p.alpha_f)
        x.v = s.v + h * ((1 - p.gamma) * s.at + p.gamma * x.at)

    def residuals(self, x):
        # [βh² r; Φ; (hβ/γ)(Φ_q q̇ + Φ_t)]
        sys, p, h = self.sys, self.p, self.h
        evaluated = sys.constraints.evaluate(x.q, x.t)
        Phi_q = sys.constraints.jac_pattern.matrix(evaluated[1])
        self.kinematics(x, Phi_q)
        r, Q, phi, jac = sys.residual(x.q, x.v, x.a, x.lam, x.t, constraints=evaluated)
        r3 = Phi_q @ x.v + sys.constraints.acceleration_terms(x.q, x.v, x.t)[0]
        rhs = np.concatenate([self.beta_h2 * r, phi, (h * p.beta / p.gamma) * r3])
        return Residuals(r, phi, rhs, relative_residual(r, Q), max(norm2(phi), h * norm2(r3)), jac, Phi_q)

    def factorize(self, x, res):
        S = self.kkt.stabilized(self.matrix_values(x, res.jac), res.Phi_q)
        self.kkt.factorize(S, x.q, x.t, symmetric=False)

    def update(self, x, dx):
        # dx = [Δq; βh²Δλ; Δν]
        n, m = self.sys.n, self.sys.m
        x.q += dx[:n]
        self.dq += dx[:n]
        x.lam += dx[n:n + m] / self.beta_h2
        self.nu += dx[n + m:]

    def finish(self, s_old, x):
        pass  # ã, q̈, q̇ were set from the converged (q, ν) by the last residual evaluation


STEPPERS = {"index3": NewtonStep, "stabilized": _StabilizedStep}


@njit(cache=True)
def _predict(q0, v0, a0, at0, keep, h, alpha_m, alpha_f, beta, gamma, q, v, a, at):
    """The predicted q, q̇, q̈ (q̈_n, or 0 unless ``keep``), ã of :meth:`NewtonStep.predict`, element by element."""
    for i in range(len(q0)):
        a[i] = a0[i] if keep else 0.0
        at[i] = ((1 - alpha_f) * a[i] + alpha_f * a0[i] - alpha_m * at0[i]) / (1 - alpha_m)
        q[i] = q0[i] + h * v0[i] + h * h * ((0.5 - beta) * at0[i] + beta * at[i])
        v[i] = v0[i] + h * ((1 - gamma) * at0[i] + gamma * at[i])


@njit(cache=True)
def _update(q, v, a, lam, dx, d_vel, d_acc, beta_h2):
    """q += Δq, q̇ += ∂q̇/∂q Δq, q̈ += ∂q̈/∂q Δq, λ += Δ(βh²λ)/βh² in place (dx = [Δq; Δ(βh²λ)])."""
    n = len(q)
    for i in range(n):
        q[i] += dx[i]
        v[i] += d_vel * dx[i]
        a[i] += d_acc * dx[i]
    for i in range(len(lam)):
        lam[i] += dx[n + i] / beta_h2



def norm2(x):
    """Euclidean norm (np.linalg.norm costs more than the arithmetic on these vectors)."""
    return math.sqrt(x @ x)


def relative_residual(r, Q):
    """The dynamic error of Liu et al. 2018: ‖r‖₂ / max(1 N, ‖Q‖₂)."""
    return norm2(r) / max(1.0, norm2(Q))
