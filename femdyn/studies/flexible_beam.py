"""A flexible beam on a hub modelled two ways in one run: the ANCF beam and the floating-frame body of its
Craig–Bampton component (:mod:`femdyn.solvers.beam_component`), clamped to the hub at the origin.

With the hub angle prescribed it is the spin-up manoeuvre of Simo & Vu-Quoc (1986, J. Appl. Mech.
53:855–863) and Kane, Ryan & Banerjee (1987, J. Guid. Control Dyn. 10:139–151): L = 10 m,
ρA = 1.2 kg/m, EA = 2.8e7 N, EI = 1.4e4 N m², θ(t) = (ω_s/T_s)[t²/2 + (T_s/2π)²(cos(2πt/T_s) − 1)]
for t ≤ T_s, ω_s(t − T_s/2) after. The linear modal body has no geometric stiffening: above the
first cantilever frequency (3.8 rad/s) its deflection grows while the ANCF beam stays bounded.
``femdyn study spin_up [config.toml]`` runs :func:`run_spin_up` (:class:`SpinUpConfig`).
"""
import json
import os
from dataclasses import dataclass, field, replace

import numpy as np

from ..component import cached_components
from ..elements import sections
from ..errors import ModelError
from ..motion.timefunctions import TimeFunction
from .record import Study

# Simo & Vu-Quoc's beam as a square ANCF section with EA = 2.8e7 N, EI = 1.4e4 N m², ρA = 1.2 kg/m
SPIN_LENGTH, SPIN_WIDTH = 10.0, np.sqrt(12 * 1.4e4 / 2.8e7)
SPIN_SECTION = sections.rectangular(SPIN_WIDTH, SPIN_WIDTH)
SPIN_E, SPIN_RHO = 2.8e7 / SPIN_WIDTH ** 2, 1.2 / SPIN_WIDTH ** 2


class SpinUp(TimeFunction):
    """Hub angle (rad) of the spin-up manoeuvre: smooth acceleration from rest to the rate
    ω_s (rad/s) over T_s (s), then constant rate (Simo & Vu-Quoc 1986, eq. 6.1)."""

    def __init__(self, rate, duration):
        self.w, self.T = float(rate), float(duration)

    def value(self, t):
        if t >= self.T:
            return self.w * (t - self.T / 2)
        k = self.T / (2 * np.pi)
        return self.w / self.T * (t * t / 2 + k * k * (np.cos(t / k) - 1))

    def d1(self, t):
        if t >= self.T:
            return self.w
        k = self.T / (2 * np.pi)
        return self.w / self.T * (t - k * np.sin(t / k))

    def d2(self, t):
        return 0.0 if t >= self.T else self.w / self.T * (1 - np.cos(2 * np.pi * t / self.T))


@cached_components(maxsize=None)
def beam_component(length, n_elements, E, rho, section, frame="mean"):
    """The Craig–Bampton component of the ANCF beam (all modes; built once per beam and frame, each
    call gets its own copy), e.g. ``beam_component(10.0, 8, SPIN_E, SPIN_RHO, SPIN_SECTION)``."""
    from ..solvers.beam_component import ancf_beam_component
    return ancf_beam_component(length, E, rho, section, n_elements, frame=frame)


def hub_with_beam(link, length, n_elements, E, rho, section, axis=(0, 1, 0), gravity=(0, 0, -9.81), angle=None,
                  modes=None, frame="mean"):
    """The hub (10 g; point O at the origin and its three axes ``hub.x``, ``hub.y``, ``hub.z``)
    on a revolute joint about ``axis`` carrying a straight beam along x."""
    from ..model.builder import Model
    m = Model(f"hub with {link} beam", gravity=gravity)
    O = m.point("O", (0, 0, 0))
    hub = m.rigid_body("hub", [O], [m.vector(f"hub.{c}", e) for c, e in zip("xyz", np.eye(3))], mass=0.01,
                       inertia=1e-6 * np.eye(3))
    hinge = m.revolute("hinge", m.ground, hub, (0, 0, 0), axis)
    if angle is not None:
        m.drive_angle("spin", hinge, angle)
    if link == "ancf":
        m.straight_beam("beam", (0, 0, 0), (length, 0, 0), n_elements, E, rho, section, element="beam",
                        y_axis=(0, 1, 0))
        m.clamp("root", "beam.0", hub)
        m.sensor_point("tip", m.node(f"beam.{n_elements}"), (length, 0, 0))
    else:
        body = m.flexible_body("beam", beam_component(length, n_elements, E, rho, section, frame), modes=modes)
        m.weld("root", hub, body.interface("x0"), (0, 0, 0))
        m.sensor_point("tip", body, (length, 0, 0))
    return m


