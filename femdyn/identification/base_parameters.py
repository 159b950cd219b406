"""Base parameters: the combinations of inertial parameters that data can identify.

A stacked regressor W (rows: samples, columns: the parameters π) generally has
dependent columns: parameters that never act (zero columns, e.g. the mass of the first
link of a fixed-base arm) and parameters that act only in fixed combinations (e.g. a
link's mass together with the first moments of its parent). QR with column pivoting::

    W P = Q [R₁ R₂],   R₁ (r × r) upper triangular, |R₁,kk| > tol |R₁,00|,

splits the columns into r independent ones (W₁ = W P[:, :r]) and the others, with
W₂ = W₁ K, K = R₁⁻¹ R₂. Then ``W π = W₁ β`` with the base parameters::

    β = π₁ + K π₂

(Gautier 1990, "Numerical calculation of the base inertial parameters of robots", IEEE
ICRA, eq. 20; Gautier & Khalil 1990 for the symbolic counterpart).

Rank and K depend only on the columns' span; :func:`structural` evaluates them on
random states of the model (what the model can show at all), :func:`base_parameters`
on any stacked regressor (what one experiment shows).
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg

from femdyn.errors import ModelError
from femdyn.linalg import pivoted_qr


@dataclass
class BaseParameters:
    """Result of :func:`base_parameters`.

    Parameters
    ----------
    independent : ndarray (r,)
        Indices of the independent columns of W.
    dependent : ndarray (p − r,)
        Indices of the other columns.
    K : ndarray (r, p − r)
        W₂ = W₁ K.
    E : ndarray (r, p)
        β = E π.
    names : list of str
        One readable combination per β.
    unseen : list of str
        The parameters whose columns vanish (the data never see them).
    singular_values : ndarray
        Of the column-scaled W (the spectrum behind the rank decision).
    """
    independent: np.ndarray
    dependent: np.ndarray
    K: np.ndarray
    E: np.ndarray
    names: list
    unseen: list
    singular_values: np.ndarray = field(repr=False)

    @property
    def rank(self):
        """Number of base parameters r."""
        return len(self.independent)

    def project(self, pi):
        """β = E π (r,) of a full parameter vector π (p,).

        Parameters
        ----------
        pi : (p,) array_like
            Full parameter vector.

        Returns
        -------
        ndarray (r,)
        """
        return self.E @ np.asarray(pi, float)

    def regressor(self, W):
        """The base regressor W₁ = W[..., independent] of any regressor with the same columns.

        Parameters
        ----------
        W : array_like (..., p)
            Regressor.

        Returns
        -------
        ndarray (..., r)
        """
        return np.asarray(W)[..., self.independent]


def combination_name(names, index, dependent, coefficients, tol=1e-10):
    """'a + 0.5·b − 2·c': parameter ``names[index]`` plus the dependent ones weighted by ``coefficients``.

    ``names`` (sequence of str): all parameter names; ``index`` (int): the independent parameter; ``dependent``
    (sequence of int): indices of the dependent parameters; ``coefficients`` (sequence of float): their weights
    (a row of K); ``tol`` (float, optional): weights below it are left out. Returns str.

    Examples
    --------
    >>> combination_name(["a", "b", "c"], 0, [1, 2], [0.5, -2.0])
    'a + 0.5·b − 2·c'
    """
    terms = [names[index]]
    for j, c in zip(dependent, coefficients):
        if abs(c) > tol:
            terms.append(f"{'−' if c < 0 else '+'} {abs(c):.6g}·{names[j]}")
    return " ".join(terms)


def base_parameters(W, names, tol=1e-9):
    """Base parameters of a stacked regressor W (N, p) whose columns are named by ``names``.

    Parameters
    ----------
    W : array_like (N, p)
        Rows from any number of samples and measurement channels.
    names : sequence of str
        p parameter names (e.g. :func:`~femdyn.identification.parameters.parameter_names`).
    tol : float, optional
        Relative threshold on \\|R_kk\\| / \\|R_00\\| after scaling every column to unit norm
        (columns with different units — kg, kg·m² — must not decide the rank).

    Returns
    -------
    BaseParameters

    Raises
    ------
    ModelError
        When W has no nonzero column or the names do not match its columns.

    Example
    -------
    >>> W = np.array([[1.0, 2.0, 0.0], [3.0, 6.0, 0.0], [1.0, 2.0, 0.0]])
    >>> base_parameters(W, ["a", "b", "c"]).names
    ['a + 2·b']
    """
    W = np.asarray(W, float)
    p = W.shape[1]
    if len(names) != p:
        raise ModelError(f"base_parameters: {p} regressor columns but {len(names)} names")
    norms = np.linalg.norm(W, axis=0)
    if not norms.max() > 0:
        raise ModelError("base_parameters: the regressor is zero; the data excite no parameter — check the motion")
    seen = norms > tol * norms.max()
    scale = np.where(seen, norms, 1.0)
    Ws = W / scale
    Ws[:, ~seen] = 0.0
    _, R, P, r = pivoted_qr(Ws, tol)
    independent, dependent = P[:r], P[r:]
    Ks = scipy.linalg.solve_triangular(R[:r, :r], R[:r, r:p]) if r < p else np.zeros((r, 0))
    Ks[np.abs(Ks) < 1e-12] = 0.0
    K = Ks * scale[dependent][None, :] / scale[independent][:, None]      # back to the unscaled columns
    E = np.zeros((r, p))
    E[np.arange(r), independent] = 1.0
    E[:, dependent] = K
    labels = [combination_name(names, i, dependent, K[k]) for k, i in enumerate(independent)]
    return BaseParameters(independent, dependent, K, E, labels, [names[j] for j in np.flatnonzero(~seen)],
                          np.linalg.svd(Ws, compute_uv=False))


def random_states(model, rng, count):
    """``count`` random (q, v, q̈) of ``model``: joint values in [−π, π], unit quaternions, standard normal v, q̈.

    ``model`` (femdyn.solvers.recursive.model.TreeModel): the tree (free joints get a position in [−1, 1]³ m and
    a random unit quaternion); ``rng`` (numpy.random.Generator): random source; ``count`` (int): number of
    states. Returns list of (ndarray (nq,), ndarray (nv,), ndarray (nv,)).
    """
    out = []
    for _ in range(count):
        q = rng.uniform(-np.pi, np.pi, model.nq)
        for i in model.free_joints:
            k = model.q_index[i]
            quat = rng.standard_normal(4)
            q[k:k + 3] = rng.uniform(-1.0, 1.0, 3)
            q[k + 3:k + 7] = quat / np.linalg.norm(quat)
        out.append((q, rng.standard_normal(model.nv), rng.standard_normal(model.nv)))
    return out


def structural(model, regressor, names, samples=None, seed=0, tol=1e-9):
    """Base parameters of ``model`` for a regressor function over random states.

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        The tree.
    regressor : callable
        ``regressor(q, v, q̈)`` → rows (k, p) of one sample (e.g. a lambda around
        :func:`~femdyn.solvers.recursive.regressor.torque_regressor`).
    names : sequence of str
        p parameter names.
    samples : int, optional
        Number of random states (default: enough for 3× as many rows as parameters).
    seed : int, optional
        Seed of the random states.
    tol : float, optional
        Rank threshold, as in :func:`base_parameters`.

    Returns
    -------
    BaseParameters

    Example
    -------
    >>> from femdyn.robots.serial import puma560
    >>> from femdyn.solvers.recursive import Data
    >>> from femdyn.solvers.recursive.regressor import torque_regressor
    >>> from femdyn.identification.parameters import parameter_names
    >>> model = puma560(); data = Data(model)
    >>> base = structural(model, lambda q, v, a: torque_regressor(model, data, q, v, a), parameter_names(model))
    >>> base.rank
    36
    """
    rng = np.random.default_rng(seed)
    first = regressor(*random_states(model, rng, 1)[0])
    rows = max(1, first.shape[0])
    samples = samples or int(np.ceil(3 * first.shape[1] / rows)) + 2
    W = np.vstack([first] + [regressor(*s) for s in random_states(model, rng, samples - 1)])
    return base_parameters(W, names, tol)
