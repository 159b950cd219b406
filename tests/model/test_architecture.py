"""The assembly architecture: frozen Systems, the contribution protocol (parts written in
tests/parts.py only), configuration-dependent mass, sparse eigenmodes, Newton statuses
and the integrator's failure policies."""
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import femdyn
from femdyn.elements import sections
from femdyn.solvers.generalized_alpha import CONVERGED, Options, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers.eigen import eigenmodes
from femdyn.solvers.static import static_equilibrium
from support.models import pendulum
from support.parts import FixedRadius, PointMass, PolarParticle, Spring
from support import ROOT


# --- a frozen System -----------------------------------------------------------------
def test_later_edits_and_assemblies_leave_a_system_unchanged():
    """Assemble, then add a body and a joint and assemble again: the first System keeps its
    rows, and running it gives the results (and multipliers) of a model never edited."""
    m = pendulum(0.3)
    first = m.assemble()
    C, B = m.point("C", m.nodes["A"].initial), m.point("B", (2.0, 0.0, 0.0))
    rod2 = m.rigid_beam("rod2", C, B, mass=0.5)
    m.spherical("elbow", "rod", rod2, m.nodes["A"].initial)
    second = m.assemble()
    assert (first.n, first.m) != (second.n, second.m) and "elbow" not in first.joint_rows
    reference = integrate(pendulum(0.3).assemble(), 0.2, 1e-3)
    again = integrate(first, 0.2, 1e-3)
    assert np.array_equal(again.q, reference.q)
    assert np.array_equal(again.multipliers("pivot"), reference.multipliers("pivot"))
    assert integrate(second, 0.01, 1e-3).status == "completed"


# --- a part written only against the protocol --------------------------------------------
def spring_mass(k=400.0, mass=2.0, rest=0.5, g=9.81, drop=0.0):
    m = femdyn.Model("spring-mass", gravity=(0, 0, -g))
    top = m.point("top", (0, 0, 0))
    bob = m.point("bob", (0, 0, -rest - drop))
    m.fix(top)
    m.add(PointMass("bob mass", bob, mass))
    m.add(Spring("spring", top, bob, k, rest))
    return m


def test_protocol_part_statics_and_oscillation():
    """Statics: elongation m g / k exactly. Dynamics (released 0.05 m below the unloaded
    length): z(t) = z_eq + A cos ωt, ω = √(k/m); generalized-α at h = 1e-3 (ω h = 0.014)
    has a phase error ~ (ωh)²/12 per radian, so 1e-4 m over 1 s."""
    k, mass, g = 400.0, 2.0, 9.81
    s = spring_mass(k, mass, g=g, drop=0.05).assemble()
    q, _ = static_equilibrium(s)
    assert q[s.nodes["bob"].start + 2] == pytest.approx(-0.5 - mass * g / k, abs=1e-12)
    r = integrate(s, 1.0, 1e-3, Options(rho_inf=0.9))
    omega, z_eq = np.sqrt(k / mass), -0.5 - mass * g / k
    exact = z_eq + (-0.55 - z_eq) * np.cos(omega * r.t)
    assert np.abs(r["bob.rz"] - exact).max() < 1e-4


def test_protocol_part_tangent_matches_finite_differences():
    s = spring_mass().assemble()
    rng = np.random.default_rng(0)
    q, v = s.q0 + 0.01 * rng.standard_normal(s.n), np.zeros(s.n)
    K = s.patterns.stiffness.matrix(s.tangent_values(q, v, 0.0)[0]).toarray()
    fd = np.column_stack([(s.forces(q - e, v, 0.0) - s.forces(q + e, v, 0.0)) / 2e-7
                          for e in 1e-7 * np.eye(s.n)])
    assert np.allclose(K, fd, atol=1e-5 * np.abs(K).max())


def test_a_part_must_follow_the_protocol():
    m = femdyn.Model("bad")
    with pytest.raises(femdyn.ModelError, match="derive it from femdyn.model.protocol.Part"):
        m.add(object())


