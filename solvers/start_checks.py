"""The checks :func:`~femdyn.solvers.generalized_alpha.integrate` runs on its initial state, in one place.

Before the first step the integrator asks whether its settings suit the model at the initial
state: the formulation and ρ∞ (the index-3 form is weakly unstable above ρ∞ = 0.95 and takes
servo rows, the stabilized one does not), fast spin against the index-3 multiplier mode
(:mod:`.spin`), the step against the shortest period (:mod:`.step_size`) and against the fast
unstable zeros of a servo inverse (:mod:`.causal_step`). Details: docs/input-checks.md.
"""
from dataclasses import replace

from femdyn.errors import SolverError

from .causal_step import check_servo_step
from .spin import check_spin
from .step_size import check_step_size

__all__ = ["FORMULATIONS", "check_start"]

FORMULATIONS = ("index3", "stabilized")
INDEX3_RHO = 0.95            # largest ρ∞ of the index-3 form (its multiplier mode is weakly unstable above)


def check_start(system, q, v, lam, h, options, t=0.0, kkt=None):
    """Check the integrator's settings against the initial state; the options to run with, and the servo note.

    Parameters
    ----------
    system : femdyn.model.system.System
    q, v : ndarray (n,)
        Consistent initial coordinates and velocities.
    lam : ndarray (m,)
        Initial multipliers (actuator inputs in the servo rows).
    h : float
        Time step, s.
    options : femdyn.solvers.generalized_alpha.Options
    t : float, optional
        Initial time, s.
    kkt : femdyn.solvers.kkt.KKTMatrix, optional
        The run's saddle matrix, reused by the step-size check.

    Returns
    -------
    options : Options
        ``options`` with the formulation the spin check chose (index 3 may switch to stabilized).
    servo_note : str
        The warning given about a step that amplifies an unstable servo zero, "" when none.

    Raises
    ------
    SolverError
        ρ∞ > 0.95 with the index-3 form, servo rows with the stabilized form, an unknown
        formulation, or fast spin with ``spin_check="refuse"``.

    Examples
    --------
    >>> import numpy as np
    >>> import femdyn
    >>> from femdyn.solvers import Options
    >>> m = femdyn.Model("pendulum")
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    >>> s = m.assemble()
    >>> checked, note = check_start(s, s.q0, s.v0, np.zeros(s.m), 1e-3, Options())
    >>> checked.formulation, note
    ('index3', '')
    """
    o = options
    if o.formulation not in FORMULATIONS:
        raise SolverError(f"generalized-α: unknown formulation '{o.formulation}'; choose one of {list(FORMULATIONS)}")
    if o.formulation == "index3" and o.rho_inf > INDEX3_RHO:
        raise SolverError(f"generalized-α: ρ∞ = {o.rho_inf} is (weakly) unstable for the index-3 form; "
                          "use ρ∞ ≤ 0.95 or Options(formulation='stabilized')")
    if o.formulation == "stabilized" and system.servo:
        raise SolverError("generalized-α: the stabilized formulation does not take servo constraints and "
                          "actuators; use formulation='index3' (ρ∞ ≤ 0.95) for inverse dynamics")
    if o.formulation == "index3" and getattr(o, "tolerance", None) is None:   # with a tolerance the step follows the spin
        o = replace(o, formulation=check_spin(system, q, v, h, o.rho_inf, o.spin_check, t, o.step_check))
    check_step_size(system, q, lam, h, o.rho_inf, t, o.step_check, kkt)
    return o, check_servo_step(system, q, lam, h, o.rho_inf, t, o.step_check)
