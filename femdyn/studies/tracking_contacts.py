"""Joint clearance in the tracking experiment (:mod:`.parallel_tracking`), for any joint of any robot: which
joints, the step the contacts need, the seated start and the impacts of a run."""
import math

import numpy as np


def clearance_joints(tracking):
    """The names of the joints given clearance (none when ``clearance`` is 0)."""
    return [n.strip() for n in tracking.joints.split(",") if n.strip()] if tracking.clearance > 0 else []


def time_step(tracking):
    """The closed-loop runs' step: (h in s, steps per controller period); ``h``, or with clearance
    period/k ≤ ``clearance_h``."""
    if not clearance_joints(tracking):
        return tracking.h, max(1, round(tracking.period / tracking.h))
    k = max(1, math.ceil(tracking.period / tracking.clearance_h - 1e-9))
    return tracking.period / k, k


def seated(ideal, loose, names, q):
    """The static equilibrium with clearance, each journal seated on its loaded side.

    A centred journal has no stiffness in its joint plane: statics cannot start there. The ideal joint's
    reaction F on the journal (a revolute's: less its axial part, u from the clearance joint's axial row)
    gives the seat d = −(c + (‖F‖/K)^(1/n)) F/‖F‖ (the Hertz penetration balancing ‖F‖); statics of the
    ideal robot with the journal held at d (:meth:`~femdyn.model.Model.offset_joint`) places the mechanism,
    statics with clearance corrects the rest.

    Parameters
    ----------
    ideal, loose : System
        The assembled model with ideal joints, and with clearance in ``names`` (both with the actuators held).
    names : list of str
        The clearance joints.
    q : ndarray
        The ideal model's static equilibrium.

    Returns
    -------
    ndarray
        The static equilibrium of ``loose``.
    """
    from ..solvers.static import static_equilibrium
    q, lam = static_equilibrium(ideal, q0=q, max_correction=0.02)
    mu = ideal.reaction_multipliers(q, lam)
    jacobian = loose.all_constraints.jacobian(q, 0.0)
    model = ideal.model
    for name in names:
        joint = loose.joints[name]
        force = np.asarray(ideal.joints[name].reaction(mu[ideal.equation_rows[name]])[1][:3], float)
        rows = loose.equation_rows.get(name, [])
        if len(rows):                         # a revolute: the journal moves in the plane normal to its axis
            axial = jacobian[rows[0]][:, joint.dofs].toarray().ravel()
            u = np.linalg.lstsq(joint.D.T, axial, rcond=None)[0]
            u /= np.linalg.norm(u)
            force = force - (force @ u) * u
        load = np.linalg.norm(force)
        model.offset_joint(name, -(joint.c + (load / joint.K) ** (1.0 / joint.p)) * force / load)
    q, _ = static_equilibrium(model.assemble(), q0=q, max_correction=0.02)
    return static_equilibrium(loose, q0=q, max_correction=0.02)[0]


def impacts(results, tracking):
    """Per clearance joint: impacts, bounces, the shortest bounce (steps), largest force (N) and eccentricity
    (m), and a verdict on whether the step resolved the impacts."""
    h = time_step(tracking)[0]
    out = {}
    for name in clearance_joints(tracking):
        contact = np.concatenate([[False], results[f"{name}.penetration"] > 0, [False]]).astype(int)
        starts, ends = np.flatnonzero(np.diff(contact) == 1), np.flatnonzero(np.diff(contact) == -1)
        hits = [(a, b) for a, b in zip(starts, ends) if a > 0]              # the seated start is no impact
        bounces = [b - a for a, b in hits if b < len(contact) - 2]
        shortest = min(bounces, default=0)
        verdict = ("no impacts (stays in contact)" if not hits else
                   f"resolved (shortest bounce {shortest} steps of {h:.3g} s)" if shortest >= tracking.contact_steps
                   else f"NOT resolved: shortest bounce {shortest} steps of {h:.3g} s (< {tracking.contact_steps}); "
                        f"give clearance_h ≤ {h * max(shortest, 1) / tracking.contact_steps:.2g} s")
        out[name] = {"impacts": len(hits), "bounces": len(bounces), "shortest bounce (steps)": int(shortest),
                     "force max (N)": float(results[f"{name}.force"].max()),
                     "eccentricity max (m)": float(results[f"{name}.eccentricity"].max()), "verdict": verdict}
    return out
