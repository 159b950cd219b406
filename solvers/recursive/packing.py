"""Arrays packed once into a few contiguous buffers, so a compiled call passes a handful of arguments.

:func:`pack` copies an object's arrays into one float and one integer buffer and rebinds the
attributes as views of them (one copy, the same values); the layout table (row k: offset and up
to five dimensions of array k) lets a compiled function cut the same views again with
:func:`view1` … :func:`view5` at the cost of a few integer reads. Dispatching one numba call
costs ~0.1 µs per array argument, the sweeps of a 50-body tree ~10 µs: passing three buffers
instead of thirty arrays removes most of the fixed cost of a call.
"""
import numpy as np
from numba import njit


def pack(owner, float_names, int_names=()):
    """(float buffer, int buffer, layout) of ``owner``'s arrays; the attributes become views of the buffers."""
    layout = np.zeros((len(float_names) + len(int_names), 6), np.int64)
    buffers = []
    row = 0
    for names, dtype in ((float_names, np.float64), (int_names, np.int64)):
        arrays = [np.asarray(getattr(owner, name), dtype) for name in names]
        buffer = np.empty(sum(a.size for a in arrays), dtype)
        offset = 0
        for name, a in zip(names, arrays):
            layout[row, 0] = offset
            layout[row, 1:1 + a.ndim] = a.shape
            view = buffer[offset:offset + a.size].reshape(a.shape)
            view[...] = a
            setattr(owner, name, view)
            offset += a.size
            row += 1
        buffers.append(buffer)
    return buffers[0], buffers[1], layout


@njit(cache=True, inline="always")
def view1(buffer, layout, k):
    """Array k of a packed buffer, one-dimensional."""
    o = layout[k, 0]
    return buffer[o:o + layout[k, 1]]


@njit(cache=True, inline="always")
def view2(buffer, layout, k):
    """Array k of a packed buffer, two-dimensional."""
    o, a, b = layout[k, 0], layout[k, 1], layout[k, 2]
    return buffer[o:o + a * b].reshape((a, b))


@njit(cache=True, inline="always")
def view3(buffer, layout, k):
    """Array k of a packed buffer, three-dimensional."""
    o, a, b, c = layout[k, 0], layout[k, 1], layout[k, 2], layout[k, 3]
    return buffer[o:o + a * b * c].reshape((a, b, c))


@njit(cache=True, inline="always")
def view4(buffer, layout, k):
    """Array k of a packed buffer, four-dimensional."""
    o, a, b, c, d = layout[k, 0], layout[k, 1], layout[k, 2], layout[k, 3], layout[k, 4]
    return buffer[o:o + a * b * c * d].reshape((a, b, c, d))


@njit(cache=True, inline="always")
def view5(buffer, layout, k):
    """Array k of a packed buffer, five-dimensional."""
    o, a, b, c, d, e = layout[k, 0], layout[k, 1], layout[k, 2], layout[k, 3], layout[k, 4], layout[k, 5]
    return buffer[o:o + a * b * c * d * e].reshape((a, b, c, d, e))
