"""Checks of user input that turn malformed values into :class:`~femdyn.errors.ModelError`
naming the object, instead of a numpy traceback further down."""
import numpy as np

from .errors import ModelError


def vector3(value, what):
    """``value`` as a float array of shape (3,) with finite entries."""
    try:
        v = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ModelError(f"{what}: expected 3 numbers, got {value!r}") from None
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise ModelError(f"{what}: expected 3 finite numbers (x, y, z), got {value!r}")
    return v


def positive(value, what, unit, allow_zero=False):
    """``value`` as a float that is positive (or ≥ 0 with ``allow_zero``) and finite."""
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ModelError(f"{what}: expected a number in {unit}, got {value!r}") from None
    if not np.isfinite(x) or x < 0 or (x == 0 and not allow_zero):
        raise ModelError(f"{what}: must be {'≥ 0' if allow_zero else 'positive'} ({unit}), got {value!r}")
    return x
