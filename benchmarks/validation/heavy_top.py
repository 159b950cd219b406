"""Heavy top (Brüls, Cardona & Arnold 2012, "Lie group generalized-α time integration of
constrained flexible multibody systems", Mech. Mach. Theory 48:121–137): m = 15 kg,
inertia about the centre of mass diag(0.234375, 0.46875, 0.234375) kg m², centre of mass
at (0, 1, 0) m from the fixed point, Ω(0) = (0, 150, −4.61538) rad/s, g = 9.81 m/s² along
−z. Output: the centre of mass at t = 2 s against the solution of Euler's equations
(:func:`references.heavy_top_com`, DOP853 at rtol 1e-13).

femdyn's model: a rigid body on natural coordinates (points O, C and unit vectors u, w),
a spherical joint at O. The index-3 generalized-α form is unstable here at h = 1 ms
with ρ∞ ≥ 0.85 (its spurious multiplier mode, the defective eigenvalue −ρ∞, is pushed
outside the unit circle by the spin's centripetal multipliers λ ∝ ω²; see
docs/validation.md), so the runs use the stabilized index-2 form (GGL), stable up to ρ∞ = 1.

Run: ``python benchmarks/validation/heavy_top.py [h ...]``
"""
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import femdyn                                                          # noqa: E402
from femdyn.solvers.generalized_alpha import Options, integrate        # noqa: E402
from references import heavy_top_com                                   # noqa: E402

MASS, COM = 15.0, (0.0, 1.0, 0.0)
INERTIA = np.diag([0.234375, 0.46875, 0.234375])
OMEGA0 = (0.0, 150.0, -4.61538)


def heavy_top():
    """The heavy top as a femdyn Model."""
    m = femdyn.Model("heavy top", gravity=(0, 0, -9.81))
    O, C = m.point("top.O", (0, 0, 0)), m.point("top.C", COM)
    u, w = m.vector("top.u", (1, 0, 0)), m.vector("top.w", (0, 0, 1))
    top = m.rigid_body("top", [O, C], [u, w], mass=MASS, com=COM, inertia=INERTIA)
    m.spherical("pivot", "ground", top, (0, 0, 0))
    m.set_rigid_velocity(top, OMEGA0)
    m.sensor_point("com", top, COM)
    return m


def reference(t_end=2.0):
    """Centre of mass [m] at ``t_end`` from Euler's equations."""
    return heavy_top_com(t_end, MASS, INERTIA, COM, OMEGA0)[0]


def com_at(h, t_end=2.0, formulation="stabilized", rho_inf=0.9):
    """Centre of mass [m] at ``t_end`` computed by femdyn with step h [s]."""
    r = integrate(heavy_top().assemble(), t_end, h, Options(rho_inf=rho_inf, formulation=formulation),
                  record_every=10**9)
    return np.array([r["com.x"][-1], r["com.y"][-1], r["com.z"][-1]])


if __name__ == "__main__":
    steps = [float(a) for a in sys.argv[1:]] or [2e-3, 1e-3, 5e-4]
    ref = reference()
    print(f"reference COM at 2 s: {ref}")
    previous = None
    for h in steps:
        err = np.linalg.norm(com_at(h) - ref)
        order = np.log(previous[1] / err) / np.log(previous[0] / h) if previous else np.nan
        print(f"h = {h:g} s: error {err:.3e} m, observed order {order:.2f}")
        previous = (h, err)
