"""Statics that reaches its answer: the globalized corrector, adaptive load steps and arc-length paths."""
import numpy as np
import pytest
from scipy.optimize import brentq

import femdyn
from femdyn.elements import sections
from femdyn.errors import ModelError
from femdyn.solvers import equilibrium_path, static_equilibrium

A, H, K, P0 = 1.0, 0.1, 1e4, 10.0        # von Mises truss: half span, rise (m), bar stiffness (N/m), load at s = 1 (N)


def von_mises_truss():
    """Two springs from (∓A, 0, 0) to an apex at height H that moves vertically, pushed down by P0 s."""
    m = femdyn.Model("von Mises truss", gravity=(0, 0, 0))
    m.point_mass("apex", (0, 0, H), 1.0)
    m.spring("left", "ground", (-A, 0, 0), "apex", (0, 0, H), stiffness=K)
    m.spring("right", "ground", (A, 0, 0), "apex", (0, 0, H), stiffness=K)
    m.fix("apex", components=(0, 1))
    m.force("P", "apex", (0, 0, H), (0, 0, -P0))
    m.sensor_point("S", "apex", (0, 0, H))
    return m.assemble()


def truss_load(z):
    """Closed form P(z) = 2 K z (L₀/L − 1), L = √(A² + z²): the load holding the apex at height z, N."""
    return 2 * K * z * (np.hypot(A, H) / np.hypot(A, z) - 1)


def test_the_von_mises_truss_is_traced_past_its_limit_point_to_the_mirrored_equilibrium(tmp_path):
    """Every point of the path on the closed-form curve to 1e-8 N (the corrector's residual
    tolerance 1e-10·max(1 N, ‖Q‖) is 1e-9 N here); the path climbs to the limit load
    (sampled peak within 0.5 % of the closed-form maximum, which it never exceeds), passes the
    flat position z = 0 at s = 0, the lower limit point (s < 0), the mirrored equilibrium z = −H
    at s = 0, and ends loaded beyond it (s ≥ 1, z < −H). The apex height falls monotonically."""
    system = von_mises_truss()
    path = equilibrium_path(system, 0.002, max_points=500)
    z, s = path.channel("apex.rz"), path.load_factors
    assert np.array_equal(path.channel("S.z"), z)                  # a sensor column reads the same
    assert np.abs(s * P0 - truss_load(z)).max() < 1e-8
    grid = np.linspace(0, H, 100001)
    peak = truss_load(grid).max()
    assert peak * 0.995 < s[z > 0].max() * P0 <= peak + 1e-8
    assert np.all(np.diff(z) < 0) and s.min() < 0 and s[-1] >= 1 and z[-1] < -H
    mirrored = np.argmin(np.abs(z + H))
    assert s[mirrored - 1] * s[mirrored + 1] < 0 or abs(s[mirrored]) < 1e-9
    table = path.to_csv(tmp_path / "path.csv", ["apex.rz"])
    rows = np.loadtxt(table, delimiter=",", skiprows=1)
    assert rows.shape == (len(path), 2) and np.allclose(rows[:, 1], z)
    assert (tmp_path / "p.png").exists() is False and path.plot("apex.rz", tmp_path / "p.png", load=P0,
                                                                  load_label="P [N]").exists()


def test_load_control_past_the_limit_load_lands_on_the_snapped_branch():
    """P0 is 2.6 times the limit load: the only equilibria at s = 1 lie below the mirrored one
    (z < −H); load control (4 initial levels) reaches one on the closed-form curve to 1e-8 N."""
    system = von_mises_truss()
    q, _ = static_equilibrium(system, load_steps=4)
    assert q[2] < -H and truss_load(q[2]) == pytest.approx(P0, abs=1e-8)


def test_a_path_refuses_bad_input_by_name():
    system = von_mises_truss()
    with pytest.raises(ModelError, match="arc_length"):
        equilibrium_path(system, 0.0)
    with pytest.raises(ModelError, match="sensor columns"):
        equilibrium_path(system, 0.05, max_points=1).channel("nothing")


KS, D = 50.0, 0.5          # series spring: stiffness (N/m) below the truss's steepest unstable slope P'(0) ≈ 99.7 N/m; length (m, > P/k_s: it never closes)


