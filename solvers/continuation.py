"""Equilibrium paths through limit points by arc-length continuation (Riks 1979; Crisfield 1981):
tangent predictor, the Newton–KKT corrector of :mod:`.static` bordered by the Riks normal plane
(docs/solvers.md, "Statics")."""
import csv
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import ConvergenceError, ModelError

from .static_newton import correct, factorize, load_direction, start_point


@dataclass
class EquilibriumPath:
    """The load–displacement path of a model: load factors s_k with their equilibria (q_k, λ_k).

    Parameters
    ----------
    system : System
        The assembled model.
    load_factors : (k,) ndarray
        s_k, dimensionless (the applied loads are s times the model's).
    q, lam, iterations, t : (k, n), (k, m), (k,) ndarray, float
        Coordinates, multipliers, corrector iterations of each point; the time [s] of the loads.
    """

    system: object
    load_factors: np.ndarray
    q: np.ndarray
    lam: np.ndarray
    iterations: np.ndarray = field(default=None)
    t: float = 0.0

    def __len__(self):
        return len(self.load_factors)

    def channel(self, name):
        """A coordinate or sensor channel along the path.

        Parameters
        ----------
        name : str or int
            A coordinate label (``system.labels``; m or 1), its index, ``"load_factor"`` or a sensor column.

        Returns
        -------
        values : (k,) ndarray

        Raises
        ------
        ModelError
            Unknown name (the message lists the sensor columns).
        """
        if name == "load_factor":
            return self.load_factors.copy()
        if isinstance(name, (int, np.integer)):
            return self.q[:, name].copy()
        labels = self.system.labels
        if name in labels:
            return self.q[:, labels.index(name)].copy()
        for sensor in self.system.sensors:
            columns = list(getattr(sensor, "columns", ()))
            if name in columns:
                zero = np.zeros(self.system.n)
                return np.array([np.ravel(sensor.measure(q, zero, None, lam, self.t))[columns.index(name)]
                                 for q, lam in zip(self.q, self.lam)])
        known = [c for sensor in self.system.sensors for c in getattr(sensor, "columns", ())]
        raise ModelError(f"equilibrium path of model '{self.system.name}': no coordinate or sensor channel "
                         f"{name!r}; give a coordinate label (e.g. {labels[0]!r}) or one of the sensor columns {known}")

    def to_csv(self, path, channels):
        """Write the load factor and ``channels`` (see :meth:`channel`), one row per point.

        Parameters
        ----------
        path : str or os.PathLike
        channels : sequence of str or int (coordinates or sensor columns)

        Returns
        -------
        path : str or os.PathLike
        """
        columns = [self.load_factors] + [self.channel(c) for c in channels]
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["load_factor"] + [str(c) for c in channels])
            writer.writerows(np.column_stack(columns).tolist())
        return path

    def plot(self, channel, path="equilibrium_path.png", load=1.0, load_label="load factor s [-]", unit="m",
             title=None, reference=None):
        """Plot the load against a channel (the load–displacement curve) and save it.

        Parameters
        ----------
        channel : str or int
            The abscissa (see :meth:`channel`).
        path : str or os.PathLike, optional
        load : float, optional
            The load at s = 1 (ordinate scale, e.g. N; default 1: the factor).
        load_label, unit, title : str, optional
            Ordinate label with its unit, the channel's unit, the title (default: the model's name).
        reference : (str, array_like, array_like), optional
            A curve to compare with, e.g. a closed form: its legend label (name it and its source),
            abscissae in ``unit`` and load factors s (drawn as ``load`` · s, like the path).

        Returns
        -------
        path : str or os.PathLike

        Raises
        ------
        ModelError
            A reference that is not (label, x, s) with x and s finite and of one length.
        """
        from matplotlib.figure import Figure
        curve = _reference_curve(reference, self.system.name) if reference is not None else None
        fig = Figure(figsize=(6.5, 5.0))
        ax = fig.subplots()
        if curve is not None:
            ax.plot(curve[1], load * curve[2], "-", color="C1", lw=3.5, alpha=0.45, label=curve[0])
        ax.plot(self.channel(channel), load * self.load_factors, ".-", ms=3, lw=0.8,
                label=f"femdyn: arc-length continuation, {len(self)} points")
        ax.axhline(0.0, color="0.6", lw=0.6)
        ax.set_xlabel(f"{channel} [{unit}]")
        ax.set_ylabel(load_label)
        ax.set_title(title or f"equilibrium path of model '{self.system.name}'")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.13), frameon=False)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        return path


