"""Time integration of flexible trees: joint coordinates (quaternions included) and modal coordinates.

(q, v) of a :class:`~.flexible.FlexibleTreeModel` integrated by :func:`~.integrators.simulate`
on a :class:`~.configuration.TreeSpace` with RK4 or Zhai's method (Zhai 1996; Tian et al.
2010), accelerations from :func:`~.flexible_dynamics.hybrid_dynamics`.
"""
from dataclasses import dataclass

import numpy as np

from femdyn.errors import ModelError, SolverError

from . import modal_kernels as mk
from .configuration import TreeSpace
from .arguments import as_vector, base_acceleration, check_quaternions, external_forces, joint_mask
from .flexible_dynamics import FlexibleData, hybrid_dynamics, not_positive
from .integrators import Trajectory, not_finite, sample_times, simulate


@dataclass
class FlexibleTrajectory:
    """Samples of a flexible-tree run (rows are time steps).

    Parameters
    ----------
    t : (k,) ndarray
        Sample times [s].
    q, v, a : (k, nq), (k, nv_joints), (k, nv_joints) ndarray
        Joint coordinates, velocities, accelerations.
    eta, eta_rate, eta_acc : (k, n_modes) ndarray
        Modal coordinates and their first and second rates.
    tau : (k, nv_joints) ndarray
        Joint forces: the given ones and those computed for motion-given joints [N·m, N].
    state_q, state_v : ndarray
        The full vectors (joints then η) per sample.
    """
    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    a: np.ndarray
    eta: np.ndarray
    eta_rate: np.ndarray
    eta_acc: np.ndarray
    tau: np.ndarray
    state_q: np.ndarray
    state_v: np.ndarray


def simulate_flexible(model, q0, v0, t_end, h, method="zhai", tau=None, prescribed=None, qdd=None, psi=0.5,
                      phi=0.5, f_ext=None, t0=0.0):
    """Integrate a flexible tree from (q0, v0) to t_end with the fixed step h.

    Parameters
    ----------
    model : FlexibleTreeModel
    q0, v0 : (nq,), (nv,) initial state (joint coordinates then η; velocities then η̇)
    t_end, h : end time and step (s); the step count follows :func:`~.integrators.simulate`
    method : 'zhai' or 'rk4'
    tau : callable t → (n_joint_v,) joint forces (N·m, N), or None (zero)
    prescribed : motion-given joints (bools per body or body names), or None
    qdd : callable t → (n_joint_v,) accelerations of the motion-given joints (others ignored), or None (zero)
    psi, phi : Zhai's parameters
    f_ext : (n, 6) constant external wrenches on the body frames, or None

    Returns
    -------
    FlexibleTrajectory

    Raises
    ------
    ModelError for bad input; SolverError when the state stops being finite.
    """
    data = FlexibleData(model)
    mask = joint_mask(model, prescribed)
    run = _stepwise_run if len(model.free_joints) else _compiled_run
    return run(model, data, mask, q0, v0, t_end, h, method, tau, qdd, psi, phi, f_ext, t0)


def _stepwise_run(model, data, mask, q0, v0, t_end, h, method, tau, qdd, psi, phi, f_ext, t0):
    """:func:`simulate_flexible` by :func:`~.integrators.simulate`, one hybrid-dynamics call per evaluation."""
    nj = model.n_joint_v
    tau_of = tau or (lambda t: np.zeros(nj))
    qdd_of = qdd or (lambda t: np.zeros(nj))
    given_tau, given_qdd = np.zeros(model.nv), np.zeros(model.nv)
    last, forces = {}, []

    def acceleration(t, q, v):
        given_tau[:nj] = _joint_vector(tau_of(t), nj, "tau(t)")
        given_qdd[:nj] = _joint_vector(qdd_of(t), nj, "qdd(t)")
        a, last["tau"] = hybrid_dynamics(model, data, q, v, mask, given_tau, given_qdd, f_ext)
        return a

    run = simulate(acceleration, np.asarray(q0, float), np.asarray(v0, float), t_end, h, method=method,
                   space=TreeSpace(model), psi=psi, phi=phi, t0=t0, recorded=lambda: forces.append(last["tau"][:nj]))
    qj, vj = model.n_joint_q, model.n_joint_v
    return FlexibleTrajectory(run.t, run.q[:, :qj], run.v[:, :vj], run.a[:, :vj], run.q[:, qj:], run.v[:, vj:],
                              run.a[:, vj:], np.array(forces), run.q, run.v)


def _compiled_run(model, data, mask, q0, v0, t_end, h, method, tau, qdd, psi, phi, f_ext, t0):
    """:func:`simulate_flexible` without free joints as one compiled run; tau, qdd called first at every time used."""
    T = sample_times(method, t0, t_end, h)
    steps, nj = len(T) - 1, model.n_joint_v
    times = np.concatenate([T, T[:-1] + h / 2, T[:-1] + h]) if method == "rk4" else T
    given = []
    for fn, what in ((tau, "tau(t)"), (qdd, "qdd(t)")):
        G = np.zeros((3 if method == "rk4" else 1, steps + 1, nj))
        values = _joint_values(fn, times, nj, what)
        G[0] = values[:steps + 1]
        if method == "rk4":
            G[1, :steps], G[2, :steps] = values[steps + 1:2 * steps + 1], values[2 * steps + 1:]
        given.append(G)
    Q = np.empty((steps + 1, model.nq))
    V, A, F = np.empty((steps + 1, model.nv)), np.empty((steps + 1, model.nv)), np.empty((steps + 1, nj))
    Q[0], V[0] = as_vector(q0, model.nq, "q"), as_vector(v0, model.nv, "v")
    base_acceleration(model, data, None)
    done, kind, body = mk.run(*model.packed, *data.packed, mask, external_forces(model, data, f_ext), method == "rk4",
                              float(h), float(psi), float(phi), given[0], given[1], Q, V, A, F)
    if kind == 1:
        check_quaternions(model, Q[done], body)
    if kind == 2:
        raise not_positive(model, body)
    if kind == 3:
        done_run = Trajectory(T[:done + 1], Q[:done + 1], V[:done + 1], A[:done + 1])
        raise SolverError(not_finite(method, T[done + 1]), results=done_run)
    qj, vj = model.n_joint_q, model.n_joint_v
    return FlexibleTrajectory(T, Q[:, :qj], V[:, :vj], A[:, :vj], Q[:, qj:], V[:, vj:], A[:, vj:], F, Q, V)


def _joint_values(fn, times, size, what):
    """fn(t) for every t, as rows (len(times), size), each checked; zeros when fn is None."""
    if fn is None:
        return np.zeros((len(times), size))
    values = [fn(t) for t in times]
    try:
        out = np.array(values, float)
    except (TypeError, ValueError):
        out = None
    if out is None or out.shape != (len(times), size):
        out = np.array([_joint_vector(x, size, what) for x in values])
    return out


def _joint_vector(x, size, what):
    """``x`` as a joint vector of ``size`` values, checked."""
    a = np.asarray(x, float)
    if a.shape != (size,):
        raise ModelError(f"simulate_flexible: {what} must return {size} joint values, got shape {a.shape}")
    return a
