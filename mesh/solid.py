"""Volume meshes of solid links: meshio import (Tet4, Tet10, Hex8), checks, named and geometric
node sets; what is refused is listed in docs/components.md ("Pipeline").
"""
import contextlib
import io
import os
import warnings

import meshio
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from femdyn.elements.solid import ELEMENT_TYPES
from femdyn.errors import ModelError, UnitsWarning

UNITS = {"m": 1.0, "cm": 1e-2, "mm": 1e-3, "um": 1e-6, "in": 0.0254, "ft": 0.3048}
VOLUME_CELLS = {"tetra", "tetra10", "hexahedron", "hexahedron20", "hexahedron27", "wedge", "wedge15",
                "pyramid", "pyramid13", "tetra20", "tetra35", "wedge18", "pyramid14"}
MAX_EXTENT_M = 100.0      # a link longer than this is almost surely a mesh in mm read as m
MESH_LINK_SPAN = 10.0        # m: a meshed solid part longer than this is a link of ≥ 10 mm drawn in mm
MESH_SOLID_DENSITY = 1000.0  # kg/m³: at or above water (plastics, metals) such a part would weigh tonnes
SELECTOR_NUMBERS = {"box": (6,), "cylinder": (7, 8), "nearest": (3,)}   # numbers each geometric selector takes


class MeshError(ModelError):
    """A volume mesh femdyn cannot use: unreadable, unsupported cells, bad elements, wrong units."""


class SolidMesh:
    """A checked volume mesh in metres.

    Parameters
    ----------
    points : (n_nodes, 3) array_like
        Nodal coordinates, m.
    blocks : list of (ElementType, (n_el, n_nodes) int array)
        Element blocks, VTK node order.
    node_sets : dict, optional
        Name → node indices.
    name : str, optional
        Label for messages.
    min_quality : float, optional
        Smallest accepted element volume / (longest edge)³.
    check : bool, optional
        Run :func:`check_mesh` (MeshError for inverted, degenerate or disconnected meshes).
    """

    def __init__(self, points, blocks, node_sets=None, name="mesh", min_quality=1e-6, check=True):
        self.points = np.ascontiguousarray(points, float)
        self.blocks = [(etype, np.ascontiguousarray(conn, np.int64)) for etype, conn in blocks]
        self.node_sets = {k: np.unique(np.asarray(v, np.int64)) for k, v in (node_sets or {}).items()}
        self.name = name
        if check:
            check_mesh(self, min_quality)

    @property
    def n_nodes(self):
        return len(self.points)

    @property
    def n_elements(self):
        return sum(len(c) for _, c in self.blocks)

    @property
    def ndof(self):
        return 3 * self.n_nodes

    def element_types(self):
        """Names of the blocks' element types ('tet4', 'tet10', 'hex8')."""
        return [etype.name for etype, _ in self.blocks]

    def node_set(self, name):
        """Sorted node indices of a named set.

        Parameters
        ----------
        name : str
            Set name; MeshError (listing the known sets) if unknown.
        """
        if name not in self.node_sets:
            raise MeshError(f"{self.name}: no node set '{name}'; known sets: {sorted(self.node_sets) or 'none'} "
                            "(or select nodes by geometry: box:, cylinder:, nearest:)")
        return self.node_sets[name]

    def renumbered(self):
        """This mesh with its nodes in Morton (Z-curve) order of their coordinates, and the order.

        Nodes near in space get near numbers, so sparse products on the renumbered mesh find the
        vector entries they need in cache (Gmsh numbers mid-edge nodes after all corners: a 273k-dof
        Tet10 rod's mean |i − j| of coupled nodes falls from 24k to ~10²). Node sets follow their nodes.

        Returns
        -------
        mesh : SolidMesh
            Same points, elements and node sets, renumbered (not re-checked).
        order : (n_nodes,) int ndarray
            New node k is old node ``order[k]``.
        """
        lo, span = self.points.min(0), np.ptp(self.points, 0).max()
        q = ((self.points - lo) / max(span, np.finfo(float).tiny) * (2 ** 21 - 1)).astype(np.uint64)
        key = _spread_bits(q[:, 0]) | (_spread_bits(q[:, 1]) << np.uint64(1)) | (_spread_bits(q[:, 2]) << np.uint64(2))
        order = np.argsort(key, kind="stable")
        inverse = np.empty_like(order)
        inverse[order] = np.arange(len(order))
        mesh = SolidMesh(self.points[order], [(e, inverse[c]) for e, c in self.blocks],
                         {k: inverse[v] for k, v in self.node_sets.items()}, self.name, check=False)
        return mesh, order

    def summary(self):
        """One line: nodes, degrees of freedom, element blocks and bounding box, m.

        Examples
        --------
        >>> from femdyn.mesh.generate import box_mesh
        >>> box_mesh((1.0, 0.1, 0.1), (2, 1, 1), element="hex8").summary()
        'box [1.0, 0.1, 0.1] m: 12 nodes (36 dof), 2 hex8; box [0.0, 0.0, 0.0] – [1.0, 0.1, 0.1] m'
        """
        blocks = ", ".join(f"{len(c)} {e.name}" for e, c in self.blocks)
        lo, hi = self.points.min(0), self.points.max(0)
        return (f"{self.name}: {self.n_nodes} nodes ({self.ndof} dof), {blocks}; "
                f"box {np.round(lo, 6).tolist()} – {np.round(hi, 6).tolist()} m")


