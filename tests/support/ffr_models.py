"""Small floating-frame models shared by the floating-frame tests: a steel bar (0.4 m ×
20 mm × 20 mm, Hex8, 10 × 1 × 1 cells) reduced by Craig–Bampton to its two end frames
"x0", "x1" plus four fixed-interface modes (10 elastic component modes)."""
from functools import lru_cache

import numpy as np

import femdyn
from femdyn.elements.solid_body import SolidBody
from femdyn.solvers.reduction import component_from_reduction
from femdyn.mesh.generate import box_mesh
from femdyn.solvers.recursive.spatial import rotation_about
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
    """Rotation matrix of ``angle`` (rad) about ``axis`` (normalized here)."""
    return rotation_about(np.asarray(axis, float) / np.linalg.norm(axis), angle)


def pendulum(component, modes=None, h0=(0.0, 0.0, 0.0), axes=None, eta=None, gravity=(0, 0, -9.81)):
    """The bar hinged to the ground about y at its frame x0 (its reference origin at h0)."""
    m = femdyn.Model("flexible pendulum", gravity=gravity)
    link = m.flexible_body("bar", component, h0, axes, modes=modes, eta=eta)
    x0 = link.interface("x0")
    m.revolute("hinge", m.ground, x0, x0.origin0, (0, 1, 0))
    return m, link

