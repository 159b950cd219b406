"""Meshes generated in femdyn: structured boxes (tests, benchmarks) and Gmsh rods and tubes
(the flexible link of the 3-RRRU robot, Liu et al. 2018: 815 mm long, solid circular section of
radius 0.01 m)."""
import itertools
import os
import tempfile

import numpy as np

from femdyn.elements.solid import HEX8, TET4, TET10
from femdyn.mesh.solid import MeshError, SolidMesh, read_solid_mesh

_CUBE = np.array(list(itertools.product((0, 1), repeat=3)))[:, ::-1]     # vertex v = (x, y, z) bits


def box_mesh(size, divisions, element="tet4", origin=(0.0, 0.0, 0.0)):
    """A structured mesh of the box [origin, origin + size], node sets 'x0', 'x1', … 'z1' on its faces.

    Parameters
    ----------
    size : (3,) array_like
        Edge lengths, m.
    divisions : (3,) array_like of int
        Cells along x, y, z.
    element : {'tet4', 'tet10', 'hex8'}
        Six Kuhn tetrahedra per cell (tet10: with mid-edge nodes) or hexahedra.
    origin : (3,) array_like
        Lowest corner, m.

    Example
    -------
    >>> box_mesh((1.0, 0.1, 0.1), (10, 1, 1)).n_elements
    60
    """
    size, n = np.asarray(size, float), np.asarray(divisions, int)
    axes = [np.linspace(0, s, k + 1) for s, k in zip(size, n)]
    grid = np.stack(np.meshgrid(*axes, indexing="ij"), -1).reshape(-1, 3) + np.asarray(origin, float)
    index = np.arange(len(grid)).reshape(n + 1)
    cells = np.stack(np.meshgrid(*[np.arange(k) for k in n], indexing="ij"), -1).reshape(-1, 3)
    corner = np.stack([index[tuple((cells + v).T)] for v in _CUBE], axis=1)   # (n_cells, 8), bit order
    if element == "hex8":
        hexa = corner[:, [0, 1, 3, 2, 4, 5, 7, 6]]                         # bits → VTK order
        blocks = [(HEX8, hexa)]
    elif element in ("tet4", "tet10"):
        tets = []
        for perm in itertools.permutations(range(3)):
            path, bits = [0], 0
            for axis in perm:
                bits |= 1 << axis
                path.append(bits)
            tets.append(corner[:, path])
        tets = np.concatenate(tets)
        X = grid[tets]
        det = np.linalg.det(X[:, 1:] - X[:, :1])
        tets[det < 0] = tets[det < 0][:, [0, 2, 1, 3]]
        blocks = [(TET4, tets)]
        if element == "tet10":
            grid, blocks = quadratic_tetrahedra(grid, tets)
    else:
        raise MeshError(f"box_mesh: unknown element '{element}'; use 'tet4', 'tet10' or 'hex8'")
    lo, hi = grid.min(0), grid.max(0)
    tol = 1e-9 * max(size)
    sets = {}
    for k, axis in enumerate("xyz"):
        sets[f"{axis}0"] = np.flatnonzero(np.abs(grid[:, k] - lo[k]) < tol)
        sets[f"{axis}1"] = np.flatnonzero(np.abs(grid[:, k] - hi[k]) < tol)
    return SolidMesh(grid, blocks, sets, name=f"box {size.tolist()} m")


def quadratic_tetrahedra(points, tets):
    """Tet10 mesh from a Tet4 mesh (VTK order): the points plus every edge's midpoint, ``[(TET10, conn)]``."""
    edges = np.array([[0, 1], [1, 2], [0, 2], [0, 3], [1, 3], [2, 3]])
    pairs = np.sort(tets[:, edges], axis=2).reshape(-1, 2)
    unique, inverse = np.unique(pairs, axis=0, return_inverse=True)
    mid = 0.5 * (points[unique[:, 0]] + points[unique[:, 1]])
    conn = np.hstack([tets, len(points) + inverse.reshape(len(tets), 6)])
    return np.vstack([points, mid]), [(TET10, conn)]


def rod_mesh(length=0.815, radius=0.01, size=0.004, order=2, inner_radius=0.0, path=None, verbose=False):
    """Mesh a straight rod (or tube) along x, from 0 to ``length``, with Gmsh tetrahedra.

    Physical groups become node sets 'link', 'end0', 'end1', 'surface'; the defaults are the
    3-RRRU flexible link (Liu et al. 2018). MeshError if the mesh read back fails the checks.

    Parameters
    ----------
    length : float, optional
        Length, m.
    radius : float, optional
        Outer radius, m.
    size : float, optional
        Target element edge length, m.
    order : {1, 2}, optional
        Tet4 or Tet10 (mid-edge nodes on the curved surface).
    inner_radius : float, optional
        Inner radius of a tube, m; 0 for a solid rod.
    path : str or path-like, optional
        Where to keep the .msh file (default a temporary file).
    verbose : bool, optional
        Show Gmsh's messages.
    """
    import gmsh
    own = not gmsh.isInitialized()
    if own:
        gmsh.initialize(interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 1 if verbose else 0)
        gmsh.model.add("rod")
        occ = gmsh.model.occ
        volume = occ.addCylinder(0, 0, 0, length, 0, 0, radius)
        if inner_radius > 0:
            hole = occ.addCylinder(0, 0, 0, length, 0, 0, inner_radius)
            (volume,), _ = occ.cut([(3, volume)], [(3, hole)])
            volume = volume[1]
        occ.synchronize()
        faces = {"end0": [], "end1": [], "surface": []}
        for _, tag in gmsh.model.getBoundary([(3, volume)], oriented=False):
            x = occ.getCenterOfMass(2, tag)[0]
            faces["end0" if abs(x) < 1e-9 * length else "end1" if abs(x - length) < 1e-9 * length
                  else "surface"].append(tag)
        gmsh.model.addPhysicalGroup(3, [volume], name="link")
        for label, tags in faces.items():
            gmsh.model.addPhysicalGroup(2, tags, name=label)
        gmsh.option.setNumber("Mesh.MeshSizeMin", size)
        gmsh.option.setNumber("Mesh.MeshSizeMax", size)
        gmsh.option.setNumber("Mesh.ElementOrder", order)
        gmsh.option.setNumber("Mesh.HighOrderOptimize", 1 if order > 1 else 0)
        gmsh.model.mesh.generate(3)
        with tempfile.TemporaryDirectory() as tmp:
            target = path or os.path.join(tmp, "rod.msh")
            gmsh.write(target)
            gmsh.model.remove()
            return read_solid_mesh(target, unit="m", name=f"rod L={length} m r={radius} m")
    finally:
        if own:
            gmsh.finalize()
