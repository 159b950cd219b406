"""CAD parts drawn with Gmsh's OpenCASCADE kernel, in millimetres, written as STEP, IGES or BREP."""
import gmsh


def write_part(path, boxes, bores=(), unit="MM", fuse=True):
    """Draw boxes (x, y, z, dx, dy, dz, mm) minus through bores (x, y, z, ax, ay, az, r, mm) and write ``path``.

    The format follows the suffix (.step, .iges, .brep); STEP and IGES declare ``unit`` (Gmsh's
    ``Geometry.OCCTargetUnit``); BREP holds the numbers as drawn. ``fuse=False`` keeps the boxes as separate
    solids (an assembly).
    """
    own = not gmsh.isInitialized()
    if own:
        gmsh.initialize(interruptible=False)
    try:
        gmsh.option.setNumber("General.Terminal", 0)
        gmsh.model.add("part")
        occ = gmsh.model.occ
        solids = [(3, occ.addBox(*b)) for b in boxes]
        if fuse and len(solids) > 1:
            solids, _ = occ.fuse(solids[:1], solids[1:])
        if bores:
            holes = [(3, occ.addCylinder(*b)) for b in bores]
            solids, _ = occ.cut(solids, holes)
        occ.synchronize()
        gmsh.option.setString("Geometry.OCCTargetUnit", unit)
        gmsh.write(str(path))
        gmsh.model.remove()
    finally:
        if own:
            gmsh.finalize()
    return path


# a flat link 200 × 20 × 10 mm with two through bores of radius 5 mm along z, 170 mm apart
LINK_BOX = (0, 0, 0, 200, 20, 10)
LINK_BORES = ((15, 10, -1, 0, 0, 12, 5), (185, 10, -1, 0, 0, 12, 5))
# a square bar 200 × 10 × 10 mm: a cantilever clamped at x = 0
BAR_BOX = (0, 0, 0, 200, 10, 10)
