"""Tian et al.'s (2010) flexible PUMA 560: six flexible 1 m, 2 kg steel links with three modes each.

The paper gives each link 1 m, 2 kg, E = 210 GPa and three modal coordinates, from a
five-node finite-element model; its link table (cross-sections, joint placements) is
lost. femdyn's choices, documented here and in ``docs/recursive-flexible.md``:

* **Link**: a spring-steel strip (ρ = 7850 kg/m³, E = 210 GPa, ν = 0.3), 1 m long,
  2 mm × 127.4 mm (2.000 kg) — the flat flexible link of the classic flexible-arm test
  rigs — meshed as structured quadratic tetrahedra (:func:`femdyn.mesh.generate.box_mesh`,
  40 × 6 × 1 cells: no remeshing, bit-for-bit reproducible, about a second with the
  reduction) and reduced by Craig–Bampton with rigid interfaces 'inner' (x = 0) and
  'outer' (x = 1 m) on the strip's axis, then referenced to 'inner' (modes clamped there)
  and truncated to its three lowest modes: first and second bending across the thickness
  (1.70 and 10.6 Hz; Euler–Bernoulli cantilever 1.67 and 10.5 Hz, the strip's plate
  action stiffens it a little) and the first torsion (26.5 Hz).
  Why so thin: Zhai's explicit method with ψ = φ = 0.5 is stable for ω h ≤ 2, and at
  h = 0.005 s the *assembled* arm's highest frequency must stay below 400 rad/s. With the
  torque-given joints free, a link's clamped modes combine into pinned–free ones, 4–14×
  higher; a 2 kg steel link of a stockier section (8 × 32 mm: 6.7, 27, 42 Hz clamped)
  puts the assembled arm at 1300 rad/s (ω h = 6.6, unstable), 3 mm × 85 mm at
  730 rad/s, 2 mm × 127 mm at 300 rad/s (ω h = 1.5).
* **Orientation**: each strip's wide side lies along the axis of the joint that swings
  it (link 4: joint 5; link 2: vertical at q = 0, like links 1 and 6), so the links flex
  in the planes the torque-given joints move them in.
* **Gravity**: off by default. With joint 3 driven by 0.3 cos(πt/6) N·m the paper's
  inputs cannot hold the 8 kg of links 3–6 against gravity (link 6 alone loads joint 3
  with ≈ 10 N·m at q = 0), and a 2 mm strip cannot carry it either; the run is the
  arm's own dynamics (as in space or on an air table).
* **Kinematics** follow the rigid :func:`femdyn.robots.serial.puma560` (modified DH
  twists α = 0, −π/2, 0, π/2, −π/2, π/2; joint i turns about z of PUMA frame i), with
  every link a 1 m bar from joint i to joint i + 1 in the direction the PUMA link runs:
  link 1 along +y₁ (the shoulder offset), link 2 along x₂ (upper arm), link 3 along −y₃
  (forearm, which joint 4 rolls about), link 4 along z₄ and link 5 along −y₅ (the wrist,
  zero length on the real arm, here each 1 m, continuing the forearm), link 6 along x₆
  (a 1 m tool across the joint-6 axis, so joint 6 turns a real inertia). At q = 0 the
  upper arm is horizontal and the forearm and wrist point up, as on the PUMA's zero pose.

The bar frame of each link (x along the bar) is its body frame; joint i's axis in it is
R_barᵀ z, and link i + 1 sits on link i's 'outer' interface turned by
R_bar,iᵀ R_x(α_i) R_bar,i+1.
"""
import functools

import numpy as np

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


@functools.lru_cache(maxsize=4)
def puma_link_component(normal_modes=6, damping_ratio=0.0, cells=(40, 6, 1)):
    """The reduced flexible link (component with interfaces 'inner' and 'outer'), computed once per process.

    Parameters
    ----------
    normal_modes : fixed-interface normal modes of the Craig–Bampton basis
    damping_ratio : modal damping ratio ζ (–)
    cells : structured cells along the length, width and thickness

    Returns
    -------
    Component (mesh frame: bar along x from 0 to 1 m, section centred on the axis)

    Example
    -------
    >>> puma_link_component().mass                                       # doctest: +SKIP
    2.0
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
    """Tian et al.'s (2010) flexible PUMA 560 as a :class:`FlexibleTreeModel` (choices in the module doc).

    Parameters
    ----------
    modes : modal coordinates per link (the paper: 3)
    damping_ratio : modal damping ratio of the links (the paper: none)
    gravity : (3,) m/s², world frame (z up); none by default (module doc)
    component : the link Component to use for all six links (default :func:`puma_link_component`)

    Returns
    -------
    FlexibleTreeModel with bodies 'link1' … 'link6': q = (q1 … q6, η of link 1, …, η of link 6)

    Example
    -------
    >>> model = flexible_puma560()                                       # doctest: +SKIP
    >>> model.nq, model.nv                                               # doctest: +SKIP
    (24, 24)
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
    """Tian et al.'s (2010) inputs: torques of joints 1, 3, 6 (3 sin(πt/3), 0.3 cos(πt/6), 0.3 cos(πt/6) N·m);
    joints 2, 4, 5 are motion-given with q̈ = 0.

    Parameters
    ----------
    t : float
        Time [s].

    Returns
    -------
    (6,) ndarray
        Joint torques [N·m]; the entries of the motion-given joints are 0 (unused).
    """
    c = 0.3 * np.cos(np.pi * t / 6)
    return np.array([3 * np.sin(np.pi * t / 3), 0.0, c, 0.0, 0.0, c])


PUMA_MOTION_GIVEN = np.array([False, True, False, True, True, False])      # joints 2, 4, 5


PUMA_TORQUE_JOINTS = (1, 3, 6)       # torque-given joints of Tian et al. (2010); 2, 4, 5 hold their angle


def flexible_puma560_dae(model=None, name="flexible PUMA 560"):
    """The flexible PUMA 560 of :func:`flexible_puma560` in the DAE model, for cross-checks and timing.

    Six floating-frame bodies (:meth:`femdyn.model.builder.Model.flexible_body`) built from the
    recursive model's own components (referenced to 'inner', truncated to its modes), placed
    at the recursive model's q = 0 (its forward kinematics give each body frame's position
    and axes); revolute joints 'joint1' … 'joint6' between the 'outer' interface frame of
    link i − 1 (the ground for joint 1) and the 'inner' one of link i, about the recursive
    joint axes; joints 1, 3, 6 carry Tian et al.'s (2010) torques (:func:`puma_inputs`),
    joints 2, 4, 5 are held at zero angle (the recursive model's motion-given joints with
    q̈ = 0 from rest); sensors 'joint1' … 'joint6' record the joint angles. Gravity is the
    recursive model's.

    Parameters
    ----------
    model : FlexibleTreeModel, optional
        The recursive flexible PUMA (default :func:`flexible_puma560` ()).
    name : str, optional
        Name of the DAE model.

    Returns
    -------
    femdyn.Model
        Not yet assembled; bodies 'link1' … 'link6' with interface frames
        'link<i>.inner', 'link<i>.outer'.

    Example
    -------
    >>> system = flexible_puma560_dae().assemble()                        # doctest: +SKIP
    >>> run = integrate(system, 1.0, 0.005)                               # doctest: +SKIP
    >>> run["joint1.angle"][-1]                                           # doctest: +SKIP
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
