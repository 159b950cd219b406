"""The command line's CAD options (``femdyn reduce PART.step``, ``femdyn mesh``): size, order, curvature,
refinement, assemblies, quality thresholds; and the meshing they ask for (docs/cad.md)."""
from ..errors import ModelError


def add_cad_arguments(parser, unit=True):
    """Register the meshing options of a CAD file on ``parser`` (``unit``: also ``--unit``).

    ``parser`` (argparse.ArgumentParser): the command's parser (``reduce``, ``mesh``).
    """
    g = parser.add_argument_group("CAD files (STEP, IGES, BREP): meshed with Gmsh first, docs/cad.md")
    g.add_argument("--size", type=float, default=None, metavar="H", help="element edge length, m (required for a CAD file)")
    g.add_argument("--order", type=int, default=2, choices=(1, 2), help="element order: 2 Tet10 (default), 1 Tet4")
    g.add_argument("--curvature", type=float, default=12.0, metavar="N",
                   help="elements per full circle on curved faces (default 12; 0: off)")
    g.add_argument("--fine", type=float, default=None, metavar="H",
                   help="element edge length at face:/bore: interfaces and gauges, m (default: --size)")
    g.add_argument("--solid", type=int, default=None, metavar="N", help="of an assembly, mesh solid N (1-based)")
    g.add_argument("--fuse", action="store_true", help="of an assembly, fuse the solids into one part")
    g.add_argument("--threads", type=int, default=None, help="Gmsh's threads (default: the machine's cores)")
    g.add_argument("--min-jacobian", type=float, default=0.1,
                   help="refuse a mesh whose smallest scaled Jacobian is below this (default 0.1)")
    g.add_argument("--max-aspect", type=float, default=100.0,
                   help="refuse a mesh with an element aspect (circumradius / 3 inradius) above this (default 100)")
    if unit:
        g.add_argument("--unit", default=None, help="length unit of a file that declares none (BREP): m, cm, mm, "
                                                    "um, in, ft")


def mesh_from_args(args, path, interfaces=(), points=(), msh=None):
    """The CadMesh of CAD file ``path`` under the parsed options; its report printed.

    ``interfaces``: selectors (``face:N``, ``bore:N`` refine their faces to ``--fine``); ``points``: gauge points
    refined around (m); ``msh``: also write the mesh there. ModelError without ``--size``.
    """
    from femdyn.mesh.cad_mesh import mesh_cad
    if args.size is None:
        raise ModelError(f"{path} is a CAD file: give --size H, the element edge length in m (e.g. --size 0.004)")
    faces = [s.partition(":")[2] for s in interfaces if s.partition(":")[0] in ("face", "bore")]
    cad = mesh_cad(path, args.size, order=args.order, unit=args.unit, curvature=args.curvature, fine=args.fine,
                   fine_faces=faces, fine_points=points, solid=args.solid, fuse=args.fuse, threads=args.threads,
                   min_jacobian=args.min_jacobian, max_aspect=args.max_aspect, msh=msh)
    for line in cad.report_lines():
        print(line)
    return cad
