"""A cable: a steel wire hanging from a pin, its stretch and its swinging modes.

A steel wire (40 m, 3 mm diameter) hangs from a spherical joint at its top end. It is a
chain of 40 planar ANCF cable elements (``element="cable2d"``: the wire swings in the
x–y plane; gravity along −y). Two checks against closed forms:

* statics: the wire stretches under its own weight by u = ρ g L² / (2E) at its free end
  (the tension grows linearly from the end, so the axial strain does too);
* modes about the hanging state: a heavy flexible chain swings at
  ω_n = (j₀,ₙ / 2) √(g/L), j₀,ₙ the zeros of the Bessel function J₀ (Daniel Bernoulli
  1732); the wire's bending stiffness raises them slightly, by a fraction of the order of
  E I / (w L³) for the first mode (w the weight per length: 2.3e-5 here) and more for the
  shorter waves of the higher modes.

The eigenmodes about a loaded state need the multipliers λ of that state (the tension
enters the stiffness through the constraints and the elements' geometric stiffness):
``eigenmodes(system, q, lam)`` with (q, λ) from ``static_equilibrium``.

    python examples/cable_hanging.py [out_folder]
"""
import numpy as np
from scipy.special import jn_zeros

import femdyn
from femdyn.elements import sections
from femdyn.results.plots import output_folder
from femdyn.solvers.eigen import eigenmodes
from femdyn.solvers.static import static_equilibrium

LENGTH, RADIUS, E, RHO, G, ELEMENTS = 40.0, 0.0015, 2.0e11, 7800.0, 9.81, 40   # m, m, Pa, kg/m³, m/s², -


def main(out, elements=ELEMENTS):
    section = sections.circular(RADIUS)
    m = femdyn.Model("hanging wire", gravity=(0, -G, 0))
    m.straight_beam("wire", (0, 0, 0), (0, -LENGTH, 0), elements, E=E, rho=RHO, section=section, element="cable2d")
    m.spherical("pin", m.ground, "wire.0", point=(0, 0, 0))
    system = m.assemble()
    print(system.summary())
    q, lam = static_equilibrium(system)
    end = system.labels.index(f"wire.{elements}.ry")
    stretch = -(q - system.q0)[end]
    omega, modes = eigenmodes(system, q, lam, count=3)
    chain = jn_zeros(0, 3) / 2 * np.sqrt(G / LENGTH)
    bending = E * section.Iy / (RHO * section.area * G * LENGTH**3)
    print(f"stretch of the free end {stretch:.6e} m (ρ g L²/2E = {RHO * G * LENGTH**2 / (2 * E):.6e} m)")
    print(f"swinging frequencies {np.round(omega, 6)} rad/s; heavy chain {np.round(chain, 6)} rad/s; "
          f"relative excess {np.round(omega / chain - 1, 6)}; EI/(wL³) = {bending:.1e}")
    return {"stretch": stretch, "exact_stretch": RHO * G * LENGTH**2 / (2 * E), "omega": omega, "chain": chain,
            "bending": bending}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
