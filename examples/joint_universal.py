"""A universal (Hooke, Cardan) joint: two shafts at an angle β.

The input shaft turns in a bearing about x; the output shaft, tilted by β = 30° in the
x–z plane, hangs on the Hooke joint at the origin (its cross axes: y on the input yoke,
perpendicular to the output shaft and to y on the output yoke). A driving constraint
turns the input at 2π rad/s. The output angle of a Cardan joint is not the input angle:
tan φ₂ = cos β · tan φ₁, both angles measured from the position where the input cross
axis stands perpendicular to the plane of the shafts. The script compares the output
angle and its rate φ̇₂ = φ̇₁ cos β / (1 − sin²β sin²φ₁) with these closed forms.

Supports without redundant equations: the joint at the cross already holds the output
shaft's end on the input axis, so a revolute bearing at the output's far end would
repeat three of its equations (femdyn names such rows in a ConstraintError). The far end
of the output shaft is held sideways only: its y and z coordinates are fixed (the rigid
shaft leaves its x no freedom).

    python examples/joint_universal.py [out_folder]
"""
import numpy as np

import femdyn
from femdyn.motion import Polynomial
from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import integrate

BEND, SPEED, LENGTH = np.radians(30.0), 2 * np.pi, 0.4          # rad, rad/s, m


def shaft(m, name, axis, cross):
    """A shaft from the origin to LENGTH·axis: two point nodes and a unit-vector node along
    its cross axis, 1 kg, inertia of a thin rod."""
    far = LENGTH * axis
    points = [m.point(f"{name}.joint", (0, 0, 0)), m.point(f"{name}.bearing", far)]
    inertia = 1.0 * LENGTH**2 / 12 * (np.eye(3) - np.outer(axis, axis))
    return m.rigid_body(name, points, [m.vector(f"{name}.cross", cross)], mass=1.0, com=far / 2, inertia=inertia)


def main(out, t_end=1.0, h=1e-3):
    x, y = np.array([1.0, 0.0, 0.0]), np.array([0.0, 1.0, 0.0])
    tilted = np.array([np.cos(BEND), 0.0, np.sin(BEND)])
    output_cross = np.cross(tilted, y)                                 # ⟂ output shaft and y
    m = femdyn.Model("cardan shaft", gravity=(0, 0, 0))
    first = shaft(m, "input", -x, y)
    second = shaft(m, "output", tilted, output_cross)
    m.revolute("bearing", m.ground, first, point=-LENGTH * x, axis=x)
    m.universal("cross", first, second, point=(0, 0, 0), axis_a=y, axis_b=output_cross)
    m.fix("output.bearing", components=(1, 2))                         # far end: y, z fixed
    m.drive_angle("motor", "bearing", Polynomial([0.0, SPEED]))        # φ₁ = 2π t (rad)
    m.sensor_angle("input", "bearing")
    system = m.assemble()
    print(system.summary())
    results = integrate(system, t_end=t_end, h=h)
    # output angle: the turn of the output cross axis about the output shaft
    w = np.column_stack([results[f"output.cross.u{c}"] for c in "xyz"])
    phi2 = np.unwrap(np.arctan2(w @ np.cross(tilted, output_cross), w @ output_cross))
    phi1 = results["input.angle"]
    exact = phi1 + np.angle(np.exp(1j * (np.arctan2(np.cos(BEND) * np.sin(phi1), np.cos(phi1)) - phi1)))
    rate = np.gradient(phi2, results.t)
    exact_rate = SPEED * np.cos(BEND) / (1 - np.sin(BEND) ** 2 * np.sin(phi1) ** 2)
    angle_error = np.abs(phi2 - exact).max()
    rate_error = np.abs(rate - exact_rate)[1:-1].max()
    print(f"output angle vs tan φ₂ = cos β tan φ₁: largest difference {angle_error:.2e} rad")
    print(f"output rate {rate.min():.4f} … {rate.max():.4f} rad/s (closed form {SPEED * np.cos(BEND):.4f} … "
          f"{SPEED / np.cos(BEND):.4f}); largest difference {rate_error:.2e} rad/s")
    return {"angle_error": angle_error, "rate_error": rate_error, "turns": phi1[-1] / (2 * np.pi)}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
