"""A slider-crank with a revolute clearance joint between connecting rod and slider (after Flores et al. 2006).

Crank 0.05 m (0.30 kg) turning at 5000 rpm, connecting rod 0.12 m (0.21 kg), slider 0.14 kg,
gravity along −y; the rod–slider pin has 0.5 mm radial clearance on a 10 mm journal (steel,
Hertz stiffness of Flores et al., Lankarani–Nikravesh damping with c_r = 0.9). The script runs
the ideal mechanism and the one with clearance for two crank turns, prints the impacts, the
largest contact force and the contact time against the step, and draws the journal's orbit
inside the clearance circle, the contact force, and the slider's acceleration of both runs.

    python examples/clearance_slider_crank.py [out_folder]
"""
import os

import numpy as np

import femdyn
from femdyn.results.plots import output_folder
from femdyn.solvers.generalized_alpha import Options, integrate

CRANK, ROD = 0.05, 0.12                                 # m
MASSES = (0.30, 0.21, 0.14)                             # crank, rod, slider, kg
OMEGA = 5000 * 2 * np.pi / 60                           # rad/s
CLEARANCE, RADIUS, RESTITUTION = 0.5e-3, 10e-3, 0.9     # m, m, 1
G = 9.81


def build(clearance):
    """The slider-crank in the x-y plane (hinges about z); ``clearance`` (m) at the rod–slider pin, or None."""
    m = femdyn.Model("slider-crank", gravity=(0, -G, 0))
    O, A, B = m.point("O", (0, 0, 0)), m.point("A", (CRANK, 0, 0)), m.point("B", (CRANK + ROD, 0, 0))
    z = m.vector("z", (0, 0, 1))
    crank = m.rigid_beam("crank", O, A, mass=MASSES[0], axis=z)
    rod = m.rigid_beam("rod", A, m.point("B'", (CRANK + ROD, 0, 0)), mass=MASSES[1], axis=z)
    m.point_mass("slider", B, MASSES[2])
    m.revolute("main", m.ground, crank, (0, 0, 0), (0, 0, 1))
    m.fix(B, name="guide", components=(1,))      # the slider runs along x (the pin holds its z)
    m.drive_angle("motor", "main", femdyn.motion.Polynomial([0.0, OMEGA]))
    m.revolute("pin", rod, "slider", (CRANK + ROD, 0, 0), (0, 0, 1))
    if clearance:
        m.clearance("pin", clearance, RADIUS, restitution=RESTITUTION)
        m.sensor_clearance("pin", "pin")
    m.sensor_point("slider", "slider", (CRANK + ROD, 0, 0))
    m.sensor_angle("crank", "main")
    return m


def main(out, turns=2.0, h=2e-6):
    t_end = turns * 2 * np.pi / OMEGA
    options = Options(rho_inf=0.9, on_failure="retry")
    ideal = integrate(build(None).assemble(), t_end, h, options)
    model = build(CLEARANCE)
    system = model.assemble()
    joint = system.joints["pin"]
    # the same coordinates as the ideal model: start from its consistent velocities (journal centred, no slip)
    loose = integrate(system, t_end, h, options, v0=ideal.v[0])
    force = loose["pin.force"]
    on = (force > 0).astype(int)
    starts = np.nonzero(np.diff(on) == 1)[0] + 1
    speeds = loose["pin.rate"][np.maximum(starts - 1, 0)]
    tc = joint.contact_time(MASSES[2], max(speeds.max(), 1e-3))
    print(f"{len(starts)} impacts in {turns:g} turns, largest impact speed {speeds.max():.3f} m/s; largest contact "
          f"force {force.max():.0f} N (ideal pin: {ideal_pin_force(ideal):.0f} N)")
    print(f"Hertz contact time at that speed {tc * 1e6:.1f} µs: h = {h * 1e6:g} µs gives {tc / h:.0f} steps per impact")
    draw(out, ideal, loose)
    return {"impacts": len(starts), "largest_force": force.max(), "contact_time": tc,
            "max_eccentricity": loose["pin.eccentricity"].max(), "rejected": len(loose.events)}


def ideal_pin_force(results):
    """The largest force the slider's inertia and the guide put on an ideal pin, N (from its acceleration)."""
    a = np.gradient(results["slider.vx"], results.t)
    return np.abs(MASSES[2] * a).max()


def draw(out, ideal, loose):
    """Journal orbit, contact force and slider acceleration against the crank angle (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.5))
    fig.suptitle(f"Slider-crank at 5000 rpm, rod–slider pin with {CLEARANCE * 1e3:g} mm clearance (c_r = {RESTITUTION})")
    phi = np.degrees(loose["crank.angle"])
    ring = np.linspace(0, 2 * np.pi, 200)
    e = np.column_stack([loose[f"B.r{k}"] - loose[f"B'.r{k}"] for k in "xy"])     # journal − bearing centre
    ax[0].plot(CLEARANCE * 1e3 * np.cos(ring), CLEARANCE * 1e3 * np.sin(ring), "k--", lw=0.8, label="clearance circle")
    ax[0].plot(e[:, 0] * 1e3, e[:, 1] * 1e3, lw=0.8, label="journal centre")
    ax[0].set(title="Journal centre relative to the bearing", xlabel="x (mm)", ylabel="y (mm)", aspect="equal")
    ax[0].legend(fontsize=8)
    ax[1].plot(phi, loose["pin.force"])
    ax[1].set(title="Contact force", xlabel="crank angle (°)", ylabel="F_n (N)")
    for res, label in ((ideal, "ideal pin"), (loose, "pin with clearance")):
        ax[2].plot(np.degrees(res["crank.angle"]), np.gradient(res["slider.vx"], res.t), lw=0.8, label=label)
    ax[2].set(title="Slider acceleration", xlabel="crank angle (°)", ylabel="a_x (m/s²)")
    ax[2].legend(fontsize=8)
    return save_figure(fig, out, "clearance-slider-crank.png")


def save_figure(fig, out, name):
    """Lay out, write (PNG, 110 dpi) and close a figure; its path."""
    import matplotlib.pyplot as plt
    fig.tight_layout()
    path = os.path.join(out, name)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
