"""``femdyn mesh``: a CAD file (STEP, IGES, BREP) → a Gmsh volume mesh in m, with its report (docs/cad.md)."""
import os

from ..errors import ModelError
from .cad import add_cad_arguments, mesh_from_args


def add_parser(sub):
    """Register ``mesh`` and its arguments on the sub-command parsers.

    ``sub`` (argparse._SubParsersAction): the sub-command parsers of :func:`femdyn.cli.main.main`; the new
    parser's ``func`` is :func:`run`.
    """
    m = sub.add_parser("mesh", help="mesh a CAD part (STEP, IGES, BREP) in tetrahedra and report the mesh",
                       description="Mesh a CAD part with Gmsh (quadratic tetrahedra by default, lengths in m) and "
                                   "write a .msh file with physical groups 'part' and 'faceN' (reuse: femdyn "
                                   "reduce part.msh --interface end=group:face7).")
    m.add_argument("cad", help="CAD file: .step/.stp, .iges/.igs, .brep")
    m.add_argument("-o", "--output", default=None, help="mesh file to write (default: <name>.msh beside the input)")
    m.add_argument("--refine", action="append", default=[], metavar="SELECTOR",
                   help="face:N or bore:N to refine to --fine; repeat per face")
    add_cad_arguments(m)
    m.set_defaults(func=run)


def run(args):
    """Mesh ``args.cad`` and write ``args.output``; print the mesh report.

    ``args`` (argparse.Namespace): parsed arguments: ``cad``, ``output``, ``refine`` and the CAD options of
    :func:`femdyn.cli.cad.add_cad_arguments`. Returns int: exit code 0. Raises ModelError: not a CAD file, no
    ``--size``; MeshError: an unreadable file or unit, a failed or poor mesh.
    """
    from femdyn.mesh.cad import is_cad
    if not is_cad(args.cad):
        raise ModelError(f"'{args.cad}' is not a CAD file (.step/.stp, .iges/.igs, .brep); femdyn mesh meshes "
                         "CAD parts, femdyn reduce reads mesh files directly")
    output = args.output or os.path.splitext(args.cad)[0] + ".msh"
    mesh_from_args(args, args.cad, args.refine, msh=output)
    print(f"wrote {output} (lengths in m; physical groups 'part' and 'faceN')")
    return 0
