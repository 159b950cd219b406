"""How the 3-RRRU study's figures converge with the ANCF elements per flexible link.

:data:`MEASURED` holds the figures over the whole circle for 2, 4, 8 and 16 elements per link
(:func:`measure_meshes`: ``femdyn study rrru``'s preset with ``parameters.elements`` set; docs/rrru.md,
"Elements per link"), also for the plain causal inverse and with structural damping (measured by the
dedicated study this preset replaced); :func:`mesh_adequacy` judges a mesh: a figure has converged when it
and every finer mesh lie within :data:`TOLERANCE` of the finest. Keys are the study's summary keys, and
``forward_deviation_yz`` (the larger of y and z) and ``torque_span`` (largest − smallest inverse effort).
"""
import math
from dataclasses import replace

TOLERANCE = 0.10        # relative difference from the finest mesh accepted as converged

FIGURES = {             # key of the study's summary → (what it is, unit, scale to that unit)
    "forward_deviation_x": ("forward deviation in x", "mm", 1e3),
    "forward_deviation_yz": ("forward deviation in y, z", "mm", 1e3),
    "forward_tilt_deg": ("forward platform tilt", "°", 1.0),
    "mid_link_deformation": ("mid-link deformation", "mm", 1e3),
    "torque_span": ("inverse torque range (max − min)", "N·m", 1.0),
    "inverse_tilt_speed_change_deg": ("inverse tilt from rest, start/stop", "°", 1.0),
    "inverse_tilt_cruise_deg": ("inverse tilt from rest, cruise", "°", 1.0),
}

MEASURED = {            # full circle, E = 6.9e8 Pa, no damping, the stable causal inverse; torque_span = max − min
    2: {"forward_deviation_x": 0.01002, "forward_deviation_yz": 0.02334, "forward_tilt_deg": 34.77, "mid_link_deformation": 0.00719, "torque_span": 4.62, "inverse_tilt_speed_change_deg": 15.96, "inverse_tilt_cruise_deg": 9.574},
    4: {"forward_deviation_x": 0.009913, "forward_deviation_yz": 0.02244, "forward_tilt_deg": 40.37, "mid_link_deformation": 0.008114, "torque_span": 4.618, "inverse_tilt_speed_change_deg": 16.03, "inverse_tilt_cruise_deg": 9.614},
    8: {"forward_deviation_x": 0.009896, "forward_deviation_yz": 0.02202, "forward_tilt_deg": 41.13, "mid_link_deformation": 0.008347, "torque_span": 4.618, "inverse_tilt_speed_change_deg": 16.05, "inverse_tilt_cruise_deg": 9.628},
    16: {"forward_deviation_x": 0.009896, "forward_deviation_yz": 0.0219, "forward_tilt_deg": 41.27, "mid_link_deformation": 0.008406, "torque_span": 4.617, "inverse_tilt_speed_change_deg": 16.07, "inverse_tilt_cruise_deg": 9.637},
}

MEASURED_CAUSAL = {     # the same with the plain causal inverse (inverse_method = "causal")
    2: {"forward_deviation_x": 1.002e-2, "forward_deviation_yz": 2.334e-2, "forward_tilt_deg": 34.77,
        "mid_link_deformation": 2.228e-2, "torque_span": 114.5, "inverse_tilt_speed_change_deg": 30.69,
        "inverse_tilt_cruise_deg": 20.70},
    4: {"forward_deviation_x": 9.913e-3, "forward_deviation_yz": 2.244e-2, "forward_tilt_deg": 40.37,
        "mid_link_deformation": 1.989e-2, "torque_span": 35.12, "inverse_tilt_speed_change_deg": 31.98,
        "inverse_tilt_cruise_deg": 17.95},
    8: {"forward_deviation_x": 9.896e-3, "forward_deviation_yz": 2.202e-2, "forward_tilt_deg": 41.13,
        "mid_link_deformation": 2.156e-2, "torque_span": 106.3, "inverse_tilt_speed_change_deg": 30.67,
        "inverse_tilt_cruise_deg": 18.51},
    16: {"forward_deviation_x": 9.896e-3, "forward_deviation_yz": 2.190e-2, "forward_tilt_deg": 41.27,
         "mid_link_deformation": 2.285e-2, "torque_span": 122.0, "inverse_tilt_speed_change_deg": 30.96,
         "inverse_tilt_cruise_deg": 18.44},
}

