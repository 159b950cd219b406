"""Rigid-body inverse dynamics of a parallel robot by the principle of virtual work.

The closure's coordinates Z move with the task coordinates x along the constraint manifold, δZ = N δx
with N = dZ/dx (:func:`.kinematics.sensitivity`), and the actuator coordinates with δa = J δx. With f_Z
the generalized inertia-minus-gravity force of every body on Z,

    f_Z = Σ_b J_v,bᵀ m_b (a_b − g) + J_ω,bᵀ (I_b α_b + ω_b × I_b ω_b)   (+ the bars' endpoint terms),

the efforts u balance it in every admissible virtual displacement: Jᵀ u = Nᵀ f_Z (Tsai 1999, *Robot
Analysis*, §9.5; Staicu 2019). Links and the platform are rigid bodies; a Pa bar is a uniform slender
rod (mass matrix m/6 [[2, 1], [1, 2]] on its two ends, no spin inertia); the payload a point mass at the
tool point. The accelerations' velocity-product terms come from the complex step of the analytic
Jacobians (:func:`.chain.curvature`), exact to round-off.
"""
from dataclasses import dataclass

import numpy as np

from femdyn.elements import ncf

from .chain import (curvature, frames, link_transform, point_on_link, point_on_platform, rotation,
                    rotation_on_link, rotation_on_platform)
from .component_link import ComponentSpec, component_placement
from .kinematics import sensitivity


@dataclass(frozen=True)
class _Body:
    """A rigid body of the robot: ``limb`` (None for the platform) and ``screws`` locate it; ``com`` at home
    (global), ``mass`` and ``inertia`` (about the com; home global axes, or platform axes for the platform)."""

    limb: int
    screws: int
    com: np.ndarray
    mass: float
    inertia: np.ndarray


def _rod_inertia(mass, p, q, radius, inner_radius=0.0):
    """Centroidal inertia (global axes) of a uniform rod (solid, or a tube) from p to q, kg·m² (along z if p = q)."""
    d = np.subtract(q, p, dtype=float)
    length = float(np.linalg.norm(d))
    return ncf.cylinder(mass, length, radius, d if length > 0 else (0.0, 0.0, 1.0), inner_radius)


def link_inertia(limb, j):
    """(mass, com at home, inertia about it in home global axes) of link j of a limb: a flexible link's
    from its section and density or its component's rigid-body invariants (the rigid model then weighs
    what the flexible one does), else the description's (a solid rod of ``radius`` when no inertia is given)."""
    link, p, q = limb.links[j], limb.joints[j].point, limb.joints[j + 1].point
    middle = 0.5 * np.add(p, q)
    if isinstance(link.flexible, ComponentSpec):
        placed = component_placement(link.flexible, limb.joints[j], limb.joints[j + 1], f"limb '{limb.name}' link {j}")
        return placed.mass, placed.com, placed.inertia
    if link.flexible is not None:
        b = link.flexible
        mass = b.density * b.area * float(np.linalg.norm(np.subtract(q, p)))
        return mass, middle, _rod_inertia(mass, p, q, b.radius, b.inner_radius)
    com = np.array(link.com if link.com is not None else middle, float)
    inertia = np.array(link.inertia) if link.inertia is not None else _rod_inertia(link.mass, p, q, link.radius)
    return link.mass, com, inertia


def bar_mass(joint):
    """Mass of one bar of a Pa forearm, kg: from its section and density when flexible, else ``bar_mass``."""
    b = joint.flexible
    if b is None:
        return joint.bar_mass
    return b.density * b.area * float(np.linalg.norm(np.subtract(joint.end, joint.point)))


def rigid_bodies(robot):
    """The robot's rigid bodies (links, platform, payload) as :class:`_Body` records."""
    d, bodies = robot.description, []
    for i, (limb, chain) in enumerate(zip(d.limbs, robot.chains.limbs)):
        for j in range(len(limb.links)):
            mass, com, inertia = link_inertia(limb, j)
            if mass > 0:
                bodies.append(_Body(i, chain.ends[j], com, mass, inertia))
    plat = d.platform
    bodies.append(_Body(None, 0, robot.platform_point(plat.com), plat.mass, np.array(plat.inertia)))
    if plat.payload > 0:
        bodies.append(_Body(None, 0, robot.platform_point(plat.tool), plat.payload, np.zeros((3, 3))))
    return bodies


def bars(robot):
    """Each Pa bar as (limb, screws, end on the last link at home, end on the platform at home, mass)."""
    out = []
    for i, (limb, chain) in enumerate(zip(robot.description.limbs, robot.chains.limbs)):
        mass = bar_mass(limb.joints[-1]) if chain.bar_length is not None else 0.0
        if mass > 0:
            out += [(i, len(chain.kinds), A, B, mass) for A, B in chain.anchors]
    return out


def _jacobians(robot, bodies, bars, F):
    """Stacked Jacobians (N, 6·bodies + 6·bars, n) at the frames F: each body's [J_v (com); J_ω], each bar's
    [J_A; J_B]."""
    blocks = []
    for b in bodies:
        if b.limb is None:
            blocks += [point_on_platform(F, robot.chains, b.com)[1], rotation_on_platform(F, robot.chains)]
        else:
            blocks += [point_on_link(F, robot.chains, b.limb, b.screws, b.com)[1],
                       rotation_on_link(F, robot.chains, b.limb, b.screws)]
    for limb, screws, A, B, _ in bars:
        blocks += [point_on_link(F, robot.chains, limb, screws, A)[1], point_on_platform(F, robot.chains, B)[1]]
    return np.concatenate(blocks, axis=1)


