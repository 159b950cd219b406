"""Flexible pendulum (Berzeri & Shabana 2000, "Development of simple models for the elastic
forces in the absolute nodal co-ordinate formulation", J. Sound Vib. 235:539–565):
L = 1.2 m, A = 0.0018 m², I = 1.215e-8 m⁴, ρ = 5540 kg/m³, E = 0.7e6 or 0.7e7 Pa, pinned
at the root, released from rest horizontal under g = 9.81 m/s² (swinging in the x–y
plane, planar ANCF cable). Output: the tip position at t = 0.5 s and 1.0 s.

The reference is femdyn's own limit under refinement of mesh and step (Richardson
estimate from the finest runs, see :func:`convergence`); the observed orders are
reported with it in docs/validation.md.

Run: ``python benchmarks/validation/flexible_pendulum.py [E]``
"""
import sys

import numpy as np

import femdyn
from femdyn.elements.sections import CrossSection
from femdyn.solvers.generalized_alpha import Options, integrate

L, AREA, INERTIA, RHO = 1.2, 0.0018, 1.215e-8, 5540.0
SECTION = CrossSection(AREA, INERTIA, INERTIA, 2 * INERTIA, 0.024, 0.024)
TIMES = (0.5, 1.0)


def pendulum(n_elements, E):
    """The pendulum model meshed with ``n_elements`` planar cables (E in Pa)."""
    m = femdyn.Model("flexible pendulum", gravity=(0, -9.81, 0))
    m.straight_beam("beam", (0, 0, 0), (L, 0, 0), n_elements, E=E, rho=RHO, section=SECTION, element="cable2d")
    m.spherical("pin", "ground", "beam.0", (0, 0, 0))
    m.sensor_point("tip", f"beam.{n_elements}", (L, 0, 0))
    return m


def tip_positions(n_elements, h, E, rho_inf=0.9):
    """Tip (x, y) [m] at t = 0.5 s and 1.0 s, shape (2, 2), generalized-α (index 3) with step h [s]."""
    r = integrate(pendulum(n_elements, E).assemble(), TIMES[-1], h, Options(rho_inf=rho_inf))
    t = r.t
    rows = [int(np.argmin(np.abs(t - time))) for time in TIMES]
    return np.array([[r["tip.x"][k], r["tip.y"][k]] for k in rows])


def convergence(E, meshes=(8, 16, 32, 64), steps=(1e-3, 5e-4, 2.5e-4), base_mesh=32, base_step=1e-3):
    """Mesh study at ``base_step`` and step study at ``base_mesh``: dicts {n or h: tips (2, 2)}."""
    by_mesh = {n: tip_positions(n, base_step, E) for n in meshes}
    by_step = {h: tip_positions(base_mesh, h, E) for h in steps}
    return by_mesh, by_step


def observed_order(a, b, c, ratio=2.0):
    """Order p from three solutions on meshes refined by ``ratio``: ‖a − b‖/‖b − c‖ = ratio^p."""
    return float(np.log(np.linalg.norm(a - b) / np.linalg.norm(b - c)) / np.log(ratio))


if __name__ == "__main__":
    E = float(sys.argv[1]) if len(sys.argv) > 1 else 0.7e6
    by_mesh, by_step = convergence(E)
    print(f"E = {E:g} Pa; tip (x, y) at t = 0.5 s | at t = 1.0 s")
    for label, runs in (("elements (h = 1 ms)", by_mesh), ("step (32 elements)", by_step)):
        keys = list(runs)
        print(label)
        for k in keys:
            print(f"  {k:>8}: {runs[k][0].round(7)} | {runs[k][1].round(7)}")
        print("  observed order:", round(observed_order(*[runs[k] for k in keys[-3:]]), 2))
