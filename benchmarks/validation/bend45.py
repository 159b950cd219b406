"""45° bend (Bathe & Bolourchi 1979, "Large displacement analysis of three-dimensional beam
structures", Int. J. Numer. Meth. Eng. 14:961–986): a cantilever along a 45° circular arc
of radius R = 100 in the x–y plane (clamped at the origin with tangent +x, centre at
(0, R, 0)), square section 1 × 1 (J = I_y + I_z), E = 1e7, ν = 0, under a dead tip force F_z = 600
(consistent units). Tip position at F = 600, literature: (47.2, 15.9, 53.4) (Bathe &
Bolourchi 1979), (47.23, 15.79, 53.37) (Simo & Vu-Quoc 1986, "A three-dimensional
finite-strain rod model. Part II", Comput. Methods Appl. Mech. Eng. 58:79–116).

Run: ``python benchmarks/validation/bend45.py [n_elements ...]``
"""
import sys

import numpy as np

import femdyn
from femdyn.elements.sections import CrossSection
from femdyn.solvers.static import static_equilibrium

R, E, NU, LOAD = 100.0, 1e7, 0.0, 600.0
# square 1 × 1 with the torsion constant J = I_y + I_z = 1/6 of the rod formulations
# compared (St Venant's J = 0.1406 of the square moves the converged tip by (−0.26, −0.13, +0.13))
SECTION = CrossSection(1.0, 1 / 12, 1 / 12, 1 / 6, 0.5, 0.5, name="square 1 x 1")
LITERATURE = {"Bathe & Bolourchi 1979": (47.2, 15.9, 53.4), "Simo & Vu-Quoc 1986": (47.23, 15.79, 53.37)}


def tip_position(n_elements, element="beam", load_steps=30):
    """Tip position (3,) of the bend meshed with ``n_elements`` elements of kind ``element``
    ("beam": ANCFBeam3D, "beam3": ANCFBeamQuadratic)."""
    m = femdyn.Model("45 degree bend", gravity=(0, 0, 0))
    count = 2 * n_elements + 1 if element == "beam3" else n_elements + 1
    phi = np.linspace(0.0, np.pi / 4, count)
    nodes = []
    for i, p in enumerate(phi):
        position = (R * np.sin(p), R * (1 - np.cos(p)), 0.0)
        t, ey, ez = (np.cos(p), np.sin(p), 0.0), (-np.sin(p), np.cos(p), 0.0), (0.0, 0.0, 1.0)
        nodes.append(m.beam_node(f"n{i}", position, t, ey, ez) if element == "beam"
                     else m.director_node(f"n{i}", position, ey, ez))
    m.ancf_beam("bend", nodes, E=E, rho=1.0, section=SECTION, element=element, nu=NU)
    m.clamp("root", nodes[0])
    m.beam_force("tip", "bend", n_elements - 1, 1.0, (0.0, 0.0, LOAD))
    system = m.assemble()
    q, _ = static_equilibrium(system, load_steps=load_steps)
    return q[nodes[-1].dofs[:3]]


def table(meshes=(4, 8, 16, 32), elements=("beam", "beam3")):
    """{element: [(n, tip (3,))]}."""
    return {element: [(n, tip_position(n, element)) for n in meshes] for element in elements}


if __name__ == "__main__":
    meshes = [int(a) for a in sys.argv[1:]] or [4, 8, 16, 32]
    for element, rows in table(meshes).items():
        print(element)
        for n, tip in rows:
            print(f"  {n:3d} elements: ({tip[0]:.4f}, {tip[1]:.4f}, {tip[2]:.4f})")
    for source, tip in LITERATURE.items():
        print(f"{source}: {tip}")
