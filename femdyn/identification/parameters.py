"""Inertial parameters per body: names, physical form, physical consistency, selections.

The parameter vector π (kg, kg·m, kg·m²) of a tree stacks ten entries per body, in the
order of :data:`femdyn.solvers.recursive.regressor.PARAMETERS` (about the body origin, body
axes). Its *physical* form is (m, c, I_c): mass, centre of mass and rotational inertia
about the centre of mass, related by ``h = m c`` and ``Ī = I_c + m (|c|² 1 − c cᵀ)``
(parallel-axis theorem).

Physical consistency (Wensing, Kim & Slotine 2017, "Linear matrix inequalities for
physically consistent inertial parameter identification", IEEE RA-L 3(1)): a body's π
can come from a real mass distribution iff its pseudo-inertia

    J = [[½ tr(Ī) 1 − Ī, h], [hᵀ, m]]                                   (their eq. 9)

is positive definite; this implies m > 0, I_c ≻ 0 and the triangle inequalities
I_1 ≤ I_2 + I_3 of the principal moments (Traversaro et al. 2016), which the report
lists separately because they are what a user can act on.
"""
from dataclasses import dataclass

import numpy as np

from femdyn.errors import ModelError
from femdyn.solvers.recursive.model import Body, TreeModel
from femdyn.solvers.recursive.regressor import N_PARAMETERS, PARAMETERS, inertial_parameters

PHYSICAL = ("mass", "com_x", "com_y", "com_z", "Ixx", "Iyy", "Izz", "Ixy", "Ixz", "Iyz")   # I.. about the CoM


def parameter_names(model):
    """Names ``body.m``, ``body.hx``, … of π's entries (n·10), bodies in the model's order.

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        The tree.

    Returns
    -------
    list of str

    Example
    -------
    >>> from femdyn.robots.serial import puma560
    >>> parameter_names(puma560())[:3]
    ['link1.m', 'link1.hx', 'link1.hy']
    """
    return [f"{b}.{p}" for b in model.names for p in PARAMETERS]


def to_parameters(mass, com, inertia_com):
    """π_i (10,) of a body from its physical parameters (parallel-axis theorem).

    ``mass`` (float): m, kg; ``com`` ((3,) array_like): centre of mass c, m, body axes, from the body origin;
    ``inertia_com`` ((3, 3) array_like): rotational inertia about the centre of mass I_c, kg·m², body axes.
    Returns ndarray (10,): (m, m c, Ī_xx, Ī_xy, Ī_yy, Ī_xz, Ī_yz, Ī_zz) with Ī the inertia about the origin, kg,
    kg·m, kg·m².

    Examples
    --------
    >>> to_parameters(2.0, (0.5, 0, 0), np.zeros((3, 3))).tolist()
    [2.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.5, 0.0, 0.0, 0.5]
    """
    c = np.asarray(com, float)
    I = np.asarray(inertia_com, float) + mass * (c @ c * np.eye(3) - np.outer(c, c))
    return np.array([mass, *(mass * c), I[0, 0], I[0, 1], I[1, 1], I[0, 2], I[1, 2], I[2, 2]])


def to_physical(pi_body):
    """Physical parameters of one body's π_i: the inverse of :func:`to_parameters`.

    ``pi_body`` ((10,) array_like): one body's inertial parameters. Returns ``mass`` (float): kg; ``com``
    (ndarray (3,)): m, body axes; ``inertia`` (ndarray (3, 3)): about the centre of mass, kg·m², body axes.
    Raises ModelError: for a mass that is not positive (the centre of mass is undefined).
    """
    m, h = pi_body[0], np.asarray(pi_body[1:4])
    if not m > 0:
        raise ModelError(f"parameters {np.round(pi_body, 6)} have mass {m} kg; a body needs a positive mass")
    xx, xy, yy, xz, yz, zz = pi_body[4:]
    c = h / m
    Ibar = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    return m, c, Ibar - m * (c @ c * np.eye(3) - np.outer(c, c))


