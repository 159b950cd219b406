"""A CAD part meshed by Gmsh in tetrahedra: size by a global length, curvature and refinement near
faces and points; Gmsh's parallel 3-D mesher (HXT); the mesh report (counts, minimum scaled
Jacobian, worst aspect, smallest feature) and the refusal of a poor mesh naming where; interfaces
selected by the part's faces and bores. docs/cad.md.
"""
import dataclasses
import os

import numpy as np

from femdyn.elements.solid import TET4, TET10
from femdyn.input_checks import plural
from femdyn.mesh.cad import CAD_SUFFIXES, find_face, opened, part_faces, sha256
from femdyn.mesh.solid import MeshError, SolidMesh

GMSH_TETRAHEDRA = {4: TET4, 11: TET10}                 # Gmsh element type → femdyn's
_TET10_FROM_GMSH = [0, 1, 2, 3, 4, 5, 6, 7, 9, 8]      # Gmsh numbers the last two mid-edge nodes the other way
HXT = 10                                               # Mesh.Algorithm3D: Gmsh's parallel Delaunay mesher


@dataclasses.dataclass
class CadMesh:
    """A CAD part's mesh (in m), its faces, the mesh report and the record of its origin.

    Parameters
    ----------
    mesh : SolidMesh
        The checked mesh; node set ``faceN`` holds the nodes of face N (boundary included).
    faces : list of CadFace
        The part's faces (:func:`femdyn.mesh.cad.cad_faces`).
    report : dict
        ``nodes``, ``elements``, ``dof``, ``min_scaled_jacobian`` (1 for straight-sided tetrahedra),
        ``worst_aspect`` (circumradius / 3 inradius, 1 for a regular tetrahedron), ``smallest_feature`` (the
        shortest edge of the CAD model, m) and where the worst elements are.
    origin : dict
        What the component header records: file name, SHA-256, unit, mesh settings, counts, quality.
    """
    mesh: SolidMesh
    faces: list
    report: dict
    origin: dict

    def face(self, key):
        """The CadFace numbered or named ``key``; MeshError listing the faces if none.

        Parameters
        ----------
        key : int or str
            A face number (as ``femdyn show PART --faces`` lists) or a face name of the CAD file.
        """
        return find_face(self.faces, key, self.mesh.name)

    def interface(self, selector):
        """(node indices, frame origin or None) of a ``face:N``, ``face:NAME`` or ``bore:N`` selector; None otherwise.

        A bore's frame origin is its axis point at the bore's centre of area (m); a face's is left to the caller
        (the nodes' centroid).

        Parameters
        ----------
        selector : str
            ``face:N``, ``face:NAME`` or ``bore:N``.

        Raises
        ------
        MeshError
            No such face, or ``bore:N`` naming a face that is not a cylinder.
        """
        kind, _, key = selector.partition(":")
        if kind not in ("face", "bore") or not key:
            return None
        face = self.face(key)
        if kind == "bore" and not face.is_bore:
            bores = [f.number for f in self.faces if f.is_bore]
            raise MeshError(f"{self.mesh.name}: face {face.number} is a {face.kind.lower()}, not a bore; its bores "
                            f"are faces {bores}")
        return self.mesh.node_set(f"face{face.number}"), (face.centre if kind == "bore" else None)

    def report_lines(self):
        """The mesh report, a few lines: counts, quality, smallest feature, unit."""
        r, o = self.report, self.origin
        return [f"mesh of {o['file']} ({o['format']}, lengths in {o['unit']} converted to m): "
                f"{plural(r['elements'], o['mesh']['element'] + ' element')}, {plural(r['nodes'], 'node')} "
                f"({r['dof']} dof), size {o['mesh']['size']:g} m, {r['threads']} thread(s), {r['seconds']:.1f} s",
                f"  quality: minimum scaled Jacobian {r['min_scaled_jacobian']:.3f} (element {r['worst_jacobian_at']}), "
                f"worst aspect {r['worst_aspect']:.3g} (element {r['worst_aspect_at']}); smallest feature "
                f"{r['smallest_feature']:.4g} m"]


