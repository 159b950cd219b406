"""The workspace study's files: workspace.csv, summary.json, one PNG map per quantity and report.html."""
import base64
import csv
import io
import json
import math
import os
from dataclasses import asdict

import numpy as np

from .workspace_linear import LinearizedPose

__all__ = ["columns", "summary_of", "map_figures", "write_outputs"]

UNITS = {"x": "m", "y": "m", "z": "m", "rx": "rad", "ry": "rad", "rz": "rad"}
DEFINITIONS = {
    "jacobian": "J = ∂(actuator coordinates)/∂(task coordinates), rotations as the rotation vector; homogenized "
                "J_h = J diag(1, …, 1/L) on the rotational columns (L the characteristic length)",
    "distance_to_singularity": "1/κ(J_h) = σ_min/σ_max (0 at a singularity of either kind), and σ_min of J_h",
    "envelope": "largest |effort| of each actuator at rest over task accelerations in the ellipsoid "
                "Σ(a_t/ā)² + Σ(a_r/ᾱ)² ≤ 1: |u_static| + ‖A_i diag(ā, ᾱ)‖₂ (rigid inverse dynamics, gravity and "
                "payload included)",
    "stiffness": "platform compliance C_x under unit wrenches about the platform origin from the saddle-point "
                 "solve [[K_t, Φ_qᵀ], [Φ_q, 0]]; translational stiffness 1/λ_max(C_x[:3, :3]) (pure force), "
                 "rotational 1/λ_max(C_x[3:, 3:]) (pure moment)",
    "frequencies": "K_t x = ω² M x on Φ_q x = 0 (femdyn.solvers.eigen.eigenmodes), f = ω/2π",
}


def _actuator_units(robot):
    """N·m or N per actuator (revolute or prismatic)."""
    d = robot.description
    return ["N·m" if d.limbs[i].joints[j].kind == "R" else "N" for i, j in d.actuated]


def _actuator_names(robot):
    """A label per actuator: its limb's name."""
    d = robot.description
    return [f"{d.limbs[i].name}" for i, j in d.actuated]


def columns(result):
    """Header (names with units) and values (N, k) of workspace.csv: one row per pose.

    Parameters
    ----------
    result : dict
        From :func:`femdyn.studies.workspace.workspace_map`.

    Returns
    -------
    header : list of str
    table : list of ndarray
        One array (N,) per column.
    """
    robot, grid = result["robot"], result["slice"]
    task = robot.description.task
    header = [f"{c} [{UNITS[c]}]" for c in task]
    table = [grid.poses[:, k] for k in range(len(task))]
    header += ["reachable [-]", "condition [-]", "inverse_condition [-]", "sigma_min [act/task]"]
    table += [result["reachable"].astype(float), result["condition"], 1.0 / result["condition"], result["sigma_min"]]
    units, names = _actuator_units(robot), _actuator_names(robot)
    for key in ("static", "envelope"):
        header += [f"{key} {n} [{u}]" for n, u in zip(names, units)]
        table += list(result[key].T)
    header += ["static_max [abs]", "envelope_max [abs]"]
    table += [np.max(np.abs(result["static"]), axis=1), np.max(result["envelope"], axis=1)]
    header += ["translational_stiffness [N/m]", "rotational_stiffness [N·m/rad]"]
    table += list(_stiffnesses(result["compliance"]).T)
    header += [f"frequency_{k + 1} [Hz]" for k in range(result["frequencies"].shape[1])]
    table += list(result["frequencies"].T)
    return header, table


def _stiffnesses(compliance):
    """(N, 2) translational (N/m) and rotational (N·m/rad) stiffness from compliances (N, 6, 6), NaN kept."""
    out = np.full((len(compliance), 2), np.nan)
    for k, C in enumerate(compliance):
        if np.all(np.isfinite(C)):
            pose = LinearizedPose(C, None)
            out[k] = pose.translational, pose.rotational
    return out


def _range(values):
    """(min, max) of the finite values, or (None, None)."""
    v = np.asarray(values, float)
    v = v[np.isfinite(v)]
    return (float(v.min()), float(v.max())) if v.size else (None, None)


