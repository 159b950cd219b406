"""The link in a robot: the 3-RRRU's flexible link 3 drawn in CAD, reduced, and run in the parallel-robot study.

The link is the catalogue robot's (``parallel_robot("3rrru")``): its length is the distance between its
joints (the passive revolute and the Hooke joint, 815 mm), its section a solid round rod of the description's
radius (10 mm), its material the description's (E = 6.9e8 Pa, the paper's simulation; ν = 0.3, ρ = 2700
kg/m³). Drawn here in millimetres with Gmsh's OpenCASCADE kernel: the rod runs EYE mm past each joint centre
and has a through bore of radius BORE there, its axis along z (the pin's). Written as STEP, reduced with
``femdyn reduce link3.step --size H --order 2 --interface elbow=bore:N --interface hooke=bore:M`` (the
bores' axes carry the interface frames at the joint centres), described as the 3-RRRU whose three link 3s
are that component (``align = [0, 0, 1]`` turns the bore axis onto the revolute's axis) and run by
``femdyn study parallel`` for ``--duration`` s, beside the catalogue robot with its ANCF links 3 (the
platform's static sag under the rigid efforts).

Beside it, the link alone clamped at the elbow bore: its static tip deflection under a transverse force at
the Hooke bore and its first frequency, against the ANCF link it replaces (the description's 8 elements,
clamped at its first node) and Euler–Bernoulli. The solid link is softer and lower: its clamp is the bore's
surface, not the whole section, the bores take material out at both ends, and the eyes past the joint
centres add mass at the tip; shear is negligible at this slenderness (r/L = 1.2 %).

Run: python examples/cad_robot_link.py [out_folder] [--size 0.008] [--duration 0.02]
"""
import argparse
import json
import os

import gmsh
import numpy as np

from femdyn import Model
from femdyn.cli.main import main as femdyn
from femdyn.component import read_component
from femdyn.component.reference import reference_to_interface
from femdyn.elements import sections
from femdyn.mesh.cad import cad_faces
from femdyn.robots.parallel import parallel_robot
from femdyn.solvers.eigen import eigenmodes
from femdyn.solvers.static import static_equilibrium

EYE, BORE = 15.0, 4.0          # mm: the rod past each joint centre, the bores' radius
FORCE = 0.01                   # N, transverse at the tip: 0.3 mm deflection, well inside the linear range
LINK = 2                       # the flexible link: link 3 of each limb, between joints 2 (R) and 3 (U)


def link3():
    """(length m, BeamSpec) of the 3-RRRU's flexible link 3, from the catalogue's description."""
    limb = parallel_robot("3rrru").description.limbs[0]
    p, q = (np.array(limb.joints[k].point) for k in (LINK, LINK + 1))
    return float(np.linalg.norm(q - p)), limb.links[LINK].flexible


def draw(path, length, radius):
    """The link in mm along x: a rod with a through bore (axis z) at x = 0 and x = length; STEP in mm."""
    L, R = length * 1e3, radius * 1e3
    gmsh.initialize(interruptible=False)
    gmsh.option.setNumber("General.Terminal", 0)
    occ = gmsh.model.occ
    rod = occ.addCylinder(-EYE, 0, 0, L + 2 * EYE, 0, 0, R)
    bores = [occ.addCylinder(x, 0, -R - 1, 0, 0, 2 * R + 2, BORE) for x in (0.0, L)]
    occ.cut([(3, rod)], [(3, b) for b in bores])
    occ.synchronize()
    gmsh.option.setString("Geometry.OCCTargetUnit", "MM")
    gmsh.write(path)
    gmsh.finalize()
    return path


def reduce(step, beam, size, modes):
    """The component of the drawn link (via ``femdyn reduce``): interfaces "elbow" (x = 0) and "hooke"."""
    bores = sorted((f for f in cad_faces(step) if f.is_bore and abs(f.radius - BORE * 1e-3) < 1e-6),
                   key=lambda f: f.centre[0])                           # not the rod's own cylinder
    out = os.path.splitext(step)[0] + ".fdc"
    code = femdyn(["reduce", step, "--size", str(size), "--order", "2", "--modes", str(modes), "--no-mesh",
                   "--E", str(beam.E), "--nu", str(beam.nu), "--rho", str(beam.density), "--quiet", "-o", out,
                   "--interface", f"elbow=bore:{bores[0].number}", "--interface", f"hooke=bore:{bores[1].number}"])
    if code:
        raise SystemExit(code)
    return out


def clamped_component(path):
    """(tip deflection m under FORCE along y, first frequency Hz) of the component clamped at its elbow bore."""
    c = reference_to_interface(read_component(path), "elbow")
    shape = c.interface_shapes[1, 1]                                  # hooke frame's y displacement per mode
    eta = np.linalg.solve(c.modal_stiffness, shape * FORCE)
    return float(shape @ eta), float(c.frequencies[0])


def clamped_ancf(length, beam):
    """(tip deflection m under FORCE along y, first frequency Hz) of the ANCF link clamped at its first node."""
    n = beam.elements
    m = Model("ANCF link 3", gravity=(0, 0, 0))
    m.straight_beam("link", (0, 0, 0), (length, 0, 0), n, E=beam.E, rho=beam.density, nu=beam.nu,
                    section=sections.circular(beam.radius), element="beam")
    m.clamp("root", "link.0")
    m.force("tip", f"link.{n}", (length, 0, 0), (0, FORCE, 0))
    system = m.assemble()
    q, _ = static_equilibrium(system)
    omega, _ = eigenmodes(system, count=1)
    return float(q[system.labels.index(f"link.{n}.ry")]), float(omega[0] / (2 * np.pi))