def mesh_cad(path, size, order=2, unit=None, curvature=12, fine=None, fine_faces=(), fine_points=(), solid=None,
             fuse=False, threads=None, min_jacobian=0.1, max_aspect=100.0, msh=None):
    """Mesh a CAD part (STEP, IGES, BREP) in tetrahedra with Gmsh and check the mesh.

    Parameters
    ----------
    path : str or path-like
        The CAD file; its declared length unit is used (:func:`femdyn.mesh.cad.file_unit`).
    size : float
        Target element edge length, m.
    order : {1, 2}, optional
        Tet4 or Tet10 (default; mid-edge nodes on the curved faces).
    unit : str, optional
        Length unit of a file that declares none (BREP).
    curvature : float, optional
        Elements per full circle on curved faces and edges (``Mesh.MeshSizeFromCurvature``; 0: off).
    fine : float, optional
        Element size at ``fine_faces`` and ``fine_points``, m, growing to ``size`` over 4 × ``size``.
    fine_faces : sequence of int or str, optional
        Numbers or names of the faces to refine (the interfaces' faces).
    fine_points : sequence of (3,) array_like, optional
        Points to refine around (gauges), m.
    solid : int, optional
        Of an assembly, the solid to keep (1-based).
    fuse : bool, optional
        Of an assembly, fuse the solids.
    threads : int, optional
        Gmsh's threads (default: the machine's cores).
    min_jacobian : float, optional
        Refuse a mesh whose smallest scaled Jacobian is below this.
    max_aspect : float, optional
        Refuse a mesh with an element of aspect (circumradius / 3 inradius) above this.
    msh : str or path-like, optional
        Also write the mesh to this Gmsh file, physical groups 'part' and 'faceN'.

    Returns
    -------
    CadMesh

    Raises
    ------
    MeshError
        Bad sizes or order, an unreadable file or unit (:func:`femdyn.mesh.cad.opened`), a failed meshing, a mesh
        below the quality thresholds (naming the element and where it is).

    Examples
    --------
    >>> cad = mesh_cad("link.step", size=0.004)               # doctest: +SKIP
    >>> cad.interface("bore:7")[1]                            # doctest: +SKIP
    array([0.015, 0.01 , 0.005])
    """
    import time
    if not size > 0 or (fine is not None and not fine > 0):
        raise MeshError(f"mesh size {size!r} m (fine {fine!r} m): give positive lengths in m, e.g. --size 0.004")
    if order not in (1, 2):
        raise MeshError(f"--order {order}: femdyn's tetrahedra are of order 1 (Tet4) or 2 (Tet10)")
    threads = threads or os.cpu_count() or 1
    start = time.perf_counter()
    with opened(path, unit, solid, fuse) as (file_unit, scale):
        faces = part_faces(scale)
        fine_faces = sorted({find_face(faces, key, os.path.basename(str(path))).number for key in fine_faces})
        _generate(size / scale, order, curvature, None if fine is None else fine / scale, fine_faces,
                  np.asarray(fine_points, float).reshape(-1, 3) / scale, threads)
        mesh, report = _read_mesh(os.path.basename(path), scale, faces)
        if msh is not None:
            _write_msh(msh, faces, scale)
    report.update(threads=threads, seconds=time.perf_counter() - start)
    _refuse_poor(mesh.name, report, min_jacobian, max_aspect)
    origin = {"file": os.path.basename(str(path)), "sha256": sha256(path),
              "format": CAD_SUFFIXES[os.path.splitext(str(path))[1].lower()], "unit": file_unit,
              "mesh": {"mesher": "gmsh", "algorithm_3d": "HXT", "element": mesh.element_types()[0], "size": size,
                       "order": order, "curvature": curvature, "fine": fine, "fine_faces": fine_faces,
                       "fine_points": np.asarray(fine_points, float).reshape(-1, 3).tolist(), "solid": solid,
                       "fuse": bool(fuse)},
              "counts": {k: report[k] for k in ("nodes", "elements", "dof")},
              "quality": {k: report[k] for k in ("min_scaled_jacobian", "worst_aspect", "smallest_feature")}}
    return CadMesh(mesh, faces, report, origin)


def _generate(size, order, curvature, fine, fine_faces, fine_points, threads):
    """Set Gmsh's size fields and options (model lengths) and mesh the volume; MeshError if Gmsh fails."""
    import gmsh
    option = gmsh.option.setNumber
    option("General.NumThreads", threads)
    option("Mesh.Algorithm3D", HXT)
    option("Mesh.MeshSizeMax", size)
    option("Mesh.MeshSizeMin", 0.0)
    option("Mesh.MeshSizeFromCurvature", curvature)
    option("Mesh.ElementOrder", order)
    option("Mesh.HighOrderOptimize", 1 if order > 1 else 0)
    if fine is not None and (len(fine_faces) or len(fine_points)):
        field = gmsh.model.mesh.field
        grown = []
        if len(fine_faces):
            distance = field.add("Distance")
            field.setNumbers(distance, "SurfacesList", sorted(fine_faces))
            threshold = field.add("Threshold")
            field.setNumber(threshold, "InField", distance)
            for key, value in (("SizeMin", fine), ("SizeMax", size), ("DistMin", 0.5 * fine),
                               ("DistMax", 0.5 * fine + 4 * size)):
                field.setNumber(threshold, key, value)
            grown.append(threshold)
        for point in fine_points:
            ball = field.add("Ball")
            for key, value in zip(("XCenter", "YCenter", "ZCenter", "Radius", "Thickness", "VIn", "VOut"),
                                  (*point, fine, 4 * size, fine, size)):
                field.setNumber(ball, key, value)
            grown.append(ball)
        smallest = field.add("Min")
        field.setNumbers(smallest, "FieldsList", grown)
        field.setAsBackgroundMesh(smallest)
    try:
        gmsh.model.mesh.generate(3)
    except Exception as err:     # Gmsh raises Exception with the mesher's words
        raise MeshError(f"Gmsh could not mesh the part: {err}; try another --size, or check the CAD model "
                        "(closed solid, no self-intersections)") from None


