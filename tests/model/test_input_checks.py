"""Inputs that fail loudly: one test per kind of bad input (docs/input-checks.md).

Each test checks the error or warning class and that the message names the offending
item (node and component, part, body, value); the last ones check that a refused model
writes nothing to disk.
"""
import warnings

import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.errors import (FemdynWarning, ModelError, NonFiniteError, PhysicalConsistencyWarning,
                           StepSizeWarning, UnitsWarning)
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.initial import consistent_state
from femdyn.solvers.static import static_equilibrium
from femdyn.solvers import step_size
from support.models import pendulum
from support.parts import PointMass
from support import ROOT

STEEL = dict(E=2.1e11, rho=7850.0, section=sections.circular(0.01))


def cable(n_elements=4, gravity=(0.0, 0.0, -9.81), **material):
    """A 1 m steel cable along x pinned at its first node (node names 'beam.0' … 'beam.n')."""
    m = femdyn.Model("cable", gravity=gravity)
    m.straight_beam("beam", (0, 0, 0), (1, 0, 0), n_elements, **{**STEEL, **material})
    m.spherical("pin", m.ground, "beam.0", (0, 0, 0))
    return m


# --- non-finite numbers -------------------------------------------------------------------
def test_nan_initial_coordinate_is_named_by_node_and_component(tmp_path):
    system = cable().assemble()
    q0 = system.q0.copy()
    node = system.nodes["beam.3"]
    q0[node.start + 4] = np.nan                       # slot rx, component 1 (y)
    out = tmp_path / "run"
    with pytest.raises(NonFiniteError, match=r"node 'beam\.3' rx\[1\] \(q\[22\]\) is nan"):
        integrate(system, 0.01, 1e-3, q0=q0, output=str(out))
    assert not out.exists()                           # refused before the results folder is made
    with pytest.raises(NonFiniteError, match=r"node 'beam\.3' rx\[1\]"):
        static_equilibrium(system, q0=q0)


def test_infinite_initial_velocity_is_named():
    system = pendulum().assemble()
    v0 = np.zeros(system.n)
    v0[system.nodes["A"].start + 2] = np.inf
    with pytest.raises(NonFiniteError, match=r"v0 has 1 non-finite entry: node 'A' r\[2\]"):
        consistent_state(system, v=v0)


def test_initial_state_of_wrong_size_is_refused():
    system = pendulum().assemble()
    with pytest.raises(ModelError, match="q0 must hold the model's 6 coordinates"):
        integrate(system, 0.01, 1e-3, q0=np.zeros(5))


class NaNMass(PointMass):
    """A user part whose mass came out of a failed computation."""


def _bad_part(m):
    m.add(NaNMass("lumped mass", m.point("extra", (1.0, 0, 0)), np.nan))


@pytest.mark.parametrize("build, named", [
    (lambda: femdyn.Model("m").point("P", (0.0, np.nan, 0.0)), "point node 'P'"),
    (lambda: cable(E=np.nan), "ANCF beam 'beam'.*E"),
    (lambda: cable(rho=[7850.0, np.inf, 7850.0, 7850.0]), "ANCF beam 'beam'.*rho.*entry 1"),
    (lambda: cable(section=sections.circular(np.nan)), "circular section: radius"),
    (lambda: femdyn.Model("m", gravity=(0, 0, np.nan)), "model 'm': gravity"),
    (lambda: pendulum().rigid_body("box", ["O", "A"], mass=1.0, inertia=np.diag([1.0, np.nan, 1.0])),
     "body 'box': inertia"),
    (lambda: pendulum().force("push", "rod", (0, 0, -1.0), (0.0, np.nan, 0.0)), "force 'push'"),
    (lambda: pendulum().set_velocity("A", (0.0, np.nan, 0.0)), "initial velocity of node 'A'"),
], ids=["node", "E", "rho", "section", "gravity", "inertia", "force", "velocity"])
def test_non_finite_model_input_is_refused_at_the_builder_call(build, named):
    with pytest.raises(NonFiniteError, match=named):
        build()


def test_non_finite_values_from_parts_are_refused_at_assembly():
    m = pendulum()
    _bad_part(m)
    with pytest.raises(NonFiniteError, match="part 'lumped mass': its mass is not finite"):
        m.assemble()
    m = pendulum()
    m.joints["pivot"].angle0 = np.nan                 # a joint offset computed as NaN
    m.drive_angle("hold", "pivot", 0.0)
    with pytest.raises(NonFiniteError, match="constraint 'hold: angle' is not finite"):
        m.assemble()


