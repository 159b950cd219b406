"""Line meshes (VTK, Gmsh, … read by meshio) as ordered beam centrelines.

A mesh of 2-node line cells becomes one polyline per connected chain; nodes where more
than two lines meet (branches) are refused, since an ANCF cable node shares one tangent
between the elements it joins. A closed loop is returned with its first point repeated
at the end, so that its last element ends on the first node. Coordinates are taken as
metres.
"""
import meshio
import numpy as np

from femdyn.errors import ModelError


def read_line_mesh(path):
    """Points (n, 3) and ordered chains (list of point-index arrays) of a line mesh file."""
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
    """Order 2-node segments into chains of point indices; a closed chain ends with its
    first index again (one element per segment)."""
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
    """Unit tangents (n, 3) at the vertices of a polyline sampled from a smooth curve,
    second-order accurate in the point spacing and exact for points on a circle.

    Interior vertex (and every vertex of a ``closed`` loop, whose last point connects to
    the first): the derivative of the parabola through the vertex and its neighbours in
    the chord-length parameter, t ∝ (|b| â + |a| b̂)/(|a| + |b|) with a, b the incoming and
    outgoing chords; for points on a circle this is the circle's tangent (the inscribed
    angles of the two chords cancel). End vertex: the tangent of the circle through the
    first (last) three points, i.e. the neighbour's tangent reflected about the end
    chord, t₀ = 2 (t₁·u) u − t₁ with u the unit end chord (the tangents at the two ends of
    a chord of a circle are mirror images about it). Two points: the chord direction."""
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
    """Parabola (chord-length) tangents at points[1:-1] (see :func:`polyline_tangents`)."""
    a, b = points[1:-1] - points[:-2], points[2:] - points[1:-1]
    la, lb = np.linalg.norm(a, axis=1, keepdims=True), np.linalg.norm(b, axis=1, keepdims=True)
    return _unit(lb * a / la + la * b / lb)


def _unit(v):
    return v / np.linalg.norm(v, axis=-1, keepdims=True)
