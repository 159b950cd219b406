"""Parallel robots whose flexible links are reduced components (femdyn.robots.parallel.component_link).

The component is the 0.3 m aluminium rod (radius 0.01 m) of examples/reduce_delta_arm.py, reduced here from
its Gmsh mesh; the robot for the cross-checks is the planar 3-RRR with its distal links (0.3 m, between two
passive revolutes) flexible, once as that component and once as the equivalent ANCF beam (8 elements).
"""
import doctest
import importlib.util
import re
from dataclasses import replace

import numpy as np
import pytest
from support import ROOT

import femdyn
from femdyn.cli.main import main
from femdyn.elements import sections
from femdyn.errors import ModelError, SchemaError
from femdyn.robots.parallel import (BeamSpec, ComponentSpec, Link, ParallelRobot, parallel_robot, planar_3rrr,
                                    read_description)
from femdyn.robots.parallel.component_link import LENGTH_TOLERANCE, component_placement
from femdyn.solvers.static import static_equilibrium
from femdyn.studies.workspace_linear import hold_actuators, linearize, moved

EXAMPLE = ROOT / "examples" / "robots" / "delta_component_arms.toml"
LENGTH, RADIUS, E, RHO = 0.3, 0.01, 7.0e10, 2700.0
BEAM = BeamSpec(elements=8, E=E, density=RHO, radius=RADIUS, nu=0.3)


@pytest.fixture(scope="module")
def arm(tmp_path_factory):
    """(file, Component) of the rod reduced by examples/reduce_delta_arm.py (run here, element size 5 mm)."""
    spec = importlib.util.spec_from_file_location("reduce_delta_arm", ROOT / "examples" / "reduce_delta_arm.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = str(tmp_path_factory.mktemp("arm") / "arm.fdc")
    component, f_eb = module.main(path, size=0.005)
    assert component.frequencies[0] == pytest.approx(f_eb, rel=0.015)    # shear and rotary inertia: −1.1 %
    return path, component


def three_rrr(flexible, gravity=(0.0, -9.81, 0.0), **links):
    """The planar 3-RRR with its distal links given by ``flexible`` (BeamSpec, ComponentSpec or None)."""
    d = planar_3rrr(gravity=gravity)
    limbs = tuple(replace(limb, links=(limb.links[0], replace(limb.links[1], flexible=flexible, **links)))
                  for limb in d.limbs)
    return ParallelRobot(replace(d, limbs=limbs))


def test_the_interfaces_land_on_the_joint_centres_and_the_y_axis_on_the_joint_axis(arm):
    path, c = arm
    robot = three_rrr(ComponentSpec(path, ("motor", "elbow")))
    for limb in robot.description.limbs:
        placed = component_placement(limb.links[1].flexible, limb.joints[1], limb.joints[2], limb.name)
        R = placed.rotation
        np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-14)
        assert np.linalg.det(R) == pytest.approx(1.0, abs=1e-14)
        for origin, joint in zip(c.interface_origins, limb.joints[1:]):
            np.testing.assert_allclose(R @ origin + placed.position, joint.point, rtol=0, atol=1e-12)
        np.testing.assert_allclose(R[:, 1], limb.joints[1].axes[0], atol=1e-14)     # the rule: y onto the axis
        assert placed.miss < 1e-12
    built = robot.model(robot.home[robot.task] + np.array([0.03, -0.02, 0.1]))      # away from home
    system = built.model.assemble()
    assert np.abs(system.all_constraints.phi(system.q0, 0.0)).max() < 1e-12         # joints on the interfaces
    assert sorted(built.components) == [f"{limb.name}.link1" for limb in robot.description.limbs]


def test_an_explicit_align_and_a_length_within_the_tolerance_split_the_miss(arm, tmp_path):
    path, c = arm
    proximal, distal = planar_3rrr().limbs[0].joints[1:]
    spec = ComponentSpec(path, ("motor", "elbow"), align=(0.0, 0.0, 1.0))
    R = component_placement(spec, proximal, distal, "limb").rotation
    np.testing.assert_allclose(R[:, 2], proximal.axes[0], atol=1e-14)              # z onto the joint axis now
    p, q = np.array(proximal.point), np.array(distal.point)
    stretched = replace(distal, point=tuple(q + 0.5 * LENGTH_TOLERANCE * (q - p)))
    placed = component_placement(ComponentSpec(path, ("motor", "elbow")), proximal, stretched, "limb")
    assert placed.miss == pytest.approx(0.25 * LENGTH_TOLERANCE * LENGTH, rel=1e-6)   # half the mismatch each