def truss_with_series_spring():
    """The von Mises truss pushed through a soft spring of stiffness KS and length D: the load acts on the spring's
    upper end ``end`` (examples/statics_snap_through.py, ``snap_back_truss``)."""
    example = _example()
    assert (example.SPRING, example.LENGTH, example.K, example.P0) == (KS, D, K, P0)
    return example.snap_back_truss()


def test_the_series_spring_truss_is_traced_through_its_snap_back():
    """The loaded point's deflection u = H − z + P/k_s turns back where P'(z) = k_s (closed form
    P'(z) = 2K(L₀/L − 1) − 2K z² L₀/L³, |z*| = 0.0407 m): under load or displacement control the
    path jumps there; the arc length, which measures the whole coordinate vector, passes through.
    Every point on the closed form (load to 1e-8 N as above, spring length D − P/k_s to 1e-10 m);
    u rises, falls back (snap-back) and rises again; its sampled turning values lie within 2e-4 m
    inside the closed form's extremes (u is flat there: measured 1.2e-4 and 1.6e-5 m with Δℓ grown to 8 mm)."""
    system = truss_with_series_spring()
    path = equilibrium_path(system, 0.002, max_points=800)
    z, top, P = path.channel("apex.rz"), path.channel("end.rz"), P0 * path.load_factors
    assert np.abs(P - truss_load(z)).max() < 1e-8
    assert np.abs(top - z - (D - P / KS)).max() < 1e-10
    u = H - z + P / KS
    turns = np.flatnonzero(np.diff(np.sign(np.diff(u))))
    assert len(turns) == 2 and u[turns[0] + 1] > u[turns[1] + 1]          # a maximum, then a minimum: snap-back
    grid = np.linspace(H, -H, 200001)
    closed = H - grid + truss_load(grid) / KS                   # u along the closed-form path, z from H to −H
    peak, valley = closed[1 + np.flatnonzero(np.diff(np.sign(np.diff(closed))))]    # its local max, then min
    assert 0 <= peak - u[turns[0] + 1] < 2e-4 and 0 <= u[turns[1] + 1] - valley < 2e-4
    assert z[turns[0] + 1] * z[turns[1] + 1] < 0                # the turns lie either side of the flat position
    assert path.load_factors[-1] >= 1 and z[-1] < -H
    _, x, s = _example().snap_back_truss_reference()            # the figure's closed form: end height, load factor
    assert np.abs(truss_load(x - D + P0 * s / KS) - P0 * s).max() < 1e-9
    assert x.min() <= top.min() and x.max() >= top.max()


def test_the_path_figure_draws_the_closed_form_named_with_its_source(tmp_path, monkeypatch):
    """``plot(..., reference=(label, x, s))`` draws the closed form of the example's hook under the
    traced path: the reference line holds the hook's points with the load factors times ``load``
    (round-off), it covers the traced range, the legend names the closed form and its source, the
    axes carry units. A malformed reference raises ModelError naming the form (label, x, s)."""
    import matplotlib.figure
    figures, save = [], matplotlib.figure.Figure.savefig
    monkeypatch.setattr(matplotlib.figure.Figure, "savefig",
                        lambda fig, *a, **k: figures.append(fig) or save(fig, *a, **k))
    example = _example()
    path = equilibrium_path(example.truss(), 0.002, max_points=500)
    label, z, s = example.truss_reference()
    assert np.abs(P0 * s - truss_load(z)).max() < 1e-12
    assert path.plot("apex.rz", tmp_path / "p.png", load=P0, load_label="P [N]", reference=(label, z, s)).exists()
    ax = figures[-1].axes[0]
    reference, traced = ax.lines[:2]
    assert np.array_equal(reference.get_xdata(), z) and np.allclose(reference.get_ydata(), P0 * s, rtol=1e-15)
    assert np.array_equal(traced.get_xdata(), path.channel("apex.rz"))
    assert z.min() <= traced.get_xdata().min() and z.max() >= traced.get_xdata().max()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0] == label and "closed form" in label and "von Mises (1923)" in label
    assert legend[1].startswith("femdyn")
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("apex.rz [m]", "P [N]") and "von Mises truss" in ax.get_title()
    for bad in (("label", [0, 1], [0]), ([0, 1], [0, 1]), (3, [0, 1], [0, 1]), ("label", [0, np.nan], [0, 1])):
        with pytest.raises(ModelError, match=r"reference curve must be \(label, x, s\)"):
            path.plot("apex.rz", tmp_path / "q.png", reference=bad)