# --- configuration-dependent mass: a particle in polar coordinates ------------------------
def polar(g=0.0, k=0.0, rest=0.0, r0=1.0, theta0=0.0, mass=1.5, radius=None):
    m = femdyn.Model("polar", gravity=(0, 0, 0))
    node = m.add_node("P", "polar", (r0, theta0, 0.0))
    m.fix(node, components=(2,))
    m.add(PolarParticle("particle", node, mass, g=g, k=k, rest_length=rest))
    if radius is not None:
        m.add(FixedRadius("string", node, radius))
    return m, node


def test_polar_particle_moves_on_a_straight_line():
    """No forces: x = 1, y = t, so r = √(1 + t²), θ = atan t; M(q) and the quadratic-velocity
    terms must be consistent for this. Second order: error ≤ 2e-6 at h = 2e-3, and
    the error ratio of h and h/2 near 4."""
    errors = []
    for h in (4e-3, 2e-3):
        m, node = polar()
        m.set_velocity(node, (0.0, 1.0, 0.0))
        r = integrate(m.assemble(), 2.0, h, Options(rho_inf=0.9))
        rr, th = r["P.px"], r["P.py"]
        errors.append(max(np.abs(rr * np.cos(th) - 1).max(), np.abs(rr * np.sin(th) - r.t).max()))
    assert errors[1] < 2e-6 and 3.0 < errors[0] / errors[1] < 5.0


def test_polar_particle_statics_initial_state_and_modes():
    """Gravity along −y and a radial spring: equilibrium θ = −π/2, r = L0 + m g/k; initial
    accelerations at rest r̈ = −g sin θ − k(r − L0)/m, θ̈ = −g cos θ / r; small oscillations
    ω_r = √(k/m) and ω_θ = √(g/r_eq)."""
    mass, g, k, L0 = 1.5, 9.81, 300.0, 1.0
    m, node = polar(g=g, k=k, rest=L0, r0=1.02, theta0=-1.3, mass=mass)
    s = m.assemble()
    q, lam = static_equilibrium(s)
    r_eq = L0 + mass * g / k
    assert q[node.start:node.start + 2] == pytest.approx([r_eq, -np.pi / 2], abs=1e-10)
    _, _, a, _ = consistent_state(s)
    expected = [-g * np.sin(-1.3) - k * 0.02 / mass, -g * np.cos(-1.3) / 1.02]
    assert a[node.start:node.start + 2] == pytest.approx(expected, rel=1e-10)
    omega, _ = eigenmodes(s, q, lam, count=2, method="dense")
    assert omega == pytest.approx(sorted([np.sqrt(k / mass), np.sqrt(g / r_eq)]), rel=1e-10)


def test_polar_pendulum_matches_an_independent_ode_solution():
    """With r = L imposed by a constraint part, θ̈ = −(g/L) cos θ; compared with solve_ivp
    (rtol 1e-11) after 2 s from rest at θ = 0: generalized-α at h = 1e-3 to 2e-5 rad."""
    g, L = 9.81, 0.8
    m, node = polar(g=g, r0=L, radius=L)
    r = integrate(m.assemble(), 2.0, 1e-3, Options(rho_inf=0.9))
    ode = solve_ivp(lambda t, y: [y[1], -g / L * np.cos(y[0])], (0, 2.0), [0.0, 0.0], rtol=1e-11, atol=1e-12,
                    dense_output=True)
    assert np.abs(r["P.py"] - ode.sol(r.t)[0]).max() < 2e-5
    energy = r["energy"]
    assert np.abs(energy - energy[0]).max() < 1e-3 * 1.5 * g * L


# --- sparse eigenmodes -------------------------------------------------------------------
def cantilever(n_el=16, element="beam"):
    m = femdyn.Model("cantilever", gravity=(0, 0, 0))
    m.straight_beam("beam", (0, 0, 0), (1.0, 0, 0), n_el, E=2.1e11, rho=7800, section=sections.circular(0.01),
                    element=element)
    m.clamp("root", "beam.0")
    return m


