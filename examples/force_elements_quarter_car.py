"""Force elements: a quarter car on point masses, spring-dampers and a tabulated bump stop.

A wheel (40 kg) stands on its tyre (200 kN/m), the body (300 kg) on the suspension
(20 kN/m, 1.5 kN·s/m), all along z. Preloads equal to the weights they carry make the
drawn pose the static equilibrium (checked with static_equilibrium). The wheel then
meets a bump (an upward velocity of 0.5 m/s); the motion is linear, so the closed form
is x(t) = exp(A t) x(0) with A = [[0, I], [−M⁻¹K, −M⁻¹C]]. A bump stop, a tabulated
spring that takes load only once the suspension has closed by 5 cm, stays idle here:
its channel shows a zero force.

    python examples/force_elements_quarter_car.py [out_folder]
"""
import os

import numpy as np
from scipy.linalg import expm

import femdyn
from femdyn.results.plots import output_folder, plot_channels
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium

G = 9.81
WHEEL, BODY = 40.0, 300.0                  # kg
TYRE, SPRING, DAMPER = 200e3, 20e3, 1.5e3  # N/m, N/m, N·s/m
BUMP = 0.5                                 # m/s, the wheel's upward velocity at t = 0


def build():
    """The quarter car; lateral coordinates fixed (springs in compression have no lateral stiffness to speak of)."""
    m = femdyn.Model("quarter car", gravity=(0, 0, -G))
    m.point_mass("wheel", (0, 0, 0.3), WHEEL)
    m.point_mass("body", (0, 0, 0.6), BODY)
    m.spring("tyre", "ground", (0, 0, 0), "wheel", (0, 0, 0.3), stiffness=TYRE, preload=-(WHEEL + BODY) * G)
    m.spring("suspension", "wheel", (0, 0, 0.3), "body", (0, 0, 0.6), stiffness=SPRING, damping=DAMPER,
             preload=-BODY * G)
    stop = femdyn.Table([-0.1, -0.05, 0.0, 0.1], [-2e4, 0.0, 0.0, 0.0])     # N: pushes once closed by 5 cm
    m.spring("bump stop", "wheel", (0, 0, 0.3), "body", (0, 0, 0.6), law=stop)
    for node in ("wheel", "body"):
        m.fix(node, components=(0, 1))
    m.sensor_force("suspension", "suspension")
    m.sensor_force("bump stop", "bump stop")
    m.set_velocity("wheel", (0, 0, BUMP))
    return m


def closed_form(t):
    """Heights of the wheel and the body above their rest positions (m) at times t: exp(A t) x(0)."""
    M = np.diag([WHEEL, BODY])
    K = np.array([[TYRE + SPRING, -SPRING], [-SPRING, SPRING]])
    C = DAMPER * np.array([[1.0, -1.0], [-1.0, 1.0]])
    A = np.block([[np.zeros((2, 2)), np.eye(2)], [-np.linalg.solve(M, K), -np.linalg.solve(M, C)]])
    x0 = np.array([0.0, 0.0, BUMP, 0.0])
    return np.array([(expm(A * tk) @ x0)[:2] for tk in t])


def main(out, t_end=1.0, h=5e-4):
    system = build().assemble()
    print(system.summary())
    q, _ = static_equilibrium(system)
    print(f"static equilibrium moves the drawn pose by {np.abs(q - system.q0).max():.1e} m")
    results = integrate(system, t_end=t_end, h=h, options=Options(rho_inf=0.9))
    heights = np.column_stack([results["wheel.rz"] - 0.3, results["body.rz"] - 0.6])
    exact = closed_form(results.t)
    error = np.abs(heights - exact).max(axis=0) / np.abs(exact).max(axis=0)
    print(f"largest error against exp(A t): wheel {error[0]:.1e}, body {error[1]:.1e} of their peaks; "
          f"bump stop force at most {np.abs(results['bump stop.force']).max():.1e} N")
    plot_channels(results, ["body.rz", "wheel.rz", "suspension.force"], os.path.join(out, "quarter-car.png"),
                  units={"body.rz": "m", "wheel.rz": "m", "suspension.force": "N"})
    return {"static_shift": np.abs(q - system.q0).max(), "error": error,
            "stop_force": np.abs(results["bump stop.force"]).max(),
            "suspension": results["suspension.force"], "deflection": results["suspension.deflection"],
            "rate": results["suspension.rate"]}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
