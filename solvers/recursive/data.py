"""Workspace of the recursive algorithms: every array they write, allocated once per model.

The Model/Data split of Pinocchio (Carpentier et al. 2019): one model can serve several
workspaces. After a call the arrays hold the last run's intermediate quantities in body
coordinates (``Xup``, ``R_world``/``p_world``, ``vel``, ``acc`` offset by −g, ``bias``,
``force``, ``IA``/``pA``); ``sizes`` = (n, nq, nv) is checked by every algorithm (in full
unless the workspace was built for that very model). The arrays are views of one buffer,
``packed`` (:mod:`.packing`), which the compiled entry points receive.
"""
import numpy as np

from femdyn.errors import ModelError

from .flexible import FlexibleTreeModel
from .model import TreeModel
from .packing import pack

DATA_FLOATS = ("Xup", "R_world", "p_world", "vel", "acc", "bias", "force", "IA", "pA", "U", "Dinv", "u", "tmp6", "Ia",
               "F", "Ic", "M", "qdd", "tau", "a0")               # packed in this order (kernels.workspace_views)


class Data:
    """Preallocated workspace of the recursive algorithms for one :class:`~.model.TreeModel`.

    Holds the last run's intermediate quantities; one model may serve several workspaces.

    Parameters
    ----------
    model : TreeModel
        The model whose sizes the arrays take.

    Raises
    ------
    ModelError
        If ``model`` is not a TreeModel.
    """

    def __init__(self, model):
        if not isinstance(model, (TreeModel, FlexibleTreeModel)):
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
        self.a0[3:] = -model.gravity
        self.packed = pack(self, DATA_FLOATS)[::2]
        self.ready_for = model

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.packed = pack(self, DATA_FLOATS)[::2]      # a copy's arrays views of its own buffer again


def check_workspace(model, data):
    """Raise unless a workspace was built for a model of this model's sizes."""
    if getattr(data, "sizes", None) != model.sizes:
        got = getattr(data, "sizes", type(data).__name__)
        raise ModelError(f"Data built for a model of (bodies, nq, nv) = {got} used with one of {model.sizes}; "
                         "make one Data(model) per model")