def pseudo_inertia(pi_body):
    """Pseudo-inertia J (4×4) of one body's π_i (Wensing et al. 2017, eq. 9).

    ``pi_body`` ((10,) array_like): one body's inertial parameters. Returns ndarray (4, 4): positive definite
    iff π_i is physically consistent.
    """
    m, h = pi_body[0], np.asarray(pi_body[1:4])
    xx, xy, yy, xz, yz, zz = pi_body[4:]
    Ibar = np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])
    J = np.zeros((4, 4))
    J[:3, :3] = 0.5 * np.trace(Ibar) * np.eye(3) - Ibar
    J[:3, 3], J[3, :3], J[3, 3] = h, h, m
    return J


@dataclass
class BodyConsistency:
    """Physical-consistency checks of one body (see the module doc); ``ok`` when all hold.

    ``name`` (str): body name; ``mass`` (float): kg; ``principal_moments`` (ndarray (3,)): principal moments
    about the centre of mass, kg·m², ascending (NaN without a positive mass); ``triangle`` (bool): whether I_1 ≤
    I_2 + I_3 holds; ``pseudo_inertia_min`` (float): smallest eigenvalue of the pseudo-inertia (kg·m²).
    """
    name: str
    mass: float
    principal_moments: np.ndarray
    triangle: bool
    pseudo_inertia_min: float

    @property
    def ok(self):
        return self.mass > 0 and self.principal_moments.min() > 0 and self.triangle and self.pseudo_inertia_min > 0

    def describe(self):
        """One line: the body and what fails (or 'physical')."""
        if self.ok:
            return f"{self.name}: physical"
        problems = []
        if not self.mass > 0:
            problems.append(f"mass {self.mass:.4g} kg ≤ 0")
        if self.principal_moments.size and self.principal_moments.min() <= 0:
            problems.append(f"principal moments {np.round(self.principal_moments, 6)} kg·m² not all positive")
        if not self.triangle:
            problems.append("triangle inequality I1 ≤ I2 + I3 violated")
        if self.pseudo_inertia_min <= 0:
            problems.append(f"pseudo-inertia not positive definite (λ_min = {self.pseudo_inertia_min:.3g})")
        return f"{self.name}: " + "; ".join(problems)


def consistency(pi, body_names):
    """Per-body :class:`BodyConsistency` of a full π (10 n,).

    Parameters
    ----------
    pi : (10 n,) array_like
        Inertial parameters of n bodies.
    body_names : sequence of str
        n names, in the order of π.

    Returns
    -------
    list of BodyConsistency

    Raises
    ------
    ModelError
        If the number of names differs from the number of bodies in π.

    Example
    -------
    >>> pi = to_parameters(2.0, (0.1, 0, 0), np.diag([0.1, 0.2, 0.25]))
    >>> consistency(pi, ["link"])[0].ok
    True
    """
    pi = np.asarray(pi, float).reshape(-1, N_PARAMETERS)
    if len(body_names) != len(pi):
        raise ModelError(f"consistency: {len(pi)} bodies in π but {len(body_names)} names")
    out = []
    for name, p in zip(body_names, pi):
        J_min = float(np.linalg.eigvalsh(pseudo_inertia(p)).min())
        if p[0] > 0:
            moments = np.linalg.eigvalsh(to_physical(p)[2])
            triangle = bool(moments[2] <= moments[0] + moments[1] + 1e-12 * abs(moments).sum())
        else:
            moments, triangle = np.full(3, np.nan), False
        out.append(BodyConsistency(name, float(p[0]), moments, triangle, J_min))
    return out


def with_parameters(model, pi):
    """A copy of ``model`` whose bodies carry the inertial parameters π (10 n,).

    Parameters
    ----------
    model : femdyn.solvers.recursive.model.TreeModel
        The tree (joints, placements, gravity are kept).
    pi : (10 n,) array_like
        Inertial parameters, bodies in the model's order.

    Returns
    -------
    femdyn.solvers.recursive.model.TreeModel

    Raises
    ------
    ModelError
        If π has the wrong size, or naming the body whose parameters are not physical
        (the tree model checks mass, positive definiteness and the triangle inequality).
    """
    pi = np.asarray(pi, float)
    if pi.shape != (model.n * N_PARAMETERS,):
        raise ModelError(f"with_parameters: π needs {model.n * N_PARAMETERS} entries (10 per body), got {pi.shape}")
    bodies = []
    for b, p in zip(model.bodies, pi.reshape(-1, N_PARAMETERS)):
        try:
            m, c, Ic = to_physical(p)
        except ModelError as err:
            raise ModelError(f"body '{b.name}': {err}") from None
        bodies.append(Body(b.name, b.parent, b.joint, m, tuple(c), 0.5 * (Ic + Ic.T), b.placement_R, b.placement_p))
    return TreeModel(bodies, model.gravity, model.strict)