def tip_deflection(results, system, axis):
    """Tip position along one of the hub's axes, (r_tip − O)·e, O the hub pivot at the
    global origin: the deflection relative to the rigid hub frame for the axes across the
    beam, e.g. ``tip_deflection(results, system, 1)`` in the plane of a spin about z."""
    tip = np.column_stack([results["tip.x"], results["tip.y"], results["tip.z"]])
    e = results.q[:, system.nodes[f"hub.{'xyz'[axis]}"].dofs]
    return np.einsum("ti,ti->t", tip, e)


def spin_up(link, rate, duration=15.0, t_end=15.0, h=0.01, n_elements=8, modes=None, frame="mean", progress=False,
            tolerance=None):
    """Run the spin-up of Simo & Vu-Quoc's beam about the vertical hub axis z (``tolerance``: error-controlled, h the
    largest step)."""
    from ..errors import SolverError
    from ..solvers.generalized_alpha import Options, integrate
    m = hub_with_beam(link, SPIN_LENGTH, n_elements, SPIN_E, SPIN_RHO, SPIN_SECTION, axis=(0, 0, 1),
                      gravity=(0, 0, 0), angle=SpinUp(rate, duration), modes=modes, frame=frame)
    s = m.assemble()
    try:
        r = integrate(s, t_end, h, Options(rho_inf=0.6, tolerance=tolerance or None), progress=progress)
    except SolverError as err:
        if err.results is None:
            raise
        r = err.results
    return r.t, tip_deflection(r, s, 1), r.status


@dataclass
class SpinUpConfig:
    """Settings of ``femdyn study spin_up`` (a TOML file sets any): the beam ``link`` ("ancf" or
    "ffr"), ω_s ``rate`` [rad/s] and T_s ``duration`` [s] of :class:`SpinUp`, ``t_end`` and ``h``
    [s], ``n_elements``, ``modes`` of the floating-frame body (0: all) and its ``frame`` ("mean"
    or "x0"), ``tolerance`` of the error-controlled step (0: the fixed step h; else h is the largest
    step, docs/time-step.md)."""

    link: str = "ancf"
    rate: float = 4.0
    duration: float = 15.0
    t_end: float = 15.0
    h: float = 0.01
    n_elements: int = 8
    modes: int = 0
    frame: str = "mean"
    tolerance: float = field(default=0.0, metadata={"schema": {"at_least": 0.0}})


def run_spin_up(config, output=None, progress=False):
    """Run :func:`spin_up` with a :class:`SpinUpConfig`; write ``tip.csv`` (t [s], in-plane tip
    deflection [m]) and ``summary.json`` into ``output`` (if given); return ``summary``, ``t``
    and ``deflection``."""
    for key, allowed in (("link", ("ancf", "ffr")), ("frame", ("mean", "x0"))):
        if getattr(config, key) not in allowed:
            raise ModelError(f"spin-up study: {key} must be one of {allowed}, got {getattr(config, key)!r}")
    t, deflection, status = spin_up(config.link, config.rate, config.duration, config.t_end, config.h,
                                    config.n_elements, config.modes or None, config.frame, progress,
                                    config.tolerance)
    summary = {"link": config.link, "rate": config.rate, "status": status, "t_reached": float(t[-1]),
               "tip_deflection_max": float(np.abs(deflection).max())}
    if output:
        os.makedirs(output, exist_ok=True)
        np.savetxt(os.path.join(output, "tip.csv"), np.column_stack([t, deflection]), delimiter=",",
                   header="t,deflection", comments="")
        with open(os.path.join(output, "summary.json"), "w", encoding="utf-8") as f:
            json.dump(summary, f, indent=1)
    return {"summary": summary, "t": t, "deflection": deflection}


def _add_options(parser):
    """``--tolerance`` of the spin-up study."""
    parser.add_argument("--tolerance", type=float, default=None,
                        help="error-controlled step: the relative local error per step (h becomes the largest step; "
                             "docs/time-step.md)")


def _apply_options(config, args):
    """The configuration with ``--tolerance`` applied (ModelError unless it lies in (0, 1))."""
    if args.tolerance is None:
        return config
    if not 0 < args.tolerance < 1:
        raise ModelError(f"--tolerance must lie in (0, 1), got {args.tolerance}")
    return replace(config, tolerance=args.tolerance)


STUDY = Study("spin_up", "a 10 m beam spun up on a hub (Simo & Vu-Quoc 1986): the ANCF beam or its "
                         "floating-frame body (link = 'ffr')", SpinUpConfig, run_spin_up,
              add_options=_add_options, apply_options=_apply_options)
