"""Sizing a Delta robot's motors for the pick-and-place cycle, two independent ways.

The ready `delta` (ABB IRB 360 dimensions, docs/parallel-robots.md) runs the cycle used to rate Delta
robots — 25 mm up, 305 mm across, 25 mm down and back, each segment rest to rest along a jerk-limited
S-curve — with and without a 1 kg payload. The motor torques come from the robot's closure by virtual
work (``ParallelRobot.efforts``) and, independently, from the servo-constraint inverse dynamics of its
natural-coordinate model (``ParallelRobot.model(servo=...)``, generalized-α); the two agree to the
integrator's error. Printed: the peak and RMS torque of each motor (what a drive is sized by), and what
the payload adds.

    python examples/parallel_pick_and_place.py [out_folder]
"""
import os

import numpy as np
from matplotlib.figure import Figure

from femdyn.results.plots import output_folder
from femdyn.robots.parallel import parallel_robot
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.studies.parallel_task import TaskConfig, task_motion

TASK = TaskConfig(kind="pick_place", speed=2.0, acceleration=20.0, jerk=400.0)     # m/s, m/s², m/s³
PAYLOAD = 1.0                                                                          # kg


def torques(robot, motion, t):
    """Motor torques (N·m), one column per motor, by virtual work at the times t."""
    return robot.efforts(*motion.sampled(t))


def servo_torques(robot, motion, h):
    """(t, motor torques) of the servo DAE of the rigid model over the whole cycle."""
    built = robot.model(motion.state(0.0)[0], flexible=False, servo=motion)
    res = integrate(built.model.assemble(), motion.end, h, Options(rho_inf=0.5, tol_dynamic=1e-11))
    return res.t, np.column_stack([res[f"{a}.torque"] for a in built.actuators])


def main(out, h=1e-3):
    robot = parallel_robot("delta")
    loaded = robot.with_payload(PAYLOAD)
    motion = task_motion(robot, TASK)
    t, dae = servo_torques(robot, motion, h)
    empty, full = torques(robot, motion, t), torques(loaded, motion, t)
    settled = t >= 20 * h                                   # the integrator's start transient (ρ∞ = 0.5)
    agreement = float(np.abs(dae - empty)[settled].max() / np.abs(empty).max())
    fig = Figure(figsize=(8.0, 4.2), layout="constrained")
    ax = fig.subplots()
    for k in range(empty.shape[1]):
        name = f"motor {k}" + (" (= motor 1: the cycle runs in motor 0's plane)" if k == 2 else "")
        line, = ax.plot(t, empty[:, k], label=f"{name}, no payload")
        ax.plot(t, full[:, k], "--", color=line.get_color(), label=f"{name}, {PAYLOAD:g} kg payload")
    ax.plot(t, dae[:, 0], ":", color="k", label="motor 0, servo DAE (no payload)")
    ax.set(xlabel="time t (s)", ylabel="motor torque on the arm (N·m)",
           title=f"Delta (IRB 360 dimensions): motor torques over the pick-and-place cycle "
                 f"({motion.end:.2f} s)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize="x-small", ncol=2)
    fig.savefig(os.path.join(out, "pick-and-place-torques.png"), dpi=120)
    peak, rms = np.abs(full).max(axis=0), np.sqrt(np.mean(full**2, axis=0))
    added = np.abs(full).max() - np.abs(empty).max()
    print(f"cycle {motion.end:.3f} s; with {PAYLOAD:g} kg: peak torque per motor {np.round(peak, 2).tolist()} N·m, "
          f"RMS {np.round(rms, 2).tolist()} N·m; the payload adds {added:.2f} N·m to the peak; servo DAE against "
          f"virtual work: {agreement:.1e} of the peak")
    return {"cycle": motion.end, "peak": peak, "rms": rms, "added": added, "agreement": agreement,
            "empty": empty, "full": full, "t": t}


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
