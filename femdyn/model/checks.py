"""Checks that make bad input fail loudly, once per model or solver call (reasons: docs/input-checks.md).

Non-finite numbers (NonFiniteError) at assembly and a solver's start; suspicious units
(UnitsWarning; thresholds are the module constants); alternatives to a joint on a cable node.
"""
import warnings

import numpy as np

from ..errors import NonFiniteError, UnitsWarning
from ..mesh.solid import MESH_LINK_SPAN, MESH_SOLID_DENSITY, mesh_unit_suspect  # noqa: F401 (the CLI's check)

STANDARD_GRAVITY = 9.81      # m/s²
GRAVITY_FACTOR = 50.0        # |g| outside [9.81/50, 9.81·50] (and not 0) warns: cm (×100), mm (×1000) or km units
DENSITY_RANGE = (10.0, 30000.0)         # kg/m³: aerogels and foams … osmium (22 590) with margin
MODULUS_RANGE = (1e5, 1.5e12)           # Pa: soft elastomers … diamond (1.2e12)
MIN_WAVE_SPEED = 8.0         # m/s: bar wave speed √(E/ρ); solids ≥ ~11 (soft rubber), metals in MPa give ~5
MAX_EXTENT = 1e3                         # m: a model larger than a kilometre is probably in mm
GYRATION_FACTOR = 10.0       # radius of gyration √(I_max/m) beyond 10 × the model's extent: kg·mm² inertia?


# --- non-finite numbers ------------------------------------------------------------
def _coordinate_name(system, index):
    """The owner of coordinate ``index`` of q, e.g. "node 'beam.3' rx[1] (q[17])"."""
    for node in system.nodes.values():
        local = index - node.start
        if 0 <= local < node.initial.size:
            return f"node '{node.name}' {node.slots[local // 3]}[{local % 3}] (q[{index}])"
    return f"q[{index}]"


def check_finite_state(system, what, **vectors):
    """Refuse an initial state with wrong sizes or NaN/infinite entries."""
    for name, x in vectors.items():
        if x is None:
            continue
        x = np.asarray(x, dtype=float)
        if x.shape != (system.n,):
            raise NonFiniteError(f"{what}: {name} must hold the model's {system.n} coordinates (one per entry of "
                                 f"System.labels), got shape {x.shape}")
        bad = np.flatnonzero(~np.isfinite(x))
        if bad.size:
            listed = ", ".join(f"{_coordinate_name(system, i)} is {x[i]}" for i in bad[:5])
            raise NonFiniteError(f"{what}: {name} has {bad.size} non-finite entr{'y' if bad.size == 1 else 'ies'}: "
                                 f"{listed}{', …' if bad.size > 5 else ''}; give finite numbers (SI units) or "
                                 "check the computation that produced them")


def check_finite_parts(system):
    """Refuse the model if a part's mass, gravity, force, tangent or constraint value at (q0, v0, 0) is not finite."""
    q, v = system.q0, system.v0
    for part in system.parts[1:]:          # parts[0]: the gravity load the System built from model.gravity
        values = part.mass_values(q) if not part.constant_mass else part.mass_coo()[2]
        pieces = [("mass", values), ("gravity load", part.gravity(system.gravity)[1]),
                  ("force at t = 0", part.force(q, v, 0.0))]
        if any(len(x) for x in part.tangent_pattern()):
            pieces += list(zip(("stiffness", "damping"), part.tangent_values(q, v, 0.0)))
        for label, x in pieces:
            if x is not None and not np.all(np.isfinite(x)):
                raise NonFiniteError(f"part '{part.name}': its {label} is not finite (NaN or infinite); check its "
                                     "input numbers (masses, E, ρ, section, loads and their time functions)")
    if system.m:
        phi, jac = system.constraints.evaluate(q, 0.0)
        bad = np.flatnonzero(~np.isfinite(phi))
        if bad.size:
            raise NonFiniteError(f"constraint '{system.constraints.labels[bad[0]]}' is not finite at t = 0 "
                                 f"({bad.size} rows in all); check its joint's geometry (points, axes, angle "
                                 "offsets, distances) and drive functions")


# --- units ---------------------------------------------------------------------------
MODULUS_HINT = "give it in Pa (steel 2.1e11; N/mm² = MPa values are 1e6 times smaller)"


def _warn(message):
    """A UnitsWarning at the caller's caller."""
    warnings.warn(message, UnitsWarning, stacklevel=4)


