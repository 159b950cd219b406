"""ParaView series of recursive runs: every body (rigid and flexible) at the pose of the recursive kinematics."""
import xml.etree.ElementTree as ET
from types import SimpleNamespace

import meshio
import numpy as np
import pytest
import scipy.linalg as sla

from femdyn import component as fc
from femdyn.errors import ModelError
from femdyn.solvers.recursive import (Body, Data, FlexibleData, FlexibleTreeModel, Joint, ModalBody, TreeModel,
                                      forward_dynamics, kinematics, simulate, write_series)
from femdyn.solvers.recursive import flexible_dynamics as fd
from support.flexible_cases import bar, poses, random_state

TOL = 1e-12       # m: the writer and the references compose the same poses in another order (round-off ~1e-15 m)


def _polyline(mesh, part):
    """Points of the line cells of ``part``, in order (the polyline the writer drew)."""
    lines = mesh.cells_dict["line"][mesh.cell_data_dict["part"]["line"] == part]
    return mesh.points[np.r_[lines[:, 0], lines[-1, 1]]]


def _arm_bar_tool():
    """A rigid arm on the world, a flexible bar on its end, a rigid tool on the bar's tip (random axes)."""
    comp, _ = bar()
    rng = np.random.default_rng(7)
    axes = [tuple(a / np.linalg.norm(a)) for a in rng.standard_normal((3, 3))]
    R = sla.expm(np.cross(np.eye(3), [0.3, -0.2, 0.5]))
    return FlexibleTreeModel([
        ModalBody("arm", "world", Joint("revolute", axes[0]), mass=2.0, com=(0.2, 0.0, 0.0),
                  inertia=(1e-3, 2e-2, 2e-2, 0, 0, 0), placement_p=(0.0, 0.0, 0.1)),
        ModalBody("bar", "arm", Joint("revolute", axes[1]), component=comp, inner="root", modes=4,
                  placement_R=R, placement_p=(0.4, 0.05, 0.0)),
        ModalBody("tool", "bar", Joint("revolute", axes[2]), at="tip", mass=0.5, com=(0.05, 0.02, 0.0),
                  inertia=(1e-4, 1e-4, 1e-4, 0, 0, 0))], gravity=(0, 0, -9.81))


def test_a_flexible_run_writes_every_body_at_its_recursive_pose(tmp_path):
    """Rigid arm → flexible bar → rigid tool at three random states (modal coordinates of a few mm):
    the arm is drawn through its joint origin and the bar's joint origin, the tool (a leaf) through
    its joint origin and centre of mass, each mapped by its body pose, the bar's mesh at p + R (x + Φ η)
    and its outline through its deformed interface origins. Poses from femdyn's kinematics and from a
    direct composition (scipy's expm, support.flexible_cases.poses) agree with the file to TOL;
    the VTU files read back by meshio, and the PVD lists every step with its time."""
    model = _arm_bar_tool()
    rng = np.random.default_rng(3)
    states = [random_state(rng, model)[0] for _ in range(3)]
    run = SimpleNamespace(t=np.array([0.0, 0.05, 0.1]), state_q=np.array(states))
    pvd = write_series(model, run, tmp_path, name="arm")
    entries = ET.parse(pvd).getroot().find("Collection")
    assert [float(e.get("timestep")) for e in entries] == run.t.tolist()
    assert [e.get("file") for e in entries] == [f"arm_{k:05d}.vtu" for k in range(3)]
    arm, bar_, tool = (model.index(n) for n in ("arm", "bar", "tool"))
    shapes = {arm: np.array([[0, 0, 0], model.bodies[bar_].placement_p]), tool: np.array([[0, 0, 0], (0.05, 0.02, 0)])}
    data = FlexibleData(model)
    for k, q in enumerate(states):
        out = meshio.read(tmp_path / f"arm_{k:05d}.vtu")
        fd.kinematics(model, data, q)
        direct = poses(model, q)
        for i, X in shapes.items():
            R, p = direct[i]
            assert np.abs(_polyline(out, i) - (p + X @ R.T)).max() < TOL
            assert np.abs(_polyline(out, i) - (data.p_world[i] + X @ data.R_world[i].T)).max() < TOL
        c, (R, p) = model.components[bar_], direct[bar_]
        eta = q[model.eta_slice("bar")]
        interfaces = c.interface_origins + c.interface_shapes[:, :3] @ eta
        assert np.abs(_polyline(out, bar_) - (p + interfaces @ R.T)).max() < TOL
        mesh = out.points[-len(c.mesh_points):]
        assert np.abs(mesh - (p + (c.mesh_points + c.mesh_shapes @ eta) @ R.T)).max() < TOL
        assert np.abs(eta).max() > 1e-3 and set(out.cells_dict) == {"line", "tetra"}
        assert np.array_equal(np.unique(out.cell_data_dict["part"]["tetra"]), [bar_])
        assert "von_mises" not in out.point_data                        # the bar stores no stress modes


