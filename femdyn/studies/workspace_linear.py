"""The linearized robot at one pose: the platform's Cartesian compliance and the first natural frequencies.

The robot's femdyn model (:meth:`ParallelRobot.model`, flexible links as ANCF elements) gets its actuated
joints locked (a revolute by an angle drive, a prismatic by a distance constraint along its axis) or held by
actuator springs of stiffness k (a rotational spring, N·m/rad; an axial spring, N/m). About the configuration
(q, λ) — the undeformed pose with λ = 0, or the static equilibrium under gravity — the tangent stiffness
K_t = K + H(λ) and the constraint Jacobian Φ_q give the platform compliance by one saddle-point solve per unit
wrench,

    [K_t  Φ_qᵀ] [u]   [Bᵀ w]
    [Φ_q   0  ] [μ] = [ 0  ],     C_x = B U,   K_x = C_x⁻¹,

with B (6 × n) the platform's small displacement (δr of its origin, δθ its rotation increment: for the
natural-coordinate frame vectors e_k, δθ = ½ Σ e_k × δe_k, exact for rigid motions) and w the wrench about
the platform origin (force N, moment N·m, global axes). The frequencies are those of K_t x = ω² M x on
Φ_q x = 0 (:func:`femdyn.solvers.eigen.eigenmodes`, dense null-space or shift-invert saddle treatment).
"""
from dataclasses import dataclass

import numpy as np

from femdyn.solvers.blocks import TangentValues
from femdyn.solvers.eigen import SaddleInverse, eigenmodes
from femdyn.solvers.kkt import KKTMatrix

from ..errors import ModelError, SolverError
from ..robots.parallel.chain import link_transform

__all__ = ["LinearizedPose", "hold_actuators", "platform_map", "platform_compliance", "linearize", "moved"]


@dataclass
class LinearizedPose:
    """The linearized robot at a pose.

    Parameters
    ----------
    compliance : ndarray (6, 6)
        C_x: platform displacement (δx, δy, δz m; δθx, δθy, δθz rad, global axes) per unit wrench about the
        platform origin (N, N·m); all zeros when nothing yields (rigid links, locked actuators).
    frequencies : ndarray (count,)
        First natural frequencies, Hz (NaN where the locked model has fewer degrees of freedom).
    """

    compliance: np.ndarray
    frequencies: np.ndarray

    @property
    def stiffness(self):
        """K_x = C_x⁻¹ (6 × 6: N/m, N/rad, N·m/m, N·m/rad), inf where C_x is singular."""
        try:
            return np.linalg.inv(self.compliance)
        except np.linalg.LinAlgError:
            return np.full((6, 6), np.inf)

    @property
    def translational(self):
        """The smallest translational stiffness, N/m: 1/λ_max of C_x's force–displacement block (moments zero)."""
        return _smallest(self.compliance[:3, :3])

    @property
    def rotational(self):
        """The smallest rotational stiffness, N·m/rad: 1/λ_max of C_x's moment–rotation block (forces zero)."""
        return _smallest(self.compliance[3:, 3:])


def _smallest(block):
    """1 / the largest eigenvalue of a symmetric compliance block (inf when it vanishes)."""
    top = float(np.linalg.eigvalsh(0.5 * (block + block.T))[-1])
    return np.inf if top <= 0 else 1.0 / top


def hold_actuators(built, stiffness=None):
    """Lock the actuated joints of a built robot model, or hold them by springs of ``stiffness``.

    Parameters
    ----------
    built : RobotModel
        From :meth:`ParallelRobot.model`, not yet assembled.
    stiffness : float, optional
        k of every actuator: N·m/rad for a revolute (rotational spring), N/m for a prismatic (axial spring
        between the joint centre on the guide and a point 1 m along the axis on the slider). None: locked.

    Returns
    -------
    RobotModel
        ``built``, its model changed in place.

    Raises
    ------
    ModelError
        If an actuated joint is neither revolute nor prismatic, or ``stiffness`` is not positive.

    Examples
    --------
    A rod on an actuated pivot: locked, nothing moves; on a spring, the rod swings.

    >>> import femdyn
    >>> from femdyn.robots.parallel.build import RobotModel
    >>> def arm():
    ...     m = femdyn.Model("arm", gravity=(0, 0, 0))
    ...     rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    ...     _ = m.revolute("pivot", "ground", rod, point=(0, 0, 0), axis=(0, 1, 0))
    ...     return RobotModel(m, ["pivot"], [], "rod", np.zeros(3))
    >>> hold_actuators(arm()).model.assemble().degrees_of_freedom()
    0
    >>> hold_actuators(arm(), stiffness=10.0).model.assemble().degrees_of_freedom()
    1
    """
    if stiffness is not None and not stiffness > 0:
        raise ModelError(f"actuator_stiffness must be positive (N·m/rad or N/m) or left out to lock the actuators, "
                         f"got {stiffness!r}")
    m = built.model
    for name in built.actuated:
        joint = m.joints[name]
        if joint.kind == "revolute":
            if stiffness is None:
                m.drive_angle(f"{name}.lock", joint, joint.angle0)
            else:
                m.rotational_spring(f"{name}.spring", joint, stiffness=stiffness)
        elif joint.kind == "prismatic":
            far = joint.point + joint.axis
            if stiffness is None:
                m.distance(f"{name}.lock", joint.body_a, joint.point, joint.body_b, far)
            else:
                m.spring(f"{name}.spring", joint.body_a, joint.point, joint.body_b, far, stiffness=stiffness)
        else:
            raise ModelError(f"actuated joint '{name}' is a {joint.kind} joint; only revolute and prismatic "
                             "actuators can be locked or sprung")
    return built


