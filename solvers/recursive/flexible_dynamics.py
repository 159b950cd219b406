"""Recursive dynamics of trees of flexible bodies: the public functions over (model, data).

Inverse dynamics (Tian et al. 2010, eqs. 1–2), hybrid and forward dynamics (O(N) articulated
sweeps; RBDA ch. 9), the composite-inertia mass matrix, energy and momentum. Vectors follow
:class:`~.flexible.FlexibleTreeModel`: q = [joint q; η], v = [joint v; η̇]; docs/recursive-flexible.md.
"""
import numpy as np

from femdyn.errors import ModelError, SolverError

from . import modal_kernels as mk
from .arguments import as_vector, base_acceleration, check_quaternions, external_forces, joint_mask
from .flexible import FlexibleTreeModel
from .packing import pack

FLEXIBLE_DATA_FLOATS = ("Xup", "Phi", "R_world", "p_world", "vel", "acc", "force", "bias", "Mb", "bb", "IA", "pA", "U",
                        "Dinv", "H", "u", "a0")                  # packed in this order (modal_kernels.flexible_views)


class FlexibleData:
    """Preallocated workspace of one :class:`~.flexible.FlexibleTreeModel` (see :class:`~.data.Data`).

    Adds ``Phi`` (transfer operators), extended ``vel``/``acc`` [V; η̇], ``Mb``/``bb`` (body mass
    matrices and forces) and extended ``force`` F_i to the arrays of :class:`~.data.Data`.

    Parameters
    ----------
    model : FlexibleTreeModel

    Raises
    ------
    ModelError
        ``model`` is not a FlexibleTreeModel.
    """

    def __init__(self, model):
        if not isinstance(model, FlexibleTreeModel):
            raise ModelError(f"FlexibleData needs a FlexibleTreeModel, got {type(model).__name__}")
        self.sizes = model.sizes
        n, nv, M = model.n, model.nv, model.sizes[3]
        D = 6 + M
        self.Xup = np.zeros((n, 6, 6))
        self.Phi = np.zeros((n, 6, D))
        self.R_world = np.zeros((n, 3, 3))
        self.p_world = np.zeros((n, 3))
        self.vel, self.acc, self.force = np.zeros((n, D)), np.zeros((n, D)), np.zeros((n, D))
        self.bias = np.zeros((n, 6))
        self.Mb, self.bb = np.zeros((n, D, D)), np.zeros((n, D))
        self.IA, self.pA = np.zeros((n, D, D)), np.zeros((n, D))
        self.U, self.Dinv, self.H = np.zeros((n, D, D)), np.zeros((n, D, D)), np.zeros((n, D, D))
        self.u = np.zeros((n, D))
        self.free_index = np.zeros((n, D), np.int64)
        self.n_free = np.zeros(n, np.int64)
        self.Ic = np.zeros((n, D, D))
        self.M = np.zeros((nv, nv))
        self.no_force = np.zeros((n, 6))
        self.none_prescribed = np.zeros(n, np.bool_)
        self.a0 = np.zeros(6)
        self.packed = pack(self, FLEXIBLE_DATA_FLOATS, ("free_index", "n_free"))

    def __setstate__(self, state):
        self.__dict__.update(state)
        self.packed = pack(self, FLEXIBLE_DATA_FLOATS, ("free_index", "n_free"))   # a copy's views of its own buffer


def _check(model, data):
    """Raise when ``data`` was built for another model."""
    if getattr(data, "sizes", None) != model.sizes:
        raise ModelError(f"FlexibleData built for a model of sizes {getattr(data, 'sizes', None)} used with one of "
                         f"{model.sizes}; make one FlexibleData(model) per model")


def kinematics(model, data, q, v=None):
    """Body-frame poses (``data.R_world``, ``data.p_world``), extended velocities ``data.vel`` (v None: rest)."""
    _check(model, data)
    q = as_vector(q, model.nq, "q")
    v = np.zeros(model.nv) if v is None else as_vector(v, model.nv, "v")
    bad = mk.kinematics(model.parent, model.joint_type, model.axis, model.tree_E, model.tree_r, model.S,
                        model.q_index, model.v_index, model.joint_nv, model.n_modes, model.eq_index, model.ev_index,
                        model.at_origin, model.at_translation, model.at_rotation, q, v, data.Xup, data.Phi,
                        data.R_world, data.p_world, data.vel, data.bias)
    check_quaternions(model, q, bad)
    return q, v


def _body_terms(model, data, q, v, f_ext):
    """The bodies' mass matrices and bias forces into ``data`` (modal kernels)."""
    mk.all_body_terms(model.n_modes, model.mass, model.first_moment, model.second_moment, model.Ct, model.Cx,
                      model.Cpp, model.modal_mass, model.modal_stiffness, model.modal_damping, model.eq_index,
                      model.ev_index, q, v, external_forces(model, data, f_ext), data.vel, data.Mb, data.bb)


