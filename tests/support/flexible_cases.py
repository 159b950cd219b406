"""Flexible bars and trees for the recursive flexible-body tests, and an independent
evaluation of their kinematics and energies over the mesh nodes (scipy's matrix
exponential for the interface rotations, the solid's consistent scalar mass)."""
import functools

import numpy as np
import scipy.linalg as sla

from femdyn.elements.solid_body import SolidBody
from femdyn.solvers.reduction import component_from_reduction
from femdyn.mesh.generate import box_mesh
from femdyn.solvers.recursive.flexible import FlexibleTreeModel, ModalBody
from femdyn.solvers.recursive.model import Joint
from femdyn.solvers.reduction import Interface, craig_bampton

LENGTH = 0.5


@functools.lru_cache(maxsize=None)
def bar():
    """A 0.5 m steel bar (30 × 20 mm) along x; interfaces 'root' (x = 0), 'tip' (x = L) rigid and 'mid'
    (averaging, at x = 0.3 m, off the axis); 6 normal modes, no damping; with its solid (for the nodal mass)."""
    mesh = box_mesh((LENGTH, 0.03, 0.02), (10, 2, 1), "tet10", origin=(0.0, -0.015, -0.01))
    solid = SolidBody(mesh, 2.1e11, 0.3, 7850.0)
    mid = np.flatnonzero(np.abs(mesh.points[:, 0] - 0.3) < 1e-9)
    red = craig_bampton(solid, [Interface("root", mesh.node_sets["x0"], origin=(0.0, 0.0, 0.0)),
                                Interface("tip", mesh.node_sets["x1"], origin=(LENGTH, 0.0, 0.0)),
                                Interface("mid", mid, "average", origin=(0.3, 0.01, 0.0))], 6)
    return component_from_reduction(red, name="bar"), solid


def rotation(rng):
    Q, R = np.linalg.qr(rng.standard_normal((3, 3)))
    Q = Q * np.sign(np.diag(R))
    return Q if np.linalg.det(Q) > 0 else -Q


def random_flexible_tree(rng, branched=False, modes=3, gravity=(0.3, -0.2, -9.81), kinds=("revolute", "prismatic"),
                         floating=False):
    """Three flexible bars and a rigid tip body: a chain (each on the tip of the previous), or a tree whose third
    bar hangs on the first bar's 'mid' interface; random joint axes and placements; ``floating``: the first bar
    on a free joint."""
    comp, _ = bar()
    bodies = []
    for k in range(3):
        parent = "world" if k == 0 else ("b0" if branched and k == 2 else f"b{k - 1}")
        at = None if k == 0 else ("mid" if branched and k == 2 else "tip")
        axis = rng.standard_normal(3)
        kind = "free" if floating and k == 0 else str(rng.choice(list(kinds)))
        bodies.append(ModalBody(f"b{k}", parent, Joint(kind, tuple(axis / np.linalg.norm(axis))),
                                component=comp, inner="root", modes=modes, at=at, placement_R=rotation(rng),
                                placement_p=tuple(rng.uniform(-0.05, 0.05, 3))))
    bodies.append(ModalBody("tool", "b2", Joint("revolute", (0.0, 0.0, 1.0)), at="tip", mass=0.7,
                            com=(0.05, 0.01, 0.0), inertia=(2e-3, 3e-3, 4e-3, 1e-4, 0.0, 0.0)))
    return FlexibleTreeModel(bodies, gravity)


def random_state(rng, model, eta_scale=0.02):
    """Joint coordinates O(1), modal coordinates O(eta_scale) (unit modal mass: tip motions of a few mm)."""
    q = rng.uniform(-1.5, 1.5, model.nq)
    q[model.n_joint_q:] *= eta_scale / 1.5
    for i in model.free_joints:
        k = model.q_index[i]
        q[k + 3:k + 7] /= np.linalg.norm(q[k + 3:k + 7])
    return q, rng.standard_normal(model.nv), rng.standard_normal(model.nv)


def _joint_pose(body, q):
    axis = np.asarray(body.joint.axis, float)
    axis = axis / np.linalg.norm(axis)
    if body.joint.kind == "revolute":
        return sla.expm(_skew(axis * q[0])), np.zeros(3)
    if body.joint.kind == "prismatic":
        return np.eye(3), axis * q[0]
    return np.eye(3), np.zeros(3)


def _skew(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def poses(model, q):
    """World poses (R, p) of every body frame by direct composition (no recursion code of femdyn)."""
    out = []
    for i, b in enumerate(model.bodies):
        p = model.parent[i]
        R0, p0 = (np.eye(3), np.zeros(3)) if p < 0 else out[p]
        if b.at is not None:
            c, m = model.components[p], model.n_modes[p]
            k = [itf["name"] for itf in c.header["interfaces"]].index(b.at)
            eta = q[model.eq_index[p]:model.eq_index[p] + m]
            p0 = p0 + R0 @ (c.interface_origins[k] + c.interface_shapes[k, :3] @ eta)
            R0 = R0 @ sla.expm(_skew(c.interface_shapes[k, 3:] @ eta))
        p0 = p0 + R0 @ np.asarray(b.placement_p, float)
        R0 = R0 @ np.asarray(b.placement_R, float)
        RJ, pJ = _joint_pose(b, q[model.q_index[i]:model.q_index[i] + model.joint_nq[i]])
        out.append((R0 @ RJ, p0 + R0 @ pJ))
    return out


def nodes(model, q, rigid_points):
    """World positions of every body's mesh nodes (flexible: x + Φη; rigid: ``rigid_points[name]``), stacked."""
    out = []
    for i, (R, p) in enumerate(poses(model, q)):
        c = model.components[i]
        if c is None:
            X = rigid_points[model.names[i]]
        else:
            X = c.mesh_points + c.mesh_shapes @ q[model.eq_index[i]:model.eq_index[i] + model.n_modes[i]]
        out.append(p + X @ R.T)
    return np.concatenate(out)


def rigid_cloud(mass, com, inertia):
    """Six point masses (1/6 each) with the given mass, centre of mass and inertia about it (kg, m, kg·m²)."""
    lam, V = np.linalg.eigh(inertia)
    second = 0.5 * lam.sum() - lam                      # ∫ y_k² dm along principal axes
    r = np.sqrt(3.0 * second / mass)                    # each axis: two points ± r carry mass/6 → m r²/3
    pts = [s * r[k] * V[:, k] for k in range(3) for s in (1.0, -1.0)]
    return np.asarray(com) + np.array(pts), np.full(6, mass / 6)


def node_masses(model, clouds):
    """Block-diagonal scalar mass of all nodes (sparse consistent mass for bars, point masses for rigid bodies)."""
    import scipy.sparse as sp
    _, solid = bar()
    blocks = [solid.scalar_mass() if c is not None else sp.diags(clouds[model.names[i]][1])
              for i, c in enumerate(model.components)]
    return sp.block_diag(blocks).tocsr()


def velocity_jacobian(model, q, rigid_points, h=1e-6):
    """∂r/∂q of every node (3 N × nv) by central differences (no free joints: q and v coincide)."""
    cols = []
    for j in range(model.nq):
        e = np.zeros(model.nq)
        e[j] = h
        cols.append(((nodes(model, q + e, rigid_points) - nodes(model, q - e, rigid_points)) / (2 * h)).ravel())
    return np.array(cols).T
