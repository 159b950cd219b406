"""``femdyn reduce``: a volume mesh → a Craig–Bampton component file (.fdc)."""
import os
import time

import numpy as np

from ..errors import ModelError
from ..input_checks import plural
from .cad import add_cad_arguments, mesh_from_args

MAX_MB = 50.0          # default limit on the estimated component file size

STAGES = ("read mesh", "assembly", "factorization", "normal modes", "orthonormalization", "invariants", "write")


def _numbers(text, count, what):
    """The comma-separated numbers of an option (m); a ModelError if there are not ``count``."""
    try:
        values = [float(v) for v in text.split(",")]
    except ValueError:
        values = []
    if len(values) != count:
        raise ModelError(f"{what} '{text}': expected {count} comma-separated numbers (m)")
    return values


def _strain_gauge(spec):
    """The ComponentGauge of a ``--strain-gauge NAME=x,y,z,dx,dy,dz[,grid]`` option."""
    from femdyn.component import ComponentGauge
    name, eq, numbers = spec.partition("=")
    count = len(numbers.split(","))
    if not eq or not name or count not in (6, 7):
        raise ModelError(f"--strain-gauge '{spec}': expected NAME=x,y,z,dx,dy,dz[,grid length] (m)")
    v = _numbers(numbers, count, f"--strain-gauge {name}")
    return ComponentGauge(name, v[:3], v[3:6], v[6] if count == 7 else 0.0)


def _check_size(args, n_points):
    """A ModelError when the file of ``args.modes`` modes on ``n_points`` nodes would exceed ``args.max_mb`` (estimate)."""
    columns = min(args.modes, 3 * n_points) + 6 * len(args.interface) + len(args.static_load)
    mb = 8 * columns * (3 * n_points * (not args.no_mesh) + 6 * n_points * bool(args.stress)   # shapes, strains
                        + 11 * columns) / 1e6                                                   # invariants
    if mb > args.max_mb:
        raise ModelError(f"--modes {args.modes}: the component file would be about {mb:.0f} MB ({columns} mode "
                         f"shapes on {n_points} mesh nodes), above --max-mb {args.max_mb:g}; keep fewer modes, "
                         "add --no-mesh (no full-mesh shapes), or raise --max-mb")


def _read(args):
    """(SolidMesh, CadMesh or None) of ``args.mesh``: a CAD file meshed (its report printed) or a mesh file read."""
    from femdyn.mesh.cad import is_cad
    from femdyn.mesh.solid import read_solid_mesh
    from femdyn.model.checks import mesh_unit_suspect
    if is_cad(args.mesh):
        gauges = [_numbers(g, 3, "--gauge") for g in args.gauge] + [_strain_gauge(g).point for g in args.strain_gauge]
        cad = mesh_from_args(args, args.mesh, [s.partition("=")[2].partition("@")[0] for s in args.interface], gauges)
        return cad.mesh, cad
    mesh = read_solid_mesh(args.mesh, unit=args.unit or "m")
    span = float(np.ptp(mesh.points, axis=0).max())
    suspect = mesh_unit_suspect(mesh.name, span, args.rho) if args.unit is None and not args.no_unit_check else None
    if suspect:
        raise ModelError(f"{suspect}: pass --unit mm (or the unit the CAD export used), or --unit m if the part "
                         "really is that large")
    return mesh, None


def _select(mesh, cad, selector):
    """(node indices, frame origin or None) of an interface selector; ``face:``/``bore:`` need a CAD file."""
    from femdyn.mesh.solid import select
    if selector.partition(":")[0] in ("face", "bore"):
        if cad is None:
            raise ModelError(f"--interface selector '{selector}': face: and bore: select faces of a CAD file "
                             "(.step, .iges, .brep); for a mesh file use group:, box:, cylinder: or nearest:")
        return cad.interface(selector)
    return select(mesh, selector), None


