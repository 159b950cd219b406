"""Servo-constraint inverse dynamics of any relative degree: the consistent start of a
non-collocated servo (singular acceleration matrix, solved in the least-squares sense),
the realization check and its warning, and the spring-damper the test chains are made of.

The chains (tests/servo_chains.py): N sliders on prismatic joints along x joined by
springs, an actuator force on slider 1 (non-collocated: relative degree 2N) or on slider N
(collocated: relative degree 2), the position of slider N prescribed along a rest-to-rest
smoothstep. The closed-form input of the non-collocated chain follows from its flatness
(derivation in tests/servo_chains.py):

    ξ_N = y,   ξ_{N−1} = y + m_N ÿ/k_{N−1},
    ξ_{i−1} = ξ_i + [m_i ξ̈_i + k_i (ξ_i − ξ_{i+1})]/k_{i−1},
    u = m_1 ξ̈_1 + k_1 (ξ_1 − ξ_2),

ξ_i the displacement of slider i from its initial position, so u depends on y … y^(2N)
and the smoothstep has vanishing derivatives up to order p ≥ 2N at both ends
(p = 2N + 1 here: u then starts with zero slope, a smoother start for the integrator).
"""
import warnings

import numpy as np
import pytest
from scipy.integrate import solve_ivp

import femdyn
from femdyn.motion.timefunctions import Polynomial
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers.servo import RHO_NONCOLLOCATED, servo_realization

from support.servo_chains import (CHAINS, GAP, HEIGHT, TIGHT, RestToRest, chain, chain_model, flat_chain,
                                  output_polynomial, positions)

def quiet_integrate(system, t_end, h, options):
    """integrate with the servo warning silenced (the runs below choose ρ∞ on purpose)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", femdyn.ServoWarning)
        return integrate(system, t_end, h, options)


# --- the start ------------------------------------------------------------------------
@pytest.mark.parametrize("N", [2, 3])
def test_noncollocated_start_is_the_state_at_rest(N):
    """The acceleration matrix of the start is singular by structure (P = 0, orthogonal
    realization); the start is now the least-acceleration-energy solution, which for a
    rest start is exact: every slider at rest with zero acceleration and u = 0."""
    model, _, _, _ = chain(N)
    system = model.assemble()
    realization = servo_realization(system, system.q0)
    assert realization.realization == "orthogonal" and not realization.collocated
    assert realization.singular_values[0] < 1e-12 * realization.reference
    q, v, a, lam = consistent_state(system)
    assert np.abs(a).max() < 1e-12 and abs(lam[system.input_of["push"]]) < 1e-12


def test_inconsistent_start_names_the_rows():
    """A motion with ÿ(0) ≠ 0 on slider 2 of a chain at rest: the springs cannot
    accelerate slider 2 at the start, whatever the input; the error names the servo row
    and slider 2's coordinates and says what to change."""
    masses, stiffnesses, _, _ = CHAINS[2]
    system = chain_model(masses, stiffnesses, Polynomial([0.0, 0.0, 0.5])).assemble()    # y = 0.5 t² m
    with pytest.raises(femdyn.ConstraintError, match="inconsistent servo start") as info:
        consistent_state(system)
    message = str(info.value)
    assert "'output: x'" in message and "L2.rx" in message and "relative degree" in message
    assert "rest" in message


def test_singular_models_without_a_servo_cause_still_fail():
    """A servo model whose joints leave a massless free motion (an unused point) still
    fails with the singular-matrix diagnosis, as does a non-servo model."""
    masses, stiffnesses, T, _ = CHAINS[2]
    model = chain_model(masses, stiffnesses, RestToRest(HEIGHT, 5, T))
    model.point("loose", (5.0, 0, 0))
    with pytest.raises(femdyn.SingularMatrixError, match="loose"):
        consistent_state(model.assemble())
    free = femdyn.Model("free", gravity=(0, 0, 0))
    free.point("loose", (5.0, 0, 0))
    free.rigid_beam("rod", free.point("A", (0, 0, 0)), free.point("B", (1.0, 0, 0)), mass=1.0)
    with pytest.raises(femdyn.SingularMatrixError, match="loose"):
        consistent_state(free.assemble())


# --- inverse dynamics against the closed form -------------------------------------------
@pytest.fixture(scope="module", params=[2, 3])
def noncollocated_run(request):
    N = request.param
    model, y, T, h = chain(N)
    masses, stiffnesses, _, _ = CHAINS[N]
    results = quiet_integrate(model.assemble(), T, h, Options(rho_inf=0.0, **TIGHT))
    return N, results, flat_chain(y, masses, stiffnesses), y


