"""Joint reactions of a rigid parallel robot at an instant: what every joint transmits.

Cut every limb's closing joint: the limbs become open chains on the closure coordinates Z, and the cut
joints' forces are the multipliers λ of the closure F(Z) = 0. With the inertia-minus-gravity forces f_Z of
:mod:`.dynamics` and the actuator efforts u on their joint coordinates (columns E of Z),

    f_Z = E u − F_Zᵀ λ,

n equations for the n − mobility multipliers once u is known (the virtual-work efforts); λ by least
squares, the minimum-norm set when F_Z has dependent rows (an overconstrained robot such as a planar one
built in space: its out-of-plane reactions are statically indeterminate). The rows' multipliers are
physical: a point-coincidence row block gives the force on the platform by the last link, an axis row
u·v = 0 the moment λ (u × v), a Pa bar's length row its tension T. Newton–Euler backwards along each limb,
from the cut joint to the base, gives every other joint's force and moment:

    F_j = m_j (a_j − g) + F_(j+1) (+ the bars' end forces),
    M_j = I_j α_j + ω_j × I_j ω_j + (x_j − c_j) × m_j (a_j − g) + M_(j+1) + (c_(j+1) − c_j) × F_(j+1) (+ …).

Convention: each joint's force F (N) and moment M (N·m) act on its distal body (the body after it, from
the base towards the platform) by its proximal one, global axes, moment about the joint centre c; they
include the actuator's effort, so M·w (revolute axis w) or F·w (prismatic) is the actuator effort of an
actuated joint and zero for a passive one. A Pa bar is a rigid slender rod (lumped ends, as in
:mod:`.dynamics`); its upper ball joint acts on the bar by the arm, its lower one on the platform by the
bar, and its tension T is the multiplier of its length row (the axial force of a massless bar).
"""
from dataclasses import dataclass

import numpy as np

from .chain import closure, link_transform, point_on_link, point_on_platform
from .dynamics import actuator_efforts, inertia_loads


@dataclass
class Reactions:
    """The joint reactions of a rigid parallel robot at a batch of instants (module docstring).

    Parameters
    ----------
    efforts : (N, n_act) ndarray
        Actuator torques (N·m) and forces (N), as :meth:`ParallelRobot.efforts`.
    force, moment : dict of str to (N, 3) ndarray
        Per joint, the force (N) and the moment about its centre (N·m) on the distal body by the
        proximal one, global axes. Joints are named as in the robot's femdyn model: ``"<limb>.joint<j>"``
        (j from 0 at the base; the last one attaches the limb to the platform) and, for a Pa forearm,
        ``"<limb>.bar<k>.upper"`` (on the bar by the arm) and ``"<limb>.bar<k>.lower"`` (on the platform by
        the bar).
    centre : dict of str to (N, 3) ndarray
        Each joint's centre, m, global.
    tension : dict of str to (N,) ndarray
        Each Pa bar's (``"<limb>.bar<k>"``) tension, N (positive pulling its ends together).
    indeterminate : bool
        True when the closure has dependent rows (an overconstrained robot): the multipliers are then the
        minimum-norm set and the reactions across the dependent directions are not unique.

    Examples
    --------
    >>> from femdyn.robots.parallel import parallel_robot
    >>> r = parallel_robot("stewart", leg_mass=0.0).reactions([0.0, 0.0, 0.6, 0.0, 0.0, 0.0])
    >>> sorted(r.force)[:2]
    ['leg 0.joint0', 'leg 0.joint1']
    """

    efforts: np.ndarray
    force: dict
    moment: dict
    centre: dict
    tension: dict
    indeterminate: bool

    def first(self):
        """The reactions of the first instant only (arrays without their batch axis).

        Parameters
        ----------
        None

        Returns
        -------
        Reactions
        """
        pick = {key: {name: v[0] for name, v in getattr(self, key).items()}
                for key in ("force", "moment", "centre", "tension")}
        return Reactions(self.efforts[0], indeterminate=self.indeterminate, **pick)


