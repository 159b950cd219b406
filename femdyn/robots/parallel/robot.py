"""The face of a parallel robot: kinematics, rigid efforts and the femdyn model, from one description.

A pose is the task coordinates of the description in its order: (x, y, z) for a translational robot,
(x, y, z, rx, ry, rz) for a 6-DOF one (platform frame origin, m; rotation vector, rad), the named
coordinates for lower mobility. Actuator coordinates are as :mod:`.description` defines them.
"""
from dataclasses import replace

import numpy as np

from ...errors import ModelError
from .assembly import assembly_modes
from .build import build_model
from .chain import Chains, LimbChain, closure, frames, point_on_link, point_on_platform, rotation
from .description import TASK_COORDINATES
from .dynamics import actuator_efforts
from .kinematics import rates, require, sensitivity, solve_closure
from .reactions import joint_reactions

__all__ = ["ParallelRobot"]


def _chains(description):
    """The :class:`~.chain.Chains` of a description: screws per limb, link ends, closures."""
    limbs, first = [], 0
    for limb in description.limbs:
        kinds, axes, points, ends = [], [], [], []
        for joint in limb.joints[:-1]:
            screws = {"R": ("R",), "P": ("P",), "U": ("R", "R")}[joint.kind]
            kinds += screws
            axes += [np.array(joint.axes[k]) for k in range(len(screws))]
            points += [np.array(joint.point, float)] * len(screws)
            ends.append(len(kinds))
        end = limb.joints[-1]
        centre = np.array(end.point, float)
        anchors, length = ((centre, centre),), None
        if end.kind == "Pa":                   # the two bars: elbow ± w/2 a on the arm, end ± w/2 a on the platform
            d, half = np.array(end.end, float), 0.5 * end.width * np.array(end.axes[0])
            anchors, length = ((centre + half, d + half), (centre - half, d - half)), float(np.linalg.norm(d - centre))
        limbs.append(LimbChain(tuple(kinds), np.array(axes).reshape(-1, 3), np.array(points).reshape(-1, 3), first,
                               tuple(ends), end.kind, _end_axes(end), anchors, length))
        first += len(kinds)
    return Chains(tuple(limbs), first, np.array(description.platform.home, float))


def _end_axes(joint):
    """The axes a limb's closing joint uses: U (u₁, u₂); R (a, n₁, n₂) with n ⟂ a; none otherwise."""
    if joint.kind == "U":
        return np.array(joint.axes)
    if joint.kind == "R":
        a = np.array(joint.axes[0])
        n1 = np.cross(a, [1.0, 0, 0] if abs(a[0]) < 0.9 else [0, 1.0, 0])
        n1 /= np.linalg.norm(n1)
        return np.array([a, n1, np.cross(a, n1)])
    return np.zeros((0, 3))


