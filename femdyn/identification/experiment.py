"""Experiments: simulated "measurements" from the forward solver, and noise.

* :func:`wheel_experiment` — a free-floating robot whose base attitude (about z) is
  held on a plan by a reaction wheel while the arm joints follow their plans (the space-robot identification study).
  The hybrid O(N) solver gives the accelerations (arm joints motion-given, base free,
  wheel torque-given); the wheel torque is the exact computed torque that gives the base
  the planned angular acceleration plus a PD correction (two hybrid sweeps: the base
  acceleration is affine in the wheel torque). RK4 integrates the run. What is
  "measured" is the wheel's spin momentum h_w relative to the base; momentum conservation
  (the study's eq. 8, L + L_RW = L₀) makes ``y = h₀ − h_w`` the momentum of the rest of the
  robot, whose parameters — the wheel's mass and transverse inertia lumped into the
  base (:func:`merge_body`) — are the ones to identify.
* :func:`torque_experiment` — a fixed-base arm tracking a trajectory under computed
  torque; the joint forces and the solver's accelerations are recorded.
* :func:`add_noise` — additive white Gaussian noise on the measured channels.

Samples are taken on the integrator's grid (the sample interval must be a multiple of
the step).
"""
from dataclasses import dataclass, replace

import numpy as np

from femdyn.errors import ModelError
from femdyn.solvers.recursive import Data, forward_dynamics, hybrid_dynamics, kinematics
from femdyn.solvers.recursive.configuration import TreeSpace
from femdyn.solvers.recursive.control import computed_torque
from femdyn.solvers.recursive.floating import base_index
from femdyn.solvers.recursive.integrators import simulate
from femdyn.solvers.recursive.model import REVOLUTE, TreeModel
from femdyn.solvers.recursive.regressor import parameters_from_inertia

from .parameters import with_parameters

MOMENTUM_CHANNELS = ("Lx", "Ly", "Lz", "px", "py", "pz")


@dataclass
class Measurements:
    """Samples of one experiment, in the coordinates of the identified model.

    Parameters
    ----------
    t : ndarray (N,)
        Sample times, s.
    q : ndarray (N, nq)
        Configurations (joint values in rad or m, quaternions of free joints).
    v : ndarray (N, nv)
        Velocities.
    qdd : ndarray (N, nv) or None
        Accelerations, when measured.
    y : ndarray (N, k)
        Measured channels: momentum in N·m·s and N·s about the world origin (world
        axes), or joint forces in N·m / N.
    channels : tuple of str
        Names of the k channels (``MOMENTUM_CHANNELS`` or ``tau_<body>``).
    kind : str
        "momentum" or "torque".
    std : float, optional
        Standard deviation of the noise added to y (0: noise free).
    """
    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    qdd: np.ndarray
    y: np.ndarray
    channels: tuple
    kind: str
    std: float = 0.0

    def select(self, channels):
        """The same samples with only the named channels.

        Parameters
        ----------
        channels : sequence of str
            Names from ``self.channels``, in the wanted order.

        Returns
        -------
        Measurements

        Examples
        --------
        >>> m = Measurements(np.zeros(2), np.zeros((2, 1)), np.zeros((2, 1)), None, np.arange(4.0).reshape(2, 2),
        ...                  ("a", "b"), "torque")
        >>> m.select(["b"]).y.ravel().tolist()
        [1.0, 3.0]
        """
        idx = [self.channels.index(c) for c in channels]
        return replace(self, y=self.y[:, idx], channels=tuple(channels))


def add_noise(measurements, std, seed=0):
    """A copy with white Gaussian noise of standard deviation ``std`` (units of y) added to y.

    Parameters
    ----------
    measurements : Measurements
        The noise-free samples.
    std : float
        Standard deviation, units of y (≥ 0).
    seed : int, optional
        Seed of the noise (reproducible).

    Returns
    -------
    Measurements
        With ``std`` recorded.

    Raises
    ------
    ModelError
        If std < 0.

    Example
    -------
    >>> m = Measurements(np.zeros(3), np.zeros((3, 1)), np.zeros((3, 1)), None, np.zeros((3, 1)), ("tau",), "torque")
    >>> add_noise(m, 0.1, seed=1).y.shape
    (3, 1)
    """
    if not std >= 0:
        raise ModelError(f"noise: standard deviation {std} must be ≥ 0")
    rng = np.random.default_rng(seed)
    return replace(measurements, y=measurements.y + std * rng.standard_normal(measurements.y.shape), std=float(std))


def _plucker(E, r):
    """Motion transform [[E, 0], [−E r×, E]] (RBDA table 2.5)."""
    rx = np.array([[0, -r[2], r[1]], [r[2], 0, -r[0]], [-r[1], r[0], 0]])
    return np.block([[E, np.zeros((3, 3))], [-E @ rx, E]])


