"""Snap-through of a two-bar (von Mises) truss traced by arc-length continuation.

Two bars (springs of stiffness k = 10 kN/m) from (∓1, 0, 0) m meet at an apex 0.1 m high that
moves vertically; a downward force P = s · 10 N pushes the apex through the flat position to
the mirrored shape and beyond. Under load control the truss jumps at its limit load
(P ≈ 3.83 N); ``equilibrium_path`` follows the whole curve, the unstable part included, and
every point lies on the closed form P(z) = 2 k z (L₀/L − 1), L = √(1 + z²).
Writes ``path.csv`` and ``path.png`` (load against apex height).

    python examples/statics_snap_through.py [out_folder]
"""
import os

import numpy as np

import femdyn
from femdyn.results.plots import output_folder
from femdyn.solvers import equilibrium_path

HALF_SPAN, RISE, K, P0 = 1.0, 0.1, 1.0e4, 10.0        # m, m, N/m, N


def truss():
    """The truss as a model: a point mass apex, two springs to the ground, a force."""
    m = femdyn.Model("von Mises truss", gravity=(0, 0, 0))
    m.point_mass("apex", (0, 0, RISE), 1.0)
    m.spring("left", "ground", (-HALF_SPAN, 0, 0), "apex", (0, 0, RISE), stiffness=K)
    m.spring("right", "ground", (HALF_SPAN, 0, 0), "apex", (0, 0, RISE), stiffness=K)
    m.fix("apex", components=(0, 1))                     # the apex moves vertically only
    m.force("P", "apex", (0, 0, RISE), (0, 0, -P0))
    return m.assemble()


def main(folder):
    """Trace the path, compare it with the closed form, write the CSV and the figure."""
    path = equilibrium_path(truss(), 0.002, max_points=500)
    z = path.channel("apex.rz")
    closed = 2 * K * z * (np.hypot(HALF_SPAN, RISE) / np.hypot(HALF_SPAN, z) - 1)
    print(f"{len(path)} points, limit load {P0 * path.load_factors[z > 0].max():.4f} N on the way up "
          f"(closed form 3.8299 N), largest deviation from the closed form "
          f"{np.abs(P0 * path.load_factors - closed).max():.1e} N")
    path.to_csv(os.path.join(folder, "path.csv"), ["apex.rz"])
    figure = path.plot("apex.rz", os.path.join(folder, "path.png"), load=P0, load_label="P [N]",
                       title="von Mises truss: load against apex height")
    print("wrote", figure)


if __name__ == "__main__":
    main(output_folder("Snap-through of a two-bar truss traced by arc-length continuation"))
