"""Extensible ANCF cantilever (Gerstmayr & Irschik 2008, "On the correct representation of
bending and axial deformation in the absolute nodal coordinate formulation with an
elastic line approach", J. Sound Vib. 318:461–487, static example): L = 2 m,
E = 2.07e11 Pa, square section 0.1 × 0.1 m, clamped at x = 0, dead tip load F_y = −3EI/L².

The reference is the extensible elastica computed by shooting
(:func:`references.extensible_cantilever_tip`): (−0.508537304, −1.207239855) m, the
converged value published by Gerstmayr & Irschik 2008.

Run: ``python benchmarks/validation/cantilever_extensible.py [n_elements ...]``
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import femdyn                                                    # noqa: E402
from femdyn.elements.sections import rectangular                 # noqa: E402
from femdyn.solvers.static import static_equilibrium             # noqa: E402
from references import extensible_cantilever_tip                 # noqa: E402

L, E, SIDE = 2.0, 2.07e11, 0.1
SECTION = rectangular(SIDE, SIDE)
EI, EA = E * float(SECTION.Iz), E * float(SECTION.area)
LOAD = (0.0, -3.0 * EI / L**2)
PUBLISHED_TIP = np.array([-0.508537304, -1.207239855])          # Gerstmayr & Irschik 2008


def reference_tip():
    """Tip displacement of the extensible elastica (m)."""
    return extensible_cantilever_tip(L, EA, EI, LOAD)


def femdyn_tip(n_elements, element="cable2d", load_steps=5, nu=0.3):
    """Tip displacement (u_x, u_y) [m] of femdyn's cantilever meshed with ``n_elements``
    elements of kind ``element`` (Poisson ratio ``nu`` for the shear-deformable beams)."""
    m = femdyn.Model("extensible cantilever", gravity=(0, 0, 0))
    beam = m.straight_beam("beam", (0, 0, 0), (L, 0, 0), n_elements, E=E, rho=7850.0, section=SECTION,
                           element=element, nu=nu)
    m.clamp("root", "beam.0")
    m.beam_force("tip", "beam", n_elements - 1, 1.0, (*LOAD, 0.0))
    system = m.assemble()
    q, _ = static_equilibrium(system, load_steps=load_steps)
    tip = beam.element_nodes[-1][-1]
    return q[tip.dofs[:2]] - np.array([L, 0.0])


def table(meshes=(4, 8, 16, 32, 64)):
    """Rows (n, u_x, u_y, error [m], observed order) against the shooting reference."""
    ref = reference_tip()
    rows, previous = [], None
    for n in meshes:
        tip = femdyn_tip(n)
        err = np.linalg.norm(tip - ref)
        order = np.log2(previous / err) if previous else np.nan
        rows.append((n, *tip, err, order))
        previous = err
    return ref, rows


if __name__ == "__main__":
    meshes = [int(a) for a in sys.argv[1:]] or [4, 8, 16, 32, 64]
    ref, rows = table(meshes)
    print(f"extensible elastica (shooting): u = ({ref[0]:.9f}, {ref[1]:.9f}) m; "
          f"published: ({PUBLISHED_TIP[0]}, {PUBLISHED_TIP[1]})")
    print("| elements | u_x [m] | u_y [m] | error [m] | order |")
    print("|---:|---:|---:|---:|---:|")
    for n, ux, uy, err, order in rows:
        print(f"| {n} | {ux:.9f} | {uy:.9f} | {err:.2e} | {order:.2f} |")