def add_parser(sub):
    """Register ``reduce`` and its arguments on the sub-command parsers.

    ``sub`` (argparse._SubParsersAction): the sub-command parsers of :func:`femdyn.cli.main.main`; the new
    parser's ``func`` is :func:`run`.
    """
    r = sub.add_parser("reduce", help="reduce a tetrahedral/hexahedral mesh to a flexible component file",
                       description="Craig–Bampton reduction of a meshed link: interface node sets coupled to "
                                   "frames, fixed-interface modes, modal invariants; writes a .fdc file.")
    r.add_argument("mesh", help="volume mesh read by meshio (Gmsh .msh, .vtu, .vtk, Abaqus .inp, ...) or a CAD file "
                                "(.step/.stp, .iges/.igs, .brep) meshed first (--size; docs/cad.md)")
    r.add_argument("--interface", action="append", default=[], metavar="NAME=SELECTOR", required=True,
                   help="interface node set: NAME=group:G | box:x0,y0,z0,x1,y1,z1 | cylinder:px,py,pz,ax,ay,az,r[,tol]"
                        " | nearest:x,y,z (m) | of a CAD file: face:N, face:NAME, bore:N (origin on the bore's axis), "
                        "optionally followed by @x,y,z, the frame origin (default: the nodes' centroid); "
                        "see docs/components.md, \"Interface selectors\"; "
                        "repeat per interface")
    r.add_argument("--average", action="append", default=[], metavar="NAME",
                   help="couple interface NAME by averaging (RBE3-like) instead of rigidly (RBE2-like)")
    r.add_argument("--modes", type=int, default=20, help="fixed-interface normal modes, ≥ 1 (default 20)")
    r.add_argument("--max-mb", type=float, default=MAX_MB,
                   help=f"refuse to write a component file estimated larger than this many MB (default {MAX_MB:g})")
    r.add_argument("-o", "--output", default="link.fdc", help="component file to write (default link.fdc)")
    r.add_argument("--E", type=float, default=6.9e10, help="Young's modulus in Pa (default 6.9e10, Liu et al. 2018 rig)")
    r.add_argument("--nu", type=float, default=0.3, help="Poisson ratio (default 0.3)")
    r.add_argument("--rho", type=float, default=2700.0, help="density in kg/m³ (default 2700, aluminium)")
    r.add_argument("--unit", default=None, help="length unit of a mesh file or of a CAD file that declares none "
                   "(BREP): m, cm, mm, um, in, ft (default m; without --unit, a mesh spanning more than 10 m of a "
                   "density ≥ 1000 kg/m³ is refused as probably in mm)")
    r.add_argument("--no-unit-check", action="store_true",
                   help="accept E below 1e5 Pa, ρ outside 10–30000 kg/m³ and a part spanning more than 10 m")
    r.add_argument("--damping", type=float, default=0.0, help="modal damping ratio ζ (default 0)")
    r.add_argument("--point", action="append", default=[], metavar="x,y,z", help="output point for mode shapes (m)")
    r.add_argument("--gauge", action="append", default=[], metavar="x,y,z", help="strain gauge point (m)")
    r.add_argument("--strain-gauge", action="append", default=[], metavar="NAME=x,y,z,dx,dy,dz[,grid]",
                   help="named strain gauge on the surface: grid centre x,y,z (m), grid direction d, active grid "
                        "length (m, default 0: a point gauge); its reading is the channel NAME.strain; repeat per gauge")
    r.add_argument("--stress", default=None, metavar="NODES",
                   help="store strain modes for stresses at: surface | all | a selector (group:G, box:…, "
                        "cylinder:…, nearest:…); docs/components.md, \"Stresses and strain gauges\"")
    r.add_argument("--static-load", action="append", default=[], metavar="x,y,z,dx,dy,dz",
                   help="add a static mode for a unit force at the node nearest x,y,z along d")
    r.add_argument("--no-mesh", action="store_true", help="do not store full-mesh mode shapes (smaller file)")
    r.add_argument("--quiet", action="store_true", help="no progress bar")
    add_cad_arguments(r, unit=False)
    r.set_defaults(func=run)


