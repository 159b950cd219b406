"""A flexible link of a parallel robot given as a reduced component (a ``.fdc`` file of ``femdyn reduce``).

The component's two named interfaces are matched to the link's joints: the first to its proximal joint
(joint j of the limb), the second to its distal joint (joint j + 1). The placement at home is the rigid
transformation x ↦ R x + t from the component's reference frame to the global frame that maps the two
interface origins o₁, o₂ onto the joint centres p, q in the least-squares sense (Horn 1987, *J. Opt. Soc.
Am. A* 4:629, for two points): R turns the interface line d_c = (o₂ − o₁)/|o₂ − o₁| onto the joint line
d = (q − p)/|q − p|, and t makes the midpoints coincide, so that each interface misses its joint centre by
half the length mismatch. Two points leave the rotation about that line free; the rule that fixes it:

* the component direction ``align`` (reference frame; default the reference axis x, y or z most nearly
  perpendicular to d_c, the first of them on a tie) is turned onto
* the proximal joint's axis fixed in the link (its last axis: a revolute's axis, a universal joint's
  second axis), or, when that axis lies along the link, its other axis, then the distal joint's axes,

both projected perpendicular to their lines. The lengths |o₂ − o₁| and |q − p| must agree to
:data:`LENGTH_TOLERANCE` (relative): a component cut for another link is refused, not stretched.
"""
import functools
import os
from dataclasses import dataclass

import numpy as np

from ...component import ComponentError, cached_components, interface_index, read_component
from ...errors import ModelError, SchemaError
from ...schema import Key, check_table

__all__ = ["ComponentSpec", "LENGTH_TOLERANCE", "ComponentPlacement", "component_placement"]

LENGTH_TOLERANCE = 1e-6     # relative: 1 µm on a 1 m link, far below any mesh's geometric error yet a typo's catch
_PARALLEL = 1e-6            # |sin| below which a direction counts as lying along the link


@dataclass(frozen=True)
class ComponentSpec:
    """A flexible link as a reduced component (module docstring: matching and placement).

    Parameters
    ----------
    file : str
        The ``.fdc`` file; in a description file, relative to that file's folder.
    interfaces : (2,) tuple of str
        The component's interfaces at the link's proximal and distal joint, in that order.
    modes : int or None
        Keep the first ``modes`` modes (None: all; 0: a rigid body with the component's mass properties).
    align : (3,) tuple or None
        A direction in the component's reference frame turned onto the proximal joint's axis (None: the
        reference axis most nearly perpendicular to the interfaces' line).

    Examples
    --------
    >>> spec = ComponentSpec("arm.fdc", ("motor", "elbow"), modes=6)
    >>> spec.interfaces, spec.modes
    (('motor', 'elbow'), 6)
    """

    file: str
    interfaces: tuple
    modes: int = None
    align: tuple = None


_COMPONENT = {"file": Key(str, required=True, hint="the .fdc file of `femdyn reduce`, relative to this file"),
              "interfaces": Key(list, required=True, hint="the component's interfaces at the proximal and distal "
                                                          "joint, e.g. [\"A\", \"B\"]"),
              "modes": Key(int, at_least=0), "align": 3}


def component_spec(table, where, folder=None):
    """A :class:`ComponentSpec` from a link's ``component`` table, its file resolved against ``folder``."""
    c = check_table(table, _COMPONENT, where, "component.")
    names = c["interfaces"]
    if len(names) != 2 or not all(isinstance(n, str) and n for n in names):
        raise SchemaError(f"{where}: component.interfaces must name two interfaces (proximal joint, distal joint), "
                          f"got {names!r}")
    path = c["file"] if folder is None else os.path.join(folder, c["file"])
    return ComponentSpec(path, tuple(names), c.get("modes"), c.get("align"))


@dataclass(frozen=True)
class ComponentPlacement:
    """A component link placed at home: x_global = R x + t, and its rigid-body mass properties there.

    Parameters
    ----------
    rotation : ndarray (3, 3)
        R, columns the component's reference axes in global coordinates at home.
    position : ndarray (3,)
        t, the reference frame's origin at home, m, global.
    mass : float
        kg.
    com : ndarray (3,)
        Centre of mass at home, m, global.
    inertia : ndarray (3, 3)
        About the centre of mass, home global axes, kg·m².
    miss : float
        Largest distance between an interface origin and its joint centre, m (half the length mismatch).
    """

    rotation: np.ndarray
    position: np.ndarray
    mass: float
    com: np.ndarray
    inertia: np.ndarray
    miss: float


