"""Measurement equations of an experiment, linear and nonlinear in the parameters.

* :func:`momentum_rows` — ``y = Y_h(q, v) π`` for momentum channels about the world
  origin (base pose measured: linear in π);
* :func:`torque_rows` — ``τ = Y_τ(q, v, q̈) π`` (fixed-base arms);
* :class:`CentroidalMomentum` — the angular momentum about the system centre of mass
  from the base attitude and the joints only (the space-robot identification study, eqs. 5–7: the base position is
  not measured, the centre of mass is the reference). With M c = Y_c π and p = Y_p π,

      L_c = Y_L π − (Y_c π) × (Y_p π) / (Σ_i m_i),

  nonlinear in the masses; it does not depend on the base's translation, which the
  class sets to zero. This is the function ``f(M)`` that the space-robot identification study linearizes.
"""
import numpy as np

from femdyn.errors import ModelError
from femdyn.solvers.recursive import Data
from femdyn.solvers.recursive.regressor import (N_PARAMETERS, first_moment_regressor, momentum_regressor,
                                                torque_regressor)

from .experiment import MOMENTUM_CHANNELS


def _channels(names):
    """Indices of the named momentum channels in MOMENTUM_CHANNELS."""
    bad = [c for c in names if c not in MOMENTUM_CHANNELS]
    if bad:
        raise ModelError(f"momentum channels {bad} unknown; use some of {MOMENTUM_CHANNELS}")
    return [MOMENTUM_CHANNELS.index(c) for c in names]


def momentum_rows(model, measurements, channels=MOMENTUM_CHANNELS):
    """Stacked (W, y): W (N·k, 10 n) momentum regressor rows of the k ``channels``, y the measured values.

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        The identified model (its coordinates are those of the measurements).
    measurements : femdyn.identification.experiment.Measurements
        Momentum samples.
    channels : sequence of str, optional
        Channels of ``MOMENTUM_CHANNELS`` to use.

    Returns
    -------
    W : ndarray (N·k, 10 n)
    y : ndarray (N·k,)
        N·m·s and N·s, sample by sample.

    Raises
    ------
    ModelError
        If a channel is unknown.

    Example
    -------
    >>> from femdyn.robots.serial import space_arm
    >>> from femdyn.identification.experiment import Measurements
    >>> model = space_arm(floating=True)
    >>> meas = Measurements(np.zeros(1), model.neutral_configuration()[None], np.ones((1, model.nv)), None,
    ...                     np.zeros((1, 6)), MOMENTUM_CHANNELS, "momentum")
    >>> momentum_rows(model, meas, ("Lz", "px"))[0].shape
    (2, 80)
    """
    rows = _channels(channels)
    data = Data(model)
    W = np.vstack([momentum_regressor(model, data, q, v)[rows] for q, v in zip(measurements.q, measurements.v)])
    y = measurements.select(channels).y.ravel()
    return W, y


def torque_rows(model, measurements):
    """Stacked (W, y) of the joint-force regressor over the samples (needs measured q̈).

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        The fixed-base arm.
    measurements : femdyn.identification.experiment.Measurements
        Torque samples with accelerations.

    Returns
    -------
    W : ndarray (N·joints, 10 n)
    y : ndarray (N·joints,)
        N·m or N, sample by sample.

    Raises
    ------
    ModelError
        If the measurements are not torque samples with accelerations.
    """
    if measurements.qdd is None or measurements.kind != "torque":
        raise ModelError("torque_rows: needs torque measurements with accelerations (torque_experiment)")
    data = Data(model)
    W = np.vstack([torque_regressor(model, data, q, v, a)
                   for q, v, a in zip(measurements.q, measurements.v, measurements.qdd)])
    return W, measurements.y.ravel()


class CentroidalMomentum:
    """f(π): angular momentum about the system centre of mass at every sample (N, 3), N·m·s.

    The base translation and its velocity are zeroed (unmeasured), so only the attitude
    and joint coordinates enter. Calling it with π (10 n,) gives L_c (N, len(axes)).

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        A tree whose root is one free-floating base.
    q : array_like (N, nq)
        Configurations of the samples.
    v : array_like (N, nv)
        Velocities of the samples.
    axes : sequence of int, optional
        Components of L_c to return (default all three).

    Raises
    ------
    ModelError
        If the root is not one free-floating base.

    Example
    -------
    >>> from femdyn.robots.serial import space_arm
    >>> from femdyn.solvers.recursive import momentum
    >>> from femdyn.solvers.recursive.regressor import inertial_parameters
    >>> model = space_arm(floating=True); q = model.neutral_configuration(); v = np.ones(model.nv)
    >>> L = CentroidalMomentum(model, q[None], v[None])(inertial_parameters(model))
    >>> np.allclose(L[0], momentum(model, Data(model), q, v, about="com")[:3])
    True
    """

    def __init__(self, model, q, v, axes=(0, 1, 2)):
        free = model.free_joints
        if len(free) != 1 or model.parent[free[0]] >= 0:
            raise ModelError("CentroidalMomentum needs a model whose root is one free-floating base")
        qb, vb = model.q_index[free[0]], model.v_index[free[0]]
        data = Data(model)
        Yh, Yc = [], []
        for qk, vk in zip(np.asarray(q, float), np.asarray(v, float)):
            qk, vk = qk.copy(), vk.copy()
            qk[qb:qb + 3], vk[vb + 3:vb + 6] = 0.0, 0.0
            Yh.append(momentum_regressor(model, data, qk, vk))
            Yc.append(first_moment_regressor(model, data, qk))
        self.Yh, self.Yc = np.array(Yh), np.array(Yc)
        self.axes = list(axes)
        self.mass_columns = np.arange(model.n) * N_PARAMETERS

    def __call__(self, pi):
        pi = np.asarray(pi, float)
        h = self.Yh @ pi                                   # (N, 6)
        c = self.Yc @ pi / pi[self.mass_columns].sum()     # (N, 3)
        p = h[:, 3:]
        L = h[:, :3].copy()
        L[:, 0] -= c[:, 1] * p[:, 2] - c[:, 2] * p[:, 1]
        L[:, 1] -= c[:, 2] * p[:, 0] - c[:, 0] * p[:, 2]
        L[:, 2] -= c[:, 0] * p[:, 1] - c[:, 1] * p[:, 0]
        return L[:, self.axes]