def test_rigid_efforts_and_the_rigid_model_take_the_components_mass_properties(arm):
    path, c = arm
    robot = three_rrr(ComponentSpec(path, ("motor", "elbow")), gravity=(0.3, -9.81, -2.0))
    rigid_links = []
    for limb in robot.description.limbs:                  # independently: x ↦ p + R x with R = [d, axis, d × axis]
        p, q = np.array(limb.joints[1].point), np.array(limb.joints[2].point)
        d = (q - p) / np.linalg.norm(q - p)
        R = np.column_stack([d, limb.joints[1].axes[0], np.cross(d, limb.joints[1].axes[0])])
        rigid_links.append(Link(float(c.mass), tuple(p + R @ c.com), tuple(map(tuple, R @ c.inertia @ R.T))))
    d = robot.description
    twin = ParallelRobot(replace(d, limbs=tuple(replace(limb, links=(limb.links[0], link))
                                               for limb, link in zip(d.limbs, rigid_links))))
    rng = np.random.default_rng(4)
    poses = robot.sample_poses(5, seed=3)
    velocity, acceleration = rng.normal(0, 0.3, poses.shape), rng.normal(0, 2.0, poses.shape)
    u, u_twin = robot.efforts(poses, velocity, acceleration), twin.efforts(poses, velocity, acceleration)
    np.testing.assert_allclose(u, u_twin, rtol=0, atol=1e-10 * np.abs(u_twin).max())
    assert np.abs(u - three_rrr(None, gravity=(0.3, -9.81, -2.0)).efforts(poses, velocity, acceleration)).max() > 0.1
    mass = [x.model(poses[0], flexible=False).model.assemble() for x in (robot, twin)]
    np.testing.assert_allclose(mass[0].mass().toarray(), mass[1].mass().toarray(), rtol=0, atol=1e-12)


def test_a_component_link_and_the_equivalent_ancf_beam_give_the_same_robot(arm):
    """In-plane gravity sag and the distal links' in-plane bending modes (pinned–pinned: Euler–Bernoulli
    444.4 Hz) agree to 1 %: the discretisation errors measured on the links alone are −1.1 % for the solid's
    first free-free frequency (shear, rotary inertia; asserted by the fixture) and < 0.3 % for the component's
    cantilever stiffness. The robot's first mode (out of plane, moments through the revolutes) is 5.7 % lower
    with ANCF links (113.3 Hz against 120.2 Hz): an ANCF node held by a revolute carries a moment on its
    section directors, and the rod clamped by a locked revolute at an ANCF node is 16 % softer than
    Euler–Bernoulli (the component: 0.2 %), which bounds the drop: √(1/1.16) = 0.928 < 0.943 < 1."""
    path, _ = arm
    found = {}
    for name, flexible in (("component", ComponentSpec(path, ("motor", "elbow"))), ("ancf", BEAM)):
        robot = three_rrr(flexible)
        built = robot.model(flexible=True)
        hold_actuators(built)
        system = built.model.assemble()
        q, _ = static_equilibrium(system, load_steps=2)
        i = system.nodes["platform.O"].start
        found[name] = (q[i:i + 3] - system.q0[i:i + 3], linearize(built, count=6, system=system).frequencies)
    (sag_c, f_c), (sag_b, f_b) = found["component"], found["ancf"]
    assert sag_c[1] == pytest.approx(sag_b[1], rel=0.01) and sag_c[1] < -1e-7
    pinned = (np.pi / LENGTH) ** 2 * np.sqrt(E * RADIUS ** 2 / 4 / RHO) / (2 * np.pi)
    np.testing.assert_allclose(f_c[3:], f_b[3:], rtol=0.01)
    np.testing.assert_allclose(f_c[3:], pinned, rtol=0.01)
    assert np.sqrt(1 / (1 + _locked_cantilever_softening(path))) < f_b[0] / f_c[0] < 0.96


def _locked_cantilever_softening(path):
    """(ANCF tip deflection − component's) / component's for the 0.3 m rod held by a locked revolute, 3 N."""
    tip = []
    for kind in ("ancf", "component"):
        m = femdyn.Model("cantilever", gravity=(0.0, 0.0, 0.0))
        if kind == "ancf":
            m.straight_beam("rod", (0, 0, 0), (LENGTH, 0, 0), 8, E=E, rho=RHO, section=sections.circular(RADIUS),
                            element="beam", nu=0.3, y_axis=(0, 1, 0))
            root, end = "rod.0", "rod.8"
        else:
            m.flexible_body("rod", path)
            root, end = "rod.motor", "rod.elbow"
        m.revolute("hinge", "ground", root, (0, 0, 0), (0, 1, 0))
        m.drive_angle("lock", "hinge", 0.0)
        m.force("load", end, (LENGTH, 0, 0), (0, 0, -3.0))
        system = m.assemble()
        q, _ = static_equilibrium(system)
        k = system.nodes[end].start + 2
        tip.append(system.q0[k] - q[k])
    eb = 3.0 * LENGTH ** 3 / (3 * E * np.pi * RADIUS ** 4 / 4)
    assert tip[1] == pytest.approx(eb, rel=0.003)
    return tip[0] / tip[1] - 1