def inverse_dynamics(model, data, q, v, qdd, f_ext=None, gravity=None):
    """Generalized forces τ (nv,) that produce q̈ at (q, v): joint forces, then applied modal forces.
    Recursive Newton–Euler over extended bodies (Tian et al. 2010, eqs. 1–2)."""
    q, v = kinematics(model, data, q, v)
    qdd = as_vector(qdd, model.nv, "qdd")
    _body_terms(model, data, q, v, f_ext)
    tau = np.zeros(model.nv)
    mk.rnea(model.parent, model.S, model.v_index, model.joint_nv, model.n_modes, model.ev_index, qdd,
            base_acceleration(model, data, gravity), data.Phi, data.bias, data.Mb, data.bb, data.acc, data.force,
            tau)
    return tau


def hybrid_dynamics(model, data, q, v, prescribed, tau, qdd, f_ext=None, gravity=None):
    """Hybrid dynamics in O(N): motion-given joints return forces, the rest accelerations."""
    fast = isinstance(prescribed, np.ndarray) and prescribed.dtype == np.bool_ and prescribed.shape == (model.n,)
    mask = prescribed if fast else joint_mask(model, prescribed)
    _check(model, data)
    q, v = as_vector(q, model.nq, "q"), as_vector(v, model.nv, "v")
    tau = as_vector(tau, model.nv, "tau").copy()
    qdd = as_vector(qdd, model.nv, "qdd").copy()
    _hybrid(model, data, q, v, mask, tau, qdd, f_ext, gravity)
    return qdd, tau


def forward_dynamics(model, data, q, v, tau, f_ext=None, gravity=None):
    """Accelerations q̈ (nv,) (joints, then η̈) under the generalized forces τ (nv,): articulated-body sweeps.
    Tian et al. 2010; Jain & Rodriguez 1995."""
    _check(model, data)
    q, v = as_vector(q, model.nq, "q"), as_vector(v, model.nv, "v")
    tau = as_vector(tau, model.nv, "tau").copy()
    qdd = np.zeros(model.nv)
    _hybrid(model, data, q, v, data.none_prescribed, tau, qdd, f_ext, gravity)
    return qdd


def _hybrid(model, data, q, v, mask, tau, qdd, f_ext, gravity):
    """Run the flexible hybrid-dynamics sweeps (masked joints given q̈, the others τ)."""
    base_acceleration(model, data, gravity)
    bad, singular = mk.packed_hybrid(*model.packed, *data.packed, q, v, mask, tau, qdd, external_forces(model, data, f_ext))
    if bad >= 0:
        check_quaternions(model, q, bad)
    if singular >= 0:
        raise not_positive(model, singular)


def not_positive(model, body):
    """The SolverError for a body whose articulated inertia is singular in its unknown directions."""
    return SolverError(f"hybrid dynamics: the articulated inertia of body '{model.names[body]}' is not positive "
                       "definite in its unknown directions; give the body mass in the torque-given joint's "
                       "direction or prescribe that joint")


def mass_matrix(model, data, q):
    """Mass matrix (nv × nv) in [joint v; η̇] by composite inertias (RBDA ch. 6 over extended bodies)."""
    q, v = kinematics(model, data, q)
    _body_terms(model, data, q, v, None)
    mk.crba(model.parent, model.S, model.v_index, model.joint_nv, model.n_modes, model.ev_index, data.Phi,
            data.Mb, data.Ic, data.M)
    return data.M.copy()


def energy(model, data, q, v, gravity=None):
    """Kinetic, gravitational and elastic energy (J): T = Σ ½ νᵢᵀ Mᵢ νᵢ, V_g = −Σ g·(m p + R c̄(η)), ½ Σ ηᵀKη."""
    q, v = kinematics(model, data, q, v)
    _body_terms(model, data, q, v, None)
    g = model.gravity if gravity is None else as_vector(gravity, 3, "gravity")
    kinetic = 0.5 * np.einsum("ia,iab,ib->", data.vel, data.Mb, data.vel)
    potential, elastic = 0.0, 0.0
    for i in range(model.n):
        m = model.n_modes[i]
        eta = q[model.eq_index[i]:model.eq_index[i] + m]
        cbar = model.first_moment[i] + model.Ct[i, :, :m] @ eta
        potential -= g @ (model.mass[i] * data.p_world[i] + data.R_world[i] @ cbar)
        elastic += 0.5 * eta @ model.modal_stiffness[i, :m, :m] @ eta
    return {"kinetic": kinetic, "gravity": potential, "elastic": elastic, "total": kinetic + potential + elastic}


def momentum(model, data, q, v, about="origin"):
    """Spatial momentum [L; p] (N·m·s, N·s) of the tree in world coordinates."""
    q, v = kinematics(model, data, q, v)
    _body_terms(model, data, q, v, None)
    h = np.einsum("iab,ib->ia", data.Mb[:, :6], data.vel)
    linear = np.einsum("iab,ib->ia", data.R_world, h[:, 3:])
    angular = np.einsum("iab,ib->ia", data.R_world, h[:, :3]) + np.cross(data.p_world, linear)
    L, p = angular.sum(axis=0), linear.sum(axis=0)
    point = np.zeros(3) if isinstance(about, str) and about == "origin" else as_vector(about, 3, "about")
    return np.concatenate([L - np.cross(point, p), p])
