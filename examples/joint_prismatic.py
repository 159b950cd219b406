"""A prismatic joint: a block sliding down a frictionless incline.

A block (2 kg, a full rigid body: two points and two unit-vector nodes) slides along an
axis inclined by α = 20° below the horizontal, released from rest. The prismatic joint
keeps it on the line and locks its rotation; its travel along the axis is s = ½ g sin α t².

    python examples/joint_prismatic.py [out_folder]
"""
import numpy as np

import femdyn
from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import integrate

MASS, G, SLOPE = 2.0, 9.81, np.radians(20.0)          # kg, m/s², rad


def main(out, t_end=1.0, h=1e-3):
    down = np.array([np.cos(SLOPE), 0.0, -np.sin(SLOPE)])        # along the incline, downhill
    normal = np.array([np.sin(SLOPE), 0.0, np.cos(SLOPE)])       # ⟂ incline, upwards
    m = femdyn.Model("block on an incline", gravity=(0, 0, -G))
    points = [m.point("block.centre", (0, 0, 0)), m.point("block.front", 0.1 * down)]
    block = m.rigid_body("block", points, [m.vector("block.up", normal), m.vector("block.side", (0, 1, 0))],
                         mass=MASS, inertia=np.diag([0.01, 0.01, 0.01]))
    m.prismatic("slide", m.ground, block, point=(0, 0, 0), axis=down)
    m.sensor_point("block", block, (0, 0, 0))
    results = integrate(m.assemble(), t_end=t_end, h=h)
    position = np.column_stack([results[f"block.{c}"] for c in "xyz"])
    travel = position @ down
    exact = 0.5 * G * np.sin(SLOPE) * results.t**2
    off_line = np.linalg.norm(position - np.outer(travel, down), axis=1).max()
    print(f"travel after {results.t[-1]:g} s: {travel[-1]:.6f} m, ½ g sin α t² = {exact[-1]:.6f} m; "
          f"largest distance from the line {off_line:.1e} m")
    return {"travel": travel[-1], "exact_travel": exact[-1], "travel_error": np.abs(travel - exact).max(),
            "off_line": off_line}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