def merge_body(model, name):
    """``model`` without the leaf body ``name``, whose inertia is added to its parent's.

    Valid for a rotor whose inertia is symmetric about its joint axis (a balanced wheel):
    its rigid-body inertia does not depend on its joint angle.

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        The tree.
    name : str
        The leaf body on a revolute joint (e.g. a reaction wheel).

    Returns
    -------
    femdyn.solvers.recursive.model.TreeModel
        The reduced tree; the parent's inertial parameters include the body's.

    Raises
    ------
    ModelError
        If the body is not a leaf on a revolute joint, or its inertia is not symmetric
        about the joint axis.
    """
    i = model.index(name)
    p = model.parent[i]
    if p < 0 or np.any(model.parent == i) or model.joint_type[i] != REVOLUTE:
        raise ModelError(f"merge_body: '{name}' must be a leaf body on a revolute joint to a parent body")
    X = _plucker(model.tree_E[i], model.tree_r[i])
    a = model.axis[i]
    Kx = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    R1 = np.eye(3) + np.sin(1.0) * Kx + (1 - np.cos(1.0)) * Kx @ Kx
    XJ = _plucker(R1.T, np.zeros(3))
    I = model.inertia[i]
    if np.abs(XJ.T @ I @ XJ - I).max() > 1e-12 * np.abs(I).max():
        raise ModelError(f"merge_body: the inertia of '{name}' is not symmetric about its joint axis {a}; only a "
                         "balanced, axisymmetric rotor can be lumped into its parent")
    pi = parameters_from_inertia(model.inertia)
    pi[p] = parameters_from_inertia(model.inertia[p] + X.T @ I @ X)
    keep = [k for k in range(model.n) if k != i]
    reduced = TreeModel([model.bodies[k] for k in keep], model.gravity, model.strict)
    return with_parameters(reduced, pi[keep].ravel())


def _coordinates_without(model, i):
    """Masks of q and v without the coordinates of joint i."""
    q = np.ones(model.nq, bool)
    v = np.ones(model.nv, bool)
    q[model.q_index[i]:model.q_index[i] + model.joint_nq[i]] = False
    v[model.v_index[i]:model.v_index[i] + model.joint_nv[i]] = False
    return q, v


def _sample_indices(duration, step, interval):
    """Step indices of the samples, every ``interval`` s (a multiple of the step) up to ``duration``."""
    ratio = interval / step
    if abs(ratio - round(ratio)) > 1e-9 * ratio or interval <= 0:
        raise ModelError(f"sample interval {interval} s must be a positive multiple of the step {step} s")
    count = int(round(duration / interval))
    return np.arange(1, count + 1) * int(round(ratio))


def relative_wheel_momentum(model, data, q, v, wheel):
    """Spin momentum of body ``wheel`` relative to its parent, [L; p] about the world origin (world axes).

    ``model`` (femdyn.solvers.recursive.model.TreeModel): the tree; ``data`` (femdyn.solvers.recursive.Data):
    workspace of the model (its kinematics are updated); ``q, v`` (ndarray): configuration and velocity of the
    tree; ``wheel`` (str): the wheel body. Returns ndarray (6,): angular momentum (N·m·s) and linear momentum
    (N·s) of the wheel's spin, I_w S q̇_w transformed to the world origin.
    """
    kinematics(model, data, q, v)
    i = model.index(wheel)
    rel = model.inertia[i] @ model.S[i, :, 0] * v[model.v_index[i]]
    R, p = data.R_world[i], data.p_world[i]
    linear = R @ rel[3:]
    return np.r_[R @ rel[:3] + np.cross(p, linear), linear]


def planar_attitude(q, vi_base, v, qi_base):
    """Base rotation angle about z (rad) from its quaternion, and its rate (rad/s) for planar motion.

    ``q`` (ndarray (nq,)): configuration; the base quaternion (x, y, z, w) at ``qi_base + 3``; ``vi_base``
    (int): index of the base's velocity in v (angular velocity first, body axes); ``v`` (ndarray (nv,)):
    velocity; ``qi_base`` (int): index of the base's configuration in q. Returns ``angle`` (float): rad, 2
    atan2(q_z, q_w); ``rate`` (float): rad/s, the z component of the base's angular velocity.
    """
    x, y, z, w = q[qi_base + 3:qi_base + 7]
    return 2.0 * np.arctan2(z, w), v[vi_base + 2]