MEASURED_DAMPED = {     # the plain causal inverse with RRRUGeometry(damping=0.01), full circle
    2: {"torque_span": 7.738, "mid_link_deformation": 8.795e-3, "inverse_tilt_speed_change_deg": 18.02, "inverse_tilt_cruise_deg": 13.25},
    4: {"torque_span": 7.835, "mid_link_deformation": 1.011e-2, "inverse_tilt_speed_change_deg": 17.96, "inverse_tilt_cruise_deg": 13.46},
    8: {"torque_span": 7.856, "mid_link_deformation": 1.044e-2, "inverse_tilt_speed_change_deg": 17.92, "inverse_tilt_cruise_deg": 13.52},
}


def measure_meshes(meshes=(2, 4, 8, 16), duration=0.0, damping=0.0):
    """The figures of :data:`FIGURES` for each mesh: elements per link → figures (SI, angles in degrees) as
    :data:`MEASURED`; ``duration`` in s (0: the whole circle), ``damping`` the links' Kelvin–Voigt
    coefficient in s."""
    from .parallel_study import run_parallel_study
    from .rrru_preset import RRRUStudyConfig
    out = {}
    for n in meshes:
        config = RRRUStudyConfig()
        config = replace(config, duration=duration, paraview_every=0,
                         parameters={**config.parameters, "elements": n, "damping": damping})
        s = run_parallel_study(config)["summary"]
        s["forward_deviation_yz"] = max(s["forward_deviation_y"], s["forward_deviation_z"])
        s["torque_span"] = s["inverse_effort_max"] - s["inverse_effort_min"]
        out[n] = {key: float(s[key]) for key in FIGURES if key in s}
    return out


def coarsest_converged(figure, measured=None):
    """The fewest elements per link from which a figure stays within :data:`TOLERANCE` of the finest mesh."""
    measured = MEASURED if measured is None else measured
    meshes = sorted(n for n in measured if figure in measured[n])
    finest = measured[meshes[-1]][figure]
    coarsest = meshes[-1]
    for n in reversed(meshes[:-1]):
        if abs(measured[n][figure] - finest) > TOLERANCE * abs(finest):
            break
        coarsest = n
    return None if coarsest == meshes[-1] else coarsest


def mesh_adequacy(n_elements):
    """What a mesh of the 3-RRRU study's flexible links is good for, as a sentence."""
    good, coarse, never = [], [], []
    for figure, (label, _, _) in FIGURES.items():
        needed = coarsest_converged(figure)
        if needed is None:
            never.append(label)
        elif n_elements >= needed:
            good.append(label)
        else:
            coarse.append(f"{label} (needs ≥ {needed})")
    finest = max(MEASURED)
    text = (f"{n_elements} elements per link: within {TOLERANCE:.0%} of the {finest}-element values for "
            f"{', '.join(good) or 'none of the figures'}")
    if coarse:
        text += f"; too coarse for {', '.join(coarse)}"
    if never:
        text += (f"; {', '.join(never)}: not mesh-converged without damping (undamped link oscillations; with "
                 "RRRUGeometry(damping=0.01) 2 elements are within 2 %)")
    return text + "."


def convergence_table(measured=None):
    """The measured figures per mesh as a Markdown table, the coarsest converged mesh last."""
    measured = MEASURED if measured is None else measured
    meshes = sorted(measured)
    lines = ["| figure | " + " | ".join(map(str, meshes)) + " | converged from |",
             "|---" * (len(meshes) + 2) + "|"]
    for figure, (label, unit, scale) in FIGURES.items():
        if not all(figure in measured[n] for n in meshes):
            continue
        values = " | ".join(_fmt(measured[n][figure] * scale) for n in meshes)
        needed = coarsest_converged(figure, measured)
        lines.append(f"| {label} ({unit}) | {values} | {needed if needed else 'not converged'} |")
    return "\n".join(lines) + "\n"


def _fmt(x):
    """Three significant digits."""
    return f"{x:.3g}" if math.isfinite(x) else "–"