# --- step size ----------------------------------------------------------------------------
def test_highest_frequency_of_a_pendulum_is_the_analytic_one():
    """Hanging uniform rod: its only mode has ω² = 3g/(2L) (linearized, K_t = H(λ) from the
    pivot's reaction); the dense method should agree to round-off (1e-10 relative)."""
    system = pendulum().assemble()
    q, _, _, lam = consistent_state(system)
    assert step_size.highest_frequency(system, q, lam) == pytest.approx(np.sqrt(1.5 * 9.81), rel=1e-10)


def test_lanczos_and_dense_highest_frequency_agree(monkeypatch):
    """Two independent methods on a 16-element cable (93 free coordinates, above the dense
    limit): Lanczos at tol 1e-2 on ω² against the dense null-space eigensolver; ARPACK's
    tolerance bounds the relative error of ω² by 1e-2, so ω by 0.5 %."""
    system = cable(16).assemble()
    q, _, _, lam = consistent_state(system)
    assert system.n - system.m > step_size.DENSE_LIMIT
    lanczos = step_size.highest_frequency(system, q, lam)
    monkeypatch.setattr(step_size, "DENSE_LIMIT", 10**6)
    dense = step_size.highest_frequency(system, q, lam)
    assert lanczos == pytest.approx(dense, rel=5e-3)


def test_step_beyond_half_the_shortest_period_warns_with_the_period():
    """Hanging pendulum, T = 2π/√(3g/2L) = 1.638 s; the stabilized form at ρ∞ = 1 keeps every
    mode undamped."""
    system = pendulum().assemble()
    period = 2 * np.pi / np.sqrt(1.5 * 9.81)
    undamped = Options(formulation="stabilized", rho_inf=1.0)
    with pytest.warns(StepSizeWarning, match=rf"T_min = {period:.5f}") as warned:
        integrate(system, 1.0, 1.0, undamped)
    assert [w.filename for w in warned] == [__file__]                    # points at the caller of integrate
    with warnings.catch_warnings():
        warnings.simplefilter("error", StepSizeWarning)
        integrate(system, 0.8, 0.4 * period, undamped)                     # resolved: h < T/2
        integrate(system, 1.0, 1.0, Options(rho_inf=0.9))                 # damped out by ρ∞ = 0.9
        integrate(system, 1.0, 1.0, Options(formulation="stabilized", rho_inf=1.0, step_check=False))


# --- units --------------------------------------------------------------------------------
def test_sound_si_models_raise_no_warning(no_femdyn_warnings):
    cable().assemble()
    cable(E=0.7e6, rho=5540.0).assemble()     # the soft flexible pendulum of tests/model/test_flexible_system.py
    pendulum().assemble()
    femdyn.Model("space", gravity=(0, 0, 0)).point("P", (0, 0, 0))
    cable(gravity=(0, 0, -0.981)).assemble()  # a reduced-gravity study (g/10), as the floating-frame tests run
    cable(gravity=(0, 0, -1.62)).assemble()   # the Moon


@pytest.mark.parametrize("build, named", [
    (lambda: cable(gravity=(0, 0, -9810.0)), "gravity magnitude 9810 m/s²"),
    (lambda: cable(gravity=(0, 0, -981.0)), "gravity magnitude 981 m/s²"),
    (lambda: cable(gravity=(0, 0, -0.00981)), "gravity magnitude 0.00981 m/s²"),
    (lambda: cable(rho=7.85e-9), r"ANCF beam 'beam': density = 7.85e-09 kg/m³"),
    (lambda: cable(E=210000.0), r"ANCF beam 'beam': E = 210000 Pa with ρ = 7850 kg/m³ gives a bar wave speed "
                                r"√\(E/ρ\) = 5\.17 m/s"),
    (lambda: cable(E=2e4, rho=100.0), r"ANCF beam 'beam': Young's modulus E = 20000 Pa"),
], ids=["gravity mm", "gravity cm", "gravity km", "density t/mm3", "E in MPa", "E too small"])
def test_suspicious_units_warn_with_the_value(build, named):
    with pytest.warns(UnitsWarning, match=named):
        build().assemble()


def test_tree_model_gravity_in_mm_warns():
    from femdyn.robots.serial import puma560
    with pytest.warns(UnitsWarning, match="tree model: gravity magnitude 9810 m/s²"):
        puma560(gravity=(0, 0, -9810.0))


def test_model_in_millimetres_warns_with_its_size():
    m = femdyn.Model("mm model")
    m.straight_beam("beam", (0, 0, 0), (1500.0, 0, 0), 2, **STEEL)
    with pytest.warns(UnitsWarning, match="nodes span 1500 m"):
        m.assemble()