def wheel_experiment(model, wheel, plans, duration, interval, step=0.01, kp=100.0, kd=20.0):
    """Simulate the space-robot identification study's experiment and return (:class:`Measurements`, identified model).

    Parameters
    ----------
    model : TreeModel with a free-floating base, a wheel on a revolute joint about the
        base z axis, and arm joints; the motion must stay planar (all joints about z).
    wheel : name of the wheel body.
    plans : callable t (N,) ↦ (q, q̇, q̈) each (N, 1 + J): column 0 the base attitude
        about z (rad), then the J arm joints in the model's order (e.g. :class:`Cubic`).
    duration, interval, step : run time, sample interval and RK4 step (s).
    kp, kd : gains (1/s², 1/s) of the PD correction on joints and attitude.

    Returns
    -------
    (Measurements with channels Lx … pz, merged model without the wheel).
    """
    data = Data(model)
    base, w = base_index(model), model.index(wheel)
    qb, vb = model.q_index[base], model.v_index[base]
    arm = np.array([i for i in range(model.n) if i not in (base, w) and model.joint_nv[i] == 1])
    if len(arm) + 1 != plans(np.zeros(1))[0].shape[1]:
        raise ModelError(f"wheel_experiment: plans give {plans(np.zeros(1))[0].shape[1]} columns; need the base "
                         f"attitude and one per arm joint {[model.names[i] for i in arm]}")
    arm_q, arm_v = model.q_index[arm], model.v_index[arm]
    prescribed = np.zeros(model.n, bool)
    prescribed[arm] = True
    wv = model.v_index[w]

    def acceleration(t, q, v):
        qd, vd, ad = (x[0] for x in plans(np.array([t])))
        theta, omega = planar_attitude(q, vb, v, qb)
        target = ad + kd * (vd - np.r_[omega, v[arm_v]]) + kp * (qd - np.r_[theta, q[arm_q]])
        qdd = np.zeros(model.nv)
        qdd[arm_v] = target[1:]
        tau = np.zeros(model.nv)
        a0, _ = hybrid_dynamics(model, data, q, v, prescribed, tau, qdd)
        tau[wv] = 1.0
        a1, _ = hybrid_dynamics(model, data, q, v, prescribed, tau, qdd)
        return a0 + (target[0] - a0[vb + 2]) / (a1[vb + 2] - a0[vb + 2]) * (a1 - a0)

    q0, v0 = model.neutral_configuration(), np.zeros(model.nv)
    run = simulate(acceleration, q0, v0, duration, step, space=TreeSpace(model))
    k = _sample_indices(duration, step, interval)
    h0 = relative_wheel_momentum(model, data, q0, v0, wheel) * 0.0      # starts at rest: L₀ = 0
    y = np.array([h0 - relative_wheel_momentum(model, data, run.q[j], run.v[j], wheel) for j in k])
    keep_q, keep_v = _coordinates_without(model, w)
    meas = Measurements(run.t[k], run.q[k][:, keep_q], run.v[k][:, keep_v], run.a[k][:, keep_v], y,
                        MOMENTUM_CHANNELS, "momentum")
    return meas, merge_body(model, wheel)


def torque_experiment(model, trajectory, duration, interval, step=0.005, kp=100.0, kd=20.0):
    """Simulate a fixed-base arm tracking a trajectory under computed torque and record its joint forces.

    Forward dynamics, RK4; the recorded accelerations are the solver's.

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        A fixed-base tree (scalar joints only).
    trajectory : callable
        t (N,) ↦ (q, q̇, q̈), each (N, joints) (e.g.
        :class:`~femdyn.identification.excitation.Fourier`).
    duration : float
        Run time, s.
    interval : float
        Sample interval, s (a multiple of ``step``).
    step : float, optional
        RK4 step, s.
    kp, kd : float, optional
        Gains of the computed-torque law, 1/s² and 1/s.

    Returns
    -------
    Measurements
        Channels ``tau_<body>`` (N·m or N), with q, q̇, q̈ at the samples.

    Raises
    ------
    ModelError
        If the model has a free joint or the interval is not a multiple of the step.
    """
    if model.free_joints.size:
        raise ModelError("torque_experiment: needs a fixed-base model (scalar joints only)")
    data = Data(model)

    def torque(t, q, v):
        qd, vd, ad = (x[0] for x in trajectory(np.array([t])))
        return computed_torque(model, data, q, v, qd, vd, ad, kp, kd)

    q0, v0, _ = (x[0] for x in trajectory(np.zeros(1)))
    run = simulate(lambda t, q, v: forward_dynamics(model, data, q, v, torque(t, q, v)), q0, v0, duration, step)
    k = _sample_indices(duration, step, interval)
    tau = np.array([torque(run.t[j], run.q[j], run.v[j]) for j in k])
    qdd = np.array([forward_dynamics(model, data, run.q[j], run.v[j], tau[n]) for n, j in enumerate(k)])
    return Measurements(run.t[k], run.q[k], run.v[k], qdd, tau, tuple(f"tau_{n}" for n in model.names), "torque")
