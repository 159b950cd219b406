"""Tian et al.'s (2010) flexible PUMA 560: six flexible 1 m, 2 kg steel links with three modes each.

The paper's link table is lost; femdyn's choices are in docs/recursive-flexible.md. Each
link's bar frame (x along the bar) is its body frame; joint i's axis in it is R_barᵀ z, and
link i + 1 sits on link i's 'outer' interface turned by R_bar,iᵀ R_x(α_i) R_bar,i+1.
"""
import numpy as np

from femdyn.component import cached_components
from femdyn.geometry import rotation_about
from femdyn.solvers.recursive.flexible import FlexibleTreeModel, ModalBody
from femdyn.solvers.recursive.model import Joint

LENGTH, MASS, E, NU, RHO = 1.0, 2.0, 2.1e11, 0.3, 7850.0
THICKNESS = 0.002                                        # m, across the strip
WIDTH = MASS / (RHO * LENGTH * THICKNESS)                # m, 127.4 mm: 2 kg exactly
ALPHA = [0.0, -np.pi / 2, 0.0, np.pi / 2, -np.pi / 2, np.pi / 2]      # PUMA 560 twists α_0 … α_5 (rad)
_X, _Y, _Z = np.eye(3)
# columns: the bar's x, y, z axes in PUMA link frame i (x along the bar)
BAR_AXES = [np.column_stack((x, y, np.cross(x, y))) for x, y in ((_Y, _Z), (_X, -_Y), (-_Y, _Z), (_Z, _Y), (-_Y, _Z),
                                                                 (_X, _Z))]


@cached_components(maxsize=4)
def puma_link_component(normal_modes=6, damping_ratio=0.0, cells=(40, 6, 1)):
    """The reduced flexible link (component, interfaces 'inner' and 'outer'), cached per process (each call a copy).

    Parameters
    ----------
    normal_modes, damping_ratio, cells
        Craig–Bampton normal modes, modal damping ratio ζ, box-mesh cells (length, width, thickness).
    """
    from femdyn.elements.solid_body import SolidBody
    from femdyn.mesh.generate import box_mesh
    from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton
    mesh = box_mesh((LENGTH, WIDTH, THICKNESS), cells, "tet10", origin=(0.0, -WIDTH / 2, -THICKNESS / 2))
    solid = SolidBody(mesh, E, NU, RHO, name="flexible PUMA link")
    red = craig_bampton(solid, [Interface("inner", mesh.node_sets["x0"], origin=(0.0, 0.0, 0.0)),
                                Interface("outer", mesh.node_sets["x1"], origin=(LENGTH, 0.0, 0.0))],
                        normal_modes, damping_ratio=damping_ratio)
    return component_from_reduction(red, output_points=[(LENGTH / 2, 0.0, 0.0), (LENGTH, 0.0, 0.0)],
                                    mesh_shapes=False, name="puma-link")


def flexible_puma560(modes=3, damping_ratio=0.0, gravity=(0.0, 0.0, 0.0), component=None):
    """Tian et al.'s (2010) flexible PUMA 560, a ``FlexibleTreeModel``: q = (q1 … q6, η of links 1 … 6).

    Parameters
    ----------
    modes : int
        Modal coordinates per link (the paper: 3).
    damping_ratio : float
        Modal damping ratio of the links.
    gravity : (3,) array_like
        m/s², world frame (z up); none by default.
    component : Component, optional
        The link for all six links (default :func:`puma_link_component`).
    """
    link = component if component is not None else puma_link_component(damping_ratio=damping_ratio)
    bodies = []
    for i in range(6):
        if i == 0:
            placement = BAR_AXES[0]
        else:
            placement = BAR_AXES[i - 1].T @ rotation_about(_X, ALPHA[i]) @ BAR_AXES[i]
        bodies.append(ModalBody(f"link{i + 1}", "world" if i == 0 else f"link{i}",
                                Joint("revolute", tuple(BAR_AXES[i].T @ _Z)), component=link, inner="inner",
                                modes=modes, at=None if i == 0 else "outer", placement_R=placement))
    return FlexibleTreeModel(bodies, gravity)


def puma_inputs(t):
    """Tian et al.'s (2010) torques (6,), N·m: 3 sin(πt/3), 0.3 cos(πt/6), 0.3 cos(πt/6) at joints 1, 3, 6.

    Parameters
    ----------
    t : float
        Time, s.
    """
    c = 0.3 * np.cos(np.pi * t / 6)
    return np.array([3 * np.sin(np.pi * t / 3), 0.0, c, 0.0, 0.0, c])


PUMA_MOTION_GIVEN = np.array([False, True, False, True, True, False])      # joints 2, 4, 5


PUMA_TORQUE_JOINTS = (1, 3, 6)       # torque-given joints of Tian et al. (2010); 2, 4, 5 hold their angle


def flexible_puma560_dae(model=None, name="flexible PUMA 560"):
    """The flexible PUMA 560 of :func:`flexible_puma560` as an unassembled DAE model, for cross-checks.

    Floating-frame bodies at the recursive q = 0, revolutes 'joint1' … 'joint6', :func:`puma_inputs`.

    Parameters
    ----------
    model : FlexibleTreeModel, optional
        The recursive flexible PUMA (default :func:`flexible_puma560` ()).
    name : str, optional
    """
    from femdyn.model import Model
    from femdyn.motion import Sine
    from femdyn.solvers.recursive.flexible_dynamics import FlexibleData, kinematics
    model = flexible_puma560() if model is None else model
    data = FlexibleData(model)
    kinematics(model, data, model.neutral_configuration())
    torques = {1: Sine(3.0, np.pi / 3), 3: Sine(0.3, np.pi / 6, phase=np.pi / 2), 6: Sine(0.3, np.pi / 6, phase=np.pi / 2)}
    m = Model(name, gravity=tuple(model.gravity))
    outer = m.ground
    for i in range(6):
        k = i + 1
        R, p = data.R_world[i], data.p_world[i]
        link = m.flexible_body(f"link{k}", model.components[i], tuple(p), axes=R)
        joint = f"joint{k}"
        m.revolute(joint, outer, link.interface("inner"), tuple(p), tuple(R @ model.axis[i]))
        if k in PUMA_TORQUE_JOINTS:
            m.torque(f"torque{k}", joint, torques[k])
        else:
            m.drive_angle(f"hold{k}", joint, 0.0)
        m.sensor_angle(joint, joint)
        outer = link.interface("outer")
    return m
