"""The checked arguments of the recursive algorithms: vectors, joint masks, external forces, gravity.

Shared by the rigid (:mod:`.dynamics`) and flexible (:mod:`.flexible_dynamics`,
:mod:`.flexible_simulation`) algorithms; each raises a :class:`~femdyn.errors.ModelError` naming the
argument and the shape it expects.
"""
import numpy as np

from femdyn.errors import ModelError


_FLOAT = np.dtype(float)


def as_vector(x, size, what):
    """A value as a contiguous float array of a given length."""
    if type(x) is np.ndarray and x.shape == (size,) and x.dtype == _FLOAT and x.flags.c_contiguous:
        return x
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ModelError(f"{what}: expected {size} numbers, got {x!r}") from None
    if a.shape != (size,):
        raise ModelError(f"{what}: expected {size} values (an array of shape ({size},)), got "
                         f"{'None' if x is None else f'shape {a.shape}'}")
    return a if a.flags.c_contiguous else np.ascontiguousarray(a)


def check_quaternions(model, q, bad):
    """ModelError for the body a kernel reported (``bad`` ≥ 0): its free joint has no valid quaternion."""
    if bad >= 0:
        k = model.q_index[bad] + 3
        raise ModelError(f"q: the free joint of body '{model.names[bad]}' has the quaternion {q[k:k + 4]} "
                         "(x, y, z, w), of zero or non-finite norm; give a unit quaternion "
                         "(neutral_configuration() has (0, 0, 0, 1))")


def external_forces(model, data, f_ext):
    """The external spatial forces (n, 6), checked; zero when None."""
    if f_ext is None:
        return data.no_force
    f = np.ascontiguousarray(f_ext, dtype=float)
    if f.shape != (model.n, 6):
        raise ModelError(f"f_ext: expected one spatial force [n; f] per body, shape ({model.n}, 6), got {f.shape}")
    return f


def base_acceleration(model, data, gravity):
    """The base acceleration −g (gravity as a fictitious base acceleration, Featherstone 2008 §5.3)."""
    g = model.gravity if gravity is None else as_vector(gravity, 3, "gravity (m/s², world frame)")
    data.a0[:3] = 0.0
    data.a0[3:] = -g
    return data.a0


def joint_mask(model, prescribed):
    """Boolean array (one per joint) from booleans (or 0/1) per joint, or body names."""
    if prescribed is None:
        return np.zeros(model.n, np.bool_)
    if isinstance(prescribed, str):
        prescribed = [prescribed]
    items = np.asarray(prescribed, dtype=object if isinstance(prescribed, (list, tuple)) else None)
    if items.size and all(isinstance(p, str) for p in items.flat):
        mask = np.zeros(model.n, np.bool_)
        for name in items.flat:
            mask[model.index(name)] = True
        return mask
    if items.shape != (model.n,) or not np.all((items == 0) | (items == 1)):
        raise ModelError(f"prescribed: expected one flag per joint ({model.n}, True or False) or a list of body "
                         f"names, got {prescribed!r}")
    return items.astype(np.bool_)
