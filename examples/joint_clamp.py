"""A clamp and a fixed coordinate: a propped cantilever under a uniform load.

A steel rod (1 m, 10 mm diameter) of eight ANCF cable elements is clamped at x = 0 to the
ground (``m.clamp``: position and slope of the first node) and propped at x = L: the tip
node's z coordinate is fixed (``m.fix(..., components=(2,))``: a simple support that
leaves the node free to slide along x and to turn). Under a small uniform load w
(``m.beam_load``, N/m) the static equilibrium is compared with Euler–Bernoulli beam
theory for the propped cantilever: prop reaction R = 3wL/8, root moment wL²/8, and the
deflection at mid-span w L⁴ / (192 E I). Cubic Hermite elements reproduce the nodal
deflections of this beam exactly, so only the load's (tiny) geometric nonlinearity
separates those numbers. A strain gauge on the top fibre at the clamp reads the
curvature of the element's cubic, which falls short of the exact quadratic moment's by
w h² / (12 E I) at an element end (h the element length: the cubic Hermite interpolant of
a quartic deflection differs from it by x²(h − x)² w / (24 E I)).

    python examples/joint_clamp.py [out_folder]
"""
import numpy as np

import femdyn
from femdyn.elements import sections
from femdyn.results.plots import output_folder
from femdyn.solvers.static import static_equilibrium

LENGTH, RADIUS, E, RHO, LOAD = 1.0, 0.005, 2.1e11, 7800.0, -1.0     # m, m, Pa, kg/m³, N/m (downwards)
ELEMENTS = 8


def main(out):
    section = sections.circular(RADIUS)
    m = femdyn.Model("propped cantilever", gravity=(0, 0, 0))
    m.straight_beam("rod", (0, 0, 0), (LENGTH, 0, 0), ELEMENTS, E=E, rho=RHO, section=section, element="cable")
    m.clamp("root", "rod.0")                                    # to the ground: r and the slope r_x
    prop = m.fix(f"rod.{ELEMENTS}", name="prop", components=(2,))   # z of the tip node
    m.beam_load("load", "rod", (0, 0, LOAD))
    m.sensor_strain("root gauge", "rod", 0, 0.0, z=RADIUS)     # top fibre at the clamp
    system = m.assemble()
    print(system.summary())
    q, lam = static_equilibrium(system)
    EI = E * section.Iy
    # Φ = z − z₀ on the tip node: the force on the node is −λ (along +z)
    reaction = -lam[system.joint_rows[prop.name][0]]
    middle = system.labels.index(f"rod.{ELEMENTS // 2}.rz")
    deflection = q[middle]
    root_strain = system.sensors[0].measure(q, np.zeros(system.n), np.zeros(system.n), lam, 0.0)[0]
    exact = {"reaction": -3 * LOAD * LENGTH / 8, "deflection": LOAD * LENGTH**4 / (192 * EI),
             "root_strain": -LOAD * LENGTH**2 / 8 * RADIUS / EI,      # hogging moment: top fibre in tension
             "root_strain_cubic": -LOAD * (LENGTH**2 / 8 - (LENGTH / ELEMENTS) ** 2 / 12) * RADIUS / EI}
    print(f"prop reaction {reaction:.6f} N (3wL/8 = {exact['reaction']:.6f} N)")
    print(f"mid-span deflection {deflection:.6e} m (wL⁴/192EI = {exact['deflection']:.6e} m)")
    print(f"root gauge strain {root_strain:.6e} (M c / EI = {exact['root_strain']:.6e}; less the cubic's "
          f"shortfall w h² c / 12EI: {exact['root_strain_cubic']:.6e})")
    return {"reaction": reaction, "deflection": deflection, "root_strain": root_strain, "exact": exact}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