def test_a_rigid_tree_run_draws_branches_markers_and_given_outlines(tmp_path):
    """A rigid TreeModel run (simulate, forward dynamics): the base carries two links, so it is drawn
    through its joint origin and both children's; a wrist whose child sits at its own origin and whose
    centre of mass is there is a vertex marker; a given box outline replaces a link's default. Every
    point is the body pose (femdyn's kinematics and a direct composition) applied to its shape, to TOL."""
    inertia = (1e-2, 1e-2, 1e-2, 0, 0, 0)
    box = np.array([[0, -0.02, 0], [0.3, -0.02, 0], [0.3, 0.02, 0], [0, 0.02, 0], [0, -0.02, 0]])
    bodies = [Body("base", "world", Joint("revolute", (0, 0, 1)), 3.0, com=(0.1, 0, 0), inertia=inertia),
              Body("left", "base", Joint("revolute", (0, 1, 0)), 1.0, com=(0.15, 0, 0), inertia=inertia,
                   placement_p=(0.2, 0.1, 0.0)),
              Body("right", "base", Joint("revolute", (0, 1, 0)), 1.0, com=(0.15, 0, 0), inertia=inertia,
                   placement_p=(0.2, -0.1, 0.0)),
              Body("wrist", "left", Joint("revolute", (1, 0, 0)), 0.2, inertia=inertia, placement_p=(0.3, 0, 0)),
              Body("hand", "wrist", Joint("revolute", (0, 0, 1)), 0.2, com=(0.05, 0, 0), inertia=inertia)]
    model = TreeModel(bodies, gravity=(0, 0, -9.81))
    data = Data(model)
    run = simulate(lambda t, q, v: forward_dynamics(model, data, q, v, np.zeros(model.nv)),
                   [0.3, 0.2, -0.4, 0.5, 0.1], np.zeros(5), 0.2, 0.01)
    pvd = write_series(model, run, tmp_path, every=4, outlines={"right": box})
    steps = range(0, len(run.t), 4)
    assert [float(e.get("timestep")) for e in ET.parse(pvd).getroot().find("Collection")] == run.t[list(steps)].tolist()
    shapes = {0: [[0, 0, 0], [0.2, 0.1, 0], [0.2, -0.1, 0]], 1: [[0, 0, 0], [0.3, 0, 0]], 2: box,
              4: [[0, 0, 0], [0.05, 0, 0]]}
    for k in steps:
        out = meshio.read(tmp_path / f"motion_{k:05d}.vtu")
        kinematics(model, data, run.q[k])
        direct = _rigid_poses(model, run.q[k])
        for i, X in shapes.items():
            for R, p in (direct[i], (data.R_world[i], data.p_world[i])):
                assert np.abs(_polyline(out, i) - (p + np.asarray(X) @ R.T)).max() < TOL
        marker = out.cells_dict["vertex"]
        assert out.cell_data_dict["part"]["vertex"].tolist() == [3]
        assert np.abs(out.points[marker[0, 0]] - direct[3][1]).max() < TOL


def _rigid_poses(model, q):
    """World (R, p) of every revolute-jointed body by direct composition (scipy's expm)."""
    out = []
    for i, b in enumerate(model.bodies):
        R0, p0 = (np.eye(3), np.zeros(3)) if model.parent[i] < 0 else out[model.parent[i]]
        joint = sla.expm(np.cross(np.eye(3), np.asarray(b.joint.axis, float) * q[model.q_index[i]]))
        out.append((R0 @ np.asarray(b.placement_R) @ joint, p0 + R0 @ np.asarray(b.placement_p)))
    return out


def test_a_flexible_body_without_mesh_shapes_is_drawn_by_its_outline_and_output_points(tmp_path):
    """A component reduced without mesh shapes (as the flexible PUMA's links): its interface outline
    and its output points (vertex cells) at p + R (x + Φ η), no error as before."""
    model = _arm_bar_tool()
    c = model.components[model.index("bar")]
    arrays = {k: v for k, v in c.arrays.items() if not k.startswith("mesh")}
    arrays["output_points"], arrays["output_shapes"] = c.mesh_points[:7], c.mesh_shapes[:7]
    bare = fc.Component(c.header, arrays)
    bodies = [b if b.component is None else ModalBody(b.name, b.parent, b.joint, component=bare, inner="root",
                                                       placement_R=b.placement_R, placement_p=b.placement_p)
              for b in model.bodies]
    model = FlexibleTreeModel(bodies)
    q = random_state(np.random.default_rng(5), model)[0]
    write_series(model, SimpleNamespace(t=[0.0], state_q=[q]), tmp_path)
    out = meshio.read(tmp_path / "motion_00000.vtu")
    R, p = poses(model, q)[1]
    eta = q[model.eta_slice("bar")]
    vertices = out.cells_dict["vertex"][:, 0]
    assert out.cell_data_dict["part"]["vertex"].tolist() == [1] * 7
    deformed = arrays["output_points"] + arrays["output_shapes"] @ eta
    assert np.abs(out.points[vertices] - (p + deformed @ R.T)).max() < TOL


def test_bad_runs_and_outlines_raise_by_name(tmp_path):
    model = _arm_bar_tool()
    q = model.neutral_configuration()
    with pytest.raises(ModelError, match="pass the run of this very model"):
        write_series(model, SimpleNamespace(t=[0.0], state_q=[q[:-1]]), tmp_path)
    run = SimpleNamespace(t=[0.0], state_q=[q])
    for outlines, match in (({"bar": np.zeros((2, 3))}, "not a rigid body"), ({"nobody": np.zeros((2, 3))}, "nobody"),
                            ({"arm": np.zeros((2, 2))}, "\\(k, 3\\) array"), ({"arm": np.zeros((0, 3))}, "k ≥ 1"),
                            ({"arm": [[0, 0, np.nan]]}, "not finite"), ({"arm": "box"}, "not numeric")):
        with pytest.raises(ModelError, match=match):
            write_series(model, run, tmp_path, outlines=outlines)
