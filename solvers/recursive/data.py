"""Workspace of the recursive algorithms: every array they write, allocated once per model.

Separating the immutable :class:`~.model.TreeModel` from this mutable workspace follows
Pinocchio's Model/Data split (Carpentier et al. 2019): one model can serve several
threads or simulations, each with its own ``Data``. After a call, the arrays hold the
intermediate quantities of the last algorithm run (body-i coordinates, SI units):
``Xup`` parent-to-body transforms, ``R_world``/``p_world`` body poses (rotation, m),
``vel`` spatial velocities, ``acc`` spatial accelerations offset by −g (RBDA ch. 5),
``bias`` velocity-product accelerations c_i, ``force`` the spatial force (N·m, N) that
each joint transmits from parent to body, ``IA``/``pA`` articulated inertias and bias forces.
``sizes`` = (n, nq, nv) of the model it was built for: every algorithm compares it with
its model's before touching the arrays (a workspace of the wrong size would make the
compiled sweeps write out of bounds).
"""
import numpy as np

from femdyn.errors import ModelError


class Data:
    """Preallocated workspace of the recursive algorithms for one :class:`~.model.TreeModel`.

    After a call the arrays hold the intermediate quantities of the last algorithm run (see
    the module docstring); one model may serve several workspaces (threads, simulations).

    Parameters
    ----------
    model : TreeModel
        The model whose sizes the arrays take.

    Raises
    ------
    ModelError
        If ``model`` is not a TreeModel.

    Examples
    --------
    >>> from femdyn.solvers.recursive import Body, Joint, TreeModel
    >>> rod = Body("rod", "world", Joint(), mass=1.0, inertia=(1, 1, 1, 0, 0, 0))
    >>> Data(TreeModel([rod])).M.shape
    (1, 1)
    """

    def __init__(self, model):
        if not hasattr(model, "sizes"):
            raise ModelError(f"Data needs a TreeModel, got {type(model).__name__}")
        self.sizes = model.sizes
        n, nv = model.n, model.nv
        self.Xup = np.zeros((n, 6, 6))
        self.R_world = np.zeros((n, 3, 3))
        self.p_world = np.zeros((n, 3))
        self.vel = np.zeros((n, 6))
        self.acc = np.zeros((n, 6))
        self.bias = np.zeros((n, 6))
        self.force = np.zeros((n, 6))
        self.IA = np.zeros((n, 6, 6))
        self.pA = np.zeros((n, 6))
        self.U = np.zeros((n, 6, 6))
        self.Dinv = np.zeros((n, 6, 6))
        self.u = np.zeros((n, 6))
        self.tmp6 = np.zeros((6, 6))
        self.Ia = np.zeros((6, 6))
        self.F = np.zeros((6, 6))
        self.Ic = np.zeros((n, 6, 6))
        self.M = np.zeros((nv, nv))
        self.qdd = np.zeros(nv)
        self.tau = np.zeros(nv)
        self.no_force = np.zeros((n, 6))
        self.none_prescribed = np.zeros(n, np.bool_)
        self.a0 = np.zeros(6)


def check_workspace(model, data):
    """Raise unless a workspace was built for a model of this model's sizes."""
    if getattr(data, "sizes", None) != model.sizes:
        got = getattr(data, "sizes", type(data).__name__)
        raise ModelError(f"Data built for a model of (bodies, nq, nv) = {got} used with one of {model.sizes}; "
                         "make one Data(model) per model")
