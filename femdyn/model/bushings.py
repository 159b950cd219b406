"""A six-degree-of-freedom bushing between two frames: F = F₀ + K s + C ṡ on s = (u, θ), 6×6 K and C.

With the bushing axes a_i (fixed in A) and b_i (fixed in B; a_i = b_i as drawn) and d = p_b − p_a:
u_i = a_i·d, and θ = axial(½(R − Rᵀ)) of the relative rotation R_ij = a_i·b_j. By Rodrigues'
formula R = I + sin φ ñ + (1 − cos φ) ñ² (Shabana, Dynamics of Multibody Systems, ch. 2), so
θ = sin φ n = φ n + O(φ³): the small-rotation measure, exact in its skew part.
Each s_k is quadratic in the coordinates, s_k = ½ xᵀH_k x + g_k·x + c_k (x = q on the bushing's
dofs): Q = −Jᵀ F, K = Jᵀ K J + Jᵀ C (H v) + Σ F_k H_k, C = Jᵀ C J with J = H x + g.
"""
import numpy as np

from ..errors import ModelError
from ..input_checks import refuse_non_finite, vector3
from .forcelaws import ForceElement

# (component, [(sign, pair)]): u_i = a_i·d; θ_x = ½(a_z·b_y − a_y·b_z), θ_y = ½(a_x·b_z − a_z·b_x), θ_z = ½(a_y·b_x − a_x·b_y)
_MEASURES = [[(1.0, ("a0", "d"))], [(1.0, ("a1", "d"))], [(1.0, ("a2", "d"))],
             [(0.5, ("a2", "b1")), (-0.5, ("a1", "b2"))], [(0.5, ("a0", "b2")), (-0.5, ("a2", "b0"))],
             [(0.5, ("a1", "b0")), (-0.5, ("a0", "b1"))]]


def _matrix6(value, what, units):
    """A symmetric 6×6 matrix from six diagonal values or a 6×6 array."""
    A = np.asarray(value, float)
    A = np.diag(A) if A.shape == (6,) else A
    if A.shape != (6, 6):
        raise ModelError(f"{what}: give six diagonal values or a 6×6 matrix ({units}), got shape {A.shape}")
    refuse_non_finite(A, what)
    if not np.allclose(A, A.T, rtol=0, atol=1e-12 * max(1.0, np.abs(A).max())):
        raise ModelError(f"{what}: the matrix must be symmetric (a potential, a dissipation function); "
                         "symmetrize it or check its entries")
    return A


def _frame(frame, what):
    """A rotation matrix (columns the bushing axes in global components)."""
    R = np.eye(3) if frame is None else np.asarray(frame, float)
    if R.shape != (3, 3) or not np.allclose(R.T @ R, np.eye(3), atol=1e-9) or np.linalg.det(R) < 0:
        raise ModelError(f"{what}: frame must be a 3×3 rotation matrix whose columns are the bushing axes "
                         "(orthonormal, right-handed)")
    return R