def mesh_unit_suspect(what, span, rho=None):
    """Why a solid mesh read in m looks like mm (span > MESH_LINK_SPAN, at ρ ≥ MESH_SOLID_DENSITY when known)."""
    if span > MESH_LINK_SPAN and (rho is None or rho >= MESH_SOLID_DENSITY):
        part = f"a {span:.4g} m solid part" + (f" at {rho:g} kg/m³" if rho is not None else "")
        return (f"{what}: the mesh spans {span:.4g} m read in metres, {part} (more than {MESH_LINK_SPAN:g} m: "
                "a crane boom, not a link); its coordinates are probably in mm")
    return None


def read_solid_mesh(source, unit=None, min_quality=1e-6, name=None):
    """Read a volume mesh with meshio (any format) and check it; MeshError with the reason if refused.

    Parameters
    ----------
    source : str, path-like or meshio.Mesh
        The file or a mesh in memory.
    unit : {"m", "cm", "mm", "um", "in", "ft"}, optional
        Length unit of the coordinates; converted to metres. Not given: metres, and a mesh spanning
        more than ``MESH_LINK_SPAN`` (10 m) warns that it is probably in mm.
    min_quality : float, optional
        Smallest accepted volume / (longest edge)³ (regular tetrahedron 0.118).
    name : str, optional
        Label for messages (default the file name).

    Warns
    -----
    UnitsWarning
        No ``unit`` given and the mesh spans more than 10 m: a link drawn in mm (the fix named).

    Examples
    --------
    >>> import meshio
    >>> raw = meshio.Mesh(10.0 * np.vstack([np.zeros(3), np.eye(3)]), [("tetra", [[0, 1, 2, 3]])])
    >>> float(read_solid_mesh(raw, unit="mm").points.max())
    0.01
    """
    stated, unit = unit is not None, unit or "m"
    if unit not in UNITS:
        raise MeshError(f"unknown length unit '{unit}'; use one of {sorted(UNITS)}")
    if isinstance(source, meshio.Mesh):
        raw, name = source, name or "mesh"
    else:
        name = name or os.path.basename(str(source))
        raw = _meshio_read(source)
    points = np.zeros((len(raw.points), 3))
    points[:, :raw.points.shape[1]] = raw.points
    points *= UNITS[unit]
    extent = np.ptp(points, axis=0).max() if len(points) else 0.0
    if extent > MAX_EXTENT_M:
        raise MeshError(f"{name}: the mesh spans {extent:.4g} m with unit='{unit}'; its coordinates are "
                        "probably in mm: pass unit='mm' (or the unit the CAD export used)")
    suspect = None if stated else mesh_unit_suspect(name, extent)
    if suspect:
        warnings.warn(f"{suspect}: pass unit='mm' (or the unit the CAD export used), or unit='m' if the part "
                      "really is that large (silence: warnings.filterwarnings('ignore', "
                      "category=femdyn.UnitsWarning))", UnitsWarning, stacklevel=2)
    blocks, unsupported = [], {}
    for k, cells in enumerate(raw.cells):
        if cells.type in ELEMENT_TYPES:
            blocks.append((k, ELEMENT_TYPES[cells.type], cells.data))
        elif cells.type in VOLUME_CELLS:
            unsupported[cells.type] = unsupported.get(cells.type, 0) + len(cells.data)
    if unsupported:
        raise MeshError(f"{name}: unsupported volume cells {unsupported}; femdyn's solids are Tet4 ('tetra'), "
                        "Tet10 ('tetra10') and Hex8 ('hexahedron'): re-mesh with these (Gmsh: "
                        "Mesh.ElementOrder 1 or 2, Mesh.SecondOrderIncomplete 1 for hexahedra is not supported)")
    if not blocks:
        raise MeshError(f"{name}: no volume cells (found {[c.type for c in raw.cells]}); "
                        "mesh the volume (Gmsh: generate 3) and export it")
    sets = _named_sets(raw)
    used = np.unique(np.concatenate([c.ravel() for _, _, c in blocks]))
    renumber = np.full(len(points), -1, np.int64)
    renumber[used] = np.arange(len(used))
    node_sets = {}
    for key, nodes in sets.items():
        kept = renumber[nodes]
        if np.any(kept >= 0):
            node_sets[key] = kept[kept >= 0]
    return SolidMesh(points[used], [(etype, renumber[c]) for _, etype, c in blocks], node_sets, name,
                     min_quality)


