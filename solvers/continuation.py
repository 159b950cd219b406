"""Equilibrium paths through limit points by arc-length continuation (Riks 1979; Crisfield 1981).

Each point: a tangent predictor along K⁻¹ ∂Q/∂s, then the Newton–KKT corrector of :mod:`.static`
(the one of :func:`~femdyn.solvers.static_equilibrium`) bordered by the Riks normal plane
w·(q − q_k) = Δℓ with w the unit coordinate part of the tangent (Crisfield's cylindrical choice
ψ = 0: the arc is measured in the coordinates only, which carries it through snap-through and
snap-back alike). The tangent's sign follows the previous increment (w·Δq_prev > 0), which does
not need the determinant of the saddle matrix and does not turn back at a limit point.
"""
import csv
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import ConvergenceError, ModelError

from .static import _correct, _factorize, _load_direction, _start_point


@dataclass
class EquilibriumPath:
    """The load–displacement path of a model: load factors s_k with their equilibria (q_k, λ_k).

    Parameters
    ----------
    system : System
        The assembled model the path belongs to.
    load_factors : (k,) ndarray
        s_k, dimensionless (the applied loads are s times the model's).
    q : (k, n) ndarray
        Equilibrium coordinates.
    lam : (k, m) ndarray
        Lagrange multipliers.
    iterations : (k,) ndarray
        Corrector iterations of each point.
    t : float
        Time [s] at which constraints and loads were evaluated.

    Examples
    --------
    >>> path = equilibrium_path(system, 0.01)             # doctest: +SKIP
    >>> path.channel("apex.z"), path.to_csv("path.csv", ["apex.z"])   # doctest: +SKIP
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
            A coordinate label of ``system.labels`` (``<node>.<slot><x|y|z>``, m or 1), its index,
            ``"load_factor"``, or a sensor column (``<sensor>.<column>``, its unit).

        Returns
        -------
        values : (k,) ndarray
            The channel at every point of the path.

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
            The CSV file.
        channels : sequence of str or int
            Coordinates or sensor columns.

        Returns
        -------
        path : str or os.PathLike
            The file written.
        """
        columns = [self.load_factors] + [self.channel(c) for c in channels]
        with open(path, "w", newline="") as f:
            writer = csv.writer(f)
            writer.writerow(["load_factor"] + [str(c) for c in channels])
            writer.writerows(np.column_stack(columns).tolist())
        return path

    def plot(self, channel, path="equilibrium_path.png", load=1.0, load_label="load factor s [-]", unit="m",
             title=None):
        """Plot the load against a channel (the load–displacement curve) and save it.

        Parameters
        ----------
        channel : str or int
            The abscissa (see :meth:`channel`).
        path : str or os.PathLike, optional
            The image file.
        load : float, optional
            Scale of the ordinate: the load at s = 1 (e.g. the applied force, N), 1 for the factor itself.
        load_label : str, optional
            Ordinate label with its unit.
        unit : str, optional
            Unit of the channel.
        title : str, optional
            Figure title (default: the model's name).

        Returns
        -------
        path : str or os.PathLike
            The image written.
        """
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(6, 4))
        ax.plot(self.channel(channel), load * self.load_factors, ".-", ms=3)
        ax.axhline(0.0, color="0.6", lw=0.6)
        ax.set_xlabel(f"{channel} [{unit}]")
        ax.set_ylabel(load_label)
        ax.set_title(title or f"equilibrium path of model '{self.system.name}'")
        ax.grid(True, alpha=0.3)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        return path


