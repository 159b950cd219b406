"""Line meshes (any meshio format) as ordered, unbranched beam centrelines, with nodal tangents
and section axes (docs/concepts.md, "Element sets"). Coordinates in m.
"""
import meshio
import numpy as np

from femdyn.errors import ModelError
from femdyn.geometry import transported


def read_line_mesh(path):
    """``(points, chains)`` of a line-mesh file (2-D points get z = 0); ModelError without 2-node line cells."""
    try:
        mesh = meshio.read(path)
    except Exception as err:  # meshio raises several types for unreadable files
        raise ModelError(f"cannot read line mesh '{path}': {err}") from None
    lines = [c.data for c in mesh.cells if c.type == "line"]
    if not lines:
        raise ModelError(f"line mesh '{path}': no 2-node 'line' cells (found {[c.type for c in mesh.cells]})")
    points = np.zeros((len(mesh.points), 3))
    points[:, :mesh.points.shape[1]] = mesh.points
    return points, chains(np.vstack(lines), path)


def chains(segments, label="line mesh"):
    """Order (k, 2) segments into chains of point indices, a closed chain ending on its first; ModelError at branches."""
    segments = np.asarray(segments, int)
    neighbours = {}
    for a, b in segments:
        if a == b:
            raise ModelError(f"{label}: degenerate line cell at point {a}")
        neighbours.setdefault(a, []).append(b)
        neighbours.setdefault(b, []).append(a)
    branch = [p for p, nb in neighbours.items() if len(nb) > 2]
    if branch:
        raise ModelError(f"{label}: points {branch[:5]} join more than two lines; split the mesh into "
                         "unbranched beams and connect them with joints")
    seen, out = set(), []
    ends = [p for p, nb in neighbours.items() if len(nb) == 1]
    for start in ends + sorted(neighbours):
        if start in seen:
            continue
        chain, previous, current = [start], None, start
        seen.add(start)
        while True:
            nxt = [p for p in neighbours[current] if p != previous and p not in seen]
            if not nxt:
                break
            previous, current = current, nxt[0]
            chain.append(current)
            seen.add(current)
        if len(chain) > 2 and start in neighbours[current]:      # loop: close on the first point
            chain.append(start)
        out.append(np.array(chain))
    return out


def polyline_tangents(points, closed=False):
    """Unit tangents at a polyline's vertices: chord-length parabola inside, reflected at the ends (docs/concepts.md)."""
    points = np.asarray(points, float)
    if closed:
        ring = np.vstack([points[-1:], points, points[:1]])
        return _interior_tangents(ring)
    if len(points) == 2:
        d = points[1] - points[0]
        return np.vstack([d, d]) / np.linalg.norm(d)
    inner = _interior_tangents(points)
    u0 = _unit(points[1] - points[0])
    u1 = _unit(points[-1] - points[-2])
    first = 2 * (inner[0] @ u0) * u0 - inner[0]
    last = 2 * (inner[-1] @ u1) * u1 - inner[-1]
    return np.vstack([first, inner, last])


def _interior_tangents(points):
    """Parabola (chord-length) tangents at points[1:-1]."""
    a, b = points[1:-1] - points[:-2], points[2:] - points[1:-1]
    la, lb = np.linalg.norm(a, axis=1, keepdims=True), np.linalg.norm(b, axis=1, keepdims=True)
    return _unit(lb * a / la + la * b / lb)


def _unit(v):
    """``v`` scaled to unit length."""
    return v / np.linalg.norm(v, axis=-1, keepdims=True)


def unit_rows(what, vectors, count):
    """``vectors`` as ``count`` unit rows (count, 3); ModelError naming ``what`` otherwise."""
    try:
        v = np.asarray(vectors, float)
    except (TypeError, ValueError):
        v = None
    if v is None or v.shape != (count, 3) or not np.all(np.isfinite(v)):
        raise ModelError(f"{what}: expected {count} rows of 3 finite numbers (one per point), got shape "
                         f"{np.shape(vectors)}")
    norm = np.linalg.norm(v, axis=1)
    if np.any(norm == 0):
        raise ModelError(f"{what}: row {int(np.argmin(norm))} is zero; give a direction along the centreline")
    return v / norm[:, None]