def _check_range(what, value, bounds, unit, hint):
    """UnitsWarning naming the first (scalar or per-element) value outside [low, high]."""
    value = np.ravel(np.asarray(value, dtype=float))
    out = value[(value < bounds[0]) | (value > bounds[1])]
    if out.size:
        _warn(f"{what} = {out[0]:.6g} {unit} lies outside [{bounds[0]:g}, {bounds[1]:g}] {unit}, the range of "
              f"engineering materials; {hint} (silence: warnings.filterwarnings('ignore', "
              "category=femdyn.UnitsWarning))")


def check_density(what, rho):
    """UnitsWarning for a density (kg/m³) outside :data:`DENSITY_RANGE`."""
    _check_range(f"{what}: density", rho, DENSITY_RANGE, "kg/m³", "give it in kg/m³ (steel 7850, aluminium 2700; "
                "g/cm³ values are 1000 times smaller, g/mm³ or t/mm³ values far smaller)")


def check_gravity(what, gravity):
    """UnitsWarning when ‖g‖ is neither 0 nor within a factor :data:`GRAVITY_FACTOR` of 9.81 m/s²."""
    g = float(np.linalg.norm(gravity))
    if g > 0 and not STANDARD_GRAVITY / GRAVITY_FACTOR <= g <= STANDARD_GRAVITY * GRAVITY_FACTOR:
        _warn(f"{what}: gravity magnitude {g:.6g} m/s² is far from {STANDARD_GRAVITY} m/s²; femdyn works in m, kg, "
              "s: give lengths in m and gravity as (0, 0, -9.81) (9810 is g in mm/s²)")


def check_units(system):
    """UnitsWarnings for values that look like non-SI units (see the module constants)."""
    check_gravity(f"model '{system.name}'", system.gravity)
    positions = np.array([node.initial[:3] for node in system.nodes.values()])
    extent = float(np.ptp(positions, axis=0).max()) if len(positions) else 0.0
    if extent > MAX_EXTENT:
        _warn(f"model '{system.name}': its nodes span {extent:.6g} m (> {MAX_EXTENT:g} m); lengths in mm? "
              "femdyn takes lengths in m")
    for element_set in system.elements:
        _check_material(element_set)
    for body in system.bodies.values():
        _check_gyration(body, extent)


def _check_material(element_set):
    """UnitsWarnings for an element set's density, Young's modulus and bar wave speed √(E/ρ)."""
    what = f"ANCF beam '{element_set.name}'"
    E, rho = getattr(element_set.kernel, "E", None), getattr(element_set.kernel, "rho", None)
    if rho is not None:
        check_density(what, rho)
    if E is None:
        return
    _check_range(f"{what}: Young's modulus E", E, MODULUS_RANGE, "Pa", MODULUS_HINT)
    if rho is None:
        return
    speed = np.ravel(np.sqrt(np.maximum(E, 0.0) / rho))
    if np.any(speed < MIN_WAVE_SPEED):
        k = int(np.argmin(speed))
        _warn(f"{what}: E = {np.ravel(E)[k]:.6g} Pa with ρ = {np.ravel(rho)[k]:.6g} kg/m³ gives a bar wave speed "
              f"√(E/ρ) = {speed[k]:.3g} m/s, slower than in any solid (≥ {MIN_WAVE_SPEED:g} m/s); {MODULUS_HINT}")


def _check_gyration(body, extent):
    """UnitsWarning when √(I_max/m) exceeds :data:`GYRATION_FACTOR` times the model's extent."""
    inertia, mass = getattr(body, "inertia", None), getattr(body, "mass", 0.0)
    if inertia is None or not mass > 0 or not extent > 0:
        return
    largest = max(float(np.linalg.eigvalsh(inertia).max()), 0.0)
    radius = np.sqrt(largest / mass)
    if radius > GYRATION_FACTOR * extent:
        _warn(f"body '{body.name}': inertia {largest:.6g} kg·m² with mass {mass:.6g} kg "
              f"is the inertia of a body {radius:.3g} m in radius, far larger than the model ({extent:.3g} m); "
              "give the inertia in kg·m² (kg·mm² values are 1e6 times larger)")


# --- joints at ANCF cable nodes ------------------------------------------------------------
def cable_alternative(body, instead):
    """What to use instead when a joint needs a direction a cable node lacks ("" if ``body`` is none)."""
    node = getattr(body, "node", None)
    if node is None or tuple(node.slots) != ("r", "rx"):
        return ""
    return (f"; ANCF cable node '{node.name}' carries only its tangent r_x and no rotation about it: {instead}; or "
            "build the link with element='beam' or 'beam3', whose nodes carry a full frame (r_y, r_z)")
