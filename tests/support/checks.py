"""Finite-difference helpers shared by the Jacobian tests.

Central differences with step δ have truncation error O(δ²)·|third derivative| and
round-off O(ε/δ); with δ = 1e-6 on O(1) quantities both stay below ~1e-8 of the scale,
so a relative tolerance of 1e-6 separates a correct derivative from a wrong one by
orders of magnitude.
"""
import numpy as np

DELTA, RTOL = 1e-6, 1e-6


def fd_jacobian(f, x, delta=DELTA):
    cols = []
    for i in range(x.size):
        e = np.zeros_like(x)
        e[i] = delta
        cols.append((f(x + e) - f(x - e)) / (2 * delta))
    return np.column_stack(cols)


def assert_close(actual, expected, rtol=RTOL):
    scale = max(np.abs(expected).max(), 1e-12)
    assert np.abs(actual - expected).max() <= rtol * scale, np.abs(actual - expected).max() / scale