class Bushing(ForceElement):
    """Six-component spring-damper between frames of two bodies at a point (module docstring)."""

    reading_names = ("fx", "fy", "fz", "mx", "my", "mz", "dx", "dy", "dz", "rx", "ry", "rz")

    def __init__(self, name, body_a, body_b, point, stiffness, damping=None, frame=None, preload=None):
        what = f"bushing '{name}'"
        self.name = name
        self.K = _matrix6(stiffness, f"{what}: stiffness", "N/m, N·m/rad")
        self.C = _matrix6(np.zeros(6) if damping is None else damping, f"{what}: damping", "N·s/m, N·m·s/rad")
        self.F0 = np.zeros(6) if preload is None else np.asarray(preload, float).ravel()
        if self.F0.shape != (6,):
            raise ModelError(f"{what}: preload must be six values (N, N·m), got {preload!r}")
        refuse_non_finite(self.F0, f"{what}: preload")
        R = _frame(frame, what)
        point = vector3(point, f"{what}: point (m)")
        for body in (body_a, body_b):
            if getattr(body, "span_rank", 3) < 3:
                raise ModelError(f"{what}: '{body.name}' has fewer than three material directions; a bushing joins "
                                 "full frames (the ground, a full rigid body, an ANCF beam node)")
        self.exprs = {"d": body_b.material_point(point) - body_a.material_point(point)}
        for i in range(3):
            self.exprs[f"a{i}"] = body_a.material_vector(R[:, i])
            self.exprs[f"b{i}"] = body_b.material_vector(R[:, i])

    def bind(self, n):
        self.n = n
        self.dofs = np.unique(np.concatenate([e.coo(0)[1] for e in self.exprs.values()]).astype(int))
        local = {}
        for key, e in self.exprs.items():
            rows, cols, vals = e.coo(0)
            E = np.zeros((3, self.dofs.size))
            np.add.at(E, (rows, np.searchsorted(self.dofs, cols)), vals)
            local[key] = (E, e.offset)
        m = self.dofs.size
        self.H, self.g, self.c = np.zeros((6, m, m)), np.zeros((6, m)), np.zeros(6)
        for k, terms in enumerate(_MEASURES):
            for sign, (x, y) in terms:
                (Ex, x0), (Ey, y0) = local[x], local[y]
                self.H[k] += sign * (Ex.T @ Ey + Ey.T @ Ex)
                self.g[k] += sign * (Ex.T @ y0 + Ey.T @ x0)
                self.c[k] += sign * (x0 @ y0)

    def _state(self, q, v):
        """(s, J, ṡ, F) at (q, v)."""
        x = q[self.dofs]
        J = self.H @ x + self.g
        s = 0.5 * J @ x + 0.5 * self.g @ x + self.c
        s_dot = J @ v[self.dofs]
        return s, J, s_dot, self.F0 + self.K @ s + self.C @ s_dot

    def reading(self, q, v, t):
        s, _, _, F = self._state(q, v)
        return np.concatenate([F, s])

    def force(self, q, v, t):
        _, J, _, F = self._state(q, v)
        return self._scatter(-J.T @ F)

    def tangent_values(self, q, v, t):
        _, J, _, F = self._state(q, v)
        G = self.H @ v[self.dofs]
        K = J.T @ self.K @ J + J.T @ self.C @ G + np.einsum("k,kij->ij", F, self.H)
        return K.ravel(), (J.T @ self.C @ J).ravel()

    def strain_energy(self, q):
        x = q[self.dofs]
        s = 0.5 * np.einsum("i,kij,j->k", x, self.H, x) + self.g @ x + self.c
        return float(self.F0 @ s + 0.5 * s @ self.K @ s)


class BushingBuilder:
    """The bushing constructor of :class:`~femdyn.model.Model` (``m.bushing``)."""

    def bushing(self, name, body_a, body_b, point, stiffness, damping=None, frame=None, preload=None):
        """Add a bushing: force and torque F₀ + K s + C ṡ between two frames at ``point``, unloaded as drawn.

        s = (u, θ): the displacement of B's point from A's (m) and the small rotation θ = sin φ n
        of B relative to A (rad), both in the bushing axes fixed in ``body_a``; F = (force, torque)
        acts on B (−F on A) in those axes (module :mod:`femdyn.model.bushings`).

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            Bodies with a full frame (the ground, a full rigid body, an ANCF beam node).
        point : (3,) array_like
            The bushing centre, m.
        stiffness : (6,) or (6, 6) array_like
            K (diagonal or symmetric), N/m, N/rad and N·m/rad; order (x, y, z, θx, θy, θz).
        damping : (6,) or (6, 6) array_like, optional
            C, N·s/m, N·s/rad and N·m·s/rad (default none).
        frame : (3, 3) array_like, optional
            Rotation matrix whose columns are the bushing axes, global, as drawn (default the global axes).
        preload : (6,) array_like, optional
            F₀, N and N·m.
        """
        return self.add(Bushing(name, self.body(body_a), self.body(body_b), point, stiffness, damping, frame, preload))
