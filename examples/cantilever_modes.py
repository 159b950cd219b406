"""Modes: the eigenfrequencies of a clamped flat bar against Euler–Bernoulli theory.

The steel flat bar of ``beam_strain_gauges.py`` (0.5 m, 20 mm × 5 mm, clamped at x = 0,
ANCF beam elements) has bending modes in two planes: across its thickness (about y,
I_y = b h³/12) and across its width (about z, 16 times stiffer). Euler–Bernoulli theory
gives ω_n = (β_n L)² √(E I / (ρ A L⁴)) with β₁L = 1.87510, β₂L = 4.69409, β₃L = 7.85476
(the roots of cos βL cosh βL = −1). ``eigenmodes`` solves the sparse eigenproblem
about the unloaded state. The script prints the lowest five frequencies with the plane
each mode moves in, for meshes of 8, 16 and 32 elements, and the relative difference from
the formula: it falls with the mesh (second order: the beam element interpolates its
section directors linearly), down to the effects the formula leaves out (shear and
rotary inertia lower the frequencies by a fraction of the order of (n w / L)², w the
section's depth in the plane of the mode).

    python examples/cantilever_modes.py [out_folder]
"""
import numpy as np
from scipy.optimize import brentq

import femdyn
from femdyn.elements import sections
from femdyn.results.plots import output_folder
from femdyn.solvers.eigen import eigenmodes

LENGTH, WIDTH, THICKNESS, E, RHO = 0.5, 0.02, 0.005, 2.1e11, 7800.0     # m, m, m, Pa, kg/m³


def roots(count):
    """βL of a clamped–free beam: the roots of cos x cosh x + 1 = 0."""
    return np.array([brentq(lambda x: np.cos(x) * np.cosh(x) + 1, (k + 0.3) * np.pi, (k + 0.7) * np.pi)
                     for k in range(count)])


def frequencies(elements, count=5):
    """The ``count`` lowest circular frequencies (rad/s) of the bar meshed into ``elements``
    beam elements, the plane of each mode, and Euler–Bernoulli's values for them."""
    section = sections.rectangular(WIDTH, THICKNESS)
    m = femdyn.Model("clamped flat bar", gravity=(0, 0, 0))
    m.straight_beam("bar", (0, 0, 0), (LENGTH, 0, 0), elements, E=E, rho=RHO, section=section, element="beam")
    m.clamp("root", "bar.0")
    system = m.assemble()
    omega, modes = eigenmodes(system, count=count)
    tip_z, tip_y = system.labels.index(f"bar.{elements}.rz"), system.labels.index(f"bar.{elements}.ry")
    planes = ["z" if abs(modes[tip_z, k]) > abs(modes[tip_y, k]) else "y" for k in range(count)]
    inertia = {"z": section.Iy, "y": section.Iz}           # bending across the thickness / across the width
    beta, order = roots(count), {"z": 0, "y": 0}
    exact = []
    for plane in planes:
        exact.append(beta[order[plane]] ** 2 * np.sqrt(E * inertia[plane] / (RHO * section.area * LENGTH**4)))
        order[plane] += 1
    return omega, planes, np.array(exact)


def main(out, meshes=(8, 16, 32)):
    errors = []
    for elements in meshes:
        omega, planes, exact = frequencies(elements)
        errors.append(omega / exact - 1)
        print(f"{elements:3d} elements: " + ", ".join(f"{w / (2 * np.pi):.3f} Hz ({p})" for w, p in zip(omega, planes)))
    print("Euler–Bernoulli:  " + ", ".join(f"{w / (2 * np.pi):.3f} Hz ({p})" for w, p in zip(exact, planes)))
    errors = np.array(errors)
    for elements, e in zip(meshes, errors):
        print(f"{elements:3d} elements: relative difference " + " ".join(f"{x:+.2e}" for x in e))
    order = np.log2(np.abs(errors[:-1, 0] / errors[1:, 0]))
    print(f"first mode: observed order of convergence {np.round(order, 2)} per halving of the elements")
    return {"omega": omega, "exact": exact, "planes": planes, "errors": errors, "order": order}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