def _example():
    """examples/statics_snap_through.py as a module (the truss and the deep arch are built there)."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("statics_snap_through",
                                                  Path(__file__).parents[2] / "examples" / "statics_snap_through.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("n_elements, tolerance", [(40, 5e-3), (80, 1e-3)])
def test_the_deep_arch_reaches_its_published_limit_load(n_elements, tolerance):
    """Da Deppo & Schmidt (1975, J. Appl. Mech. 42:894–896): the 215° circular arch, clamped at one
    end, hinged at the other, a vertical point load at the crown, has the limit load
    P R²/EI = 8.97 (inextensible elastica; quoted as P = 897 for R = 100, EI = 10⁶). Planar ANCF
    cable elements (R = 1 m, 10 mm square steel section: EA R²/EI = 1.2e5, halving the area moves
    the limit by < 1e-5), Δℓ = 0.01 m, the limit by a parabola through the highest sample and
    its neighbours:

        elements        10      20      40      80      160
        P R²/EI        9.610   9.118   8.984   8.972   8.972
        vs 8.97       +7.1 %  +1.65 % +0.15 % +0.03 % +0.02 %

    (cubic Hermite elements on a curve stiffen in membrane at coarse meshes, hence the
    approach from above). Tolerance 0.5 % at 40 elements (3× the measured gap), 0.1 % at 80
    (the published value's three digits are ±0.06 %). Past the limit the load falls (the
    crown snaps through), the crown drop at the limit ≈ 1.14 R."""
    example = _example()
    path = equilibrium_path(example.arch(n_elements), 0.01, max_points=600,
                            stop=lambda p: p.load_factors[-1] < 0.9 * p.load_factors.max())
    limit, drop = example.arch_limit(path, n_elements // 2)
    assert limit == pytest.approx(example.PUBLISHED_LIMIT, rel=tolerance)
    assert 10 * path.load_factors.max() <= limit + 1e-9 and 10 * path.load_factors[-1] < 0.9 * limit
    assert drop == pytest.approx(1.14, abs=0.01)


def slack_cable(length=2.0, span=1.0, n=16, radius=5e-5):
    """A steel wire (r = 0.05 mm: EI = 1e-6 N m²) of ``length`` pinned at two points ``span`` apart,
    its stress-free reference a circular arc sagging below them (n planar cable elements)."""
    half = brentq(lambda th: np.sin(th) / th - span / length, 1e-6, np.pi - 1e-9)
    R, angle = length / (2 * half), np.linspace(-half, half, n + 1)
    points = np.column_stack([span / 2 + R * np.sin(angle), -R * (np.cos(angle) - np.cos(half)), 0 * angle])
    m = femdyn.Model("slack cable", gravity=(0, -9.81, 0))
    m.beam_through_points("c", points, E=2e11, rho=7800, section=sections.circular(radius))
    m.spherical("a", "ground", "c.0", (0, 0, 0))
    m.spherical("b", "ground", f"c.{n}", (span, 0, 0))
    return m.assemble()


@pytest.mark.parametrize("load_steps", [1, 20])
def test_the_slack_cable_hangs_as_a_catenary(load_steps):
    """Before the line search this diverged with 1 and with 20 load steps. Now the mid-span sag
    is the inextensible catenary's (2a sinh(S/2a) = L, sag a(cosh(S/2a) − 1)) within 2e-2
    relative (measured 8.5e-3: the wire stretches by only ~1e-6, but its bending stiffness
    stiffens it over √(EI/T) ≈ 0.07 m at each pin, T ≈ 2e-4 N the tension), and 1 and
    20 load steps agree to 1e-8 m (a wire this limp turns a 1e-10 N residual into ~1e-9 m)."""
    system = slack_cable()
    q, _ = static_equilibrium(system, load_steps=load_steps)
    a = brentq(lambda a: 2 * a * np.sinh(0.5 / a) - 2.0, 0.05, 10)
    sag = a * (np.cosh(0.5 / a) - 1)
    assert q[system.labels.index("c.8.ry")] == pytest.approx(-sag, rel=2e-2)
    reference, _ = static_equilibrium(system, load_steps=21 - load_steps)
    assert np.abs(q - reference).max() < 1e-8


@pytest.mark.slow
def test_the_rrru_start_converges_for_every_payload_from_0_to_2_kg():
    """The flexible 3-RRRU of the study's forward run (4 elements per link, motors driven by the
    rigid holding torques, as femdyn.studies.rrru_study builds it): static equilibrium from the
    undeformed robot for every payload 0, 0.125, …, 2 kg (0.5 kg failed before). ~50 s."""
    from femdyn.robots.rrru import rrru
    from femdyn.studies.rrru import circle_motion, study_config
    pose = circle_motion(study_config(None)).position(0.0)
    for payload in np.linspace(0.0, 2.0, 17):
        rigid = rrru(pose=pose, payload=payload)
        locks = [rigid.model.drive_angle(f"lock {i}", motor, rigid.pose.angles[i])
                 for i, motor in enumerate(rigid.motors)]
        system = rigid.model.assemble()
        _, lam = static_equilibrium(system)
        robot = rrru(pose=pose, flexible=True, n_elements=4, payload=payload)
        for i, (motor, lock) in enumerate(zip(robot.motors, locks)):
            robot.model.torque(f"motor torque {i}", motor, float(-lam[system.joint_rows[lock.name][0]]))
        flexible = robot.model.assemble()
        q, lam = static_equilibrium(flexible)
        assert np.linalg.norm(flexible.constraints.evaluate(q, 0.0)[0]) <= 1e-10     # converged: Φ = 0 to tol


def test_the_command_line_writes_the_path_and_the_equilibrium(tmp_path, capsys):
    """``femdyn statics FILE --function truss --path 0.002 --channels apex.rz`` writes the same path
    as the Python entry (CSV to round-off); without --path it writes the equilibrium's coordinates."""
    from pathlib import Path
    from femdyn.cli.main import main
    example = str(Path(__file__).parents[2] / "examples" / "statics_snap_through.py")
    assert main(["statics", example, "--function", "truss", "--path", "0.002", "--channels", "apex.rz",
                 "--max-points", "500", "-o", str(tmp_path)]) == 0
    assert "(reference: closed form P = 2kz" in capsys.readouterr().out          # the file's truss_reference()
    rows = np.loadtxt(tmp_path / "path.csv", delimiter=",", skiprows=1)
    path = equilibrium_path(von_mises_truss(), 0.002, max_points=500)
    assert np.allclose(rows, np.column_stack([path.load_factors, path.channel("apex.rz")]), rtol=0, atol=1e-12)
    assert (tmp_path / "path.png").exists()
    assert main(["statics", example, "--function", "truss", "-o", str(tmp_path)]) == 0
    assert "apex.rz" in (tmp_path / "equilibrium.csv").read_text()
    assert main(["statics", example, "--path", "0.002", "-o", str(tmp_path)]) == 2


