"""A spherical (ball) joint: a rod turning as a conical pendulum.

A uniform rod (0.8 m, 0.5 kg) hangs from a ball joint at the origin, tilted θ₀ = 30° from
the downward vertical, and is started turning about the vertical at the rate for which a
slender rod stays on its cone: Ω² = 3g / (2L cos θ₀) (steady precession; the rod's
moment of momentum about the pivot balances the moment of its weight). The script checks
that the tilt stays θ₀ and that the rod turns at Ω.

    python examples/joint_spherical.py [out_folder]
"""
import numpy as np

import femdyn
from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import integrate

LENGTH, MASS, G, TILT = 0.8, 0.5, 9.81, np.radians(30.0)      # m, kg, m/s², rad


def main(out, t_end=2.0, h=1e-3):
    rate = np.sqrt(3 * G / (2 * LENGTH * np.cos(TILT)))        # rad/s, steady precession
    m = femdyn.Model("conical pendulum", gravity=(0, 0, -G))
    tip = LENGTH * np.array([np.sin(TILT), 0.0, -np.cos(TILT)])
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", tip), mass=MASS)
    m.spherical("ball", m.ground, rod, point=(0, 0, 0))
    m.set_rigid_velocity(rod, omega=(0, 0, rate), reference=(0, 0, 0))
    m.sensor_point("tip", rod, tip)
    results = integrate(m.assemble(), t_end=t_end, h=h)
    x, y, z = results["tip.x"], results["tip.y"], results["tip.z"]
    tilt = np.arccos(-z / LENGTH)
    azimuth = np.unwrap(np.arctan2(y, x))
    measured_rate = np.polyfit(results.t, azimuth, 1)[0]
    print(f"tilt stays within {np.degrees(np.abs(tilt - TILT).max()):.2e}° of {np.degrees(TILT):.0f}°; "
          f"turning rate {measured_rate:.6f} rad/s, steady precession {rate:.6f} rad/s")
    return {"tilt_error": np.abs(tilt - TILT).max(), "rate": measured_rate, "exact_rate": rate}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