def equilibrium_path(system, arc_length, max_points=200, load_max=1.0, t=0.0, q0=None, tol=1e-10,
                     max_iterations=20, max_correction=1e-3, stop=None):
    """Trace the equilibrium path s ↦ (q, λ) from the unloaded state by arc-length continuation.

    Starts from the equilibrium at s = 0 and steps an arc Δℓ (measured in the coordinates, m or 1)
    along the path: tangent predictor, then Newton on the KKT equations bordered by the Riks normal
    plane, with the line search of :func:`~femdyn.solvers.static_equilibrium`. Δℓ is halved when a
    corrector fails (up to 12 times) and grows by 1.5 up to 4 ``arc_length`` after an easy point.
    The tangent's sign follows the previous increment, so the path passes limit points of the load
    (snap-through) and of the displacement (snap-back).

    Parameters
    ----------
    system : System
        The assembled model; its applied loads (gravity, forces, torques) are scaled by s.
    arc_length : float
        Initial arc Δℓ [m] (coordinates of other units count as they are).
    max_points : int, optional
        Points after the start.
    load_max : float, optional
        Stop when |s| exceeds this.
    t : float, optional
        Time [s] at which constraints and loads are evaluated.
    q0 : (n,) array_like, optional
        Start configuration (default: the model's).
    tol : float, optional
        Relative force tolerance and constraint tolerance [m], as in ``static_equilibrium``.
    max_iterations : int, optional
        Corrector iterations per point.
    max_correction : float, optional
        Largest move [m] accepted to make the start consistent.
    stop : callable, optional
        ``stop(path) -> bool`` ends the trace early (e.g. past a displacement).

    Returns
    -------
    path : EquilibriumPath
        Load factors, coordinates and multipliers of every point (the start included).

    Raises
    ------
    ModelError
        Non-positive ``arc_length`` or a model without applied loads.
    ConvergenceError
        The corrector failed with Δℓ cut 12 times (``partial``: the path so far).

    Examples
    --------
    A spring of stiffness 100 N/m under 1 N reaches s = 1 at 0.01 m:

    >>> import femdyn
    >>> m = femdyn.Model("spring", gravity=(0, 0, 0))
    >>> _ = m.point_mass("p", (0, 0, -1.0), 1.0)
    >>> _ = m.spring("k", "ground", (0, 0, 0), "p", (0, 0, -1.0), stiffness=100.0)
    >>> _ = m.fix("p", components=(0, 1))
    >>> _ = m.force("F", "p", (0, 0, -1.0), (0, 0, -1.0))
    >>> path = equilibrium_path(m.assemble(), 0.002)
    >>> round(float(path.channel("p.rz")[-1] + 1.0) / float(path.load_factors[-1]), 6)
    -0.01
    """
    if not arc_length > 0:
        raise ModelError(f"equilibrium path of model '{system.name}': arc_length must be > 0 (m), got {arc_length!r}")
    q, lam, kkt = _start_point(system, q0, t, max_correction)
    if not np.any(_load_direction(system, q, t)):
        raise ModelError(f"equilibrium path of model '{system.name}': the model has no applied loads to scale; "
                         "add gravity, a force or a torque")
    first = _correct(system, kkt, q, lam, 0.0, t, tol, 50)
    if first is None:
        raise ConvergenceError(f"equilibrium path of model '{system.name}': no equilibrium at zero load")
    q, lam, s, iterations = first
    points = [(s, q, lam, iterations)]
    n, arc, previous = system.n, float(arc_length), None
    longest, shortest = 4.0 * arc, arc * 2.0 ** -12
    while len(points) <= max_points and abs(s) <= load_max:
        _factorize(system, kkt, q, lam, s, t)
        tangent = kkt.solve(np.concatenate([_load_direction(system, q, t), np.zeros(system.m)]))
        size = np.linalg.norm(tangent[:n])
        sign = 1.0 if previous is None else np.sign(tangent[:n] @ previous) or 1.0
        w = sign * tangent[:n] / size
        q_pred, lam_pred, s_pred = q + arc * w, lam + sign * arc * tangent[n:] / size, s + sign * arc / size
        solution = _correct(system, kkt, q_pred, lam_pred, s_pred, t, tol, max_iterations, arc=(w, q, arc))
        if solution is None:
            arc *= 0.5
            if arc < shortest:
                err = ConvergenceError(f"equilibrium path of model '{system.name}': the corrector failed at load "
                                       f"factor {s:.4g} with the arc cut to {arc:.3g}")
                err.partial = _path(system, points, t)
                raise err
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
