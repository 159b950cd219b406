"""Checks of user input that turn malformed values into :class:`~femdyn.errors.ModelError`
naming the object, instead of a numpy traceback further down. Shared by the model
builder, the element kernels' callers and the recursive solvers. (Checks of input only:
the published solutions the results are validated against are in ``tests/validation`` and
``benchmarks/validation``.)"""
import warnings

import numpy as np

from .errors import ModelError, NonFiniteError, PhysicalConsistencyWarning

__all__ = ["numeric", "finite", "refuse_non_finite", "vector3", "unit_vector", "number", "positive", "count", "inconsistent", "plural"]


def numeric(value, what, shape=None):
    """``value`` as a float array (of ``shape`` when given), or ModelError naming ``what``.

    Parameters
    ----------
    value : array_like
        Numbers in SI units.
    what : str
        Names the object and quantity in the error message (e.g. ``"node 'A' position"``).
    shape : tuple of int, optional
        The shape required.

    Returns
    -------
    ndarray
        ``value`` as floats.

    Raises
    ------
    ModelError
        Not numeric, or of another shape.

    Examples
    --------
    >>> numeric([1, 2], "load", shape=(2,))
    array([1., 2.])
    """
    try:
        a = np.asarray(value, float)
    except (TypeError, ValueError):
        raise ModelError(f"{what}: {value!r} is not numeric; give numbers in SI units") from None
    if shape is not None and a.shape != shape:
        raise ModelError(f"{what}: expected shape {shape}, got {value!r} of shape {a.shape}")
    return a


def refuse_non_finite(values, what):
    """Raise :class:`~femdyn.errors.NonFiniteError` naming ``what`` and the first bad entry
    if the numeric array ``values`` holds a NaN or an infinite number.

    Parameters
    ----------
    values : float or array_like of float
        The numbers to check.
    what : str
        Names the object and quantity in the error message (e.g. ``"node 'A' position"``).

    Raises
    ------
    NonFiniteError
        A NaN or ±∞ among ``values`` (the message gives the first one and its index).

    Examples
    --------
    >>> refuse_non_finite([1.0, float("nan")], "gravity")
    Traceback (most recent call last):
    ...
    femdyn.errors.NonFiniteError: gravity: nan is not finite (entry 1); give finite numbers in SI units
    """
    a = np.atleast_1d(values)
    bad = np.flatnonzero(~np.isfinite(a))
    if bad.size:
        where = f" (entry {bad[0]})" if a.size > 1 else ""
        raise NonFiniteError(f"{what}: {a.flat[bad[0]]} is not finite{where}; give finite numbers in SI units")


def finite(value, what, shape=None):
    """:func:`numeric` that also rejects NaN and infinite entries.

    Parameters
    ----------
    value, what, shape
        As for :func:`numeric`.

    Returns
    -------
    ndarray
        ``value`` as finite floats.

    Raises
    ------
    ModelError
        Not numeric or of another shape; :class:`~femdyn.errors.NonFiniteError` for NaN or ±∞.

    Examples
    --------
    >>> finite(2, "mass")
    array(2.)
    """
    a = numeric(value, what, shape)
    refuse_non_finite(a, what)
    return a


def vector3(value, what):
    """``value`` as a float array of shape (3,) with finite entries (a point, direction or
    force of the model builder).

    Parameters
    ----------
    value : array_like (3,)
        x, y, z in SI units (m, N, …), in the frame the caller states.
    what : str
        Names the object and quantity in the error message (e.g. ``"node 'A' position"``).

    Returns
    -------
    (3,) ndarray

    Raises
    ------
    ModelError
        Not three numbers; :class:`~femdyn.errors.NonFiniteError` for NaN or ±∞.

    Examples
    --------
    >>> vector3((0, 0, 1), "axis")
    array([0., 0., 1.])
    """
    try:
        v = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ModelError(f"{what}: expected 3 numbers, got {value!r}") from None
    if v.shape != (3,):
        raise ModelError(f"{what}: expected 3 finite numbers (x, y, z), got {value!r}")
    refuse_non_finite(v, what)
    return v