@pytest.mark.parametrize("build", [cantilever, lambda: pendulum(0.4)])
def test_sparse_eigenmodes_agree_with_dense(build):
    s = build().assemble()
    count = min(6, s.n - s.m - 2) if s.n - s.m > 3 else 1
    w_dense, X_dense = eigenmodes(s, count=count, method="dense")
    w_sparse, X_sparse = eigenmodes(s, count=count)
    # The dense generalized eigensolver's backward-error bound for the lowest ω² is
    # ε·ω²_max/ω²_1 (≈ 1.2e-7 for the 16-element steel cantilever, whose highest
    # axial/shear modes reach ω² ≈ 4.6e12 s⁻²), i.e. half that in ω; the sparse
    # shift-invert values are the sharper ones. Observed: 3e-8 (BLAS-dependent).
    assert w_sparse == pytest.approx(w_dense, rel=1e-7, abs=1e-9 * w_dense.max())
    M = s.M
    overlap = np.abs(np.einsum("ij,ij->j", X_sparse, M @ X_dense))
    distinct = np.r_[True, np.diff(w_dense) > 1e-6 * w_dense.max()] & np.r_[np.diff(w_dense) > 1e-6 * w_dense.max(), True]
    assert np.allclose(overlap[distinct], 1.0, atol=1e-8)


def hanging_chain(links, length=2.0, mass=1.0):
    """Rigid rods sharing their end nodes (ball joints), hanging from a fixed point."""
    m = femdyn.Model("hanging chain", gravity=(0, 0, -9.81))
    P = [m.point(f"P{i}", (0, 0, -length * i / links)) for i in range(links + 1)]
    for i in range(links):
        m.rigid_beam(f"link{i}", P[i], P[i + 1], mass=mass / links)
    m.fix(P[0])
    return m


@pytest.mark.parametrize("links, tol", [(100, 2e-4), pytest.param(33333, 1e-8, marks=pytest.mark.slow)])
def test_hanging_chain_modes_by_sparse_shift_invert(links, tol):
    """The hanging chain's pendulum modes (Daniel Bernoulli 1733): ω_k = (j₀,ₖ/2)√(g/L), each
    twice (two transverse planes); the discrete chain converges as 1/N² (1e-4 at 100 links).
    The slow case has 100 002 coordinates: statics about 8 s, the 4 modes about 1 s."""
    from scipy.special import jn_zeros
    s = hanging_chain(links).assemble()
    q, lam = static_equilibrium(s)
    omega, _ = eigenmodes(s, q, lam, count=4)
    exact = jn_zeros(0, 2) / 2 * np.sqrt(9.81 / 2.0)
    assert omega == pytest.approx(np.repeat(exact, 2), rel=tol)
    if links <= 100:
        assert omega == pytest.approx(eigenmodes(s, q, lam, count=4, method="dense")[0], rel=1e-9)


# --- Newton statuses and the integrator's policies -----------------------------------------
def test_a_failing_step_is_retried_with_halved_steps():
    """At h = 0.05 s and 4 Newton iterations the swinging pendulum stalls (t = 0.45 s with
    on_failure="stop"); with the default policy ("retry") the run completes, each rejection is an
    event and is counted in the corrections column, and the result is that of the finer steps."""
    with pytest.raises(femdyn.ConvergenceError, match="stalled in the dynamics"):
        integrate(pendulum(0.0).assemble(), 1.0, 0.05, Options(max_iterations=4, on_failure="stop"))
    r = integrate(pendulum(0.0).assemble(), 1.0, 0.05, Options(max_iterations=4))
    assert r.status == "completed" and r.t[-1] == pytest.approx(1.0)
    rejected = [e for e in r.events if e["event"] == "step rejected"]
    assert rejected and r["corrections"].sum() == len(rejected)
    fine = integrate(pendulum(0.0).assemble(), 1.0, 0.0125, Options())
    assert abs(r["pivot.angle"][-1] - fine["pivot.angle"][-1]) < 0.03