def test_the_workspace_maps_linearize_a_component_robot_moved_to_another_pose(arm):
    path, _ = arm
    robot = three_rrr(ComponentSpec(path, ("motor", "elbow"), modes=6), gravity=(0.0, 0.0, 0.0))
    built = robot.model(flexible=True)
    hold_actuators(built)
    system = built.model.assemble()
    pose = robot.home[robot.task] + np.array([0.04, 0.02, -0.15])
    there = robot.model(pose, flexible=True)
    hold_actuators(there)
    direct = linearize(there, count=4)
    reused = linearize(built, count=4, system=system, q=moved(robot, built, system, pose))
    np.testing.assert_allclose(reused.frequencies, direct.frequencies, rtol=1e-8)
    np.testing.assert_allclose(reused.compliance, direct.compliance, rtol=1e-6,
                               atol=1e-6 * np.abs(direct.compliance).max())


def test_the_example_description_builds_servo_and_held_models(tmp_path):
    robot = parallel_robot(str(EXAMPLE))
    assert all(isinstance(limb.links[0].flexible, ComponentSpec) for limb in robot.description.limbs)
    home = robot.home[robot.task]
    built = robot.model(flexible=True, servo=_Still(home))
    system = built.model.assemble()
    assert len(built.actuators) == 3 and sorted(built.components) == ["arm 0.link0", "arm 1.link0", "arm 2.link0"]
    assert np.abs(system.all_constraints.phi(system.q0, 0.0)).max() < 1e-12
    held = robot.model(flexible=True)
    hold_actuators(held)
    f = linearize(held, count=3).frequencies
    assert np.all(np.isfinite(f)) and f[0] > 1.0


class _Still:
    """The platform held at a pose: ``state(t)`` → (pose, 0, 0)."""

    def __init__(self, pose):
        self.pose = np.asarray(pose, float)

    def state(self, t):
        return self.pose, np.zeros_like(self.pose), np.zeros_like(self.pose)


