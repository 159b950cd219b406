"""The 3-RRRU test rig with clearance in limb 1's joints: its effect on the strain gauges (Liu et al. 2018 name
joint assembly clearance as a cause of the gauges' amplitude mismatch).

The rig of ``rrru_strain_report.py`` (E = 6.9e10 Pa, 1.6 kg payload) along the study's circle:
the flexible inverse gives the motor angles, which then drive the forward model twice, with ideal
joints and with ``CLEARANCE`` (30 µm) radial clearance in limb 1's motor and knee revolutes (10 mm
steel journals, Hertz stiffness, c_r = 0.9).
The script prints each gauge's peaks in both runs and draws the three gauges' strain (µε) and the
knee journal's eccentricity against time.

    python examples/rrru_clearance.py [out_folder] [--duration S] [--elements N] [--clearance M] [--h S]
"""
import argparse
import os

import numpy as np
from clearance_slider_crank import save_figure

from femdyn.motion import Tabulated
from femdyn.results.plots import output_folder
from femdyn.studies.parallel_model import actuator_coordinates
from femdyn.studies.rrru_gauges import DISTANCES, rig_config, rig_model

CLEARANCE, RADIUS = 30e-6, 10e-3          # m
JOINTS = ("limb 0.joint0", "limb 0.joint1")   # limb 1's motor and knee revolutes
SETTLE = 0.3                              # s: compare the peaks also from this time on (after the release)


def build(folder, config, clearance, drives=None):
    """The rig's System with the paper's gauges and its built robot: the servo inverse, or with ``drives``
    (t, angles (k, 3) from the model's pose) the forward model with prescribed motor angles; ``clearance`` (m)
    in limb 1's joints, or 0 for ideal joints."""
    built, t_end, _, _ = rig_model(folder, config, servo=drives is None)
    m = built.model
    if drives is not None:
        for i, motor in enumerate(built.actuated):
            m.drive_angle(f"drive {i}", motor, Tabulated(drives[0], drives[1][:, i]))
    if clearance:
        for name in JOINTS:
            m.clearance(name, clearance, RADIUS)
            m.sensor_clearance(name, name)
    return m.assemble(), t_end, built


def main(out, duration=0.0, elements=4, clearance=CLEARANCE, h=1e-3, h_forward=None, settle=SETTLE):
    from femdyn.solvers.generalized_alpha import Options, integrate
    from femdyn.solvers.static import static_equilibrium
    config = rig_config(duration, elements)
    options = Options(rho_inf=config.flexible_rho_inf, tol_dynamic=config.tol_flexible, tol_constraint=1e-12,
                      on_failure="retry")
    # the motor angles of the flexible inverse (the servo loops' commands), then the forward model driven
    # by them with ideal joints and with clearance: an inverse through a clearance gap is ill-posed
    system, t_end, built = build(os.path.join(out, "inverse"), config, 0.0)
    inverse = integrate(system, t_end, h, options, q0=static_equilibrium(system)[0])
    drives = (inverse.t, actuator_coordinates(inverse, built))
    system, _, _ = build(os.path.join(out, "ideal"), config, 0.0, drives)
    q0, _ = static_equilibrium(system, q0=inverse.q[0])      # the inverse's deformed start: same coordinates
    h_forward = h_forward or h
    ideal = integrate(system, t_end, h_forward, options, q0=q0)
    loose_system, _, _ = build(os.path.join(out, "clearance"), config, clearance, drives)
    # the same coordinates with clearance, released from the ideal equilibrium with the journals centred (a
    # centred journal has no stiffness in the clearance plane: statics cannot start there); they drop into contact
    loose = integrate(loose_system, t_end, h_forward, options, q0=q0)
    peaks, settle = {}, min(settle, 0.5 * t_end)
    for channel in DISTANCES:
        a, b = ideal[f"{channel}.strain"] * 1e6, loose[f"{channel}.strain"] * 1e6
        a_late, b_late = a[ideal.t >= settle], b[loose.t >= settle]
        peaks[channel] = (a.min(), a.max(), b.min(), b.max(), a_late.min(), a_late.max(), b_late.min(), b_late.max())
        print(f"{channel} (µε): ideal {a.min():6.3f} … {a.max():6.3f}, {clearance * 1e6:g} µm clearance {b.min():6.3f} "
              f"… {b.max():6.3f}; after {settle:g} s: ideal {a_late.min():6.3f} … {a_late.max():6.3f}, clearance "
              f"{b_late.min():6.3f} … {b_late.max():6.3f} (range {np.ptp(b_late) / np.ptp(a_late) - 1:+.1%})")
    for name in JOINTS:
        print(f"{name}: eccentricity {loose[f'{name}.eccentricity'].min() * 1e6:.1f} … "
              f"{loose[f'{name}.eccentricity'].max() * 1e6:.1f} µm, contact force up to {loose[f'{name}.force'].max():.0f} N")
    draw(out, ideal, loose, clearance)
    return {"peaks": peaks, "eccentricity": {n: loose[f"{n}.eccentricity"] for n in JOINTS}, "t": loose.t,
            "rejected": len(loose.events)}


def draw(out, ideal, loose, clearance):
    """Gauge strains of both runs and the journals' eccentricity against time (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 4, figsize=(18, 4.2))
    fig.suptitle(f"3-RRRU test rig, limb 1: ideal joints and {clearance * 1e6:g} µm clearance in its motor and knee")
    for k, channel in enumerate(DISTANCES):
        ax[k].plot(ideal.t, ideal[f"{channel}.strain"] * 1e6, label="ideal joints")
        ax[k].plot(loose.t, loose[f"{channel}.strain"] * 1e6, "--", label="with clearance")
        ax[k].set(title=f"gauge {channel}", xlabel="t (s)", ylabel="axial strain (µε)")
        ax[k].legend(fontsize=8)
    for name in JOINTS:
        ax[3].plot(loose.t, loose[f"{name}.eccentricity"] * 1e6, label=name)
    ax[3].axhline(clearance * 1e6, color="k", lw=0.8, ls=":", label="clearance")
    ax[3].set(title="Journal eccentricity", xlabel="t (s)", ylabel="e (µm)")
    ax[3].legend(fontsize=8)
    return save_figure(fig, out, "rrru-clearance.png")


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default=None)
    ap.add_argument("--duration", type=float, default=0.0, help="simulated time in s (0: the whole circle, 1.51 s)")
    ap.add_argument("--elements", type=int, default=4, help="ANCF beam elements per flexible link")
    ap.add_argument("--clearance", type=float, default=CLEARANCE, help="radial clearance, m")
    ap.add_argument("--h", type=float, default=1e-3, help="time step of the inverse, s")
    ap.add_argument("--h-forward", type=float, default=None, help="time step of the forward runs, s (default h)")
    a = ap.parse_args()
    main(a.out or output_folder(__doc__.splitlines()[0]), a.duration, a.elements, a.clearance, a.h, a.h_forward)