def summary_of(result, config):
    """The study's numbers: counts, ranges of every quantity, the definitions and the run times.

    Parameters
    ----------
    result : dict
        From :func:`femdyn.studies.workspace.workspace_map`.
    config : WorkspaceConfig

    Returns
    -------
    dict
    """
    robot, grid = result["robot"], result["slice"]
    ok = result["reachable"]
    stiff = _stiffnesses(result["compliance"])
    units = sorted(set(_actuator_units(robot)))
    summary = {
        "robot": robot.description.name, "slice": _slice_text(grid), "axes": list(grid.axes), "n": len(grid.values[0]),
        "poses": int(len(ok)), "reachable": int(ok.sum()), "reachable_fraction": float(ok.mean()),
        "characteristic_length_m": result["length"], "payload_kg": robot.description.platform.payload,
        "condition_min": _range(result["condition"])[0], "condition_max": _range(result["condition"])[1],
        "inverse_condition_min": _range(1.0 / result["condition"])[0],
        "static_max": _range(np.abs(result["static"]))[1], "envelope_max": _range(result["envelope"])[1],
        "effort_unit": "/".join(units),
        "translational_stiffness_min_N_per_m": _range(stiff[:, 0])[0],
        "translational_stiffness_max_N_per_m": _range(stiff[:, 0])[1],
        "rotational_stiffness_min_Nm_per_rad": _range(stiff[:, 1])[0],
        "rotational_stiffness_max_Nm_per_rad": _range(stiff[:, 1])[1],
        "first_frequency_min_Hz": _range(result["frequencies"][:, :1])[0],
        "first_frequency_max_Hz": _range(result["frequencies"][:, :1])[1],
        "failed_poses": int(sum(1 for e in result["errors"] if e)),
        "actuators": "locked" if math.isinf(config.actuator_stiffness) else f"springs of {config.actuator_stiffness:g}",
        "linearized_about": "static equilibrium under gravity" if config.gravity else "undeformed pose, gravity off",
        "time_s": round(sum(result["times"].values()), 3), "definitions": DEFINITIONS,
    }
    blank = [label.split(" [")[0] for _, label, values in _unmapped(result, config)]
    if blank and ok.any():
        summary["not_mapped"] = (f"{', '.join(blank)}: no finite value at any reachable pose (a robot without "
                                 "flexible links whose actuators are locked is infinitely stiff and has no modes: "
                                 "set actuator_stiffness or give it flexible links)")
    return summary


def _unmapped(result, config):
    """(stem, label, values) of the quantities with no finite value at any pose: no map is drawn for them."""
    return [(stem, label, values) for stem, label, values, _ in _quantities(result, config)
            if stem != "reachable" and not np.isfinite(values).any()]


def _slice_text(grid):
    """'x–y at z = −0.7 m' (the fixed coordinates with units)."""
    fixed = ", ".join(f"{c} = {v:.4g} {UNITS[c]}" for c, v in grid.fixed.items())
    return f"{grid.axes[0]}–{grid.axes[1]}" + (f" at {fixed}" if fixed else "")


def _quantities(result, config):
    """(file stem, label with unit, values (N,), log colour scale) of every map."""
    stiff = _stiffnesses(result["compliance"])
    ok = result["reachable"]
    units = "/".join(sorted(set(_actuator_units(result["robot"]))))
    out = [("reachable", "reachable poses [-]", np.where(ok, 1.0, np.nan), False),
           ("condition", "condition number of J_h [-]", result["condition"], True),
           ("inverse_condition", "distance to singularity 1/κ(J_h) [-]", 1.0 / result["condition"], False),
           ("static_effort", f"largest static |effort| with the payload [{units}]",
            np.max(np.abs(result["static"]), axis=1), False),
           ("effort_envelope", f"effort envelope, largest actuator [{units}]", np.max(result["envelope"], axis=1),
            False)]
    if config.linear:
        out += [("translational_stiffness", "smallest translational stiffness [N/m]", stiff[:, 0], True),
                ("rotational_stiffness", "smallest rotational stiffness [N·m/rad]", stiff[:, 1], True),
                ("first_frequency", "first natural frequency [Hz]", result["frequencies"][:, 0], False)]
    return out