def test_rigid_body_density_and_inertia_units_warn():
    m = pendulum()
    with pytest.warns(UnitsWarning, match=r"rigid beam 'rod2': density = 2\.7 kg/m³"):
        m.rigid_beam("rod2", "O", "A", density=2.7, area=1e-4)                    # g/cm³
    P, Q = m.point("P", (0, 0, 0.5)), m.point("Q", (0.2, 0, 0.5))
    u, w = m.vector("u", (0, 1, 0)), m.vector("w", (0, 0, 1))
    m.rigid_body("box", [P, Q], [u, w], mass=2.0, com=(0.1, 0, 0.5), inertia=np.diag([4e3, 5e3, 6e3]))  # kg·mm²
    with pytest.warns(UnitsWarning, match="body 'box': inertia 6000 kg·m² with mass 2 kg"):
        m.assemble()


# --- physical consistency -----------------------------------------------------------------
# Unimation PUMA 560, standard DH, Corke's Robotics Toolbox mdl_puma560 (Armstrong, Khatib &
# Burdick 1986 inertias via Corke & Armstrong-Hélouvry 1994): link 1 has m = 0 and only the
# moment about the joint axis; link 3's (0.066, 0.086, 0.0125) kg·m² break I3 ≤ I1 + I2.
PUMA_DH = [(0.0, 0.0, np.pi / 2), (0.0, 0.4318, 0.0), (0.15005, 0.0203, -np.pi / 2),   # d, a, α (m, m, rad)
           (0.4318, 0.0, np.pi / 2), (0.0, 0.0, -np.pi / 2), (0.0, 0.0, 0.0)]
PUMA_MASS = [0.0, 17.4, 4.8, 0.82, 0.34, 0.09]                                       # kg
PUMA_COM = [(0, 0, 0), (-0.3638, 0.006, 0.2275), (-0.0203, -0.0141, 0.070), (0, 0.019, 0), (0, 0, 0),
            (0, 0, 0.032)]                                                          # m, in DH frame i
PUMA_INERTIA = [(0, 0.35, 0), (0.13, 0.524, 0.539), (0.066, 0.086, 0.0125), (1.8e-3, 1.3e-3, 1.8e-3),
                (0.3e-3, 0.4e-3, 0.3e-3), (0.15e-3, 0.15e-3, 0.04e-3)]               # Ixx, Iyy, Izz (kg·m²)


def _rx(alpha):
    c, s = np.cos(alpha), np.sin(alpha)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def puma_rows():
    """Tree rows: body i rotates about z of DH frame i−1; its mass properties move from DH
    frame i by the fixed part Tz(d) Tx(a) Rx(α) of link i."""
    rows, placement = [], (np.eye(3), np.zeros(3))
    for i, ((d, a, alpha), m, c, I) in enumerate(zip(PUMA_DH, PUMA_MASS, PUMA_COM, PUMA_INERTIA)):
        R, p = _rx(alpha), np.array([a, 0.0, d])
        rows.append(dict(name=f"link{i + 1}", parent="world" if i == 0 else f"link{i}", axis=(0, 0, 1),
                         R=placement[0], xyz=placement[1], mass=m, com=R @ c + p, inertia=R @ np.diag(I) @ R.T))
        placement = (R, p)
    return rows


def puma_centres_of_mass(q):
    """Link centres of mass (world, m) by plain DH products, independent of the tree model."""
    T, out = np.eye(4), []
    for qi, (d, a, alpha), c in zip(q, PUMA_DH, PUMA_COM):
        ct, st = np.cos(qi), np.sin(qi)
        A = np.eye(4)
        A[:3, :3] = np.array([[ct, -st, 0], [st, ct, 0], [0, 0, 1]]) @ _rx(alpha)
        A[:3, 3] = [a * ct, a * st, d]
        T = T @ A
        out.append(T[:3, :3] @ c + T[:3, 3])
    return np.array(out)