class ParallelRobot:
    """A parallel robot: kinematics, rigid-body efforts and femdyn models from a :class:`RobotDescription`.

    Parameters
    ----------
    description : RobotDescription

    Attributes
    ----------
    chains : Chains
        The closure equations (:mod:`.chain`); Z = (θ, pose) are its coordinates.
    task, task_mask : ndarray
        The columns of Z that the task coordinates are, as indices and as a mask.
    actuators, offsets : ndarray
        The columns of Z of the actuated joints and their home values (rad or m).
    home : ndarray
        Z at the home configuration.

    Raises
    ------
    ModelError
        If the description cannot be assembled: the home configuration does not close, or the mobility
        (by the closure Jacobian's rank) does not match the task coordinates and the actuators; the
        message gives the Grübler–Kutzbach count beside it.

    Examples
    --------
    >>> from femdyn.robots.parallel import parallel_robot
    >>> robot = parallel_robot("delta")
    >>> a = robot.inverse_kinematics([0.05, 0.0, -0.9])
    >>> bool(np.allclose(robot.forward_kinematics(a), [0.05, 0.0, -0.9], atol=1e-9))
    True
    """

    def __init__(self, description):
        self.description = description
        self.chains = _chains(description)
        n_theta = self.chains.n_theta
        self.task = np.array([n_theta + TASK_COORDINATES.index(c) for c in description.task])
        self.task_mask = np.isin(np.arange(self.chains.n), self.task)     # the columns of Z the task fixes
        self.actuators, self.offsets = self._actuators()
        self.home = np.concatenate([np.zeros(n_theta), self.chains.home])
        self._check_mobility()

    # -- set-up ---------------------------------------------------------------------------------------
    def _actuators(self):
        """Z columns of the actuated joints and their home values (rad or m)."""
        cols, offsets = [], []
        for (i, j) in self.description.actuated:
            limb, chain = self.description.limbs[i], self.chains.limbs[i]
            cols.append(chain.first + chain.screws_before(j))
            joint = limb.joints[j]
            if joint.home is not None:
                offsets.append(joint.home)
            elif joint.kind == "P":
                before = np.array(limb.joints[j - 1].point) if j else np.array(joint.point)
                offsets.append(float((np.array(limb.joints[j + 1].point) - before) @ np.array(joint.axes[0])))
            else:
                offsets.append(0.0)
        return np.array(cols, int), np.array(offsets)

    def _check_mobility(self):
        """Refuse a description whose home does not close or whose mobility does not match (ModelError)."""
        d = self.description
        F, J = closure(self.chains, self.home[None])
        where = f"robot '{d.name}'"
        if np.abs(F).max() > 1e-9:
            row = int(np.argmax(np.abs(F[0])))
            raise ModelError(f"{where}: the home configuration does not close ({self._row_name(row)} misses by "
                             f"{np.abs(F).max():.3g}); check that each limb's joints reach the platform at the home "
                             "pose")
        mobility, rank = self.mobility(J[0])
        if mobility != len(d.task) or len(self.actuators) != len(d.task):
            raise ModelError(f"{where}: mobility {mobility} at home (closure Jacobian rank {rank} of {self.chains.n} "
                             f"coordinates; Grübler–Kutzbach count {self.grubler_kutzbach()}), {len(self.actuators)} "
                             f"actuated joints and {len(d.task)} task coordinates {list(d.task)} must all agree; "
                             "change the task, the actuated joints, or the joints that leave a motion free")
        fixed = np.zeros(self.chains.n, bool)
        fixed[self.actuators] = True
        if np.linalg.matrix_rank(J[0][:, ~fixed], tol=1e-9) < self.chains.n - len(self.actuators):
            raise ModelError(f"{where}: with the actuated joints locked the home configuration can still move "
                             "(a forward-kinematics singularity); choose another home pose or other actuated joints")

    def mobility(self, jacobian=None):
        """The robot's mobility at home: coordinates of Z less the closure Jacobian's rank.

        Parameters
        ----------
        jacobian : (rows, n) ndarray, optional
            The closure Jacobian at home, if already evaluated.

        Returns
        -------
        mobility, rank : int
        """
        J = closure(self.chains, self.home[None])[1][0] if jacobian is None else jacobian
        rank = int(np.linalg.matrix_rank(J, tol=1e-9 * max(1.0, np.abs(J).max())))
        return self.chains.n - rank, rank

    def _row_name(self, row):
        """'limb NAME' of a closure row."""
        for limb, chain in zip(self.description.limbs, self.chains.limbs):
            if row < chain.rows:
                return f"limb '{limb.name}'"
            row -= chain.rows
        return "a limb"

    def grubler_kutzbach(self):
        """The Grübler–Kutzbach mobility count 6(b − 1) − Σ(6 − fᵢ), less the Pa bars' idle spins.

        Returns
        -------
        int
            The count (it underestimates overconstrained mechanisms, e.g. planar robots counted in space).
        """
        bodies, constraint = 2, 0                      # ground and platform
        for limb in self.description.limbs:
            bodies += len(limb.links)
            for joint in limb.joints:
                if joint.kind == "Pa":
                    bodies, constraint = bodies + 2, constraint + 4 * 3 + 2     # 2 bars, 4 S, 2 idle spins
                else:
                    constraint += 6 - {"R": 1, "P": 1, "U": 2, "S": 3}[joint.kind]
        return 6 * (bodies - 1) - constraint

    # -- kinematics -----------------------------------------------------------------------------------
    def _batch(self, values, size, what):
        """(N, size) float array of one or many rows, and whether one row was given."""
        a = np.asarray(values, float)
        single = a.ndim == 1
        a = np.atleast_2d(a)
        if a.shape[1] != size or not np.all(np.isfinite(a)):
            raise ModelError(f"robot '{self.description.name}': {what} must have {size} finite values per row "
                             f"({', '.join(self.description.task) if what.startswith('pose') else 'actuators'}), "
                             f"got shape {np.shape(values)}")
        return a, single

    def state(self, pose, guess=None):
        """Every coordinate Z = (θ, pose) at task poses (N, n) by inverse kinematics (ConvergenceError if none).

        Parameters
        ----------
        pose : (n_task,) or (N, n_task) array_like
            Task coordinates (m, rad).
        guess : (n,) or (N, n) array_like, optional
            Starting states (default: home).
        """
        P, single = self._batch(pose, len(self.task), "pose")
        Z, done = self._solve_task(P, guess)
        require(done, f"robot '{self.description.name}': inverse kinematics", P)
        return (Z[0] if single else Z)

    def _solve_task(self, P, guess=None):
        """States Z (N, n) at the task poses P (N, n_task) from ``guess`` (default home), and which converged."""
        Z = np.tile(self.home, (len(P), 1)) if guess is None else np.array(np.atleast_2d(guess), float)
        Z[:, self.task] = P
        return solve_closure(self.chains, Z, ~self.task_mask)

    def inverse_kinematics(self, pose):
        """Actuator coordinates (rad, m) at task poses.

        Parameters
        ----------
        pose : (n_task,) or (N, n_task) array_like
            Task coordinates (m, rad).

        Returns
        -------
        ndarray (n_act,) or (N, n_act)

        Raises
        ------
        ConvergenceError
            For a pose outside the workspace.
        """
        Z = np.atleast_2d(self.state(pose))
        out = Z[:, self.actuators] + self.offsets
        return out[0] if np.ndim(pose) == 1 else out

    def forward_kinematics(self, actuators, guess=None):
        """Task poses for actuator coordinates: the branch reached by Newton from home (or from ``guess``).

        Parameters
        ----------
        actuators : (n_act,) or (N, n_act) array_like
            rad, m.
        guess : (n_task,) array_like, optional
            A pose near the wanted assembly.

        Returns
        -------
        ndarray (n_task,) or (N, n_task)
        """
        A, single = self._batch(actuators, len(self.actuators), "actuators")
        Z = np.tile(self.home if guess is None else self.state(guess), (len(A), 1))
        Z[:, self.actuators] = A - self.offsets
        free = np.ones(self.chains.n, bool)
        free[self.actuators] = False
        Z, done = solve_closure(self.chains, Z, free)
        require(done, f"robot '{self.description.name}': forward kinematics", A)
        return Z[0, self.task] if single else Z[:, self.task]

    def assembly_modes(self, actuators, starts=256, seed=0):
        """Every distinct platform pose found for the actuator coordinates, and which one is home's branch.

        Multi-start Gauss–Newton on the closure with the actuators locked, from starts drawn over the
        workspace bounds and beyond; each mode verified (closure residual, inverse kinematics from it
        returns the actuators) and deduplicated (:mod:`.assembly`). A numerical search: it finds the
        modes its starts lead to, not a proof that there are no others.

        Parameters
        ----------
        actuators : (n_act,) array_like
            rad, m.
        starts : int
            Number of random starts.
        seed : int
            Seed of the starts (the same seed gives the same modes).

        Returns
        -------
        AssemblyModes
            ``poses`` (m, n_task) sorted by distance from home, ``platform`` (m, 6), ``states``, ``residual``,
            ``home`` (the index :meth:`forward_kinematics` returns, or None).

        Raises
        ------
        ModelError
            For a wrong number of actuator coordinates or a non-positive ``starts``.
        """
        A, _ = self._batch(actuators, len(self.actuators), "actuators")
        if len(A) != 1 or int(starts) < 1:
            raise ModelError(f"robot '{self.description.name}': assembly_modes takes one set of actuator "
                             f"coordinates and starts ≥ 1 (got {len(A)} rows, starts={starts!r})")
        return assembly_modes(self, A[0], starts, seed)

    def jacobian(self, pose):
        """J = ∂(actuators)/∂(task): actuator rates ȧ = J ẋ (the inverse kinematic Jacobian).

        Parameters
        ----------
        pose : (n_task,) or (N, n_task) array_like

        Returns
        -------
        ndarray (n_act, n_task) or (N, n_act, n_task)
            rad or m per m or rad.
        """
        Z = np.atleast_2d(self.state(pose))
        J = sensitivity(self.chains, Z, self.task_mask)[:, self.actuators]
        return J[0] if np.ndim(pose) == 1 else J

    def motion(self, pose, velocity, acceleration, guess=None):
        """Z, Ż, Z̈ (N, n) of every coordinate at task poses moving with the given rates (m/s, rad/s, …).

        Parameters
        ----------
        pose, velocity, acceleration : (N, n_task) array_like
            Task coordinates and their first and second time derivatives.
        guess : (n,) or (N, n) array_like, optional
            States near the solution (default: home).
        """
        P, _ = self._batch(pose, len(self.task), "pose")
        V = np.broadcast_to(np.asarray(velocity, float), P.shape)
        A = np.broadcast_to(np.asarray(acceleration, float), P.shape)
        Z = np.atleast_2d(self.state(P, guess))
        Zd, Zdd = rates(self.chains, Z, self.task_mask, V, A)
        return Z, Zd, Zdd

    def actuator_rates(self, pose, velocity, acceleration):
        """Actuator coordinates, velocities and accelerations at task poses with given rates.

        Parameters
        ----------
        pose, velocity, acceleration : (N, n_task) array_like
            Task coordinates and their first and second time derivatives.

        Returns
        -------
        a, ȧ, ä : ndarray (N, n_act)
        """
        Z, Zd, Zdd = self.motion(pose, velocity, acceleration)
        k = self.actuators
        return Z[:, k] + self.offsets, Zd[:, k], Zdd[:, k]

    def frames(self, Z):
        """The kinematic frames of states Z (N, n): see :func:`.chain.frames`.

        Parameters
        ----------
        Z : (N, n) array_like
            States (θ, pose).
        """
        return frames(self.chains, np.atleast_2d(Z))

    def sample_poses(self, n, seed=0, limit=1e4):
        """``n`` task poses drawn uniformly in the workspace bounds that assemble and respect joint limits.

        Parameters
        ----------
        n : int
        seed : int
            Seed of numpy's default generator (the same seed gives the same poses).
        limit : float
            Largest accepted condition number of the Jacobian (keeps samples off singularities).

        Returns
        -------
        ndarray (n, n_task)
        """
        bounds = self.workspace_bounds()
        rng = np.random.default_rng(seed)
        out = np.zeros((0, len(self.task)))
        for _ in range(50):
            P = rng.uniform(bounds[:, 0], bounds[:, 1], size=(max(4 * n, 64), len(self.task)))
            out = np.vstack([out, P[self.reachable(P, limit)]])
            if len(out) >= n:
                return out[:n]
        raise ModelError(f"robot '{self.description.name}': fewer than {n} of the poses drawn in the workspace "
                         f"bounds {self.description.workspace} assemble; narrow the [workspace] bounds")

    def workspace_bounds(self):
        """The bounds of pose sampling and workspace maps, per task coordinate.

        Returns
        -------
        ndarray (n_task, 2)
            (low, high) of each task coordinate, m or rad: the description's ``workspace``, else ±5 cm
            (±0.1 rad) about home.
        """
        home = self.home[self.task]
        names = self.description.task
        return np.array([self.description.workspace.get(c, (h - d, h + d)) for c, h, d in
                         zip(names, home, [0.05 if c in "xyz" else 0.1 for c in names])])

    def reachable(self, poses, limit=1e4):
        """Mask of poses (N, n_task) that assemble, keep every joint within its limits and the Jacobian's
        condition number below ``limit``.

        Parameters
        ----------
        poses : (N, n_task) array_like
        limit : float
            Largest accepted condition number of the Jacobian.
        """
        Z, ok = self._solve_task(np.atleast_2d(np.asarray(poses, float)))
        ok &= self._within_limits(Z)
        if ok.any():
            J = sensitivity(self.chains, Z[ok], self.task_mask)[:, self.actuators]
            ok[np.flatnonzero(ok)] = np.linalg.cond(J) < limit
        return ok

    def _within_limits(self, Z):
        """Mask of states whose joints lie within the description's limits."""
        ok = np.ones(len(Z), bool)
        for i, limb in enumerate(self.description.limbs):
            chain = self.chains.limbs[i]
            for j, joint in enumerate(limb.joints[:-1]):
                if joint.limits is None:
                    continue
                col = chain.first + chain.screws_before(j)
                value = Z[:, col] + (self.offsets[list(self.actuators).index(col)] if joint.actuated else 0.0)
                ok &= (value >= joint.limits[0]) & (value <= joint.limits[1])
        return ok

    def with_payload(self, mass):
        """The same robot carrying another payload at its tool point.

        Parameters
        ----------
        mass : float
            Payload, kg (≥ 0).

        Returns
        -------
        ParallelRobot
        """
        if not (np.isfinite(mass) and mass >= 0):
            raise ModelError(f"robot '{self.description.name}': payload must be a mass ≥ 0 (kg), got {mass!r}")
        d = self.description
        return ParallelRobot(replace(d, platform=replace(d.platform, payload=float(mass))))

    def platform_point(self, x):
        """Home position (m, global) of the point ``x`` given in the platform frame.

        Parameters
        ----------
        x : (3,) array_like
            m, platform frame.
        """
        return self.chains.home[:3] + rotation(self.chains.home[3:]) @ np.asarray(x, float)

    def skeleton(self, pose):
        """Where the joints are at a task pose: what pictures draw.

        Parameters
        ----------
        pose : (n_task,) array_like

        Returns
        -------
        dict
            ``"limbs"``: per limb an (k, 3) array of joint centres from the base to the platform, m (a Pa
            limb ends at its elbow); ``"bars"``: per Pa limb two (2, 3) arrays, the bars' ends;
            ``"platform"``: (L, 3) the limbs' platform attachment points; ``"tool"``: (3,) the tool point.
        """
        F = self.frames(self.state(np.asarray(pose, float))[None])
        limbs, bars, attach = [], [], []
        for i, (limb, chain) in enumerate(zip(self.description.limbs, self.chains.limbs)):
            pts = [point_on_link(F, self.chains, i, chain.screws_before(j), np.array(joint.point, float))[0][0]
                   for j, joint in enumerate(limb.joints)]
            limbs.append(np.array(pts))
            if chain.bar_length is not None:
                bars.append([np.array([point_on_link(F, self.chains, i, len(chain.kinds), a)[0][0],
                                       point_on_platform(F, self.chains, b)[0][0]]) for a, b in chain.anchors])
                attach.append(point_on_platform(F, self.chains, np.array(limb.joints[-1].end, float))[0][0])
            else:
                attach.append(pts[-1])
        tool = self.platform_point(self.description.platform.tool)
        return {"limbs": limbs, "bars": bars, "platform": np.array(attach),
                "tool": point_on_platform(F, self.chains, tool)[0][0]}

    # -- dynamics and models --------------------------------------------------------------------------
    def efforts(self, pose, velocity=None, acceleration=None):
        """Actuator torques (N·m) and forces (N) of the rigid robot at an instant, gravity included.

        By the principle of virtual work on the closure's coordinates (:mod:`.dynamics`), independent of the
        DAE model of :meth:`model`.

        Parameters
        ----------
        pose : (n_task,) or (N, n_task) array_like
        velocity, acceleration : array_like, optional
            Task rates (default 0: statics).

        Returns
        -------
        ndarray (n_act,) or (N, n_act)
            The effort each actuator exerts on its distal link, positive where it does positive work as its
            coordinate grows.
        """
        out = actuator_efforts(self, *self._instant(pose, velocity, acceleration))
        return out[0] if np.ndim(pose) == 1 else out

    def reactions(self, pose, velocity=None, acceleration=None):
        """Every joint's force and moment of the rigid robot at an instant, gravity included, with the efforts.

        The closure's multipliers from the same virtual-work balance as :meth:`efforts`, then Newton–Euler
        backwards along each limb (:mod:`.reactions`).

        Parameters
        ----------
        pose, velocity, acceleration : array_like
            As :meth:`efforts` (rates None: the robot at rest).

        Returns
        -------
        Reactions
            Per joint (named as in :meth:`model`), the force (N) and moment (N·m, about the joint centre) on
            its distal body by its proximal one, global axes; per Pa bar its tension; the actuator efforts.
            Arrays carry a leading batch axis unless ``pose`` is one pose.
        """
        out = joint_reactions(self, *self._instant(pose, velocity, acceleration))
        return out.first() if np.ndim(pose) == 1 else out

    def _instant(self, pose, velocity, acceleration):
        """Z, Ż, Z̈ (N, n) at task poses with their rates (None: at rest)."""
        P, _ = self._batch(pose, len(self.task), "pose")
        V = np.zeros_like(P) if velocity is None else velocity
        A = np.zeros_like(P) if acceleration is None else acceleration
        return self.motion(P, V, A)

    def model(self, pose=None, flexible=True, **options):
        """A femdyn :class:`~femdyn.model.Model` of this robot at ``pose`` (default home) for every solver.

        Parameters
        ----------
        pose : (n_task,) array_like, optional
        flexible : bool
            Links with a ``flexible`` specification as ANCF beams (True) or rigid.
        **options
            See :func:`.build.build_model`.

        Returns
        -------
        RobotModel
            The model and the names of its parts (actuators, platform, flexible links).
        """
        return build_model(self, self.home[self.task] if pose is None else pose, flexible=flexible, **options)