def map_figures(result, config):
    """One matplotlib figure per quantity: a pcolormesh over the slice, colour bar, unreachable poses blank.

    Parameters
    ----------
    result : dict
        From :func:`femdyn.studies.workspace.workspace_map`.
    config : WorkspaceConfig

    Returns
    -------
    dict
        File stem → Figure; none for a quantity without a finite value (the summary's ``not_mapped`` says why).
    """
    from matplotlib.colors import ListedColormap, LogNorm
    from matplotlib.figure import Figure
    grid, d = result["slice"], result["robot"].description
    a, b = grid.values
    figures, blank = {}, {stem for stem, *_ in _unmapped(result, config)}
    for stem, label, values, log in _quantities(result, config):
        if stem in blank:                          # an empty map with a meaningless colour bar says nothing
            continue
        V = np.where(np.isfinite(values), values, np.nan).reshape(len(a), len(b)).T
        fig = Figure(figsize=(6.4, 5.2), layout="constrained")
        ax = fig.add_subplot()
        finite = V[np.isfinite(V)]
        wide = finite.size and finite.min() > 0 and finite.max() > 10 * finite.min()
        if stem == "reachable":
            style = {"cmap": ListedColormap(["tab:green"]), "vmin": 0.5, "vmax": 1.5}
        else:
            style = {"cmap": "viridis", "norm": LogNorm(finite.min(), finite.max()) if log and wide else None}
        mesh = ax.pcolormesh(a, b, np.ma.masked_invalid(V), shading="nearest", **style)
        bar = fig.colorbar(mesh, ax=ax, label=label)
        if stem == "reachable":
            bar.set_ticks([1.0], labels=["reachable\n(blank: not)"])
        ax.set_xlabel(f"{grid.axes[0]} [{UNITS[grid.axes[0]]}]")
        ax.set_ylabel(f"{grid.axes[1]} [{UNITS[grid.axes[1]]}]")
        ax.set_aspect("equal" if UNITS[grid.axes[0]] == UNITS[grid.axes[1]] else "auto")
        ax.set_title(f"{d.title or d.name}: {label.split(' [')[0]}\nslice {_slice_text(grid)}", fontsize=10)
        figures[stem] = fig
    return figures


def _plain(value):
    """JSON for NumPy numbers and non-finite floats (as strings)."""
    if isinstance(value, np.generic):
        value = value.item()
    return value if not isinstance(value, float) or math.isfinite(value) else str(value)


def _json_ready(value):
    """Nested data with every number JSON can hold (inf, NaN as strings)."""
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_ready(v) for v in value]
    return _plain(value)


def write_outputs(folder, result, config, summary):
    """Write workspace.csv (floats in full), summary.json, ``<quantity>.png`` per map and report.html.

    Parameters
    ----------
    folder : str
    result : dict
        From :func:`femdyn.studies.workspace.workspace_map`.
    config : WorkspaceConfig
    summary : dict
        From :func:`summary_of`.

    Returns
    -------
    list of str
        The files written.
    """
    os.makedirs(folder, exist_ok=True)
    header, table = columns(result)
    with open(os.path.join(folder, "workspace.csv"), "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header + ["error"])
        for k in range(len(table[0])):
            writer.writerow([repr(float(c[k])) for c in table] + [result["errors"][k]])
    with open(os.path.join(folder, "summary.json"), "w") as f:
        json.dump(_json_ready(summary), f, indent=1)
    images = {}
    for stem, fig in map_figures(result, config).items():      # each figure drawn once: file and report
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=100)
        images[stem] = buf.getvalue()
        with open(os.path.join(folder, f"{stem}.png"), "wb") as f:
            f.write(images[stem])
    files = ["workspace.csv", "summary.json"] + [f"{s}.png" for s in images] + ["report.html"]
    _write_report(os.path.join(folder, "report.html"), summary, config, images, files)
    return files


def _write_report(path, summary, config, images, files):
    """report.html on the report templates' base page and macros (PNG ``images`` embedded)."""
    from femdyn.reports.pages import render_page
    numbers = [(k, _text(v)) for k, v in summary.items() if k != "definitions"]
    lead = (f"{summary['reachable']} of {summary['poses']} poses reachable on the slice {summary['slice']}; "
            f"actuators {summary['actuators']}, linearized about the {summary['linearized_about']}.")
    render_page(
        "workspace.html", path, title=f"Workspace of the robot '{summary['robot']}'", lead=lead, summary=numbers,
        definitions=list(summary["definitions"].items()),
        figures=[{"uri": "data:image/png;base64," + base64.b64encode(data).decode("ascii"), "alt": stem,
                  "caption": stem.replace("_", " ")} for stem, data in images.items()],
        settings=[(k, _text(v)) for k, v in asdict(config).items()], files=files)


def _text(value):
    """A value as text: numbers in 6 significant digits."""
    return f"{value:.6g}" if isinstance(value, float) else str(value)