def test_published_puma560_is_refused_by_default_and_runs_with_strict_false():
    from femdyn.solvers.recursive import Data, TreeModel, forward_dynamics, inverse_dynamics, mass_matrix
    with pytest.raises(ModelError, match=r"body 'link1': mass 0\.0 kg is not positive.*strict=False"):
        TreeModel.from_table(puma_rows())
    with pytest.warns(PhysicalConsistencyWarning) as caught:
        model = TreeModel.from_table(puma_rows(), strict=False)
    messages = [str(w.message) for w in caught]
    assert any("body 'link1': mass 0.0 kg" in s for s in messages)
    assert any("body 'link3'" in s and "triangle inequality" in s for s in messages)
    assert not any("link2" in s or "link4" in s for s in messages)            # the physical links pass
    # the run: gravity torques at Corke's nominal pose qn against ∂V/∂q of the potential
    # V = −Σ m_i g·c_i(q) from independent DH kinematics (central differences, step 1e-6 rad:
    # truncation ~1e-12·V''' and round-off ~1e-16·V/1e-6, both far below the 1e-7 N·m used)
    qn = np.array([0.0, np.pi / 4, np.pi, 0.0, np.pi / 4, 0.0])
    data = Data(model)
    tau = inverse_dynamics(model, data, qn, np.zeros(6), np.zeros(6))
    g = np.array([0.0, 0.0, -9.81])

    def potential(q):
        return -np.sum(np.array(PUMA_MASS) * (puma_centres_of_mass(q) @ g))
    dV = [(potential(qn + 1e-6 * e) - potential(qn - 1e-6 * e)) / 2e-6 for e in np.eye(6)]
    assert np.allclose(tau, dV, atol=1e-7)
    assert np.allclose(tau[1:3], [31.6399, 6.0351], atol=1e-4)   # Corke's p560.gravload(qn), 4 decimals
    assert np.all(np.linalg.eigvalsh(mass_matrix(model, data, qn)) > 0)
    assert np.allclose(forward_dynamics(model, data, qn, np.zeros(6), tau), 0.0, atol=1e-9)


def test_ncf_body_inertia_strict_false_warns_and_assembles():
    m = pendulum()
    P, Q = m.point("P", (0, 0, 0.5)), m.point("Q", (0.2, 0, 0.5))
    u, w = m.vector("u", (0, 1, 0)), m.vector("w", (0, 0, 1))
    bad = np.diag([0.01, 0.01, 0.05])                                      # 0.05 > 0.01 + 0.01
    with pytest.raises(ModelError, match=r"body 'box'.*triangle.*strict=False"):
        m.rigid_body("box", [P, Q], [u, w], mass=2.0, com=(0.1, 0, 0.5), inertia=bad)
    with pytest.warns(PhysicalConsistencyWarning, match="body 'box'"):
        m.rigid_body("box", [P, Q], [u, w], mass=2.0, com=(0.1, 0, 0.5), inertia=bad, strict=False)
    assert "box" in m.assemble().bodies


# --- joints at ANCF cable nodes -----------------------------------------------------------
def _cable_with(joint):
    m = cable()
    m.point("B0", (1, 0, 0))
    m.point("B1", (1, 0.3, 0))
    m.rigid_beam("arm", "B0", "B1", mass=1.0)
    joint(m)
    return m


@pytest.mark.parametrize("joint, alternative", [
    (lambda m: m.universal("hooke", "beam.4", m.ground, (1, 0, 0), (0, 1, 0), (0, 0, 1)),
     "give its tangent as this body's cross axis, or use a spherical joint"),
    (lambda m: m.prismatic("slide", "beam.4", m.ground, (1, 0, 0), (1, 0, 0)),
     "make the cable node body_b"),
    (lambda m: m.revolute("hinge", "beam.4", "arm", (1, 0, 0), (0, 0, 1)),
     "give the other body the axis"),
    (lambda m: m.spherical("ball", "beam.4", m.ground, (1, 0.1, 0)),
     "a rigid body clamped to the node"),
    (lambda m: (m.sensor_angle("spin", m.revolute("spin", m.ground, "beam.4", (1, 0, 0), (1, 0, 0))), m.assemble()),
     "measure the angle of a body clamped to the node"),
], ids=["universal", "prismatic", "revolute", "point off the axis", "angle about the tangent"])
def test_unsupported_joint_at_a_cable_node_names_the_alternative(joint, alternative):
    with pytest.raises(ModelError, match="beam.4") as err:
        _cable_with(joint)
    assert alternative in str(err.value)
    assert "element='beam'" in str(err.value)


