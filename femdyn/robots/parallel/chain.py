"""Closure equations of a parallel robot in joint coordinates, batched over poses.

The unknowns of a robot are Z = (θ, pose): θ the joint coordinates of every limb (one per revolute or
prismatic, two per universal joint, in limb and joint order) and the platform pose (x, y, z, rx, ry,
rz), rotation vector φ with R = exp([φ]) (the platform frame's orientation, global frame). Each limb is a
product of exponentials from the home configuration (Lynch & Park 2017, *Modern Robotics*, eq. 4.14):
T(θ) = exp([S₁]θ₁) ⋯ exp([S_k]θ_k), S a revolute's axis through its home point or a prismatic's
direction; the platform moves home points by G = (R, p) ∘ (R₀, p₀)⁻¹. A limb's last joint closes it:

* S: T c − G c = 0 (3 rows);  U: those and (R_T u₁)·(R_G u₂) = 0 (4);  R: those and (R_T a)·(R_G n_k) = 0
  for the two normals n_k ⟂ a (5);
* Pa, the Delta's parallelogram: for each bar s = ±1, (|G(d + s h a) − T(e + s h a)|² − ℓ²) / 2ℓ = 0 (2).

Every function works on a batch axis and on complex numbers (femdyn.geometry's rotation vector helpers
work on real numbers only, hence :func:`rotation` and :func:`left_jacobian` here), so that second
directional derivatives
(the velocity-product terms of accelerations) come exactly from the complex step of the analytic
Jacobians (Squire & Trapp 1998): D²F[Ż, Ż] = Im(F_Z(Z + i h Ż)) Ż / h.
"""
from dataclasses import dataclass

import numpy as np

from ...geometry import rotation_about, skew

_SERIES = 1e-6        # below this |φ|², the rotation's coefficients by their series (error < 1e-19)
STEP = 1e-30          # complex step (exact to round-off for any h this small)


def _coefficients(phi):
    """sin θ/θ, (1 − cos θ)/θ², (θ − sin θ)/θ³ of θ² = φ·φ (complex-safe, series near 0)."""
    s = np.einsum("...i,...i->...", phi, phi)
    small = np.abs(s) < _SERIES
    t = np.sqrt(np.where(small, 1.0, s))
    a = np.where(small, 1 - s / 6 + s * s / 120, np.sin(t) / t)
    b = np.where(small, 0.5 - s / 24 + s * s / 720, (1 - np.cos(t)) / np.where(small, 1.0, s))
    c = np.where(small, 1 / 6 - s / 120 + s * s / 5040, (t - np.sin(t)) / (t * np.where(small, 1.0, s)))
    return a, b, c


def rotation(phi):
    """R = exp([φ]×) = 1 + (sin θ/θ)[φ] + ((1 − cos θ)/θ²)[φ]² (Rodrigues), batch of rotation vectors."""
    a, b, _ = _coefficients(phi)
    K = skew(phi)
    return np.eye(3) + a[..., None, None] * K + b[..., None, None] * (K @ K)


def left_jacobian(phi):
    """J_l(φ) with ω = J_l(φ) φ̇ for R = exp([φ]): 1 + ((1 − cos θ)/θ²)[φ] + ((θ − sin θ)/θ³)[φ]²."""
    _, b, c = _coefficients(phi)
    K = skew(phi)
    return np.eye(3) + b[..., None, None] * K + c[..., None, None] * (K @ K)


@dataclass(frozen=True)
class LimbChain:
    """One limb's screws and closure: ``kinds`` 'R'/'P' per screw, ``axes``/``points`` (k, 3) at home,
    ``first`` its first column in Z, ``ends`` the number of screws up to each link, and the end joint:
    its kind and axes, and ``anchors``, the home points it joins as (on the last link, on the platform)
    pairs — the joint centre twice, or a Pa forearm's two bars' ends, ``bar_length`` apart."""

    kinds: tuple
    axes: np.ndarray
    points: np.ndarray
    first: int
    ends: tuple
    end_kind: str
    end_axes: np.ndarray
    anchors: tuple
    bar_length: float = None

    @property
    def rows(self):
        """Closure equations of this limb."""
        return {"S": 3, "U": 4, "R": 5, "Pa": 2}[self.end_kind]

    def screws_before(self, j):
        """Screws between the base and joint j: joint j's centre moves with that body."""
        return self.ends[j - 1] if j else 0


