"""Base parameters: the combinations of inertial parameters that data can identify.

QR with column pivoting of the stacked regressor, W P = Q [R₁ R₂], gives β = π₁ + K π₂, K = R₁⁻¹ R₂
(Gautier 1990, IEEE ICRA, eq. 20); :func:`structural` on random states of a model, :func:`base_parameters`
on one experiment's regressor. Method: docs/identification.md §2.
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg

from femdyn.errors import ModelError
from femdyn.linalg import pivoted_qr


@dataclass
class BaseParameters:
    """Result of :func:`base_parameters`: β = E π, W₂ = W₁ K.

    Parameters
    ----------
    independent, dependent : ndarray
        Indices of the r independent and the p − r other columns of W.
    K : ndarray (r, p − r)
        W₂ = W₁ K.
    E : ndarray (r, p)
        β = E π.
    names : list of str
        One readable combination per β.
    unseen : list of str
        Parameters whose columns vanish.
    singular_values : ndarray
        Of the column-scaled W (behind the rank decision).
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
        """β = E π (r,) of a full parameter vector.

        Parameters
        ----------
        pi : (p,) array_like
            Full parameter vector π.
        """
        return self.E @ np.asarray(pi, float)

    def regressor(self, W):
        """The base regressor W₁ = W[..., independent] (..., r) of a regressor with the same columns.

        Parameters
        ----------
        W : array_like (..., p)
            Regressor.
        """
        return np.asarray(W)[..., self.independent]


def combination_name(names, index, dependent, coefficients, tol=1e-10):
    """'a + 0.5·b − 2·c': parameter ``names[index]`` plus the dependent ones weighted by ``coefficients``."""
    terms = [names[index]]
    for j, c in zip(dependent, coefficients):
        if abs(c) > tol:
            terms.append(f"{'−' if c < 0 else '+'} {abs(c):.6g}·{names[j]}")
    return " ".join(terms)


def base_parameters(W, names, tol=1e-9):
    r"""Base parameters of a stacked regressor W (N, p); ModelError for an all-zero W or mismatched names.

    Parameters
    ----------
    W : array_like (N, p)
        Rows from any number of samples and channels.
    names : sequence of str
        p parameter names.
    tol : float, optional
        Threshold on \|R_kk\| / \|R_00\| after scaling every column to unit norm.

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
    """``count`` random (q, v, q̈) of ``model``: joint values in [−π, π], unit quaternions, standard normal v, q̈."""
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
    """Base parameters of ``model`` for a regressor function evaluated on random states.

    Parameters
    ----------
    model : TreeModel
        The tree.
    regressor : callable
        ``regressor(q, v, q̈)`` → rows (k, p) of one sample (e.g. around ``torque_regressor``).
    names : sequence of str
        p parameter names.
    samples, seed : int, optional
        Number of random states (default: 3× as many rows as parameters) and their seed.
    tol : float, optional
        Rank threshold, as in :func:`base_parameters`.
    """
    rng = np.random.default_rng(seed)
    first = regressor(*random_states(model, rng, 1)[0])
    rows = max(1, first.shape[0])
    samples = samples or int(np.ceil(3 * first.shape[1] / rows)) + 2
    W = np.vstack([first] + [regressor(*s) for s in random_states(model, rng, samples - 1)])
    return base_parameters(W, names, tol)