def _description(tmp_path, component, extra=""):
    """A copy of the example description in ``tmp_path`` with arm 1's component table replaced."""
    text = EXAMPLE.read_text(encoding="utf-8").replace('file = "delta_arm.fdc"',
                                                      f'file = "{ROOT / "examples" / "robots" / "delta_arm.fdc"}"')
    first = text.index("[limb.link.component]", text.index('name = "arm 1"'))
    end = text.index("[[limb]]", first)
    path = tmp_path / "robot.toml"
    path.write_text(text[:first] + "[limb.link.component]\n" + component + "\n" + extra + "\n" + text[end:],
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("component, message", [
    ('file = "missing.fdc"\ninterfaces = ["motor", "elbow"]',
     "limb 'arm 1' link 0: component file '.*missing.fdc' not found; give the path of a .fdc file"),
    ('file = "robot.toml"\ninterfaces = ["motor", "elbow"]',
     "limb 'arm 1' link 0: '.*robot.toml' is not a usable component file .*; give a .fdc file"),
    ('file = "ARM"\ninterfaces = ["motor", "wrist"]',
     "limb 'arm 1' link 0: the component .* has no interface 'wrist'; its interfaces are \\['motor', 'elbow'\\]: "
     "set component.interfaces"),
    ('file = "ARM"\ninterfaces = ["motor"]', "limb 'arm 1' link 0: component.interfaces must name two interfaces"),
    ('file = "ARM"\ninterfaces = ["motor", "elbow"]\nmodes = 99',
     "limb 'arm 1' link 0: component.modes = 99, but .* has 14 modes"),
])
def test_bad_component_tables_are_refused_naming_limb_link_and_fix(tmp_path, component, message):
    path = _description(tmp_path, component.replace("ARM", str(ROOT / "examples" / "robots" / "delta_arm.fdc")))
    with pytest.raises(ModelError, match=message):
        read_description(path)


def test_a_component_of_another_length_is_refused_and_the_cli_exits_2(tmp_path, capsys):
    text = EXAMPLE.read_text(encoding="utf-8").replace('file = "delta_arm.fdc"',
                                                      f'file = "{ROOT / "examples" / "robots" / "delta_arm.fdc"}"')
    path = tmp_path / "long.toml"
    path.write_text(text.replace("point = [0.5, 0.0, 0.0]", "point = [0.51, 0.0, 0.0]"), encoding="utf-8")
    with pytest.raises(ModelError, match="limb 'arm 0' link 0: the component's interfaces \\['motor', 'elbow'\\] "
                                         "are 0.3 m apart, the link's joint centres 0.31 m .*reduce the component"):
        read_description(path)
    assert main(["robot", "show", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("femdyn: error: ") and err.count("\n") == 1 and "limb 'arm 0' link 0" in err
    both = _description(tmp_path, 'file = "x.fdc"\ninterfaces = ["motor", "elbow"]',
                        "[limb.link.flexible]\nelements = 4")
    with pytest.raises(SchemaError, match="limb 'arm 1' link 0: a link is flexible as ANCF beam elements"):
        read_description(both)


def test_a_relative_file_is_read_beside_the_description(tmp_path):
    text = EXAMPLE.read_text(encoding="utf-8")
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "delta_arm.fdc").write_bytes((ROOT / "examples" / "robots" / "delta_arm.fdc").read_bytes())
    path = tmp_path / "robot.toml"
    path.write_text(text.replace('file = "delta_arm.fdc"', 'file = "parts/delta_arm.fdc"'), encoding="utf-8")
    d = read_description(path)
    assert d.limbs[0].links[0].flexible.file == str(tmp_path / "parts" / "delta_arm.fdc")
    assert parallel_robot(str(path)).efforts([0.0, 0.0, -0.6]) == pytest.approx(
        parallel_robot(str(EXAMPLE)).efforts([0.0, 0.0, -0.6]), abs=1e-12)


def test_the_howtos_python_runs_with_the_component_delta():
    """docs/howto/new-robot.md's ``pycon`` blocks (the component Delta's among them), in order, as one doctest."""
    page = ROOT / "docs" / "howto" / "new-robot.md"
    source = "\n".join(re.findall(r"```pycon\n(.*?)```", page.read_text(encoding="utf-8"), re.S))
    assert "delta_component_arms.toml" in source
    test = doctest.DocTestParser().get_doctest(source, {}, page.name, str(page), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted >= 9 and result.failed == 0


def test_the_studys_gauges_include_every_component_links_stored_gauges(arm):
    """The study's flexible model records the component's gauge "top" on each arm (or the one a table names);
    held under gravity the three arms read the same hogging strain, and on a cantilever the gauge reads
    Euler–Bernoulli's F (L − x) r / EI to 8 % (measured +5.5 %: a surface point of a 5 mm Tet10 mesh over a
    10 mm radius, the strain linear in each element)."""
    from femdyn.studies.parallel_model import flexible_model
    from femdyn.studies.parallel_study import ParallelStudyConfig
    path, _ = arm
    robot = parallel_robot(str(EXAMPLE))
    home = robot.home[robot.task]
    named = flexible_model(robot, home, ParallelStudyConfig(gauges=[{"set": "arm 1.link0", "gauge": "top"}]))
    assert [s.name for s in named.model.sensors if s.name.startswith("gauge")] == ["gauge top arm 1.link0"]
    built = flexible_model(robot, home, ParallelStudyConfig())
    channels = [f"gauge top arm {k}.link0.strain" for k in range(3)]
    hold_actuators(built)
    system = built.model.assemble()
    q, lam = static_equilibrium(system, load_steps=2)
    readings = [s.measure(q, 0 * q, 0 * q, lam, 0.0)[0] for s in built.model.sensors
                if f"{s.name}.strain" in channels]
    assert len(readings) == 3 and readings[0] > 1e-6
    np.testing.assert_allclose(readings, readings[0], rtol=1e-6)
    m = femdyn.Model("cantilever", gravity=(0.0, 0.0, 0.0))
    m.flexible_body("rod", path)
    for node in ("rod.motor", "rod.motor.x", "rod.motor.y", "rod.motor.z"):
        m.fix(node)
    m.force("load", "rod.elbow", (LENGTH, 0, 0), (0, 0, -3.0))
    m.sensor_component_gauge("top", "rod", name="mid")
    system = m.assemble()
    q, lam = static_equilibrium(system)
    reading = [s for s in m.sensors if s.name == "mid"][0].measure(q, 0 * q, 0 * q, lam, 0.0)[0]
    assert reading == pytest.approx(3.0 * (LENGTH / 2) * RADIUS / (E * np.pi * RADIUS ** 4 / 4), rel=0.08)


def test_a_python_description_with_a_component_link_round_trips_through_toml(arm, tmp_path):
    from support.parallel_robots import description_toml
    path, _ = arm
    d = three_rrr(ComponentSpec(path, ("motor", "elbow"), modes=4, align=(0.0, 0.0, 1.0))).description
    (tmp_path / "r.toml").write_text(description_toml(d), encoding="utf-8")
    back = read_description(tmp_path / "r.toml")
    assert [limb.links[1].flexible for limb in back.limbs] == [limb.links[1].flexible for limb in d.limbs]