@dataclass(frozen=True)
class Chains:
    """The whole robot's closure: limbs, total joint coordinates ``n_theta`` and the home pose."""

    limbs: tuple
    n_theta: int
    home: np.ndarray

    @property
    def n(self):
        """Length of Z = (θ, pose)."""
        return self.n_theta + 6

    @property
    def rows(self):
        """Number of closure equations."""
        return sum(limb.rows for limb in self.limbs)


@dataclass
class Frames:
    """Kinematic state of a batch: per limb the screws' current axes w (N, k, 3), points c (N, k, 3) and the
    transforms (R, t) after each screw; the platform's R, p, J_l."""

    w: list
    c: list
    R: list
    t: list
    R_p: np.ndarray
    p: np.ndarray
    J_l: np.ndarray


def frames(chains, Z):
    """The :class:`Frames` of the batch Z (N, n)."""
    N, dtype = Z.shape[0], Z.dtype
    ws, cs, Rs, ts = [], [], [], []
    for limb in chains.limbs:
        R, t = np.broadcast_to(np.eye(3, dtype=dtype), (N, 3, 3)), np.zeros((N, 3), dtype)
        w, c, R_after, t_after = [], [], [], []
        for s, kind in enumerate(limb.kinds):
            theta = Z[:, limb.first + s]
            a, x = limb.axes[s], limb.points[s]
            w.append(R @ a)
            c.append(np.einsum("nij,j->ni", R, x) + t)
            if kind == "R":
                Q = rotation_about(a, theta)
                t = t + np.einsum("nij,nj->ni", R, x - np.einsum("nij,j->ni", Q, x))
                R = R @ Q
            else:
                t = t + np.einsum("nij,j->ni", R, a) * theta[:, None]
            R_after.append(R)
            t_after.append(t)
        ws.append(np.stack(w, 1) if w else np.zeros((N, 0, 3), dtype))
        cs.append(np.stack(c, 1) if c else np.zeros((N, 0, 3), dtype))
        Rs.append(R_after)
        ts.append(t_after)
    phi, p = Z[:, -3:], Z[:, -6:-3]
    R_p = rotation(phi) @ rotation(chains.home[3:]).T
    return Frames(ws, cs, Rs, ts, R_p, p, left_jacobian(phi))


def link_transform(F, limb_index, screws):
    """(R, t) of the body after ``screws`` screws of a limb (identity for 0: the base)."""
    if screws == 0:
        N, dtype = F.p.shape[0], F.p.dtype
        return np.broadcast_to(np.eye(3, dtype=dtype), (N, 3, 3)), np.zeros((N, 3), dtype)
    return F.R[limb_index][screws - 1], F.t[limb_index][screws - 1]


def _link_columns(F, limb, limb_index, screws, y):
    """∂y/∂θ (N, 3, screws) of a point y (N, 3) on a limb's body after ``screws`` screws: w × (y − c) for a
    revolute screw through c, w for a prismatic one."""
    w, c = F.w[limb_index][:, :screws], F.c[limb_index][:, :screws]
    columns = np.cross(w, y[:, None, :] - c)
    prismatic = [s for s in range(screws) if limb.kinds[s] == "P"]
    columns[:, prismatic] = w[:, prismatic]
    return np.swapaxes(columns, 1, 2)


def _spin_columns(F, limb, limb_index, screws):
    """∂ω/∂θ (N, 3, screws) of a limb's body: the revolute screws' current axes."""
    w = F.w[limb_index][:, :screws].copy()
    w[:, [s for s in range(screws) if limb.kinds[s] == "P"]] = 0.0
    return np.swapaxes(w, 1, 2)


def point_on_link(F, chains, limb_index, screws, x):
    """Position (N, 3) of the home point x on a limb's body after ``screws`` screws, and its Jacobian (N, 3, n)."""
    R, t = link_transform(F, limb_index, screws)
    y = np.einsum("nij,j->ni", R, x) + t
    J = np.zeros(y.shape[:1] + (3, chains.n), y.dtype)
    limb = chains.limbs[limb_index]
    J[:, :, limb.first:limb.first + screws] = _link_columns(F, limb, limb_index, screws, y)
    return y, J


