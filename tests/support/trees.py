"""Random kinematic trees and their Pinocchio twins, shared by the recursive-dynamics tests.

Pinocchio orders spatial vectors [linear; angular] and expresses free-flyer velocities in
the local (body) frame; femdyn.solvers.recursive orders them [angular; linear] (RBDA).
``to_pinocchio_vector`` / ``from_pinocchio_vector`` swap the halves of free-joint blocks.
"""
import numpy as np

from femdyn.solvers.recursive import Body, Joint, TreeModel


def random_rotation(rng):
    Q, R = np.linalg.qr(rng.standard_normal((3, 3)))
    Q = Q * np.sign(np.diag(R))
    return Q if np.linalg.det(Q) > 0 else -Q


def random_inertia(rng):
    """Principal moments drawn so that the triangle inequality holds, then rotated (kg·m²)."""
    a, b = rng.uniform(0.1, 1.0, 2)
    c = rng.uniform(abs(a - b) + 0.01, a + b - 0.01) if a + b - 0.01 > abs(a - b) + 0.01 else (a + b) / 2
    R = random_rotation(rng)
    return R @ np.diag([a, b, c]) @ R.T


def random_tree(rng, n, kinds=("revolute", "prismatic"), chain=False, floating=False, gravity=(0.3, -0.2, -9.81)):
    """n bodies with random parents (or a chain), random joint axes, placements and inertias.

    Parents are drawn among body i−1 and its ancestors, so the numbering is a depth-first
    preorder: Pinocchio's CRBA assumes every subtree occupies consecutive joint indices.
    """
    bodies, parents = [], []
    for i in range(n):
        if i == 0:
            parent, kind = -1, "free" if floating else rng.choice(list(kinds))
        else:
            ancestry = [i - 1]
            while parents[ancestry[-1]] >= 0:
                ancestry.append(parents[ancestry[-1]])
            parent = i - 1 if chain else int(rng.choice(ancestry))
            kind = rng.choice(list(kinds))
        parents.append(parent)
        parent = "world" if parent < 0 else f"b{parent}"
        axis = rng.standard_normal(3)
        bodies.append(Body(name=f"b{i}", parent=parent, joint=Joint(str(kind), tuple(axis / np.linalg.norm(axis))),
                           mass=rng.uniform(0.5, 3.0), com=tuple(rng.uniform(-0.3, 0.3, 3)),
                           inertia=random_inertia(rng), placement_R=random_rotation(rng),
                           placement_p=tuple(rng.uniform(-0.5, 0.5, 3))))
    return TreeModel(bodies, gravity)


def random_state(rng, model):
    q = rng.uniform(-np.pi, np.pi, model.nq)
    for i in np.flatnonzero(model.joint_type == 3):
        k = model.q_index[i]
        q[k:k + 3] = rng.uniform(-1, 1, 3)
        quat = rng.standard_normal(4)
        q[k + 3:k + 7] = quat / np.linalg.norm(quat)
    return q, rng.standard_normal(model.nv), rng.standard_normal(model.nv)


def to_pinocchio(model):
    """Pinocchio model with the same tree; fixed joints are welded with appendBodyToJoint."""
    import pinocchio as pin
    pm = pin.Model()
    pm.gravity = pin.Motion(np.r_[model.gravity, 0, 0, 0])
    host = {}                                    # body -> (pinocchio joint id, placement in that joint)
    for i, b in enumerate(model.bodies):
        parent_joint, parent_pose = (0, pin.SE3.Identity()) if model.parent[i] < 0 else host[model.parent[i]]
        placement = parent_pose * pin.SE3(np.asarray(b.placement_R, float), np.asarray(b.placement_p, float))
        I = model.inertia[i]
        m = model.mass[i]
        c = np.array([I[2, 4], I[0, 5], I[1, 3]]) / m
        Ic = I[:3, :3] - m * (np.outer(c, c) * -1 + np.dot(c, c) * np.eye(3))
        inertia = pin.Inertia(m, c, Ic)
        kind = b.joint.kind
        if kind == "fixed":
            pm.appendBodyToJoint(parent_joint, inertia, placement)
            host[i] = (parent_joint, placement)
            continue
        axis = np.asarray(model.axis[i])
        jm = {"revolute": lambda: pin.JointModelRevoluteUnaligned(axis),
              "prismatic": lambda: pin.JointModelPrismaticUnaligned(axis),
              "free": pin.JointModelFreeFlyer}[kind]()
        jid = pm.addJoint(parent_joint, jm, placement, b.name)
        pm.appendBodyToJoint(jid, inertia, pin.SE3.Identity())
        host[i] = (jid, pin.SE3.Identity())
    return pm


def depth_first(model):
    """The same tree with its bodies in depth-first preorder (every subtree contiguous), the order Pinocchio's
    CRBA assumes; builds the same bodies, so only the numbering changes."""
    children = {i: [] for i in range(-1, model.n)}
    for i, p in enumerate(model.parent):
        children[int(p)].append(i)
    order, stack = [], children[-1][::-1]
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(children[i][::-1])
    return TreeModel([model.bodies[i] for i in order], model.gravity)


def coordinate_map(model, other):
    """(q, v) index arrays with x_other = x_model[index]: the same bodies' coordinates in ``other``'s order."""
    bodies = [model.index(name) for name in other.names]

    def gather(first, count):
        return np.concatenate([np.arange(first[i], first[i] + count[i]) for i in bodies] + [np.zeros(0, int)])

    return gather(model.q_index, model.joint_nq), gather(model.v_index, model.joint_nv)


def _swap_free_blocks(model, x):
    y = np.array(x, float)
    for i in np.flatnonzero(model.joint_type == 3):
        k = model.v_index[i]
        y[k:k + 6] = np.r_[x[k + 3:k + 6], x[k:k + 3]]
    return y


to_pinocchio_vector = _swap_free_blocks
from_pinocchio_vector = _swap_free_blocks


def pinocchio_mass_matrix(model, M):
    """Our mass matrix permuted into Pinocchio's [linear; angular] free-joint ordering."""
    P = _swap_free_blocks(model, np.eye(model.nv))
    return P @ M @ P.T