def component_placement(spec, proximal, distal, where):
    """The :class:`ComponentPlacement` of a component link between two joints (module docstring: the rule).

    Parameters
    ----------
    spec : ComponentSpec
    proximal, distal : Joint
        The link's joints at home (centres m, axes global).
    where : str
        The limb and link, for messages (``"limb 'arm 0' link 0"``).

    Returns
    -------
    ComponentPlacement

    Raises
    ------
    ModelError
        Naming ``where`` and the fix: no such file, not a component, an interface it lacks, coincident joint
        centres, or interface and joint-centre distances that differ by more than :data:`LENGTH_TOLERANCE`.

    Examples
    --------
    >>> from femdyn.robots.parallel import Joint
    >>> spec = ComponentSpec("arm.fdc", ("A", "B"))
    >>> component_placement(spec, Joint("R", (0, 0, 0), ((0, 1, 0),)), Joint("S", (0.3, 0, 0)),
    ...                     "limb 'a' link 0")     # doctest: +SKIP
    """
    axes = tuple(tuple(map(float, a)) for a in proximal.axes[::-1] + distal.axes)
    p, q = (tuple(map(float, x)) for x in (proximal.point, distal.point))
    stamp = os.stat(spec.file).st_mtime_ns if os.path.isfile(spec.file) else None
    return _placement(spec, p, q, axes, where, stamp)


@functools.lru_cache(maxsize=256)
def _placement(spec, p, q, axes, where, stamp):
    """Cached placement (arguments hashable; ``stamp`` the file's modification time, so an edited file is re-read)."""
    c = link_component(spec, where)
    o1, o2 = (c.interface_origins[interface_index(c, n)] for n in spec.interfaces)
    p, q = np.array(p), np.array(q)
    length, span = float(np.linalg.norm(q - p)), float(np.linalg.norm(o2 - o1))
    if length == 0:
        raise ModelError(f"{where}: its joints share the centre {p.tolist()}, so no component can span them; make "
                         "this link rigid, or give the component to a link whose joint centres differ")
    if abs(span - length) > LENGTH_TOLERANCE * length:
        raise ModelError(f"{where}: the component's interfaces {list(spec.interfaces)} are {span:.9g} m apart, the "
                         f"link's joint centres {length:.9g} m (tolerance {LENGTH_TOLERANCE:g} relative); reduce the "
                         "component from a mesh of this link's length, or move the joints")
    d_c, d = (o2 - o1) / span, (q - p) / length
    b = _across(d_c, [spec.align] if spec.align is not None else _reference_axes(d_c))
    if b is None:
        raise ModelError(f"{where}: component.align {list(spec.align)} lies along the interfaces' line; give a "
                         "direction across the link (component reference frame)")
    a = _across(d, list(axes) + [_any_across(d)])
    R = np.column_stack([d, a, np.cross(d, a)]) @ np.column_stack([d_c, b, np.cross(d_c, b)]).T
    t = 0.5 * (p + q - R @ (o1 + o2))
    miss = max(float(np.linalg.norm(R @ o + t - x)) for o, x in ((o1, p), (o2, q)))
    out = ComponentPlacement(R, t, float(c.mass), R @ c.com + t, R @ c.inertia @ R.T, miss)
    for value in (out.rotation, out.position, out.com, out.inertia):
        value.setflags(write=False)          # shared by every caller of the cache
    return out


def _reference_axes(d):
    """The component's reference axes, the one most nearly perpendicular to ``d`` first."""
    order = np.argsort(np.abs(d), kind="stable")
    return [tuple(np.eye(3)[k]) for k in order]


def _any_across(d):
    """A fixed unit direction perpendicular to ``d`` (the last resort of the rule)."""
    e = np.cross(d, [1.0, 0.0, 0.0] if abs(d[0]) < 0.9 else [0.0, 1.0, 0.0])
    return tuple(e / np.linalg.norm(e))


def _across(d, candidates):
    """The first candidate direction not along ``d``, made perpendicular to it and unit; None if none is."""
    for v in candidates:
        v = np.asarray(v, float)
        size = float(np.linalg.norm(v))
        v = v - (v @ d) * d
        n = float(np.linalg.norm(v))
        if size > 0 and n > _PARALLEL * size:
            return v / n
    return None


def link_component(spec, where):
    """The link's component from ``spec.file`` (a fresh copy), interfaces checked; ModelError naming ``where``."""
    if not os.path.isfile(spec.file):
        raise ModelError(f"{where}: component file '{spec.file}' not found; give the path of a .fdc file from "
                         "`femdyn reduce` (in a description file, relative to that file's folder)")
    try:
        c = _read(os.path.abspath(spec.file), os.stat(spec.file).st_mtime_ns)
    except ComponentError as err:
        raise ModelError(f"{where}: '{spec.file}' is not a usable component file ({err}); give a .fdc file made "
                         "by `femdyn reduce`") from None
    names = [i.get("name") for i in c.header.get("interfaces", [])]
    missing = [n for n in spec.interfaces if n not in names]
    if missing:
        raise ModelError(f"{where}: the component '{spec.file}' has no interface {missing[0]!r}; its interfaces are "
                         f"{names}: set component.interfaces to two of them (proximal joint, distal joint)")
    if spec.modes is not None and spec.modes > c.n_modes:
        raise ModelError(f"{where}: component.modes = {spec.modes}, but '{spec.file}' has {c.n_modes} modes; "
                         f"set modes ≤ {c.n_modes} or reduce again with more")
    return c


@cached_components(maxsize=32)
def _read(path, stamp):
    """The validated component of ``path`` (``stamp``: its modification time, part of the cache key)."""
    return read_component(path)