def _reference_curve(reference, model):
    """(label, x, s) of a plot's reference curve, checked: a str and two finite arrays of one length."""
    try:
        label, x, s = reference
        x, s = np.asarray(x, float).ravel(), np.asarray(s, float).ravel()
        good = isinstance(label, str) and len(x) == len(s) >= 2 and np.isfinite(x).all() and np.isfinite(s).all()
    except (TypeError, ValueError):
        good = False
    if not good:
        raise ModelError(f"equilibrium path of model '{model}': the reference curve must be (label, x, s): a label "
                         "naming the curve and its source, then at least two finite abscissae and as many load "
                         "factors")
    return label, x, s


def equilibrium_path(system, arc_length, max_points=200, load_max=1.0, t=0.0, q0=None, tol=1e-10,
                     max_iterations=20, max_correction=1e-3, stop=None):
    """Trace the equilibrium path s ↦ (q, λ) from s = 0 through limit points by arc-length continuation.

    Parameters
    ----------
    system : System
        The assembled model; its applied loads (gravity, forces, torques) are scaled by s.
    arc_length : float
        Initial arc Δℓ [m] along the coordinates (halved on a failure, grown after easy points).
    max_points, load_max : int, float, optional
        Points after the start; stop when |s| exceeds ``load_max``.
    t, q0, tol, max_correction : optional
        As in ``static_equilibrium`` (time, s; start; relative force and constraint (m) tolerance; m).
    max_iterations : int, optional
        Corrector iterations per point.
    stop : callable, optional
        ``stop(path) -> bool`` ends the trace early.

    Returns
    -------
    path : EquilibriumPath
        Every point, the start included.

    Raises
    ------
    ModelError
        Non-positive ``arc_length`` or no applied loads.
    ConvergenceError
        The corrector failed with Δℓ cut 12 times (``partial``: the path so far).
    """
    if not arc_length > 0:
        raise ModelError(f"equilibrium path of model '{system.name}': arc_length must be > 0 (m), got {arc_length!r}")
    q, lam, kkt = start_point(system, q0, t, max_correction)
    if not np.any(load_direction(system, q, t)):
        raise ModelError(f"equilibrium path of model '{system.name}': the model has no applied loads to scale; "
                         "add gravity, a force or a torque")
    first = correct(system, kkt, q, lam, 0.0, t, tol, 50)
    if first is None:
        raise ConvergenceError(f"equilibrium path of model '{system.name}': no equilibrium at zero load")
    q, lam, s, iterations = first
    points = [(s, q, lam, iterations)]
    n, arc, previous = system.n, float(arc_length), None
    longest, shortest = 4.0 * arc, arc * 2.0 ** -12
    while len(points) <= max_points and abs(s) <= load_max:
        factorize(system, kkt, q, lam, s, t)
        tangent = kkt.solve(np.concatenate([load_direction(system, q, t), np.zeros(system.m)]))
        size = np.linalg.norm(tangent[:n])
        sign = 1.0 if previous is None else np.sign(tangent[:n] @ previous) or 1.0
        w = sign * tangent[:n] / size
        q_pred, lam_pred, s_pred = q + arc * w, lam + sign * arc * tangent[n:] / size, s + sign * arc / size
        solution = correct(system, kkt, q_pred, lam_pred, s_pred, t, tol, max_iterations, arc=(w, q, arc))
        if solution is None:
            arc *= 0.5
            if arc < shortest:
                raise ConvergenceError(f"equilibrium path of model '{system.name}': the corrector failed at load "
                                       f"factor {s:.4g} with the arc cut to {arc:.3g}", partial=_path(system, points, t))
            continue
        previous = solution[0] - q
        q, lam, s, iterations = solution
        points.append((s, q, lam, iterations))
        if iterations <= 4:
            arc = min(1.5 * arc, longest)
        if stop is not None and stop(_path(system, points, t)):
            break
    return _path(system, points, t)


def _path(system, points, t):
    """An EquilibriumPath of [(s, q, λ, iterations)]."""
    s, q, lam, it = zip(*points)
    return EquilibriumPath(system, np.array(s), np.array(q), np.array(lam).reshape(len(s), system.m), np.array(it), t)
