"""Bending eigenfrequencies of a clamped–free fully parameterized ANCF beam against
Euler–Bernoulli theory: L = 1 m, solid circular section r = 0.01 m, steel (E = 2.1e11 Pa,
ν = 0.3, ρ = 7850 kg/m³); ω_k = (β_k L)² √(EI/(ρ A L⁴)), β_k L = 1.87510407, 4.69409113,
7.85475744 (e.g. Blevins 1979, "Formulas for natural frequency and mode shape", table 8-1).
At L/r = 100 shear and rotary inertia (Timoshenko) lower the first three frequencies by
about 0.01, 0.1 and 0.2 %, so a converging Timoshenko-type element lands slightly below.

Compared: the two-node ANCFBeam3D (cubic axis, linear directors) and the three-node
ANCFBeamQuadratic. The clamp fixes the root node's r, r_y, r_z (and r_x of the two-node
element). Elements are assembled directly from the kernels (no model layer).

Run: ``python benchmarks/validation/beam_frequencies.py [n_elements ...]``
"""
import sys

import numpy as np
import scipy.linalg

from femdyn.elements import sections
from femdyn.elements.ancf_beam import ANCFBeam3D
from femdyn.elements.ancf_beam_quadratic import ANCFBeamQuadratic

L, RADIUS, E, NU, RHO = 1.0, 0.01, 2.1e11, 0.3, 7850.0
BETA = np.array([1.87510407, 4.69409113, 7.85475744])
SECTION = sections.circular(RADIUS)


def euler_bernoulli():
    """First three clamped–free bending frequencies ω [rad/s]."""
    return BETA**2 * np.sqrt(E * float(SECTION.Iy) / (RHO * float(SECTION.area) * L**4))


def _straight(cls, n_el):
    """Reference coordinates (n_el, ndof) of a straight beam along x, and dofs per node."""
    frame = [1.0, 0, 0, 0, 1.0, 0, 0, 0, 1.0]
    if cls is ANCFBeam3D:
        nodes = [[x, 0, 0] + frame for x in np.linspace(0, L, n_el + 1)]
        per_node = 12
        q = [nodes[e] + nodes[e + 1] for e in range(n_el)]
    else:
        nodes = [[x, 0, 0] + frame[3:] for x in np.linspace(0, L, 2 * n_el + 1)]
        per_node = 9
        q = [nodes[2 * e] + nodes[2 * e + 1] + nodes[2 * e + 2] for e in range(n_el)]
    return np.array(q, float), np.concatenate(nodes), per_node


def frequencies(cls, n_el, count=6):
    """Lowest ``count`` eigenfrequencies ω [rad/s] of the clamped–free beam (pairs: y and z)."""
    q_ref, q0, per_node = _straight(cls, n_el)
    beam = cls(q_ref, E, RHO, SECTION, nu=NU)
    stride = beam.ndof - per_node                    # consecutive elements share one node
    index = np.arange(n_el)[:, None] * stride + np.arange(beam.ndof)[None, :]
    n = len(q0)
    K, M = np.zeros((n, n)), np.zeros((n, n))
    np.add.at(K, (index[:, :, None], index[:, None, :]), beam.stiffness(q_ref)[0])
    np.add.at(M, (index[:, :, None], index[:, None, :]), beam.mass())
    free = np.arange(per_node, n)
    w2 = scipy.linalg.eigh(K[np.ix_(free, free)], M[np.ix_(free, free)], eigvals_only=True,
                           subset_by_index=[0, count - 1])
    return np.sqrt(np.abs(w2))


def table(meshes=(4, 8, 16, 32)):
    """{element: [(n, relative errors of the first three bending frequencies)]}."""
    exact = euler_bernoulli()
    out = {}
    for cls in (ANCFBeam3D, ANCFBeamQuadratic):
        out[cls.__name__] = [(n, frequencies(cls, n)[::2][:3] / exact - 1) for n in meshes]
    return out


if __name__ == "__main__":
    meshes = [int(a) for a in sys.argv[1:]] or [4, 8, 16, 32]
    for name, rows in table(meshes).items():
        print(name)
        for n, err in rows:
            print(f"  {n:3d} elements: " + "  ".join(f"{100 * e:+.4f} %" for e in err))
