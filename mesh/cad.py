"""CAD parts (STEP, IGES, BREP) opened with Gmsh's OpenCASCADE kernel: the file's length unit, the
choice of one solid or their fusion, and the faces of the part (kind, area, centre, axis; bores:
cylindrical faces with their axis and radius found from the geometry). docs/cad.md.
"""
import contextlib
import dataclasses
import errno
import hashlib
import os
import re

import numpy as np

from femdyn.mesh.solid import UNITS, MeshError

CAD_SUFFIXES = {".step": "STEP", ".stp": "STEP", ".iges": "IGES", ".igs": "IGES", ".brep": "BREP", ".brp": "BREP"}
_STEP_PREFIX = {"$": "m", ".MILLI.": "mm", ".CENTI.": "cm", ".MICRO.": "um", ".KILO.": None, ".DECI.": None}
_STEP_NAMED = {"INCH": "in", "FOOT": "ft"}
_IGES_FLAG = {1: "in", 2: "mm", 4: "ft", 6: "m", 10: "cm", 11: "um"}    # IGES 5.3 global parameter 14
_IGES_SEW_M = 1e-5         # m: gaps between an IGES file's faces closed when sewing them into a solid
_BORE_TOL = 1e-6            # relative: sampled points of a bore lie on its cylinder to this fraction of its radius


def is_cad(path):
    """Whether ``path`` names a CAD file (.step/.stp, .iges/.igs, .brep/.brp), by its suffix."""
    return os.path.splitext(str(path))[1].lower() in CAD_SUFFIXES


def sha256(path):
    """The SHA-256 hex digest of a file's bytes."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def file_unit(path):
    """The length unit a STEP or IGES file declares ('mm', 'm', 'in', ...), or None (BREP, or not declared).

    Parameters
    ----------
    path : str or path-like
        The CAD file. STEP: the ``LENGTH_UNIT`` of its ``SI_UNIT`` or ``CONVERSION_BASED_UNIT`` entity; IGES: the
        unit flag of its global section.

    Returns
    -------
    str or None
        A key of ``femdyn.mesh.solid.UNITS``.

    Examples
    --------
    >>> file_unit("part.brep") is None
    True
    """
    kind = CAD_SUFFIXES.get(os.path.splitext(str(path))[1].lower())
    if kind == "BREP":
        return None
    with open(path, "rb") as f:
        text = f.read(1 << 22).decode("latin-1")
    if kind == "STEP":
        compact = re.sub(r"\s+", "", text)
        si = re.search(r"LENGTH_UNIT\(\)NAMED_UNIT\(\*\)SI_UNIT\((\$|\.\w+\.),\.METRE\.\)", compact)
        si = si or re.search(r"SI_UNIT\((\$|\.\w+\.),\.METRE\.\)", compact)
        named = re.search(r"CONVERSION_BASED_UNIT\('(\w+)'", compact)
        if named and named.group(1).upper() in _STEP_NAMED:
            return _STEP_NAMED[named.group(1).upper()]
        return _STEP_PREFIX.get(si.group(1)) if si else None
    return _iges_unit(text)


def _iges_unit(text):
    """The unit of an IGES file's global section (parameter 14, the unit flag), or None."""
    record = "".join(line[:72] for line in text.splitlines() if len(line) >= 73 and line[72] == "G")
    fields = []
    while record and len(fields) < 14:
        hollerith = re.match(r"\s*(\d+)H", record)
        if hollerith:
            n = int(hollerith.group(1))
            fields.append(record[hollerith.end():hollerith.end() + n])
            record = record[hollerith.end() + n + 1:]
        else:
            value, _, record = record.partition(",")
            fields.append(value.strip())
    try:
        return _IGES_FLAG.get(int(fields[13]))
    except (IndexError, ValueError):
        return None