def centreline_points(what, points):
    """``(points, closed)`` of a centreline, m (a repeated first point closes it and is dropped); ModelError if bad."""
    try:
        points = np.asarray(points, float)
    except (TypeError, ValueError):
        points = np.zeros((0, 0))
    if points.ndim != 2 or points.shape[1] != 3 or len(points) < 2 or not np.all(np.isfinite(points)):
        raise ModelError(f"{what}: points must be an (n ≥ 2, 3) array of finite coordinates in metres")
    segment = np.linalg.norm(np.diff(points, axis=0), axis=1)
    scale = max(np.abs(points).max(), segment.max())
    if np.linalg.norm(points[-1] - points[0]) <= 1e-12 * scale and len(points) > 3:      # closed loop
        points = points[:-1]
        segment = segment[:-1]
        closed = True
    else:
        closed = False
    short = np.flatnonzero(segment <= 1e-12 * scale)
    if short.size:
        raise ModelError(f"{what}: points {short[0]} and {short[0] + 1} coincide; remove the repeated point")
    return points, closed


def centreline_element(what, points, tangents, closed):
    """"cable" for a straight open centreline, "cable2d" for a curve in a plane z = const; else ModelError."""
    chord = points[-1] - points[0]
    scale = np.linalg.norm(np.diff(points, axis=0), axis=1).sum()
    if not closed and np.linalg.norm(chord) > 0:
        e = chord / np.linalg.norm(chord)
        off_line = np.linalg.norm(np.cross(points - points[0], e), axis=1).max() / scale
        if off_line < 1e-12 and np.linalg.norm(np.cross(tangents, e), axis=1).max() < 1e-12:
            return "cable"
    if np.abs(points[:, 2] - points[0, 2]).max() <= 1e-12 and np.abs(tangents[:, 2]).max() <= 1e-12:
        return "cable2d"
    raise ModelError(f"{what}: the centreline is curved and leaves every plane z = const; the 3-D cable only "
                     "takes straight centrelines and the planar cable curves in a plane z = const, so pass "
                     "element='beam' (ANCFBeam3D; y_axis sets the section axes)")


def section_y_axes(what, tangents, y_axis):
    """Section y axes: the hint projected on the plane ⟂ each tangent; ModelError where it is parallel."""
    try:
        hint = np.broadcast_to(np.asarray(y_axis, float), tangents.shape)
    except (TypeError, ValueError):
        raise ModelError(f"{what}: y_axis must be a 3-vector or one per node, got {y_axis!r}") from None
    ey = hint - tangents * np.sum(hint * tangents, axis=1, keepdims=True)
    norm = np.linalg.norm(ey, axis=1)
    bad = np.flatnonzero(~(norm > 1e-6 * np.linalg.norm(hint, axis=1)))
    if bad.size:
        raise ModelError(f"{what}: the y_axis hint {hint[bad[0]].tolist()} is (nearly) parallel to the beam axis "
                         f"{np.round(tangents[bad[0]], 6).tolist()} at node {bad[0]}; give a hint that is not "
                         "tangent to the centreline (e.g. the normal of the plane of a planar curve)")
    return ey / norm[:, None]


def transported_y_axes(tangents):
    """Section y axes parallel-transported along the unit tangents (no twist), starting from global y (z)."""
    t0 = tangents[0]
    ey = [section_y_axes("parallel transport", t0[None], (0.0, 0.0, 1.0) if abs(t0[1]) > 0.9 else (0.0, 1.0, 0.0))[0]]
    for a, b in zip(tangents[:-1], tangents[1:]):
        c = a @ b
        if c <= -1 + 1e-12:
            raise ModelError(f"beam centreline: the tangent reverses between neighbouring nodes ({a.tolist()} → "
                             f"{b.tolist()}); refine the centreline")
        y = transported(a, b, ey[-1])
        y -= b * (b @ y)
        ey.append(y / np.linalg.norm(y))
    return np.array(ey)
