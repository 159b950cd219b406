"""Line meshes (VTK, Gmsh, … read by meshio) as ordered beam centrelines.

A mesh of 2-node line cells becomes one polyline per connected chain; nodes where more
than two lines meet (branches) are refused, since an ANCF cable node shares one tangent
between the elements it joins. Coordinates are taken as metres.
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
    """Order 2-node segments into chains of point indices (open or closed)."""
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
        out.append(np.array(chain))
    return out


def polyline_tangents(points):
    """Unit tangents at polyline vertices: mean of the adjacent segment directions."""
    d = np.diff(points, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    t = np.vstack([d[:1], d[:-1] + d[1:], d[-1:]])
    return t / np.linalg.norm(t, axis=1, keepdims=True)
