"""A rigid four-bar linkage (crank–rocker) with a revolute joint at every pivot, driven at constant crank speed.

Ground O–C (0.10 m), crank O–A (0.04 m), coupler A–B (0.12 m), rocker C–B (0.08 m), in the
x–y plane. Grashof's condition s + l ≤ p + q (0.04 + 0.12 ≤ 0.10 + 0.08) with the crank the
shortest link makes it a crank–rocker: the crank turns through full revolutions while
the rocker swings. Each link is a rigid beam with a unit vector along z that carries the
joint axis; the four pivots are revolute joints about z, as the linkage is drawn. A planar
loop closes in its plane by itself, so three of the twenty joint equations repeat others:
femdyn sets them aside when it assembles the model (the summary lists them by joint and
equation) and reports the reactions as the minimum-norm set. (``build("spherical")`` gives
the same loop with ball joints at the coupler's ends, which has no repeated equation.)

A driving constraint turns the crank at 2π rad/s after a smooth start. The rocker angle
is compared with the closed-form position of the loop (B the intersection of the circle
of radius AB about A with the circle of radius CB about C, on the branch of the
assembly), and the run checks the Grashof closure: the crank makes full turns, the
rocker comes back to the same angle at every turn, and its swing is the one between the
two positions where crank and coupler are in line (O–B = AB ∓ OA, law of cosines in the
triangle O–C–B).

    python examples/four_bar.py [out_folder]
"""
import os

import numpy as np

import femdyn
from femdyn.motion.timefunctions import RampedMotion
from femdyn.results.plots import output_folder, plot_channels
from femdyn.solvers.generalized_alpha import integrate

GROUND, CRANK, COUPLER, ROCKER = 0.10, 0.04, 0.12, 0.08          # m
SPEED, RAMP = 2 * np.pi, 0.25                                   # rad/s, s


def rocker_tip(crank_angle, branch):
    """Closed-form position of B (x, y) for crank angles (rad): circle intersection."""
    A = CRANK * np.column_stack([np.cos(crank_angle), np.sin(crank_angle)])
    C = np.array([GROUND, 0.0])
    d = np.linalg.norm(C - A, axis=1)
    along = (d**2 + COUPLER**2 - ROCKER**2) / (2 * d)
    height = np.sqrt(COUPLER**2 - along**2)
    e = (C - A) / d[:, None]
    normal = np.column_stack([-e[:, 1], e[:, 0]])
    return A + along[:, None] * e + branch * height[:, None] * normal


def swing():
    """The rocker's swing (rad) between the two in-line positions of crank and coupler."""
    def angle_at_C(OB):
        return np.arccos((GROUND**2 + ROCKER**2 - OB**2) / (2 * GROUND * ROCKER))
    return angle_at_C(COUPLER + CRANK) - angle_at_C(COUPLER - CRANK)


def linkage(name, pivots, joints="revolute", speed=SPEED, ramp=RAMP, masses=(0.1, 0.3, 0.2)):
    """A planar four-bar O–A–B–C (pivots (x, y) in m) under gravity −y: crank O–A driven about z by
    ``RampedMotion(speed, ramp)``, revolutes to the ground at O and C, ``joints`` ("revolute" or
    "spherical") at A and B; sensors for both angles and every joint's reactions."""
    O, A, B, C = (np.array([*p, 0.0]) for p in pivots)
    m = femdyn.Model(name, gravity=(0, -9.81, 0))
    axis = joints == "revolute"

    def link(label, start, end, mass):
        vector = {"axis": m.vector(f"{label}.axis", (0, 0, 1))} if axis else {}
        return m.rigid_beam(label, m.point(f"{label}.start", start), m.point(f"{label}.end", end), mass=mass, **vector)

    crank, coupler, rocker = (link(label, *ends, mass) for label, ends, mass in
                              zip(("crank", "coupler", "rocker"), ((O, A), (A, B), (C, B)), masses))
    m.revolute("crank pivot", m.ground, crank, point=O, axis=(0, 0, 1))
    m.revolute("rocker pivot", m.ground, rocker, point=C, axis=(0, 0, 1))
    for pin, first, second, point in (("A", crank, coupler, A), ("B", coupler, rocker, B)):
        if axis:
            m.revolute(pin, first, second, point=point, axis=(0, 0, 1))
        else:
            m.spherical(pin, first, second, point=point)
    m.drive_angle("motor", "crank pivot", RampedMotion(speed, ramp))
    m.sensor_angle("crank", "crank pivot")
    m.sensor_angle("rocker", "rocker pivot")
    for joint in ("crank pivot", "A", "B", "rocker pivot", "motor"):
        m.sensor_reaction(joint, joint)
    return m


def build(joints="revolute"):
    """The crank–rocker assembled with B above the line O–C, and its rocker's initial angle (rad)."""
    B = rocker_tip(np.array([0.0]), +1)[0]
    pivots = [(0.0, 0.0), (CRANK, 0.0), B, (GROUND, 0.0)]
    return linkage(f"four-bar ({joints} coupler joints)", pivots, joints), np.arctan2(B[1], B[0] - GROUND)


def main(out, t_end=2.125, h=1e-3):
    model, rocker0 = build()
    system = model.assemble()
    print(system.summary())
    results = integrate(system, t_end=t_end, h=h)
    crank = results["crank.angle"]
    B = rocker_tip(crank, +1)
    exact = np.unwrap(np.arctan2(B[:, 1], B[:, 0] - GROUND)) - rocker0
    rocker = results["rocker.angle"]
    error = np.abs(rocker - exact).max()
    turns = crank[-1] / (2 * np.pi)
    # rocker angle at each full crank turn (interpolated): the loop closes on itself
    at_turns = np.interp(2 * np.pi * np.arange(1, int(turns) + 1), crank, rocker)
    plot_channels(results, ["crank.angle", "rocker.angle", "motor.torque"], os.path.join(out, "four-bar.png"),
                  units={"crank.angle": "rad", "rocker.angle": "rad", "motor.torque": "N·m"})
    print(f"crank turns {turns:.3f}; rocker swing {np.degrees(np.ptp(rocker)):.4f}° (in-line positions: "
          f"{np.degrees(swing()):.4f}°); rocker angle vs the "
          f"closed-form loop: largest difference {error:.1e} rad; rocker at each full turn {np.round(at_turns, 9)} rad")
    return {"turns": turns, "rocker_error": error, "at_turns": at_turns, "swing": np.ptp(rocker),
            "swing_exact": swing()}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