def _read_mesh(name, scale, faces):
    """The SolidMesh (m) of Gmsh's volume mesh with node sets per face, and the report's counts and quality."""
    import gmsh
    types, tags, conn = gmsh.model.mesh.getElements(3)
    kept = [(GMSH_TETRAHEDRA[t], k) for k, t in enumerate(types) if t in GMSH_TETRAHEDRA]
    if len(kept) != 1 or len(types) != 1:
        raise MeshError(f"{name}: Gmsh made volume elements of types {list(types)}, not tetrahedra alone")
    etype, k = kept[0]
    node_tags, xyz, _ = gmsh.model.mesh.getNodes()
    index = np.full(int(node_tags.max()) + 1, -1, np.int64)
    cells = np.asarray(conn[k], np.int64).reshape(len(tags[k]), etype.n_nodes)
    used = np.unique(cells)
    index[used] = np.arange(len(used))
    position = np.full(int(node_tags.max()) + 1, -1, np.int64)
    position[node_tags] = np.arange(len(node_tags))
    points = xyz.reshape(-1, 3)[position[used]] * scale
    cells = index[cells]
    if etype is TET10:
        cells = cells[:, _TET10_FROM_GMSH]
    sets = {}
    for f in faces:
        on_face = gmsh.model.mesh.getNodes(2, f.number, includeBoundary=True)[0]
        sets[f"face{f.number}"] = index[on_face[index[on_face] >= 0]] if len(on_face) else np.zeros(0, np.int64)
    mesh = SolidMesh(points, [(etype, cells)], sets, name)
    report = _quality(tags[k], points, cells)
    report.update(nodes=mesh.n_nodes, elements=mesh.n_elements, dof=mesh.ndof,
                  smallest_feature=min(gmsh.model.occ.getMass(1, c) for _, c in gmsh.model.getEntities(1)) * scale)
    return mesh, report


def _quality(tags, points, cells):
    """Minimum scaled Jacobian and worst aspect (Gmsh's minSJ and 1/gamma), each with its element and centre."""
    import gmsh
    jac = np.asarray(gmsh.model.mesh.getElementQualities(tags, "minSJ"))
    aspect = 1.0 / np.maximum(np.asarray(gmsh.model.mesh.getElementQualities(tags, "gamma")), 1e-300)
    j, a = int(np.argmin(jac)), int(np.argmax(aspect))

    def where(e):
        centre = ", ".join(f"{x:.4g}" for x in points[cells[e, :4]].mean(0))
        return f"{e}, Gmsh {int(tags[e])}, centre ({centre}) m"
    return {"min_scaled_jacobian": float(jac[j]), "worst_jacobian_at": where(j),
            "worst_aspect": float(aspect[a]), "worst_aspect_at": where(a)}


def _refuse_poor(name, report, min_jacobian, max_aspect):
    """MeshError naming the worst element when the mesh is below either quality threshold."""
    if report["min_scaled_jacobian"] < min_jacobian:
        raise MeshError(f"{name}: minimum scaled Jacobian {report['min_scaled_jacobian']:.3g} below "
                        f"{min_jacobian:g} at element {report['worst_jacobian_at']}; refine there (--fine, a smaller "
                        "--size) or lower --min-jacobian")
    if report["worst_aspect"] > max_aspect:
        raise MeshError(f"{name}: an element of aspect {report['worst_aspect']:.3g} (above {max_aspect:g}) at element "
                        f"{report['worst_aspect_at']}; change --size near there or raise --max-aspect")


def _write_msh(path, faces, scale):
    """Write the open Gmsh mesh to ``path`` in m, with physical groups 'part' (the volume) and 'faceN'."""
    import gmsh
    if scale != 1.0:
        gmsh.model.mesh.affineTransform([scale, 0, 0, 0, 0, scale, 0, 0, 0, 0, scale, 0])
    gmsh.model.addPhysicalGroup(3, [t for _, t in gmsh.model.getEntities(3)], name="part")
    for f in faces:
        gmsh.model.addPhysicalGroup(2, [f.number], name=f"face{f.number}")
    gmsh.write(str(path))