def test_noncollocated_inputs_follow_the_flat_closed_form(noncollocated_run):
    """ρ∞ = 0: the force on slider 1 follows the closed form to 1e-4 of its peak and every
    slider its flat trajectory to 1e-7 m (N = 2: h = 1 ms, T = 1.5 s, measured 3.6e-5 and
    3.4e-8 m; N = 3: h = 4 ms, T = 6 s, measured 7.4e-5 and 2.8e-9 m), from the first step
    on. The closed form differs from the rigid chain's Σm ÿ by more than 1e-3 of the peak,
    so the springs' lag is resolved, not averaged out."""
    N, r, (xi, u), y = noncollocated_run
    exact = u(r.t)
    peak = np.abs(exact).max()
    masses = CHAINS[N][0]
    assert np.abs(exact - sum(masses) * y.deriv(2)(r.t)).max() > 1e-3 * peak
    assert np.abs(r["push.force"] - exact).max() < 1e-4 * peak
    assert np.abs(positions(r, N) - np.column_stack([x(r.t) for x in xi])).max() < 1e-7


# --- the collocated variant ---------------------------------------------------------------
def free_chain_response(masses, stiffnesses, y, T):
    """Displacements ξ_1 … ξ_{N−1} of the free sliders driven by the prescribed slider N
    (m_i ξ̈_i = k_{i−1}(ξ_{i−1} − ξ_i) − k_i(ξ_i − ξ_{i+1}), ξ_N = y(t), a TimeFunction),
    integrated to 1e-12 relative."""
    n = len(masses) - 1
    k = np.asarray(stiffnesses)

    def rhs(t, s):
        xi = np.concatenate([s[:n], [y.value(t)]])
        force = np.zeros(n)
        force -= k[:n] * (xi[:n] - xi[1:])                   # spring i pulls i back towards i + 1
        force[1:] += k[:n - 1] * (xi[:n - 1] - xi[1:n])      # and i + 1 towards i
        return np.concatenate([s[n:], force / masses[:n]])
    return solve_ivp(rhs, (0.0, T), np.zeros(2 * n), method="DOP853", rtol=1e-12, atol=1e-13, dense_output=True)


@pytest.mark.parametrize("N", [2, 3])
@pytest.mark.parametrize("rho, input_tol, position_tol", [(0.9, 1e-4, 1e-7), (0.0, 2e-4, 5e-7)])
def test_collocated_chain_is_unchanged(N, rho, input_tol, position_tol):
    """Input on the prescribed slider N (tangent realization, regular start, index 3):
    u = m_N ÿ + k_{N−1}(y − ξ_{N−1}) with ξ_{N−1} from an ODE solution of the free sliders,
    at the steps of the non-collocated runs and without a warning. The default ρ∞ = 0.9
    gives u to 1e-4 of its peak and the sliders to 1e-7 m (measured N = 2: 2.1e-5 and
    4.9e-8 m); ρ∞ = 0 damps the free sliders' vibration numerically and shifts its period
    (measured N = 2: 1.1e-4 and 2.7e-7 m; N = 3: 4.9e-5 and 4.5e-9 m)."""
    model, y, T, h = chain(N, driven=N - 1)
    masses, stiffnesses, _, _ = CHAINS[N]
    system = model.assemble()
    assert servo_realization(system, system.q0).collocated
    with warnings.catch_warnings():
        warnings.simplefilter("error", femdyn.ServoWarning)
        r = integrate(system, T, h, Options(rho_inf=rho, **TIGHT))
    free = free_chain_response(masses, stiffnesses, RestToRest(HEIGHT, 2 * N + 1, T), T).sol(r.t)[:N - 1].T
    exact = masses[-1] * y.deriv(2)(r.t) + stiffnesses[-1] * (y(r.t) - free[:, -1])
    assert np.abs(r["push.force"] - exact).max() < input_tol * np.abs(exact).max()
    assert np.abs(positions(r, N) - np.column_stack([free, y(r.t)])).max() < position_tol


# --- the settings check ------------------------------------------------------------------
@pytest.mark.parametrize("N", [2, 3])
def test_warning_for_a_noncollocated_servo_with_little_damping(N):
    """ServoWarning at the default ρ∞ = 0.9, naming the remedy; none at ρ∞ = 0."""
    model, _, _, h = chain(N)
    system = model.assemble()
    with pytest.warns(femdyn.ServoWarning, match=r"rho_inf=0\.0") as warned:
        integrate(system, 3 * h, h, Options(**TIGHT))
    assert {w.filename for w in warned if isinstance(w.message, femdyn.ServoWarning)} == {__file__}   # the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error", femdyn.ServoWarning)
        integrate(system, 3 * h, h, Options(rho_inf=0.0, **TIGHT))
        integrate(system, 3 * h, h, Options(rho_inf=RHO_NONCOLLOCATED, **TIGHT))


