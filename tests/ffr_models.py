"""Small floating-frame models shared by the floating-frame tests: a steel bar (0.4 m ×
20 mm × 20 mm, Hex8, 10 × 1 × 1 cells) reduced by Craig–Bampton to its two end frames
"x0", "x1" plus four fixed-interface modes (10 elastic component modes)."""
from functools import lru_cache

import numpy as np

import femdyn
from femdyn.geometry import skew
from femdyn.elements.solid_body import SolidBody
from femdyn.formats.component import component_from_reduction
from femdyn.mesh.generate import box_mesh
from femdyn.solvers.reduction import Interface, craig_bampton

L, B = 0.4, 0.02


@lru_cache(maxsize=None)
def bar(E=2.1e11, normal_modes=4, damping_ratio=0.0):
    """(SolidBody, Reduction, Component) of the bar; E in Pa (a soft E gives visible
    deflection at moderate frequencies)."""
    body = SolidBody(box_mesh((L, B, B), (10, 1, 1), "hex8", origin=(0, -B / 2, -B / 2)), E, 0.3, 7800.0)
    red = craig_bampton(body, [Interface("x0", body.mesh.node_sets["x0"]), Interface("x1", body.mesh.node_sets["x1"])],
                        normal_modes, damping_ratio=damping_ratio)
    comp = component_from_reduction(red, output_points=[(L, 0, 0), (L / 2, 0, 0)],
                                    gauge_points=[(0.05, 0, B / 2), (0.05, B / 2, 0)], name="bar")
    return body, red, comp


def rotation(axis, angle):
    """Rotation matrix about a unit axis (rad)."""
    k = np.asarray(axis, float) / np.linalg.norm(axis)
    K = skew(k)
    return np.eye(3) + np.sin(angle) * K + (1 - np.cos(angle)) * K @ K


def pendulum(component, modes=None, h0=(0.0, 0.0, 0.0), axes=None, eta=None, gravity=(0, 0, -9.81)):
    """The bar hinged to the ground about y at its frame x0 (its reference origin at h0)."""
    m = femdyn.Model("flexible pendulum", gravity=gravity)
    link = m.flexible_body("bar", component, h0, axes, modes=modes, eta=eta)
    x0 = link.interface("x0")
    m.revolute("hinge", m.ground, x0, x0.origin0, (0, 1, 0))
    return m, link


def hub_with_beam(link, length, n_elements, E, rho, section, axis=(0, 1, 0), gravity=(0, 0, -9.81), angle=None,
                  modes=None):
    """A light rigid hub (10 g, point O at the origin and its three axes) on a revolute
    joint to the ground about ``axis``, carrying a straight beam along x clamped at O: the
    full ANCF beam (``link="ancf"``, ``Model.clamp``: r, r_y, r_z follow the hub) or the
    floating-frame body of its Craig–Bampton component (``link="ffr"``, interface x0
    welded to the hub — the same boundary condition). ``angle``: a TimeFunction driving
    the hub angle (rad). Returns the model."""
    from femdyn.elements.beam_component import ancf_beam_component
    m = femdyn.Model(f"hub with {link} beam", gravity=gravity)
    O = m.point("O", (0, 0, 0))
    hub = m.rigid_body("hub", [O], [m.vector(f"hub.{c}", e) for c, e in zip("xyz", np.eye(3))], mass=0.01,
                       inertia=1e-6 * np.eye(3))
    hinge = m.revolute("hinge", m.ground, hub, (0, 0, 0), axis)
    if angle is not None:
        m.drive_angle("spin", hinge, angle)
    if link == "ancf":
        m.straight_beam("beam", (0, 0, 0), (length, 0, 0), n_elements, E, rho, section, element="beam",
                        y_axis=(0, 1, 0))
        m.clamp("root", "beam.0", hub)
        m.sensor_point("tip", m.node(f"beam.{n_elements}"), (length, 0, 0))
    else:
        component = beam_component(length, n_elements, E, rho, section)
        body = m.flexible_body("beam", component, modes=modes)
        m.weld("root", hub, body.interface("x0"), (0, 0, 0))
        m.sensor_point("tip", body, (length, 0, 0))
    return m


@lru_cache(maxsize=None)
def beam_component(length, n_elements, E, rho, section):
    from femdyn.elements.beam_component import ancf_beam_component
    return ancf_beam_component(length, E, rho, section, n_elements)


def tip_deflection(results, system, direction):
    """Tip displacement (m) along the hub's axis ``direction`` (0 x, 1 y, 2 z) relative to
    the rigid hub frame: (r_tip − O)·e_hub."""
    tip = np.column_stack([results["tip.x"], results["tip.y"], results["tip.z"]])
    e = results.q[:, system.nodes[f"hub.{'xyz'[direction]}"].dofs]
    return np.einsum("ti,ti->t", tip, e)
