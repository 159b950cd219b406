"""A driven joint angle: the torque a motor needs to swing a rod.

A uniform rod (0.6 m, 1.5 kg) turns about a horizontal hinge (global y axis) at its end;
a driving constraint prescribes the hinge angle θ(t) = A sin ωt, measured from the rod's
horizontal start (positive θ about +y lowers the tip). The drive's multiplier is the
motor torque, recorded by a reaction sensor (``<name>.torque``: the torque on the rod, the
second body of the joint, about the axis). Euler's law about the hinge gives it in closed
form: τ = I θ̈ − m g (L/2) cos θ with I = m L²/3.

Multipliers (and so reactions and drive torques) of the index-3 generalized-α scheme
start with an error of order h that decays like ρ∞ⁿ over the steps n; the run uses the
numerical damping ρ∞ = 0.5, which removes it within the first 0.05 s, and compares the
torque after that.

    python examples/joint_drive_angle.py [out_folder]
"""
import os

import numpy as np

import femdyn
from femdyn.results.plots import output_folder, plot_channels
from femdyn.solvers.generalized_alpha import Options, integrate

LENGTH, MASS, G = 0.6, 1.5, 9.81                  # m, kg, m/s²
AMPLITUDE, OMEGA = 0.8, 2 * np.pi                 # rad, rad/s


def main(out, t_end=1.0, h=1e-3):
    m = femdyn.Model("driven rod", gravity=(0, 0, -G))
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (LENGTH, 0, 0)), mass=MASS)
    hinge = m.revolute("hinge", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    m.drive_angle("motor", hinge, femdyn.Sine(AMPLITUDE, OMEGA))       # θ(t) = A sin ωt
    m.sensor_angle("hinge", hinge)
    m.sensor_reaction("motor", "motor")                               # channel motor.torque (N·m)
    results = integrate(m.assemble(), t_end=t_end, h=h, options=Options(rho_inf=0.5))
    theta = AMPLITUDE * np.sin(OMEGA * results.t)
    theta_dd = -OMEGA**2 * theta
    exact = MASS * LENGTH**2 / 3 * theta_dd - MASS * G * LENGTH / 2 * np.cos(theta)
    torque = results["motor.torque"]
    error = np.abs(torque - exact)[results.t >= 0.05].max()
    plot_channels(results, ["hinge.angle", "motor.torque"], os.path.join(out, "driven-rod.png"),
                  units={"hinge.angle": "rad", "motor.torque": "N·m"})
    print(f"motor torque {torque.min():.4f} … {torque.max():.4f} N·m; largest difference after 0.05 s from "
          f"I θ̈ − m g (L/2) cos θ: {error:.2e} N·m; angle error {np.abs(results['hinge.angle'] - theta).max():.1e} rad")
    return {"torque_error": error, "torque_range": np.ptp(exact)}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