@dataclasses.dataclass
class CadFace:
    """A face of a CAD part, lengths in m in the part's frame.

    Parameters
    ----------
    number : int
        The face's number (Gmsh's tag after import): ``face:N`` and ``bore:N`` select it.
    kind : str
        Gmsh's surface type ('Plane', 'Cylinder', 'Surface of Revolution', 'BSpline surface', ...).
    area : float
        Area, m².
    centre : (3,) ndarray
        Centre of area, m (of a full bore: on its axis).
    axis : (3,) ndarray or None
        A plane's normal or a bore's axis (unit vector); None for other faces.
    radius : float or None
        A bore's radius, m; None if the face is not a cylinder.
    name : str
        The face's name in the CAD file ('' if none).
    """
    number: int
    kind: str
    area: float
    centre: np.ndarray
    axis: np.ndarray = None
    radius: float = None
    name: str = ""

    @property
    def is_bore(self):
        """Whether the face is a cylinder (axis and radius known)."""
        return self.radius is not None

    def line(self):
        """One line: number, kind, area (mm²), centre (m), axis and radius."""
        c = ", ".join(f"{x:.6g}" for x in self.centre)
        axis = "" if self.axis is None else "  axis (" + ", ".join(f"{x:.6g}" for x in self.axis) + ")"
        kind = f"bore r={self.radius:.6g} m" if self.is_bore else self.kind.lower()
        name = f"  '{self.name}'" if self.name else ""
        return f"  face {self.number:<4} {kind:<24} area {self.area:.6g} m²  centre ({c}) m{axis}{name}"


