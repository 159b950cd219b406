"""Small geometric helpers shared by the model, the elements and the recursive solvers."""
import numpy as np


def skew(v):
    """Cross-product matrices [v]× with [v]× w = v × w.

    Parameters
    ----------
    v : array_like (..., 3)
        One vector or a batch.

    Returns
    -------
    ndarray (..., 3, 3)

    Example
    -------
    >>> skew(np.array([0.0, 0.0, 1.0])) @ np.array([1.0, 0.0, 0.0])
    array([0., 1., 0.])
    """
    v = np.asarray(v, float)
    out = np.zeros(v.shape + (3,))
    out[..., 0, 1], out[..., 0, 2] = -v[..., 2], v[..., 1]
    out[..., 1, 0], out[..., 1, 2] = v[..., 2], -v[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -v[..., 1], v[..., 0]
    return out