def test_default_damping_diverges_where_the_threshold_holds():
    """Why the warning: the N = 3 chain (relative degree 6) at its step diverges at the
    default ρ∞ = 0.9 (inputs wrong by more than 10× their peak; measured 380×) and keeps
    its inputs to 1e-3 at ρ∞ = RHO_NONCOLLOCATED (measured 7.3e-4; the table of
    docs/input-checks.md)."""
    model, y, T, h = chain(3)
    masses, stiffnesses, _, _ = CHAINS[3]
    u = flat_chain(y, masses, stiffnesses)[1]
    errors = {}
    for rho in (0.9, RHO_NONCOLLOCATED):
        try:
            r = quiet_integrate(model.assemble(), T, h, Options(rho_inf=rho, **TIGHT))
            errors[rho] = np.abs(r["push.force"] - u(r.t)).max() / np.abs(u(r.t)).max()
        except femdyn.SolverError:
            errors[rho] = np.inf
    assert errors[0.9] > 10.0 and errors[RHO_NONCOLLOCATED] < 1e-3


# --- the spring-damper ----------------------------------------------------------------------
def test_spring_damper_tangents_match_finite_differences():
    """K = −∂Q/∂q and C = −∂Q/∂q̇ of a spring-damper between two rigid bodies' material
    points, off-axis and stretched, with a velocity across the spring (the unsymmetric
    term), against central differences (1e-7 relative); −∂V/∂q = the elastic force."""
    m = femdyn.Model("springs", gravity=(0, 0, 0))
    a = m.rigid_beam("a", m.point("A1", (0, 0, 0)), m.point("A2", (0.4, 0.1, 0)), mass=1.0)
    b = m.rigid_beam("b", m.point("B1", (1.0, 0.3, 0.2)), m.point("B2", (1.3, 0.5, 0.1)), mass=1.0)
    spring = m.spring("s", a, (0.2, 0.05, 0), b, (1.15, 0.4, 0.15), stiffness=350.0, damping=4.0, rest_length=0.7)
    system = m.assemble()
    rng = np.random.default_rng(3)
    q, v = system.q0 + 0.01 * rng.standard_normal(system.n), rng.standard_normal(system.n)
    part = next(p for p in system.parts if p.name == "s")
    k, c = part.tangent_values(q, v, 0.0)
    rows, cols, c_rows, c_cols = part.tangent_pattern()
    K, C = np.zeros((system.n, system.n)), np.zeros((system.n, system.n))
    np.add.at(K, (rows, cols), k)
    np.add.at(C, (c_rows, c_cols), c)
    eye, e = np.eye(system.n), 1e-6
    dQ_dq = np.column_stack([(part.force(q + e * d, v, 0) - part.force(q - e * d, v, 0)) / (2 * e) for d in eye])
    dQ_dv = np.column_stack([(part.force(q, v + e * d, 0) - part.force(q, v - e * d, 0)) / (2 * e) for d in eye])
    assert np.abs(K + dQ_dq).max() < 1e-7 * np.abs(K).max() and np.abs(C + dQ_dv).max() < 1e-7 * np.abs(C).max()
    assert not np.allclose(K, K.T)
    dV = np.array([(part.potential_energy(q + e * d) - part.potential_energy(q - e * d)) / (2 * e) for d in eye])
    assert np.abs(dV + part.force(q, np.zeros(system.n), 0)).max() < 1e-7 * np.abs(dV).max()
    assert spring.L0 == 0.7


def test_spring_rest_length_defaults_to_the_initial_distance():
    m = femdyn.Model("springs", gravity=(0, 0, 0))
    rod = m.rigid_beam("rod", m.point("A", (0, 0, 0)), m.point("B", (1.0, 0, 0)), mass=1.0)
    assert m.spring("s", "ground", (0, 0, 3.0), rod, (1.0, 0, 0), stiffness=1.0).L0 == pytest.approx(np.sqrt(10.0))
    with pytest.raises(femdyn.ModelError, match="stiffness"):
        m.spring("t", "ground", (0, 0, 3.0), rod, (1.0, 0, 0), stiffness=-1.0)
    with pytest.raises(femdyn.ModelError, match="rest length"):
        m.spring("u", rod, (1.0, 0, 0), rod, (1.0, 0, 0), stiffness=1.0)
