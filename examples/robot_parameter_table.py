"""A robot from a parameter table: a two-link arm on the recursive O(N) solvers.

Serial robots are kinematic trees. ``TreeModel.from_table`` builds one from rows of
parameters — one row per link: its name, its parent, the joint (kind and axis in the
joint frame), the joint frame's placement in the parent's frame (``xyz`` in m, and
``rpy`` in rad or a rotation matrix ``R``), and the link's mass (kg), centre of mass (m)
and inertia about it (kg·m², body axes). ``femdyn.robots.serial.puma560()`` builds the
PUMA 560 the same way from its modified Denavit–Hartenberg table.

The arm here hangs in the vertical x–z plane: two uniform links (0.5 m, 4 kg and 0.4 m,
2 kg) turning about y (a positive angle lowers the arm). The script compares the
recursive algorithms with the textbook formulas of the two-link arm (absolute angles
φ₁ = q₁, φ₂ = q₁ + q₂, c = half a link, I = m l²/12 about the centre of mass):

    holding torques  τ₁ = −g [m₁ c₁ cos φ₁ + m₂ (l₁ cos φ₁ + c₂ cos φ₂)],  τ₂ = −g m₂ c₂ cos φ₂,
    mass matrix      H₁₁ = I₁ + m₁c₁² + I₂ + m₂(l₁² + c₂² + 2 l₁ c₂ cos q₂),
                     H₁₂ = I₂ + m₂(c₂² + l₁ c₂ cos q₂),   H₂₂ = I₂ + m₂ c₂²,

then lets the arm fall from the horizontal for 2 s (forward dynamics, RK4) and checks
that its energy stays constant.

    python examples/robot_parameter_table.py [out_folder]
"""
import os

import numpy as np

from femdyn.results import time_histories
from femdyn.results.plots import output_folder
from femdyn.robots.serial import puma560
from femdyn.solvers.recursive import Data, TreeModel, center_of_mass, forward_dynamics, inverse_dynamics, mass_matrix
from femdyn.solvers.recursive.integrators import simulate

G = 9.81                                                   # m/s²
LINKS = [dict(name="upper arm", length=0.5, mass=4.0), dict(name="forearm", length=0.4, mass=2.0)]


def table():
    """One row per link: the parameters a data sheet gives."""
    rows, parent, offset = [], "world", 0.0
    for link in LINKS:
        l, m = link["length"], link["mass"]
        rows.append(dict(name=link["name"], parent=parent, joint="revolute", axis=(0, 1, 0), xyz=(offset, 0, 0),
                         mass=m, com=(l / 2, 0, 0), inertia=(1e-4, m * l**2 / 12, m * l**2 / 12, 0, 0, 0)))
        parent, offset = link["name"], l
    return rows


def closed_form(q):
    """Holding torques (N·m) and mass matrix (kg·m²) of the two-link arm at q (rad)."""
    (l1, m1), (l2, m2) = [(k["length"], k["mass"]) for k in LINKS]
    c1, c2, I1, I2 = l1 / 2, l2 / 2, m1 * l1**2 / 12, m2 * l2**2 / 12
    p1, p2 = q[0], q[0] + q[1]
    tau = -G * np.array([m1 * c1 * np.cos(p1) + m2 * (l1 * np.cos(p1) + c2 * np.cos(p2)), m2 * c2 * np.cos(p2)])
    h12 = I2 + m2 * (c2**2 + l1 * c2 * np.cos(q[1]))
    H = np.array([[I1 + m1 * c1**2 + I2 + m2 * (l1**2 + c2**2 + 2 * l1 * c2 * np.cos(q[1])), h12],
                  [h12, I2 + m2 * c2**2]])
    return tau, H


def main(out, t_end=2.0, h=1e-3):
    model = TreeModel.from_table(table(), gravity=(0, 0, -G))
    data = Data(model)
    q = np.array([0.3, -0.8])
    tau = inverse_dynamics(model, data, q, np.zeros(2), np.zeros(2))
    H = mass_matrix(model, data, q)
    tau_exact, H_exact = closed_form(q)
    print(f"holding torques {np.round(tau, 6)} N·m (closed form {np.round(tau_exact, 6)})")
    print(f"mass matrix {np.round(H, 6).tolist()} kg·m² (closed form {np.round(H_exact, 6).tolist()})")

    def kinetic(q, v):
        return 0.5 * v @ mass_matrix(model, data, q) @ v

    def potential(q):
        return sum(k["mass"] for k in LINKS) * G * center_of_mass(model, data, q)[2]

    run = simulate(lambda t, q, v: forward_dynamics(model, data, q, v, np.zeros(2)), np.zeros(2), np.zeros(2),
                   t_end, h, method="rk4")
    T = np.array([kinetic(q, v) for q, v in zip(run.q, run.v)])
    E = T + np.array([potential(q) for q in run.q])
    time_histories(os.path.join(out, "arm.png"), run.t, [("q [rad]", {"q1": run.q[:, 0], "q2": run.q[:, 1]}),
                                                       ("energy [J]", {"E": E})], "two-link arm falling from rest")
    print(f"falling for {t_end:g} s: energy drift {np.ptp(E):.1e} J; largest kinetic energy {T.max():.3f} J")
    puma = puma560()
    print(f"PUMA 560 holding torques at q = 0: {np.round(inverse_dynamics(puma, Data(puma), np.zeros(6), np.zeros(6), np.zeros(6)), 4)} N·m")
    return {"tau": tau, "tau_exact": tau_exact, "H": H, "H_exact": H_exact, "energy_drift": np.ptp(E), "kinetic_max": T.max()}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