def test_the_command_line_draws_a_reference_only_when_the_file_defines_one(tmp_path, capsys):
    """A model file without ``model_reference`` gets a figure without reference; one whose hook returns
    a malformed curve stops with the error naming the form (exit code 2)."""
    from femdyn.cli.main import main
    file = tmp_path / "truss.py"
    file.write_text("import femdyn\n\n\ndef model():\n    m = femdyn.Model('truss', gravity=(0, 0, 0))\n"
                    "    m.point_mass('apex', (0, 0, 0.1), 1.0)\n"
                    "    m.spring('left', 'ground', (-1, 0, 0), 'apex', (0, 0, 0.1), stiffness=1e4)\n"
                    "    m.spring('right', 'ground', (1, 0, 0), 'apex', (0, 0, 0.1), stiffness=1e4)\n"
                    "    m.fix('apex', components=(0, 1))\n"
                    "    m.force('P', 'apex', (0, 0, 0.1), (0, 0, -10.0))\n    return m\n")
    args = ["statics", str(file), "--path", "0.01", "--channels", "apex.rz", "--max-points", "5", "-o", str(tmp_path)]
    assert main(args) == 0 and "reference" not in capsys.readouterr().out and (tmp_path / "path.png").exists()
    file.write_text(file.read_text() + "model_reference = lambda: ('closed form', [0.0, 0.1], [0.0])\n")
    assert main(args) == 2 and "reference curve must be (label, x, s)" in capsys.readouterr().err