def _inertias(bodies, F, Z):
    """Each body's inertia tensor in global axes at the frames F (N, bodies, 3, 3)."""
    platform = rotation(Z[:, -3:])                     # the platform's inertia is given in its own axes
    out = []
    for b in bodies:
        R = platform if b.limb is None else link_transform(F, b.limb, b.screws)[0]
        out.append(R @ b.inertia @ np.swapaxes(R, 1, 2))
    return np.stack(out, 1)


@dataclass
class Loads:
    """Inertia minus gravity of every body at a batch of states: ``bodies`` and ``bars`` as in
    :func:`rigid_bodies` and :func:`bars`, ``jacobian`` (N, 6·bodies + 6·bars, n) their stacked Jacobians,
    ``wrench`` (N, same) per body [m (a − g) at the centre of mass; I α + ω × I ω about it] and per bar its
    two ends' lumped forces [f_A; f_B], N and N·m, global axes; ``frames`` the kinematic frames."""

    bodies: list
    bars: list
    jacobian: np.ndarray
    wrench: np.ndarray
    frames: object


def inertia_loads(robot, Z, Zd, Zdd):
    """The :class:`Loads` of the rigid robot at solved states Z (N, n) with their rates Ż, Z̈.

    Parameters
    ----------
    robot : ParallelRobot
    Z, Zd, Zdd : (N, n) ndarray
        Closure coordinates and their first and second time derivatives.

    Returns
    -------
    Loads
    """
    bodies, bar_list = rigid_bodies(robot), bars(robot)
    F = frames(robot.chains, Z)
    J = _jacobians(robot, bodies, bar_list, F)
    vel = np.einsum("nkj,nj->nk", J, Zd)
    acc = np.einsum("nkj,nj->nk", J, Zdd) + curvature(
        lambda z: _jacobians(robot, bodies, bar_list, frames(robot.chains, z)), Z, Zd)
    g = np.asarray(robot.description.gravity, float)
    inertias = _inertias(bodies, F, Z)
    force = np.zeros_like(vel)
    for k, b in enumerate(bodies):
        v, w = slice(6 * k, 6 * k + 3), slice(6 * k + 3, 6 * k + 6)
        inertia = inertias[:, k]
        omega = vel[:, w]
        force[:, v] = b.mass * (acc[:, v] - g)
        force[:, w] = np.einsum("nij,nj->ni", inertia, acc[:, w]) + np.cross(omega, np.einsum("nij,nj->ni",
                                                                                              inertia, omega))
    base = 6 * len(bodies)
    for k, (*_, mass) in enumerate(bar_list):
        a, b = slice(base + 6 * k, base + 6 * k + 3), slice(base + 6 * k + 3, base + 6 * k + 6)
        force[:, a] = mass / 6 * (2 * acc[:, a] + acc[:, b]) - mass / 2 * g
        force[:, b] = mass / 6 * (acc[:, a] + 2 * acc[:, b]) - mass / 2 * g
    return Loads(bodies, bar_list, J, force, F)


def generalized_forces(robot, Z, Zd, Zdd):
    """f_Z (N, n): inertia minus gravity of every body, on the closure's coordinates (module docstring)."""
    loads = inertia_loads(robot, Z, Zd, Zdd)
    return np.einsum("nkj,nk->nj", loads.jacobian, loads.wrench)


def actuator_efforts(robot, Z, Zd, Zdd, forces=None):
    """Actuator efforts u (N, n_act) from Jᵀ u = Nᵀ f_Z at solved states with their rates (``forces``: f_Z if
    already evaluated)."""
    N = sensitivity(robot.chains, Z, robot.task_mask)
    J = N[:, robot.actuators]
    f_Z = generalized_forces(robot, Z, Zd, Zdd) if forces is None else forces
    rhs = np.einsum("nji,nj->ni", N, f_Z)
    return np.linalg.solve(np.swapaxes(J, 1, 2), rhs[..., None])[..., 0]


def energy(robot, Z, Zd):
    """Kinetic and potential energy (N,) of the rigid robot, J (for power balances)."""
    bodies, bar_list = rigid_bodies(robot), bars(robot)
    F = frames(robot.chains, Z)
    vel = np.einsum("nkj,nj->nk", _jacobians(robot, bodies, bar_list, F), Zd)
    inertias = _inertias(bodies, F, Z)
    g = np.asarray(robot.description.gravity, float)
    kinetic, potential = np.zeros(len(Z)), np.zeros(len(Z))
    for k, b in enumerate(bodies):
        v, w = vel[:, 6 * k:6 * k + 3], vel[:, 6 * k + 3:6 * k + 6]
        inertia = inertias[:, k]
        kinetic += 0.5 * b.mass * np.einsum("ni,ni->n", v, v) + 0.5 * np.einsum("ni,nij,nj->n", w, inertia, w)
        x = (point_on_platform(F, robot.chains, b.com) if b.limb is None
             else point_on_link(F, robot.chains, b.limb, b.screws, b.com))[0]
        potential -= b.mass * x @ g
    base = 6 * len(bodies)
    for k, (limb, screws, A, B, mass) in enumerate(bar_list):
        va, vb = vel[:, base + 6 * k:base + 6 * k + 3], vel[:, base + 6 * k + 3:base + 6 * k + 6]
        kinetic += mass / 6 * (np.einsum("ni,ni->n", va, va) + np.einsum("ni,ni->n", va, vb)
                               + np.einsum("ni,ni->n", vb, vb))
        xa = point_on_link(F, robot.chains, limb, screws, A)[0]
        xb = point_on_platform(F, robot.chains, B)[0]
        potential -= mass * (0.5 * (xa + xb)) @ g
    return kinetic, potential