def unit_vector(value, what):
    """The unit vector along ``value``, a nonzero 3-vector (an axis or direction of the model).

    Parameters
    ----------
    value : array_like (3,)
        The direction, any nonzero length.
    what : str
        Names the object in the error message.

    Raises
    ------
    ModelError
        If ``value`` is not three finite numbers or is zero.
    """
    v = vector3(value, what)
    n = np.linalg.norm(v)
    if not n > 0:
        raise ModelError(f"{what}: expected a nonzero 3-vector, got {v!r}")
    return v / n


def number(value, what, unit):
    """``value`` as a finite float.

    Parameters
    ----------
    value : float or str
        The number (anything ``float()`` accepts).
    what : str
        Names the object and quantity in the error message (e.g. ``"node 'A' position"``).
    unit : str
        Its SI unit, named in the message (``"kg"``, ``"m/s²"``).

    Returns
    -------
    float

    Raises
    ------
    ModelError
        Not a number; :class:`~femdyn.errors.NonFiniteError` for NaN or ±∞.

    Examples
    --------
    >>> number("2.5", "mass", "kg")
    2.5
    """
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ModelError(f"{what}: expected a number in {unit}, got {value!r}") from None
    refuse_non_finite(x, f"{what} ({unit})")
    return x


def positive(value, what, unit, allow_zero=False):
    """``value`` as a finite float that is positive (or ≥ 0 with ``allow_zero``).

    Parameters
    ----------
    value : float
        The number.
    what : str
        Names the object and quantity in the error message (e.g. ``"node 'A' position"``).
    unit : str
        Its SI unit, named in the message.
    allow_zero : bool, optional
        Accept 0.

    Returns
    -------
    float

    Raises
    ------
    ModelError
        Not a number, negative, or zero without ``allow_zero``.

    Examples
    --------
    >>> positive(0.0, "damping", "N·s/m", allow_zero=True)
    0.0
    """
    x = number(value, what, unit)
    if x < 0 or (x == 0 and not allow_zero):
        raise ModelError(f"{what}: must be {'≥ 0' if allow_zero else 'positive'} ({unit}), got {value!r}")
    return x


def count(value, what):
    """A whole number ≥ 1 (e.g. a number of elements).

    Parameters
    ----------
    value : int or float
        The count (a float must be whole: 4.0 is accepted; booleans are not).
    what : str
        Names the object and quantity in the error message (e.g. ``"node 'A' position"``).

    Returns
    -------
    int

    Raises
    ------
    ModelError
        Not a whole number ≥ 1.

    Examples
    --------
    >>> count(4.0, "n_elements")
    4
    """
    try:
        whole = not isinstance(value, (bool, np.bool_)) and float(value).is_integer() and value >= 1
    except (TypeError, ValueError):
        whole = False
    if not whole:
        raise ModelError(f"{what}: expected a whole number ≥ 1, got {value!r}")
    return int(value)


def plural(n, singular, plural=None):
    """``n`` and the noun that agrees with it: ``1 case``, ``2 cases``, ``1 degree of freedom``.

    Parameters
    ----------
    n : int
        The count.
    singular : str
        The noun for one.
    plural : str, optional
        The noun for other counts (default: ``singular`` + "s").

    Returns
    -------
    str

    Examples
    --------
    >>> plural(2, "case"), plural(3, "degree of freedom", "degrees of freedom")
    ('2 cases', '3 degrees of freedom')
    """
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


def inconsistent(message, strict):
    """A physical-consistency failure (mass properties no body can have): ModelError when
    ``strict``, else a :class:`~femdyn.errors.PhysicalConsistencyWarning`, and go on.

    Parameters
    ----------
    message : str
        What is inconsistent, naming the body.
    strict : bool
        Raise (True) or warn (False).

    Raises
    ------
    ModelError
        When ``strict``.

    Warns
    -----
    PhysicalConsistencyWarning
        When not ``strict``.
    """
    if strict:
        raise ModelError(message + " (or pass strict=False to accept it with a warning)")
    warnings.warn(message + "; accepted because strict=False", PhysicalConsistencyWarning, stacklevel=3)
