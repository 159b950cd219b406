"""A distance constraint: a rod hanging on a string.

A uniform rod (ℓ = 0.5 m, 1 kg) hangs from a massless string of length L = 1 m: a
distance constraint |p − O| = L between the anchor O and the rod's top point (the string
takes tension only through the sign of its multiplier; here it is always taut). The
script finds the hanging equilibrium (string tension m g), then the eigenfrequencies
about it, and compares them with the two frequencies of the linearized double pendulum
(string angle φ, rod angle ψ; Lagrange's equations about the vertical):

    M = m [[L², Lℓ/2], [Lℓ/2, ℓ²/3]],   K = m g [[L, 0], [0, ℓ/2]],   det(K − ω² M) = 0.

Each frequency appears twice: once for swinging in the x–z plane and once in the y–z plane.

    python examples/joint_distance.py [out_folder]
"""
import numpy as np
from scipy.linalg import eigh

import femdyn
from femdyn.results.plots import output_folder
from femdyn.solvers.eigen import eigenmodes
from femdyn.solvers.static import static_equilibrium

STRING, ROD, MASS, G = 1.0, 0.5, 1.0, 9.81               # m, m, kg, m/s²


def closed_form():
    """The two circular frequencies (rad/s) of the linearized string-and-rod pendulum."""
    M = MASS * np.array([[STRING**2, STRING * ROD / 2], [STRING * ROD / 2, ROD**2 / 3]])
    K = MASS * G * np.diag([STRING, ROD / 2])
    return np.sqrt(eigh(K, M, eigvals_only=True))


def main(out):
    m = femdyn.Model("rod on a string", gravity=(0, 0, -G))
    top, bottom = m.point("top", (0, 0, -STRING)), m.point("bottom", (0, 0, -STRING - ROD))
    rod = m.rigid_beam("rod", top, bottom, mass=MASS)
    m.distance("string", m.ground, (0, 0, 0), rod, (0, 0, -STRING))
    system = m.assemble()
    print(system.summary())
    q, lam = static_equilibrium(system)
    # the row is (p − O)² − L² = 0: its force on the rod is −λ ∂Φ/∂p = −2 λ (p − O), towards O:
    # a tension 2 λ L
    tension = 2 * STRING * lam[system.joint_rows["string"][0]]
    omega, _ = eigenmodes(system, q, lam, count=4)
    exact = closed_form()
    print(f"string tension {tension:.6f} N (m g = {MASS * G:.6f} N)")
    print(f"frequencies {np.round(omega, 6)} rad/s; linearized double pendulum {np.round(exact, 6)} rad/s, each twice")
    return {"tension": tension, "omega": omega, "exact": np.repeat(exact, 2)}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
