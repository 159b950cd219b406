"""A beam with strain gauges: a cantilever under a tip load, at rest and suddenly loaded.

A steel flat bar (0.5 m long, 20 mm wide along y, 5 mm thick along z) is clamped at
x = 0 and meshed into eight fully parameterized ANCF beam elements (``element="beam"``:
extension, shear, bending and torsion). Three strain gauges sit on its top fibre
(z = +2.5 mm) at x = 0.1, 0.25 and 0.4 m; a strain sensor is declared by element index, the
position ξ ∈ [0, 1] along that element and the section point (y, z) in m.

1. Statics: a tip force P = 20 N downwards; beam theory gives the top-fibre strain
   ε(x) = P (L − x) c / (E I_y) (hogging moment: tension on top). The load bends the tip
   down by 4 % of L, which shortens the moment arms a little: the readings fall about
   0.1 % short of the linear formula, whatever the mesh.
2. Dynamics: the same force applied suddenly to the bar at rest. An undamped structure
   under a step load overshoots: every mode swings between zero and twice its static
   share, so the gauges' first peak is close to twice their static reading (the first
   mode carries almost all of it).

    python examples/beam_strain_gauges.py [out_folder]
"""
import os

import numpy as np

import femdyn
from femdyn.elements import sections
from femdyn.results.plots import output_folder, plot_channels
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium

LENGTH, WIDTH, THICKNESS, E, RHO, FORCE = 0.5, 0.02, 0.005, 2.1e11, 7800.0, 20.0   # m, m, m, Pa, kg/m³, N
ELEMENTS, GAUGES = 8, (0.1, 0.25, 0.4)                                             # -, m from the clamp


def build():
    section = sections.rectangular(WIDTH, THICKNESS)
    m = femdyn.Model("cantilever with gauges", gravity=(0, 0, 0))
    m.straight_beam("bar", (0, 0, 0), (LENGTH, 0, 0), ELEMENTS, E=E, rho=RHO, section=section, element="beam")
    m.clamp("root", "bar.0")
    m.beam_force("tip", "bar", ELEMENTS - 1, 1.0, (0, 0, -FORCE))     # last element, ξ = 1
    h = LENGTH / ELEMENTS
    for x in GAUGES:                                                  # element index and ξ of each gauge
        element = min(int(x / h), ELEMENTS - 1)
        m.sensor_strain(f"gauge {x:g}", "bar", element, x / h - element, y=0.0, z=THICKNESS / 2)
    return m, section


def main(out, t_end=0.04, h=2e-4):
    model, section = build()
    system = model.assemble()
    print(system.summary())
    exact = np.array([FORCE * (LENGTH - x) * (THICKNESS / 2) / (E * section.Iy) for x in GAUGES])
    q, lam = static_equilibrium(system)
    zero = np.zeros(system.n)
    static = np.array([s.measure(q, zero, zero, lam, 0.0)[0] for s in system.sensors])
    for x, s, e in zip(GAUGES, static, exact):
        print(f"gauge at x = {x:g} m: {1e6 * s:.4f} µm/m at rest (beam theory {1e6 * e:.4f} µm/m)")
    results = integrate(system, t_end=t_end, h=h, options=Options(rho_inf=0.9))
    channels = [f"gauge {x:g}.strain" for x in GAUGES]
    peaks = np.array([results[c].max() for c in channels])
    print(f"step load: first peaks / static readings {np.round(peaks / static, 3)}")
    plot_channels(results, channels, os.path.join(out, "gauges.png"), units={c: "-" for c in channels})
    return {"static": static, "exact": exact, "peaks": peaks}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