class ProjectOnce:
    """A corrector that projects the iterate onto Φ = 0 at its second iteration of one step."""

    def __init__(self, step_time):
        self.step_time, self.done = step_time, False

    def needed(self, history):
        return not self.done and len(history) == 2

    def apply(self, step, x):
        from femdyn.solvers.initial import consistent_positions
        system = step.sys
        before = float(np.abs(system.constraints.phi(x.q, x.t)).max())
        x.q[:] = consistent_positions(system, x.q, x.t)
        self.done = True
        return {"constraint_before": before, "constraint_after": float(np.abs(system.constraints.phi(x.q, x.t)).max())}


def test_a_corrector_is_called_within_newton_and_logged():
    r = integrate(pendulum(0.0).assemble(), 0.1, 1e-2, Options(corrector=ProjectOnce(0.01)))
    events = [e for e in r.events if e["event"] == "correction"]
    assert len(events) == 1 and events[0]["constraint_after"] < 1e-12 < events[0]["constraint_before"]
    assert r["corrections"].sum() == 1 and r.status == "completed"


def test_newton_reports_a_status_instead_of_raising():
    from femdyn.solvers.generalized_alpha import NewtonStep, Parameters, State
    s = pendulum(0.0).assemble()
    q, v, a, lam = consistent_state(s)
    step = NewtonStep(s, 0.05, Parameters.from_rho(0.9), Options(max_iterations=2))
    out = step.solve(State(0.0, q, v, a, a.copy(), lam), 0.05)
    assert out.status != CONVERGED and "no convergence in 2 iterations" in out.diagnosis
    step = NewtonStep(s, 0.05, Parameters.from_rho(0.9), Options())
    assert step.solve(State(0.0, q, v, a, a.copy(), lam), 0.05).status == CONVERGED


def test_contributing_guide_example_runs():
    """The code block of docs/contributing.md runs and prints the elongated length."""
    import contextlib
    import io
    import re
    text = (ROOT / "docs" / "contributing.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "contributing.md", "exec"), {})
    assert float(out.getvalue()) == pytest.approx(-0.5 - 2.0 * 9.81 / 400.0, abs=1e-12)


def test_a_fine_cable_no_longer_diverges_on_its_first_step():
    """The Berzeri–Shabana cable pendulum with 1024 elements at h = 1 ms used to diverge on
    its first step: Newton started from the consistent initial acceleration (which peaks at
    the pin, ∝ 1/ℓ_e) and took full steps while the residual grew. Reproduced here by
    starting from that predictor without backtracking; the integrator's own start (q̈ = 0
    predictor on the first step, backtracking when a fresh Newton step makes ‖residual‖
    grow) converges, and the run continues."""
    from femdyn.elements.sections import CrossSection
    from femdyn.solvers.generalized_alpha import NewtonStep, Parameters, State
    m = femdyn.Model("cable pendulum", gravity=(0, 0, -9.81))
    section = CrossSection(0.0018, 1.215e-8, 1.215e-8, 2.43e-8, 0.024, 0.024)
    m.straight_beam("beam", (0, 0, 0), (1.2, 0, 0), 1024, E=0.7e6, rho=5540.0, section=section, element="cable")
    m.spherical("pin", "ground", "beam.0", (0, 0, 0))
    s = m.assemble()
    q, v, a, lam = consistent_state(s)
    old = NewtonStep(s, 1e-3, Parameters.from_rho(0.9), Options(max_iterations=25, max_backtracks=0))
    assert old.solve(State(0.0, q, v, a, a.copy(), lam), 1e-3).status != CONVERGED
    r = integrate(s, 3e-3, 1e-3, Options())
    assert r.status == "completed" and r["iterations"][1:].max() <= 10