def rotation_on_link(F, chains, limb_index, screws):
    """Angular-velocity Jacobian (N, 3, n) of a limb's body after ``screws`` screws: ω = J Ż."""
    limb = chains.limbs[limb_index]
    J = np.zeros(F.p.shape[:1] + (3, chains.n), F.p.dtype)
    J[:, :, limb.first:limb.first + screws] = _spin_columns(F, limb, limb_index, screws)
    return J


def _platform_columns(F, r):
    """∂y/∂pose (N, 3, 6) of a platform point at y = p + r: [1, −[r]× J_l]."""
    out = np.zeros(r.shape + (6,), r.dtype)
    out[:, :, :3] = np.eye(3)
    out[:, :, 3:] = -skew(r) @ F.J_l
    return out


def point_on_platform(F, chains, x):
    """Position (N, 3) of the platform's home point x and its Jacobian (N, 3, n)."""
    r = np.einsum("nij,j->ni", F.R_p, x - chains.home[:3])
    J = np.zeros(r.shape[:1] + (3, chains.n), r.dtype)
    J[:, :, -6:] = _platform_columns(F, r)
    return r + F.p, J


def rotation_on_platform(F, chains):
    """Angular-velocity Jacobian (N, 3, n) of the platform."""
    J = np.zeros(F.p.shape[:1] + (3, chains.n), F.p.dtype)
    J[:, :, -3:] = F.J_l
    return J


def closure(chains, Z):
    """Closure residual F (N, rows) and Jacobian F_Z (N, rows, n) at the batch Z (module docstring)."""
    F = frames(chains, Z)
    N, n = Z.shape
    res, jac, row = np.zeros((N, chains.rows), Z.dtype), np.zeros((N, chains.rows, n), Z.dtype), 0
    for i, limb in enumerate(chains.limbs):
        k = len(limb.kinds)
        theta = slice(limb.first, limb.first + k)
        R_last, t_last = link_transform(F, i, k)
        for on_link, on_platform in limb.anchors:
            yl = np.einsum("nij,j->ni", R_last, on_link) + t_last
            r = np.einsum("nij,j->ni", F.R_p, on_platform - chains.home[:3])
            Jl, Jp = _link_columns(F, limb, i, k, yl), _platform_columns(F, r)
            if limb.end_kind == "Pa":               # (|y_p − y_l|² − ℓ²) / 2ℓ
                gap, length = r + F.p - yl, limb.bar_length
                res[:, row] = (np.einsum("ni,ni->n", gap, gap) - length**2) / (2 * length)
                jac[:, row, theta] = -np.einsum("ni,nij->nj", gap, Jl) / length
                jac[:, row, -6:] = np.einsum("ni,nij->nj", gap, Jp) / length
                row += 1
                continue
            res[:, row:row + 3] = yl - r - F.p
            jac[:, row:row + 3, theta], jac[:, row:row + 3, -6:] = Jl, -Jp
            row += 3
        if limb.end_kind in ("U", "R"):             # (R_T u)·(R_G n) = 0
            u = np.einsum("nij,j->ni", R_last, limb.end_axes[0])
            Ju = -skew(u) @ _spin_columns(F, limb, i, k)
            for axis in limb.end_axes[1:]:
                v = np.einsum("nij,j->ni", F.R_p, axis)
                res[:, row] = np.einsum("ni,ni->n", u, v)
                jac[:, row, theta] = np.einsum("ni,nij->nj", v, Ju)
                jac[:, row, -3:] = -np.einsum("ni,nij->nj", u, skew(v) @ F.J_l)
                row += 1
    return res, jac


def curvature(function, Z, Zd):
    """Second directional derivative J_Z[Ż] Ż of a batch Jacobian ``function(Z) -> (N, m, n)`` along Ż."""
    J = function(Z + 1j * STEP * Zd)
    return np.einsum("nij,nj->ni", J.imag / STEP, Zd)