@contextlib.contextmanager
def opened(path, unit=None, solid=None, fuse=False):
    """Open a CAD file in a fresh Gmsh model, one solid kept or all fused; yields (the file's unit, m per model length).

    STEP and IGES are read in their declared unit, converted to m by OpenCASCADE (``Geometry.OCCTargetUnit`` =
    M; an IGES file read before any STEP file of the process comes in OpenCASCADE's mm and is scaled; its faces
    are sewn into a solid); BREP carries no unit: ``unit`` says it. The geometry stays exact in the model's length (a scaled OpenCASCADE shape would turn into
    B-splines); lengths read from it are multiplied by the yielded scale. MeshError for a missing unit, a
    ``unit`` that contradicts the file's, an unreadable file, or several solids without ``solid`` or ``fuse``.
    Gmsh is finalized on exit if this opened it.
    """
    import gmsh
    if not os.path.isfile(path):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), str(path))
    declared = file_unit(path)
    if unit is not None and unit not in UNITS:
        raise MeshError(f"unknown length unit '{unit}'; use one of {sorted(UNITS)}")
    kind = CAD_SUFFIXES[os.path.splitext(str(path))[1].lower()]
    if declared is None and kind != "BREP":
        raise MeshError(f"{os.path.basename(path)}: no {kind} length unit found in the file: not a {kind} file, or "
                        f"a damaged one; export the part again as {kind}")
    if declared is None and unit is None:
        raise MeshError(f"{os.path.basename(path)}: a BREP file declares no length unit; pass --unit mm (or the "
                        "unit the part was drawn in)")
    if declared is not None and unit is not None and unit != declared:
        raise MeshError(f"{os.path.basename(path)}: the file declares its lengths in {declared}, not {unit}; "
                        "drop --unit (it is for files without a unit, like BREP)")
    own = not gmsh.isInitialized()
    if own:
        gmsh.initialize(interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.model.add(os.path.basename(path))
        scale = _import(path, kind, declared or unit)
        gmsh.model.occ.synchronize()
        _keep_solids(os.path.basename(path), solid, fuse)
        yield declared or unit, scale
    finally:
        if gmsh.isInitialized() and gmsh.model.list():
            gmsh.model.remove()
        if own and gmsh.isInitialized():
            gmsh.finalize()


def _import(path, kind, unit):
    """Import the file into the open Gmsh model; returns m per model length. MeshError if OpenCASCADE fails.

    STEP and IGES are converted to m by OpenCASCADE (``Geometry.OCCTargetUnit`` = M). Before the first STEP file
    of a process OpenCASCADE cannot be told the target unit of an IGES file: it then reads it in its default, mm.
    """
    import gmsh
    occ = gmsh.model.occ
    scale = 1.0 if kind != "BREP" else UNITS[unit]
    gmsh.option.setString("Geometry.OCCTargetUnit", "M" if kind != "BREP" else "")
    for attempt in range(2):
        try:
            with _quiet_stdout():
                occ.importShapes(str(path))
            break
        except Exception as err:   # Gmsh raises Exception with OpenCASCADE's words
            if kind == "IGES" and "target unit" in str(err) and attempt == 0:
                gmsh.option.setString("Geometry.OCCTargetUnit", "")
                scale = 1e-3
                continue
            raise MeshError(f"cannot read CAD file '{path}': {err}; export it again as STEP, IGES or BREP") from None
    if kind == "IGES":         # an IGES file holds faces: sew them into a solid
        occ.healShapes(tolerance=_IGES_SEW_M / scale, sewFaces=True, makeSolids=True)
    return scale


@contextlib.contextmanager
def _quiet_stdout():
    """Standard output (file descriptor 1, where OpenCASCADE's readers print) sent to /dev/null meanwhile."""
    import sys
    try:
        sys.stdout.flush()
        saved = os.dup(1)
    except (OSError, ValueError):        # no real descriptor (a captured stream): nothing to silence
        yield
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(devnull)


def _keep_solids(name, solid, fuse):
    """Keep solid number ``solid`` (1-based) or fuse all; MeshError listing the solids when the choice is missing."""
    import gmsh
    occ = gmsh.model.occ
    volumes = [tag for _, tag in gmsh.model.getEntities(3)]
    if not volumes:
        raise MeshError(f"{name}: the file holds no solid (only surfaces or curves); export the part as a solid")
    if solid is not None:
        if not 1 <= solid <= len(volumes):
            raise MeshError(f"{name}: --solid {solid}: the file holds {len(volumes)} solid(s), numbered "
                            f"1–{len(volumes)}")
        occ.remove([(3, t) for t in volumes if t != volumes[solid - 1]], recursive=True)
    elif fuse and len(volumes) > 1:
        occ.fuse([(3, volumes[0])], [(3, t) for t in volumes[1:]])
    elif len(volumes) > 1:
        listing = "; ".join(f"{k + 1}: {occ.getMass(3, t):.4g} m³ at "
                            f"({', '.join(f'{x:.4g}' for x in occ.getCenterOfMass(3, t))}) m"
                            for k, t in enumerate(volumes))
        raise MeshError(f"{name}: the file holds {len(volumes)} solids ({listing}); choose one with --solid N "
                        "or join them with --fuse")
    occ.synchronize()
    if fuse and len(gmsh.model.getEntities(3)) > 1:
        raise MeshError(f"{name}: --fuse left {len(gmsh.model.getEntities(3))} separate solids (they do not touch); "
                        "choose one with --solid N")


def part_faces(scale=1.0):
    """The CadFace of every face of the open Gmsh model, in number order; lengths × ``scale`` (m per model length)."""
    import gmsh
    faces = []
    for _, tag in gmsh.model.getEntities(2):
        kind = gmsh.model.getType(2, tag)
        centre = np.array(gmsh.model.occ.getCenterOfMass(2, tag))
        axis, radius, point = _bore(tag)
        if point is not None:              # a full bore's centre of area lies on its axis: put it there exactly
            centre = point + np.dot(centre - point, axis) * axis
        if axis is None and kind == "Plane":
            lo, hi = gmsh.model.getParametrizationBounds(2, tag)
            axis = np.array(gmsh.model.getNormal(tag, 0.5 * (lo + hi)))
        faces.append(CadFace(tag, kind, gmsh.model.occ.getMass(2, tag) * scale ** 2, centre * scale, axis,
                             None if radius is None else radius * scale,
                             gmsh.model.getEntityName(2, tag)))
    return faces


def _bore(tag):
    """(axis, radius, a point of the axis) of a face that is a cylinder (any parametrization), else Nones."""
    import gmsh
    kind = gmsh.model.getType(2, tag)
    if kind not in ("Cylinder", "Surface of Revolution", "BSpline surface", "Bezier surface"):
        return None, None, None
    lo, hi = gmsh.model.getParametrizationBounds(2, tag)
    for angle in (0, 1):                       # which parameter runs round the axis
        along = 1 - angle
        rings = []
        for s in (0.1, 0.5, 0.9):
            uv = np.empty((3, 2))
            uv[:, angle] = lo[angle] + np.array([0.0, 1 / 3, 2 / 3]) * (hi[angle] - lo[angle])
            uv[:, along] = lo[along] + s * (hi[along] - lo[along])
            rings.append(_circle(np.array(gmsh.model.getValue(2, tag, uv.ravel())).reshape(3, 3)))
        if any(r is None for r in rings):
            continue
        (c0, r0), _, (c2, _) = rings
        axis = c2 - c0
        if np.linalg.norm(axis) < 1e-6 * r0:
            continue
        axis = axis / np.linalg.norm(axis)
        axis = axis * np.sign(axis[np.argmax(np.abs(axis))])
        grid = np.stack(np.meshgrid(np.linspace(0, 1, 7), np.linspace(0, 1, 5), indexing="ij"), -1).reshape(-1, 2)
        points = np.array(gmsh.model.getValue(2, tag, (lo + grid * (hi - lo)).ravel())).reshape(-1, 3)
        d = points - c0
        r = np.linalg.norm(d - np.outer(d @ axis, axis), axis=1)
        if np.abs(r - r0).max() <= _BORE_TOL * r0:
            return axis, float(r0), c0
    return None, None, None


def _circle(points):
    """(centre, radius) of the circle through three points (3, 3), or None if they are collinear."""
    a, b, c = points
    u, v = b - a, c - a
    w = np.cross(u, v)
    if np.linalg.norm(w) < 1e-12 * np.linalg.norm(u) * np.linalg.norm(v):
        return None
    centre = a + (np.dot(v, v) * np.cross(w, u) + np.dot(u, u) * np.cross(v, w)) / (2 * np.dot(w, w))
    return centre, float(np.mean(np.linalg.norm(points - centre, axis=1)))


def find_face(faces, key, where="part"):
    """The CadFace of ``faces`` numbered ``key`` (int or digits) or named ``key``.

    Parameters
    ----------
    faces : list of CadFace
    key : int or str
        A face number or a face name of the CAD file.
    where : str, optional
        The part's name, for the message.

    Raises
    ------
    MeshError
        No such face (the faces' numbers listed).

    Examples
    --------
    >>> find_face([CadFace(3, "Plane", 1.0, np.zeros(3))], "3").number
    3
    """
    for f in faces:
        if str(f.number) == str(key) or (f.name and f.name == key):
            return f
    raise MeshError(f"{where}: no face '{key}'; its faces are {[f.number for f in faces]} "
                    "(femdyn show PART --faces lists and draws them)")


def cad_faces(path, unit=None, solid=None, fuse=False):
    """The faces of a CAD part: kind, area, centre, axis, and each bore's axis and radius (lengths in m).

    Parameters
    ----------
    path : str or path-like
        A STEP, IGES or BREP file.
    unit : str, optional
        Length unit of a file that declares none (BREP): 'm', 'cm', 'mm', 'um', 'in', 'ft'.
    solid : int, optional
        Of an assembly, the solid to keep (1-based, the file's order).
    fuse : bool, optional
        Of an assembly, fuse all solids into one.

    Returns
    -------
    list of CadFace
        In face-number order.

    Raises
    ------
    MeshError
        An unreadable file, a missing or contradicting unit, several solids without ``solid`` or ``fuse``.

    Examples
    --------
    >>> [f.radius for f in cad_faces("link.step") if f.is_bore]       # doctest: +SKIP
    [0.005, 0.005]
    """
    with opened(path, unit, solid, fuse) as (_, scale):
        return part_faces(scale)

