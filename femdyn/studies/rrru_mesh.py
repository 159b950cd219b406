"""How the 3-RRRU study's figures converge with the ANCF elements per flexible link.

:data:`MEASURED` holds the study's figures over the whole circle (1.507 s, h = 1 ms,
defaults of :class:`~femdyn.studies.rrru_study.StudyConfig`) for 2, 4, 8 and 16 elements
per link, measured with :func:`femdyn.studies.rrru_study.measure_meshes` (docs/rrru.md, "Elements
per link"); :func:`mesh_adequacy` turns them into a judgement for a given mesh, which the
study's summary prints.

A figure counts as converged on a mesh when it and every finer measured mesh lie within
:data:`TOLERANCE` of the finest mesh's value. With the study's default, the stable causal
inverse, every figure converges from 2 elements per link but the mid-link deformation
(from 4). The plain causal inverse (:data:`MEASURED_CAUSAL`) is another matter: its peak
torques come from link oscillations that nothing damps (docs/rrru.md) and vary from mesh
to mesh by a factor of 3; with structural damping (``RRRUGeometry(damping=0.01)``,
:data:`MEASURED_DAMPED`) they converge on 2 elements already.
"""
import math

TOLERANCE = 0.10        # relative difference from the finest mesh accepted as converged

FIGURES = {             # key of the study's summary → (what it is, unit, scale to that unit)
    "forward_deviation_x": ("forward deviation in x", "mm", 1e3),
    "forward_deviation_yz": ("forward deviation in y, z", "mm", 1e3),
    "forward_tilt_deg": ("forward platform tilt", "°", 1.0),
    "mid_link_deformation": ("mid-link deformation", "mm", 1e3),
    "torque_span": ("inverse torque range (max − min)", "N·m", 1.0),
    "tilt_start_stop_deg": ("inverse tilt from rest, start/stop", "°", 1.0),
    "tilt_cruise_deg": ("inverse tilt from rest, cruise", "°", 1.0),
}

MEASURED = {            # full circle, E = 6.9e8 Pa, no damping, the stable causal inverse; torque_span = max − min
    2: {"forward_deviation_x": 0.01002, "forward_deviation_yz": 0.02334, "forward_tilt_deg": 34.77, "mid_link_deformation": 0.00719, "torque_span": 4.62, "tilt_start_stop_deg": 15.96, "tilt_cruise_deg": 9.574},
    4: {"forward_deviation_x": 0.009913, "forward_deviation_yz": 0.02244, "forward_tilt_deg": 40.37, "mid_link_deformation": 0.008114, "torque_span": 4.618, "tilt_start_stop_deg": 16.03, "tilt_cruise_deg": 9.614},
    8: {"forward_deviation_x": 0.009896, "forward_deviation_yz": 0.02202, "forward_tilt_deg": 41.13, "mid_link_deformation": 0.008347, "torque_span": 4.618, "tilt_start_stop_deg": 16.05, "tilt_cruise_deg": 9.628},
    16: {"forward_deviation_x": 0.009896, "forward_deviation_yz": 0.0219, "forward_tilt_deg": 41.27, "mid_link_deformation": 0.008406, "torque_span": 4.617, "tilt_start_stop_deg": 16.07, "tilt_cruise_deg": 9.637},
}

MEASURED_CAUSAL = {     # the same with the plain causal inverse (inverse_method = "causal")
    2: {"forward_deviation_x": 1.002e-2, "forward_deviation_yz": 2.334e-2, "forward_tilt_deg": 34.77,
        "mid_link_deformation": 2.228e-2, "torque_span": 114.5, "tilt_start_stop_deg": 30.69,
        "tilt_cruise_deg": 20.70},
    4: {"forward_deviation_x": 9.913e-3, "forward_deviation_yz": 2.244e-2, "forward_tilt_deg": 40.37,
        "mid_link_deformation": 1.989e-2, "torque_span": 35.12, "tilt_start_stop_deg": 31.98,
        "tilt_cruise_deg": 17.95},
    8: {"forward_deviation_x": 9.896e-3, "forward_deviation_yz": 2.202e-2, "forward_tilt_deg": 41.13,
        "mid_link_deformation": 2.156e-2, "torque_span": 106.3, "tilt_start_stop_deg": 30.67,
        "tilt_cruise_deg": 18.51},
    16: {"forward_deviation_x": 9.896e-3, "forward_deviation_yz": 2.190e-2, "forward_tilt_deg": 41.27,
         "mid_link_deformation": 2.285e-2, "torque_span": 122.0, "tilt_start_stop_deg": 30.96,
         "tilt_cruise_deg": 18.44},
}

MEASURED_DAMPED = {     # the plain causal inverse with RRRUGeometry(damping=0.01), full circle
    2: {"torque_span": 7.738, "mid_link_deformation": 8.795e-3, "tilt_start_stop_deg": 18.02, "tilt_cruise_deg": 13.25},
    4: {"torque_span": 7.835, "mid_link_deformation": 1.011e-2, "tilt_start_stop_deg": 17.96, "tilt_cruise_deg": 13.46},
    8: {"torque_span": 7.856, "mid_link_deformation": 1.044e-2, "tilt_start_stop_deg": 17.92, "tilt_cruise_deg": 13.52},
}


def coarsest_converged(figure, measured=None):
    """The fewest elements per link from which a figure stays within :data:`TOLERANCE` of the finest mesh.

    ``figure`` (str): a key of :data:`FIGURES`; ``measured`` (dict, optional): elements per link → figures
    (default :data:`MEASURED`). Returns int or None: none when only the finest mesh itself qualifies (the figure
    does not converge over the meshes measured).

    Example
    -------
    >>> coarsest_converged("forward_deviation_x")
    2
    """
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
    """What a mesh of the 3-RRRU study's flexible links is good for, as a sentence.

    ``n_elements`` (int): ANCF beam elements per flexible link. Returns str: the figures converged on that mesh
    (within :data:`TOLERANCE` of the 16-element values) and those for which it is too coarse, with the mesh they
    need.

    Example
    -------
    >>> mesh_adequacy(2).split(":")[0]
    '2 elements per link'
    """
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
    """The measured figures per mesh as a Markdown table, the coarsest converged mesh last.

    ``measured`` (dict, optional): elements per link → figures (default :data:`MEASURED`). Returns str:
    Markdown: one row per figure, one column per mesh.

    Example
    -------
    >>> convergence_table().splitlines()[0]
    '| figure | 2 | 4 | 8 | 16 | converged from |'
    """
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
