"""Liu et al.'s (2018) 3-RRRU robot, rigid part of the study: inverse dynamics along the circle.

The platform centre follows the circle of radius 0.1 m in the plane Z = −0.8 m at
0.5 m/s with jerk-limited start and stop; the motors are driven along the exact
inverse kinematics, their multipliers are the torques (checked by the power balance and
the instantaneous solution), and forward dynamics replays the torques. Then the robot
with flexible links (8 ANCF beam elements each) finds its static start under gravity.
Writes torques.png, path.png and the inverse-dynamics results to the output folder.

    python examples/rrru_rigid.py [out_folder]
"""
import numpy as np

from femdyn.results.plots import output_folder
from femdyn.studies.rrru import flexible_statics, rigid_inverse_dynamics


def main(out):
    study = rigid_inverse_dynamics({"output": out})
    print("rigid inverse dynamics:")
    for key, value in study["summary"].items():
        print(f"  {key:28s} {value:.6g}" if isinstance(value, float) else f"  {key:28s} {value}")
    statics = flexible_statics()
    print(f"flexible robot: {statics['coordinates']} coordinates, {statics['equations']} equations, "
          f"{statics['degrees_of_freedom']} degrees of freedom")
    if statics["converged"]:
        print(f"  static holding torques {np.round(statics['torques'], 4).tolist()} N·m "
              f"(rigid {np.round(statics['rigid_torques'], 4).tolist()}), platform sag "
              f"{np.round(1e3 * statics['displacement'], 3).tolist()} mm")
        for name, strain in statics["gauges"].items():
            print(f"  {name}: strain {strain:.4e}")
    else:
        print(f"  static equilibrium failed: {statics['error']}")
    print("figures:", ", ".join(study["figures"]))


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
