"""Strains, stresses and strain-gauge readings of the flexible bodies of a recursive run, from
their modal coordinates and their components' strain modes (ε = E η, docs/components.md)."""
import numpy as np

from femdyn.component import gauge_modes, stress_rows, stress_state
from femdyn.errors import ModelError


def _flexible(model, body):
    """The referenced, truncated component of flexible body ``body`` of ``model``."""
    component = model.components[model.index(body)]
    if component is None:
        raise ModelError(f"body '{body}' is rigid; strains and stresses are read on flexible bodies")
    return component


def body_stresses(model, trajectory, body, point):
    """Strains, principal and von Mises stresses at a point of a flexible body over a recursive run.

    Parameters
    ----------
    model : FlexibleTreeModel
    trajectory : FlexibleTrajectory
        The run (its ``state_q``).
    body : str
        A flexible body's name.
    point : int or (3,) array_like
        Stress-node index, or position (m, body frame: the component referenced to its inner interface)
        of a stress node, a gauge point or a point on a face of the stress nodes (interpolated).

    Returns
    -------
    ndarray (k, 10)
        Per sample the six strains (1), σ₁ ≥ σ₂ ≥ σ₃ and von Mises (Pa), columns
        :data:`femdyn.component.STRESS_COLUMNS`.

    Raises
    ------
    ModelError
        ``body`` is rigid; ComponentShapeError: ``point`` is neither a stress node, a gauge point nor on a face of
        the stress nodes.
    """
    component = _flexible(model, body)
    eta = np.atleast_2d(trajectory.state_q)[:, model.eta_slice(body)]
    return stress_state(component, eta @ stress_rows(component, point).T)


def body_gauges(model, trajectory, body):
    """Readings of the strain gauges stored in a flexible body's component over a recursive run.

    Parameters
    ----------
    model : FlexibleTreeModel
    trajectory : FlexibleTrajectory
    body : str
        A flexible body's name.

    Returns
    -------
    dict
        ``'<gauge>.strain'`` → (k,) strain (1, positive in tension), the channel names of the
        floating-frame gauge sensors.

    Raises
    ------
    ModelError
        ``body`` is rigid.
    """
    component = _flexible(model, body)
    names, rows = gauge_modes(component)
    eta = np.atleast_2d(trajectory.state_q)[:, model.eta_slice(body)]
    return {f"{name}.strain": eta @ row for name, row in zip(names, rows)}
