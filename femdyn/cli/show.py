"""``femdyn show``: summary, mode pictures and a ParaView file of a component file."""
import math
import os


def add_parser(sub):
    """Register ``show`` and its arguments on the sub-command parsers.

    ``sub`` (argparse._SubParsersAction): the sub-command parsers of :func:`femdyn.cli.main.main`; the new
    parser's ``func`` is :func:`run`.
    """
    s = sub.add_parser("show", help="summarize a component file and picture its modes, or list a CAD part's faces")
    s.add_argument("component", help="component file written by 'femdyn reduce', or a CAD file (.step, .iges, "
                                     ".brep): its faces listed and drawn numbered")
    s.add_argument("--faces", action="store_true", help="of a CAD file: list its faces and draw them (the default)")
    s.add_argument("--unit", default=None, help="of a CAD file that declares none (BREP): its length unit")
    s.add_argument("--solid", type=int, default=None, metavar="N", help="of a CAD assembly: solid N (1-based)")
    s.add_argument("--fuse", action="store_true", help="of a CAD assembly: the solids fused")
    s.add_argument("-o", "--out", default=None, help="folder for mode_XX.png and modes.vtu (default: <name>-modes)")
    s.add_argument("--modes", type=int, nargs="+", default=None, help="modes to draw, 1-based (default 1-6)")
    s.add_argument("--no-pictures", action="store_true", help="only the summary and the VTU file")
    s.set_defaults(func=run)


def run(args):
    """Print the summary of a component file and write its ParaView file and mode pictures.

    ``args`` (argparse.Namespace): parsed arguments: ``component``, ``out`` (default ``<name>-modes``, of a CAD file
    ``<name>-faces``), ``modes`` (1-based), ``no_pictures``; of a CAD file ``faces``, ``unit``, ``solid``, ``fuse``.
    Returns int: exit code 0. Raises ComponentError: an invalid component file; MeshError: an unreadable CAD file;
    RenderError: no off-screen rendering on this machine.
    """
    from femdyn.component import read_component
    from femdyn.mesh.cad import is_cad
    from femdyn.mesh.pictures import render_modes, write_mode_vtu

    if is_cad(args.component) or args.faces:
        return _faces(args)
    component = read_component(args.component)
    print(component.summary())
    for line in interface_lines(component) + strain_lines(component) + origin_lines(component):
        print(line)
    if "mesh_points" not in component.arrays:
        print("no mesh shapes stored (reduced with --no-mesh): nothing to draw")
        return 0
    out = args.out or os.path.splitext(args.component)[0] + "-modes"
    os.makedirs(out, exist_ok=True)
    vtu = write_mode_vtu(component, os.path.join(out, "modes.vtu"))
    stress = ", von_mises_01 ... (Pa per unit modal coordinate)" if "stress_nodes" in component.arrays else ""
    print(f"ParaView: {vtu} (point data mode_01 ...{stress}; Warp By Vector)")
    if not args.no_pictures:
        modes = None if args.modes is None else [m - 1 for m in args.modes]
        for path in render_modes(component, out, modes):
            print(f"picture: {path}")
    return 0


def interface_lines(component):
    """The component's interfaces, one line each: name (as ``body.interface(name)`` takes it), coupling, origin."""
    infos = component.header.get("interfaces", [])
    origins = component.arrays["interface_origins"]
    lines = [f"interfaces ({len(origins)}; body.interface(name) in a model):"]
    for k, origin in enumerate(origins):
        info = infos[k] if k < len(infos) else {}
        where = ", ".join(f"{x:.6g}" for x in origin)
        extra = ", ".join(str(x) for x in (info.get("coupling"), info.get("nodes") and f"{info['nodes']} nodes") if x)
        lines.append(f"  {info.get('name', k)!s:<12} origin ({where}) m{f'  [{extra}]' if extra else ''}")
    return lines


def strain_lines(component):
    """The component's strain gauges (name, centre, direction, grid) and stress nodes, one line each."""
    lines = []
    gauges = component.header.get("gauges", [])
    if gauges:
        lines.append(f"strain gauges ({len(gauges)}; channel <name>.strain):")
    for g in gauges:
        at = ", ".join(f"{x:.6g}" for x in g["point"])
        d = ", ".join(f"{x:.4g}" for x in g["direction"])
        moved = f"  (moved {math.hypot(*g['offset']):.3g} m onto the surface)" if "offset" in g else ""
        lines.append(f"  {g['name']!s:<12} at ({at}) m  direction ({d})  grid {g['grid_length']:.4g} m{moved}")
    stress = component.header.get("stress")
    if stress:
        lines.append(f"stress nodes: {stress['count']} ({stress['nodes']}); {stress['recovery']}")
    return lines


def _faces(args):
    """List a CAD file's faces (kind, area, centre, axis; bores with their radius) and draw them numbered."""
    from femdyn.errors import ModelError
    from femdyn.mesh.cad import cad_faces, is_cad
    from femdyn.mesh.cad_pictures import render_faces
    if not is_cad(args.component):
        raise ModelError(f"--faces: '{args.component}' is not a CAD file (.step/.stp, .iges/.igs, .brep)")
    faces = cad_faces(args.component, args.unit, args.solid, args.fuse)
    print(f"{args.component}: {len(faces)} faces (interfaces: face:N, bore:N; lengths in m)")
    for face in faces:
        print(face.line())
    if not args.no_pictures:
        out = args.out or os.path.splitext(args.component)[0] + "-faces"
        print(f"picture: {render_faces(args.component, os.path.join(out, 'faces.png'), args.unit, args.solid, args.fuse)}")
    return 0


def _fine(settings):
    """The refinement of a component's mesh settings, in words."""
    if settings.get("fine") is None:
        return "no refinement"
    return f"fine {settings['fine']:g} m at faces {settings['fine_faces']} and {len(settings['fine_points'])} point(s)"


def origin_lines(component):
    """Where a component came from: the CAD file (name, SHA-256, unit), mesh settings and counts; [] if not recorded."""
    origin = component.header.get("origin")
    if not origin:
        return []
    m, c, q = origin["mesh"], origin["counts"], origin["quality"]
    return [f"origin: {origin['file']} ({origin['format']}, {origin['unit']}), sha256 {origin['sha256']}",
            f"  mesh: {m['mesher']} {m['algorithm_3d']}, {m['element']}, size {m['size']:g} m, curvature "
            f"{m['curvature']:g}/2π, {_fine(m)}; {c['elements']} elements, "
            f"{c['nodes']} nodes ({c['dof']} dof); minimum scaled Jacobian {q['min_scaled_jacobian']:.3f}, worst "
            f"aspect {q['worst_aspect']:.3g}, smallest feature {q['smallest_feature']:.4g} m"]