def euler_bernoulli(length, beam):
    """(tip deflection m, first frequency Hz) of a clamped–free Euler–Bernoulli rod: F L³/(3EI), β₁L = 1.87510."""
    area, inertia = np.pi * beam.radius ** 2, np.pi * beam.radius ** 4 / 4
    f = 1.8751040687 ** 2 * np.sqrt(beam.E * inertia / (beam.density * area * length ** 4)) / (2 * np.pi)
    return FORCE * length ** 3 / (3 * beam.E * inertia), f


def describe(path, component):
    """The 3-RRRU's description as TOML with each link 3 the ``component`` (file name relative to ``path``)."""
    d = parallel_robot("3rrru").description
    lines = [f'name = "3rrru_cad_link"', f'title = "{d.title}, links 3 from CAD"', f"task = {list(d.task)}",
             f"gravity = {list(d.gravity)}", "", "[platform]"]
    p = d.platform
    lines += [f"home = {list(p.home)}", f"mass = {p.mass}", f"com = {list(p.com)}",
              f"inertia = {[list(r) for r in p.inertia]}", "", "[workspace]"]
    lines += [f"{k} = {list(v)}" for k, v in d.workspace.items()]
    for limb in d.limbs:
        lines += ["", "[[limb]]", f'name = "{limb.name}"']
        for j in limb.joints:
            lines += ["", "[[limb.joint]]", f'type = "{j.kind}"', f"point = {list(j.point)}",
                      f"axes = {[list(a) for a in j.axes]}", f"actuated = {str(j.actuated).lower()}"]
            lines += [f"home = {j.home}"] if j.home is not None else []
        for k, link in enumerate(limb.links):
            lines += ["", "[[limb.link]]", f"radius = {link.radius}"]
            if k == LINK:
                lines += ["", "[limb.link.component]", f'file = "{os.path.basename(component)}"',
                          'interfaces = ["elbow", "hooke"]', "align = [0.0, 0.0, 1.0]"]
                continue
            lines += [f"mass = {link.mass}"]
            lines += [f"inertia = {[list(r) for r in link.inertia]}"] if link.inertia is not None else []
    with open(path, "w") as f:
        f.write("# The 3-RRRU of parallel_robot(\"3rrru\") with its links 3 reduced from CAD "
                "(examples/cad_robot_link.py)\n" + "\n".join(lines) + "\n")
    return path


def study(robot, config, out):
    """(exit code, the platform's static sag in m under the rigid efforts) of ``femdyn study parallel``."""
    code = femdyn(["study", "parallel", config, "--robot", robot, "-o", out, "--quiet"])
    with open(os.path.join(out, "summary.json")) as f:
        return code, float(json.load(f)["summary"]["forward_deviation_at_rest"])


def main(out="femdyn-out", size=0.008, modes=8, duration=0.02):
    os.makedirs(out, exist_ok=True)
    length, beam = link3()
    step = draw(os.path.join(out, "link3.step"), length, beam.radius)
    fdc = reduce(step, beam, size, modes)
    print(f"link 3: {length * 1e3:.3f} mm between its joints, radius {beam.radius * 1e3:g} mm, E {beam.E:.3g} Pa; "
          f"component {os.path.basename(fdc)}, {os.path.getsize(fdc) / 1e3:.0f} kB, "
          f"mass {float(read_component(fdc).mass):.4f} kg")
    rows = {"component (CAD)": clamped_component(fdc), "ANCF link": clamped_ancf(length, beam),
            "Euler–Bernoulli": euler_bernoulli(length, beam)}
    for name, (tip, f) in rows.items():
        print(f"clamped at the elbow, {name:>16}: tip deflection {tip * 1e3:.4f} mm under {FORCE} N, "
              f"first frequency {f:.4f} Hz")
    (tip_c, f_c), (tip_a, f_a) = rows["component (CAD)"], rows["ANCF link"]
    print(f"component against ANCF: deflection {tip_c / tip_a - 1:+.2%}, first frequency {f_c / f_a - 1:+.2%}")
    toml = describe(os.path.join(out, "3rrru_cad_link.toml"), fdc)
    config = os.path.join(out, "study.toml")
    with open(config, "w") as f:
        f.write(f"duration = {duration}\ninverse = false\n")
    code, sag = study(toml, config, os.path.join(out, "study"))
    print(f"femdyn study parallel --robot {os.path.basename(toml)}: exit code {code}")
    code_ancf, sag_ancf = study("3rrru", config, os.path.join(out, "study-ancf"))
    print(f"the robot's static sag under the rigid efforts: component links {sag * 1e3:.3f} mm, ANCF links "
          f"{sag_ancf * 1e3:.3f} mm ({sag / sag_ancf - 1:+.2%})")
    return rows, code or code_ancf, (sag, sag_ancf)


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="femdyn-out", help="output folder (default ./femdyn-out)")
    ap.add_argument("--size", type=float, default=0.008, help="element size in m (default 0.008)")
    ap.add_argument("--duration", type=float, default=0.02, help="the study's duration in s (default 0.02)")
    a = ap.parse_args()
    main(a.out, a.size, duration=a.duration)