def _meshio_read(source):
    """meshio.read, its printed complaints and its exit on an unknown content turned into one MeshError line."""
    if not os.path.isfile(source):
        raise MeshError(f"cannot read mesh '{source}': no such file; check the input path")
    said = io.StringIO()
    try:
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            return meshio.read(source)
    except (Exception, SystemExit) as err:  # meshio raises many types, or exits, for unreadable files
        words = " ".join((said.getvalue() + " " + ("" if isinstance(err, SystemExit) else str(err))).split())
        raise MeshError(f"cannot read mesh '{source}' (meshio: {words or type(err).__name__}); give a mesh "
                        "file meshio reads (Gmsh .msh, .vtu, .vtk, Abaqus .inp, ...) or a CAD file (.step, .iges, "
                        ".brep)") from None


def _named_sets(raw):
    """Node sets of a meshio mesh: Gmsh physical groups, point/cell sets, point data masks."""
    sets = {}
    physical = next((raw.cell_data[k] for k in ("gmsh:physical", "CellEntityIds", "medit:ref")
                     if k in raw.cell_data), None)
    if physical is not None:
        names = {int(tag): label for label, (tag, *_) in raw.field_data.items()} if raw.field_data else {}
        for cells, tags in zip(raw.cells, physical):
            for tag in np.unique(np.asarray(tags)[np.asarray(tags) > 0]):
                label = names.get(int(tag), str(int(tag)))
                nodes = cells.data[np.asarray(tags) == tag].ravel()
                sets[label] = np.union1d(sets.get(label, np.zeros(0, np.int64)), nodes)
    for label, nodes in (raw.point_sets or {}).items():
        sets[label] = np.asarray(nodes, np.int64)
    for label, per_block in (raw.cell_sets or {}).items():
        if label.startswith("gmsh:"):         # Gmsh's bookkeeping, not a user set
            continue
        nodes = [raw.cells[k].data[np.asarray(idx, np.int64)].ravel()
                 for k, idx in enumerate(per_block) if idx is not None and len(idx)]
        if nodes and label not in sets:
            sets[label] = np.unique(np.concatenate(nodes))
    for label, values in (raw.point_data or {}).items():
        v = np.asarray(values)
        if v.ndim == 1 and (v.dtype == bool or np.issubdtype(v.dtype, np.integer)):
            if v.dtype == bool or set(np.unique(v)) <= {0, 1}:
                sets[label] = np.flatnonzero(v)
            else:
                for tag in np.unique(v[v > 0]):
                    sets[f"{label}={tag}"] = np.flatnonzero(v == tag)
    return sets


def element_quality(etype, X):
    """Per element: smallest det J (corners, quadrature points) and volume / (longest edge)³."""
    from femdyn.elements.solid import jacobian
    xi = np.vstack([etype.reference[etype.corners], etype.stiffness_rule[0], etype.mass_rule[0]])
    det = np.linalg.det(jacobian(etype, X, xi))
    w = etype.mass_rule[1]
    volume = det[:, -len(w):] @ w
    C = X[:, etype.corners]
    edges = np.linalg.norm(C[:, :, None] - C[:, None], axis=-1).max(axis=(1, 2))
    return det.min(1), volume / np.maximum(edges, 1e-300) ** 3


def check_mesh(mesh, min_quality=1e-6):
    """MeshError for out-of-range, inverted, degenerate, unused or disconnected nodes and elements."""
    ids = 0
    for etype, conn in mesh.blocks:
        if conn.size and (conn.min() < 0 or conn.max() >= mesh.n_nodes):
            raise MeshError(f"{mesh.name}: {etype.name} cells reference nodes outside 0..{mesh.n_nodes - 1}")
        det, quality = element_quality(etype, mesh.points[conn])
        inverted = np.flatnonzero(det <= 0)
        degenerate = np.flatnonzero((quality < min_quality) & (det > 0))
        if inverted.size:
            raise MeshError(f"{mesh.name}: {inverted.size} inverted {etype.name} element(s) (negative Jacobian "
                            f"determinant), ids {(inverted + ids)[:10].tolist()}; fix their node order or "
                            "re-mesh (mid-edge nodes too far from the edge midpoints also invert Tet10)")
        if degenerate.size:
            raise MeshError(f"{mesh.name}: {degenerate.size} degenerate {etype.name} element(s) (volume below "
                            f"{min_quality:g} × longest edge³, smallest {quality.min():.3g}), ids "
                            f"{(degenerate + ids)[:10].tolist()}; re-mesh with better quality")
        ids += len(conn)
    used = np.zeros(mesh.n_nodes, bool)
    for _, conn in mesh.blocks:
        used[conn.ravel()] = True
    if not used.all():
        raise MeshError(f"{mesh.name}: nodes {np.flatnonzero(~used)[:10].tolist()} belong to no element; remove "
                        "them (read_solid_mesh drops them itself)")
    n_parts, labels = connected_components(node_graph(mesh), directed=False)
    if n_parts > 1:
        sizes = np.bincount(labels)
        raise MeshError(f"{mesh.name}: the mesh falls into {n_parts} disconnected parts of {sizes.tolist()[:10]} "
                        "nodes; a component must be one connected body (merge duplicate nodes, or export "
                        "the parts as separate links)")