def joint_reactions(robot, Z, Zd, Zdd):
    """The :class:`Reactions` of a robot at solved states (module docstring).

    Parameters
    ----------
    robot : ParallelRobot
    Z, Zd, Zdd : (N, n) ndarray
        As :func:`.dynamics.inertia_loads`: the states and their rates.

    Returns
    -------
    Reactions
        Its efforts, each joint's force, moment and centre, each bar's tension.
    """
    chains = robot.chains
    loads = inertia_loads(robot, Z, Zd, Zdd)
    f_Z = np.einsum("nkj,nk->nj", loads.jacobian, loads.wrench)
    u = actuator_efforts(robot, Z, Zd, Zdd, forces=f_Z)
    applied = f_Z.copy()
    applied[:, robot.actuators] -= u
    _, FZ = closure(chains, Z)
    lam = -np.einsum("nij,nj->ni", np.linalg.pinv(np.swapaxes(FZ, 1, 2), rcond=1e-10), applied)
    out = Reactions(u, {}, {}, {}, {}, bool(np.linalg.matrix_rank(FZ[0], tol=1e-9) < chains.rows))
    row = 0
    for i, limb in enumerate(robot.description.limbs):
        rows = slice(row, row + chains.limbs[i].rows)
        row = rows.stop
        outside = _closing_joint(robot, loads, i, lam[:, rows], out)
        for j in reversed(range(len(limb.links))):
            outside = [_link_balance(robot, loads, i, j, outside, out)]
    return out


def _record(out, name, force, moment, centre):
    """Store one joint's reaction."""
    out.force[name], out.moment[name], out.centre[name] = force, moment, centre


def _closing_joint(robot, loads, i, lam, out):
    """Record limb i's cut joint (or its bars) from its multipliers; return the loads on its last link as
    (force, point, moment) triples."""
    chains, F = robot.chains, loads.frames
    limb, chain = robot.description.limbs[i], chains.limbs[i]
    k = len(chain.kinds)
    name = f"{limb.name}.joint{len(limb.joints) - 1}"
    if chain.end_kind == "Pa":
        ends = [b for b in range(len(loads.bars)) if loads.bars[b][0] == i]
        base, triples = 6 * len(loads.bodies), []
        for a, (on_link, on_platform) in enumerate(chain.anchors):
            A = point_on_link(F, chains, i, k, on_link)[0]
            B = point_on_platform(F, chains, on_platform)[0]
            e = (B - A) / np.linalg.norm(B - A, axis=1, keepdims=True)
            T = lam[:, a]
            f_A = f_B = np.zeros_like(A)
            if ends:
                w = loads.wrench[:, base + 6 * ends[a]:base + 6 * ends[a] + 6]
                f_A, f_B = w[:, :3], w[:, 3:]
            F_A, F_B = f_A - T[:, None] * e, f_B + T[:, None] * e
            bar = f"{limb.name}.bar{a}"
            _record(out, f"{bar}.upper", F_A, np.zeros_like(A), A)
            _record(out, f"{bar}.lower", -F_B, np.zeros_like(B), B)
            out.tension[bar] = T
            triples.append((-F_A, A, np.zeros_like(A)))
        return triples
    c = point_on_link(F, chains, i, k, np.array(limb.joints[-1].point, float))[0]
    force, moment = lam[:, :3], np.zeros_like(c)
    if len(chain.end_axes):
        u = np.einsum("nij,j->ni", link_transform(F, i, k)[0], chain.end_axes[0])
        for m, axis in enumerate(chain.end_axes[1:]):
            moment = moment + lam[:, 3 + m, None] * np.cross(u, np.einsum("nij,j->ni", F.R_p, axis))
    _record(out, name, force, moment, c)
    return [(-force, c, -moment)]


def _link_balance(robot, loads, i, j, outside, out):
    """Newton–Euler of link j of limb i: record its proximal joint's reaction from the link's inertia minus
    gravity and the ``outside`` loads on it; return that joint's load on link j − 1."""
    chains, F = robot.chains, loads.frames
    limb, chain = robot.description.limbs[i], chains.limbs[i]
    c = point_on_link(F, chains, i, chain.screws_before(j), np.array(limb.joints[j].point, float))[0]
    force, moment = np.zeros_like(c), np.zeros_like(c)
    for k, body in enumerate(loads.bodies):
        if body.limb == i and body.screws == chain.ends[j]:
            x = point_on_link(F, chains, i, body.screws, body.com)[0]
            w = loads.wrench[:, 6 * k:6 * k + 6]
            force, moment = w[:, :3], w[:, 3:] + np.cross(x - c, w[:, :3])
    for f, p, m in outside:
        force, moment = force - f, moment - np.cross(p - c, f) - m
    _record(out, f"{limb.name}.joint{j}", force, moment, c)
    return (-force, c, -moment)