class Selection:
    """Physical parameters θ to identify, each ``(body, quantity)`` with quantity in
    :data:`PHYSICAL` (mass kg; com_* m; I** kg·m² about the centre of mass, body axes);
    all other quantities stay at their values in ``reference`` (a TreeModel).

    ``parameters(θ)`` gives π (nonlinear in θ through h = m c and the parallel-axis term);
    with the centres of mass fixed it is affine in the masses and inertias.

    Parameters
    ----------
    reference : femdyn.solvers.recursive.model.TreeModel
        Holds the values of every quantity not selected.
    entries : sequence of (str, str)
        (body name, quantity in :data:`PHYSICAL`).

    Raises
    ------
    ModelError
        If a body is unknown or a quantity not in :data:`PHYSICAL`.

    Example
    -------
    >>> from femdyn.robots.serial import puma560
    >>> s = Selection(puma560(), [("link2", "mass"), ("link2", "Izz")])
    >>> np.allclose(s.parameters(s.values()), inertial_parameters(puma560()))
    True
    """

    def __init__(self, reference, entries):
        self.reference = reference
        self.entries = [(str(b), str(k)) for b, k in entries]
        for b, k in self.entries:
            reference.index(b)
            if k not in PHYSICAL:
                raise ModelError(f"selection entry ({b!r}, {k!r}): unknown quantity; use one of {PHYSICAL}")
        self.names = [f"{b}.{k}" for b, k in self.entries]
        pi = inertial_parameters(reference).reshape(-1, N_PARAMETERS)
        self._table = np.array([self._as_row(*to_physical(p)) for p in pi])       # (n, 10) in PHYSICAL order
        self._rows = np.array([reference.index(b) for b, _ in self.entries], int)
        self._cols = np.array([PHYSICAL.index(k) for _, k in self.entries], int)

    @staticmethod
    def _as_row(m, c, Ic):
        return [m, *c, Ic[0, 0], Ic[1, 1], Ic[2, 2], Ic[0, 1], Ic[0, 2], Ic[1, 2]]

    def values(self, model=None):
        """θ of ``model`` (default: the reference).

        Parameters
        ----------
        model : femdyn.solvers.recursive.model.TreeModel, optional
            A model with the same bodies.

        Returns
        -------
        ndarray (len(entries),)
            kg, m or kg·m², per entry.
        """
        table = self._table if model is None else Selection(model, self.entries)._table
        return table[self._rows, self._cols].copy()

    def parameters(self, theta):
        """π (10 n,) with the selected quantities set to θ (vectorized over bodies).

        Parameters
        ----------
        theta : (len(entries),) array_like
            kg, m or kg·m², per entry.

        Returns
        -------
        ndarray (10 n,)

        Raises
        ------
        ModelError
            If θ has the wrong size.
        """
        theta = np.asarray(theta, float)
        if theta.shape != (len(self.entries),):
            raise ModelError(f"selection: θ needs {len(self.entries)} values ({self.names}), got shape {theta.shape}")
        t = self._table.copy()
        t[self._rows, self._cols] = theta
        m, c = t[:, 0], t[:, 1:4]
        cc = np.einsum("ia,ia->i", c, c)
        pi = np.empty_like(t)
        pi[:, 0], pi[:, 1:4] = m, m[:, None] * c
        xx, yy, zz, xy, xz, yz = (t[:, k] for k in range(4, 10))
        x, y, z = c[:, 0], c[:, 1], c[:, 2]
        pi[:, 4] = xx + m * (cc - x * x)
        pi[:, 5] = xy - m * x * y
        pi[:, 6] = yy + m * (cc - y * y)
        pi[:, 7] = xz - m * x * z
        pi[:, 8] = yz - m * y * z
        pi[:, 9] = zz + m * (cc - z * z)
        return pi.ravel()