def run(args):
    """Reduce ``args.mesh`` (Craig–Bampton) and write the component file ``args.output``.

    ``args`` (argparse.Namespace): parsed arguments: ``mesh`` (a mesh file, or a CAD file meshed first under the
    options of :func:`femdyn.cli.cad.add_cad_arguments`, its report printed and its origin recorded in the
    component's header), ``interface`` (NAME=SELECTOR[@x,y,z], m; of a CAD file also face:N, face:NAME, bore:N),
    ``average``, ``modes``, ``output``, ``E`` [Pa], ``nu``, ``rho`` [kg/m³], ``unit``, ``damping`` (ratio ζ),
    ``point``, ``gauge``, ``strain_gauge`` (NAME=x,y,z,dx,dy,dz[,grid]), ``stress`` (surface, all or a selector),
    ``static_load`` (x,y,z,dx,dy,dz), ``no_mesh``, ``no_unit_check``, ``quiet``. Returns int: exit code 0. Raises
    ModelError: malformed ``--interface``, ``--point``, ``--gauge``, ``--strain-gauge`` or ``--static-load``, an
    ``--average`` naming no interface, a mesh that looks like mm read without ``--unit``, or a bad mesh or
    material (MeshError); messages name the command's flags.
    """
    from tqdm import tqdm

    from femdyn.elements.solid_body import SolidBody
    from femdyn.component import write_component
    from femdyn.solvers.reduction import component_from_reduction
    from femdyn.solvers.reduction import Interface, craig_bampton
    from femdyn.solvers.stress_modes import with_strains

    start = time.perf_counter()
    bar = tqdm(total=len(STAGES), disable=args.quiet, bar_format="{l_bar}{bar}| {elapsed}")

    def stage(name):
        bar.set_description(f"reduce: {name}")
        if name != STAGES[0]:
            bar.update(1)

    if args.modes < 1:
        raise ModelError(f"--modes must be ≥ 1, got {args.modes}: the fixed-interface normal modes kept")
    stage("read mesh")
    mesh, cad = _read(args)
    _check_size(args, len(mesh.points))
    interfaces = []
    for spec in args.interface:
        name, eq, selector = spec.partition("=")
        if not eq or not name or not selector:
            raise ModelError(f"--interface '{spec}': expected NAME=SELECTOR, e.g. end0=group:end0")
        selector, at, origin = selector.partition("@")
        nodes, where = _select(mesh, cad, selector)
        interfaces.append(Interface(name, nodes, "average" if name in args.average else "rigid",
                                    _numbers(origin, 3, f"--interface {name} origin") if at else where))
    unknown = set(args.average) - {i.name for i in interfaces}
    if unknown:
        raise ModelError(f"--average {sorted(unknown)}: no such interface; give names used in --interface")
    body = SolidBody(mesh, args.E, args.nu, args.rho, name=os.path.basename(args.mesh),
                     check_units=not args.no_unit_check)
    loads = [(v[:3], v[3:]) for v in (_numbers(s, 6, "--static-load") for s in args.static_load)]
    red = craig_bampton(body, interfaces, args.modes, static_loads=loads, damping_ratio=args.damping,
                        progress=stage)
    stage("invariants")
    component = component_from_reduction(red, [_numbers(p, 3, "--point") for p in args.point],
                                         [_numbers(g, 3, "--gauge") for g in args.gauge],
                                         mesh_shapes=not args.no_mesh,
                                         name=os.path.splitext(os.path.basename(args.output))[0])
    if args.stress and args.no_mesh:
        raise ModelError("--stress needs the mesh in the component file; drop --no-mesh")
    component = with_strains(component, red, args.stress, [_strain_gauge(g) for g in args.strain_gauge])
    if cad is not None:
        component.header["origin"] = cad.origin
    stage("write")
    write_component(args.output, component)
    bar.update(1)
    bar.close()
    print(mesh.summary())
    print("interfaces: " + ", ".join(f"{i.name} ({plural(len(i.nodes), 'node')}, {i.coupling}, origin "
                                      f"{np.round(i.origin, 6).tolist()} m)" for i in interfaces))
    print(component.summary())
    print(f"fixed-interface modes: {len(red.omega_fixed)} by {red.eigensolver}, first "
          f"{red.omega_fixed[:1] / (2 * np.pi)} Hz; "
          f"rigid modes removed: {red.n_rigid}")
    print(f"wrote {args.output}: {os.path.getsize(args.output) / 1e6:.3f} MB in {time.perf_counter() - start:.1f} s")
    return 0