def test_hooke_joint_on_a_cable_tangent_against_the_compound_pendulum():
    """A stiff cable hung by a Hooke joint whose cross axes are the cable tangent and the
    ground's y axis swings in the xz plane even under a gravity component along y (a
    spherical joint would let it swing toward y): released horizontal, it reaches the
    vertical after a quarter period of the compound pendulum of amplitude 90° under
    g_z = 9.81 m/s², √(2L/(3g)) K(sin 45°) (K the complete elliptic integral).
    Tolerance 1e-3 (measured 1e-5): the steel cable's bending under its weight, δ/L ≈ 2e-3,
    moves its centre of mass by O(δ²/L) ≈ 1e-5 L, the step's period error is O((ωh)²) ≈ 1e-5,
    and the bending vibration released at t = 0 is damped by ρ∞ = 0.8. A spherical joint
    instead gives −2.2 % and 0.29 m out of the plane."""
    from scipy.special import ellipk
    m = femdyn.Model("hooke cable", gravity=(0.0, 3.0, -9.81))
    m.straight_beam("beam", (0, 0, 0), (1, 0, 0), 4, **STEEL)
    m.universal("hooke", "beam.0", m.ground, (0, 0, 0), (1, 0, 0), (0, 1, 0))
    m.sensor_point("tip", "beam.4", (1, 0, 0))
    system = m.assemble()
    assert system.degrees_of_freedom() == system.n - 4                  # 3 coincidence rows + r_x·e_y = 0
    quarter = np.sqrt(2 / (3 * 9.81)) * ellipk(0.5)
    res = integrate(system, 1.1 * quarter, 1e-3, Options(rho_inf=0.8))
    x, y = res["tip.x"], res["tip.y"]
    k = np.flatnonzero(np.diff(np.sign(x)) < 0)[0]                       # first crossing of the vertical
    t_cross = res.t[k] + (res.t[k + 1] - res.t[k]) * x[k] / (x[k] - x[k + 1])
    assert t_cross == pytest.approx(quarter, rel=1e-3)
    assert np.abs(y).max() < 2e-3    # y bending only: twice (sudden load) the cantilever sag q L⁴/(8EI) = 5.6e-4 m


# --- summary mass -------------------------------------------------------------------------
def test_summary_mass_counts_rigid_and_flexible_parts():
    m = pendulum(mass=1.5)
    m.rigid_beam("rod2", "A", m.point("C", (0.0, 0.5, -1.0)), mass=0.7, end_masses=(0.0, 0.25))
    m.triangle_platform("plate", center=(0, 0, -2.0), normal=(0, 0, 1), circumradius=0.2, thickness=0.01,
                        density=2700.0)
    m.straight_beam("beam", (0, 0, 1), (2, 0, 1), 5, **STEEL)
    m.straight_beam("beam3", (0, 1, 1), (0, 1, 2.5), 3, element="beam3", **STEEL)
    plate = 2700.0 * 3 * np.sqrt(3) / 4 * 0.2**2 * 0.01
    rho_a = STEEL["rho"] * np.pi * 0.01**2
    hand = 1.5 + 0.7 + 0.25 + plate + rho_a * 2.0 + rho_a * 1.5
    system = m.assemble()
    assert system.total_mass == pytest.approx(hand, rel=1e-12)          # sums of exact masses: round-off only
    assert f"total mass of bodies and elements {hand:.6g} kg" in system.summary()


# --- nothing written for a refused model --------------------------------------------------
def test_refused_study_writes_nothing(tmp_path):
    from femdyn.cli.main import main
    config = tmp_path / "bad.toml"
    config.write_text("gravity = [0.0, 0.0, nan]\nduration = 0.01\n")
    out = tmp_path / "study"
    assert main(["study", "rrru", str(config), "-o", str(out), "--quiet"]) == 2
    assert not out.exists()


# --- the page's examples run as written ------------------------------------------------
def test_input_checks_page_examples_run(capsys):
    import re
    page = ROOT / "docs" / "input-checks.md"
    namespace = {}
    with warnings.catch_warnings():
        for block in re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S):
            exec(compile(block, str(page), "exec"), namespace)
    assert "3 warnings: body 'link1': mass 0.0 kg is not positive" in capsys.readouterr().out


def test_step_check_without_an_oscillating_mode_stays_quiet(monkeypatch):
    """A chain of rigid links held horizontal (revolutes about y, gravity −z) has no restoring
    stiffness about that pose: ω_max = 0 (dense), and Lanczos finds no start vector with
    K_t v ≠ 0; the check must then neither warn nor fail."""
    m = femdyn.Model("chain")
    u = m.vector("axis", (0, 1, 0))
    nodes = [m.point(f"P{i}", (0.1 * i, 0, 0)) for i in range(5)]
    links = [m.rigid_beam(f"link{i}", nodes[i], nodes[i + 1], mass=0.1, axis=u) for i in range(4)]
    m.revolute("pivot", m.ground, links[0], (0, 0, 0), (0, 1, 0))
    system = m.assemble()
    q, _, _, lam = consistent_state(system)
    assert step_size.highest_frequency(system, q, lam) == pytest.approx(0.0, abs=1e-6)
    assert step_size.check_step_size(system, q, lam, 1.0, 1.0) == np.inf
    monkeypatch.setattr(step_size, "DENSE_LIMIT", 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error", StepSizeWarning)
        assert step_size.check_step_size(system, q, lam, 1.0, 1.0) in (None, np.inf)
