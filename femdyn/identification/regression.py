"""Measurement equations: momentum and joint-force rows linear in π, centroidal momentum nonlinear.

L_c = Y_L π − (Y_c π) × (Y_p π) / Σ m_i (the space-robot identification study, eqs. 5–7);
docs/identification.md §1.
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
    """Stacked (W (N·k, 10 n), y (N·k,)) of the momentum channels, sample by sample (N·m·s, N·s).

    Parameters
    ----------
    model : TreeModel
        The identified model (coordinates of the measurements).
    measurements : Measurements
        Momentum samples.
    channels : sequence of str, optional
        Channels of ``MOMENTUM_CHANNELS`` to use (else ModelError).
    """
    rows = _channels(channels)
    data = Data(model)
    W = np.vstack([momentum_regressor(model, data, q, v)[rows] for q, v in zip(measurements.q, measurements.v)])
    y = measurements.select(channels).y.ravel()
    return W, y


def torque_rows(model, measurements):
    """Stacked (W (N·joints, 10 n), y) of the joint-force regressor over the samples (needs measured q̈).

    Parameters
    ----------
    model : TreeModel
        The fixed-base arm.
    measurements : Measurements
        Torque samples with accelerations (else ModelError).
    """
    if measurements.qdd is None or measurements.kind != "torque":
        raise ModelError("torque_rows: needs torque measurements with accelerations (torque_experiment)")
    data = Data(model)
    W = np.vstack([torque_regressor(model, data, q, v, a)
                   for q, v, a in zip(measurements.q, measurements.v, measurements.qdd)])
    return W, measurements.y.ravel()


class CentroidalMomentum:
    """f(π) → angular momentum about the system centre of mass (N, len(axes)), N·m·s.

    The base translation and its velocity are zeroed (unmeasured): only attitude and joints enter.

    Parameters
    ----------
    model : TreeModel
        A tree whose root is one free-floating base (else ModelError).
    q, v : array_like (N, nq), (N, nv)
        Configurations and velocities of the samples.
    axes : sequence of int, optional
        Components of L_c to return (default all three).
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