def _spread_bits(x):
    """The 21 low bits of each uint64 spread to every third bit (Morton interleaving)."""
    x = x & np.uint64(0x1FFFFF)
    for shift, mask in ((32, 0x1F00000000FFFF), (16, 0x1F0000FF0000FF), (8, 0x100F00F00F00F00F),
                        (4, 0x10C30C30C30C30C3), (2, 0x1249249249249249)):
        x = (x | (x << np.uint64(shift))) & np.uint64(mask)
    return x


def node_graph(mesh):
    """Sparse (n_nodes × n_nodes) adjacency, nonzero where two nodes share an element."""
    rows, cols = [], []
    for _, conn in mesh.blocks:
        rows.append(np.repeat(conn, conn.shape[1], axis=1).ravel())
        cols.append(np.tile(conn, (1, conn.shape[1])).ravel())
    r, c = np.concatenate(rows), np.concatenate(cols)
    return sp.csr_matrix((np.ones(len(r), np.int8), (r, c)), shape=(mesh.n_nodes,) * 2)


# ---------------------------------------------------------------------- node selectors
def select_box(mesh, lower, upper):
    """Indices of the nodes in the box lower ≤ x ≤ upper, m (bounds included)."""
    lo, hi = np.asarray(lower, float), np.asarray(upper, float)
    return np.flatnonzero(np.all((mesh.points >= lo) & (mesh.points <= hi), axis=1))


def select_cylinder(mesh, point, axis, radius, tol=None, span=None):
    """Nodes at ``radius`` ± ``tol`` from the axis through ``point`` along ``axis``, within ``span`` if given (m)."""
    p, a = np.asarray(point, float), np.asarray(axis, float)
    a = a / np.linalg.norm(a)
    d = mesh.points - p
    s = d @ a
    r = np.linalg.norm(d - s[:, None] * a, axis=1)
    tol = 1e-3 * radius if tol is None else tol
    keep = np.abs(r - radius) <= tol
    if span is not None:
        keep &= (s >= span[0] - tol) & (s <= span[1] + tol)
    return np.flatnonzero(keep)


def select_nearest(mesh, point):
    """The index of the node nearest to ``point`` [m], as a (1,) array."""
    return np.array([np.argmin(np.linalg.norm(mesh.points - np.asarray(point, float), axis=1))])


def select(mesh, selector):
    """Node indices from a selector text (the command line's ``NAME=SELECTOR``), lengths in m.

    ``group:NAME`` (or NAME), ``box:x0,y0,z0,x1,y1,z1``, ``cylinder:px,py,pz,ax,ay,az,r[,tol]``,
    ``nearest:x,y,z`` (docs/components.md, "Interface selectors"); MeshError for unknown selectors, bad numbers
    or an empty selection.

    Parameters
    ----------
    mesh : SolidMesh
        The mesh.
    selector : str
        The selector text.
    """
    kind, _, body = selector.partition(":")
    if not body:
        kind, body = "group", selector
    if kind == "group":
        nodes = mesh.node_set(body)
    else:
        try:
            values = [float(v) for v in body.split(",")]
        except ValueError:
            raise MeshError(f"selector '{selector}': expected comma-separated numbers (m) after '{kind}:'") from None
        if kind not in SELECTOR_NUMBERS:
            raise MeshError(f"selector '{selector}': unknown kind '{kind}'; use group:, box:, cylinder:, nearest:")
        if len(values) not in SELECTOR_NUMBERS[kind]:
            counts = " or ".join(map(str, SELECTOR_NUMBERS[kind]))
            raise MeshError(f"selector '{selector}': '{kind}:' takes {counts} numbers")
        if kind == "box":
            nodes = select_box(mesh, values[:3], values[3:])
        elif kind == "cylinder":
            nodes = select_cylinder(mesh, values[:3], values[3:6], values[6], *(values[7:] or [None]))
        else:
            nodes = select_nearest(mesh, values)
    if len(nodes) == 0:
        raise MeshError(f"selector '{selector}' selects no node of {mesh.name}; check the coordinates (m)")
    return nodes