def platform_map(system, platform, q):
    """B (6 × n): the platform's translation δr (m) and rotation increment δθ (rad) from δq at q.

    Parameters
    ----------
    system : System
    platform : str
        The platform body's name (nodes ``<platform>.O``, ``<platform>.e0`` … ``.e2``).
    q : ndarray (n,)

    Returns
    -------
    ndarray (6, n)
    """
    B = np.zeros((6, system.n))
    origin = system.nodes[f"{platform}.O"].start
    B[:3, origin:origin + 3] = np.eye(3)
    for k in range(3):
        start = system.nodes[f"{platform}.e{k}"].start
        e = q[start:start + 3]
        B[3:, start:start + 3] = 0.5 * np.array([[0.0, -e[2], e[1]], [e[2], 0.0, -e[0]], [-e[1], e[0], 0.0]])
    return B


def platform_compliance(system, platform, q, lam, t=0.0):
    """C_x (6 × 6): the platform's displacement under unit wrenches with the constraints enforced.

    One factorization of the saddle matrix [[K_t, Φ_qᵀ], [Φ_q, 0]] (femdyn's KKT solver), six solves.

    Parameters
    ----------
    system : System
    platform : str
        The platform body.
    q, lam : ndarray
        Configuration (m) and multipliers of the linearization.
    t : float

    Returns
    -------
    ndarray (6, 6)
        m/N, m/(N·m), rad/N, rad/(N·m).

    Raises
    ------
    SolverError
        If the saddle matrix is singular (a mechanism: an actuator neither locked nor sprung).
    """
    _, jac = system.constraints.evaluate(q, t)
    k_vals, _ = system.tangent_values(q, np.zeros(system.n), t)
    values = TangentValues(system.mass_values(q), jac, stiffness=k_vals,
                           hessian=system.constraints.hessian_values(q, lam), weights=(0.0, 0.0, 1.0))
    inverse = SaddleInverse.factorized(KKTMatrix(system), values, q, t)
    if inverse is None:
        raise SolverError(f"model '{system.name}': the stiffness is singular on the constraints (a mechanism); "
                          "lock the actuators or give them a stiffness")
    B = platform_map(system, platform, q)
    return B @ np.column_stack([inverse.solve(row) for row in B])


def linearize(built, count=3, gravity=False, method="dense", system=None, q=None):
    """The platform compliance and first frequencies of a held robot model (see the module docstring).

    Parameters
    ----------
    built : RobotModel
        With its actuators held (:func:`hold_actuators`).
    count : int
        Natural frequencies wanted.
    gravity : bool
        Linearize about the static equilibrium under the model's gravity (True) or about the undeformed
        pose with λ = 0 (False; give the model zero gravity, then the two agree).
    method : {"dense", "sparse"}
        The eigensolver of :func:`femdyn.solvers.eigen.eigenmodes`.
    system : System, optional
        ``built``'s model assembled already (moved to another pose by :func:`moved`); default: assembled here.
    q : ndarray, optional
        The undeformed configuration to linearize about with ``system`` (default its q0).

    Returns
    -------
    LinearizedPose
    """
    from femdyn.solvers.static import static_equilibrium
    system = built.model.assemble() if system is None else system
    if gravity:
        q, lam = static_equilibrium(system, q0=q)
    else:
        q, lam = (system.q0 if q is None else q), np.zeros(system.m)
    compliance = platform_compliance(system, built.platform, q, lam)
    frequencies = np.full(count, np.nan)
    if system.n - system.m > 0:
        omega, _ = eigenmodes(system, q, lam, count=min(count, system.n - system.m), method=method)
        frequencies[:len(omega)] = omega / (2 * np.pi)
    return LinearizedPose(compliance, frequencies)


def moved(robot, built, system, pose, flexible=True):
    """The undeformed configuration at ``pose`` of a robot model assembled at another pose, as coordinates of
    its ``system``.

    The robot's builder adds the same nodes in the same order at every pose, and nothing of a System but its
    locks' and springs' rest values depends on the pose it was built at: rigid bodies in natural coordinates
    keep their mass matrix, joints their material points and vectors, ANCF links their straight reference. So
    one System serves every pose of a locked robot linearized without preload (λ = 0), where a lock's Jacobian
    row matters and its value does not. The positions come from the model built at ``pose``; a rigid link's
    frame vectors are the assembled ones turned by the link's rotation between the two poses (the builder
    draws a link's frame from its direction, which is not the same material frame at every pose).

    Parameters
    ----------
    robot : ParallelRobot
    built : RobotModel
        The model that ``system`` was assembled from.
    system : System
    pose : (n_task,) array_like
        m, rad.
    flexible : bool
        As ``built`` was built.

    Returns
    -------
    ndarray (n,)

    Raises
    ------
    ModelError
        If the model at ``pose`` has other nodes (another description or options).
    """
    at_pose = robot.model(np.asarray(pose, float), flexible=flexible)
    model = at_pose.model
    if [(k, v.start) for k, v in model.nodes.items()] != [(k, v.start) for k, v in system.nodes.items()]:
        raise ModelError(f"model '{model.name}': its nodes differ from those of the assembled model; build both "
                         "from the same robot description with the same options")
    q = model.initial_coordinates()[0]
    then, now = robot.frames(built.state[None]), robot.frames(at_pose.state[None])
    chains = robot.chains.limbs
    for (i, j), name in built.links.items():
        if name in built.flexible or name in built.components:      # ANCF and component links: frames not e_k
            continue
        turn = link_transform(now, i, chains[i].ends[j])[0][0] @ link_transform(then, i, chains[i].ends[j])[0][0].T
        for k in range(3):
            start = system.nodes[f"{name}.e{k}"].start
            q[start:start + 3] = turn @ system.q0[start:start + 3]
    return q
