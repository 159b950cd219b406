"""Configuration space of a tree: q̇ from v, Lie-group update q ⊕ δ, quaternion normalisation.

:meth:`TreeSpace.rate` (q̇ = (R v_o, ½ q ⊗ (ω, 0)), then :meth:`TreeSpace.normalize`) or
:meth:`TreeSpace.integrate` (q ⊕ δ = (p, R)·exp(δ), SE(3) exponential, Murray, Li & Sastry
1994, ch. 2); :class:`VectorSpace` for ordinary vector states.
"""
import numpy as np

from femdyn.geometry import skew


def _quaternion_multiply(a, b):
    """Hamilton product a ⊗ b of quaternions stored (x, y, z, w)."""
    u, s, v, t = a[:3], a[3], b[:3], b[3]
    return np.r_[s * v + t * u + np.cross(u, v), s * t - u @ v]


def _quaternion_to_matrix(quat):
    """Rotation matrix of a quaternion (x, y, z, w), normalized first."""
    x, y, z, w = np.asarray(quat, float) / np.linalg.norm(quat)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _se3_exp(twist):
    """SE(3) exponential exp([ω; v]) of a body twist increment.
    Murray, Li & Sastry 1994, ch. 2; series below θ = 1e-6 rad."""
    w, v = twist[:3], twist[3:]
    theta = np.linalg.norm(w)
    W = skew(w)
    if theta < 1e-6:
        b, c, sinc_half = 0.5 - theta**2 / 24, 1 / 6 - theta**2 / 120, 0.5 - theta**2 / 48
    else:
        b, c = (1 - np.cos(theta)) / theta**2, (theta - np.sin(theta)) / theta**3
        sinc_half = np.sin(0.5 * theta) / theta
    quat = np.r_[sinc_half * w, np.cos(0.5 * theta)]
    return quat, (np.eye(3) + b * W + c * W @ W) @ v


class VectorSpace:
    """q̇ = v, q ⊕ δ = q + δ: the configuration space of plain vector states."""

    def rate(self, q, v):
        """q̇ = v.

        Parameters
        ----------
        q, v : ndarray
            State (unused) and velocity.
        """
        return np.asarray(v, float)

    def integrate(self, q, delta):
        """q ⊕ δ = q + δ.

        Parameters
        ----------
        q, delta : ndarray
            State and increment.
        """
        return q + delta

    def normalize(self, q):
        """q unchanged (a vector space needs no projection).

        Parameters
        ----------
        q : ndarray
            State.
        """
        return q


class TreeSpace:
    """Configuration space of a :class:`~.model.TreeModel` (R^k × SE(3)^f).

    Parameters
    ----------
    model : TreeModel
        The tree (its scalar and free joints).
    """

    def __init__(self, model):
        self.model = model

    def rate(self, q, v):
        """q̇ from the joint velocities: v for scalar joints, (R v_o, ½ q ⊗ (ω, 0)) for free joints.

        Parameters
        ----------
        q, v : (nq,), (nv,) ndarray
            Joint coordinates and velocities (free joints: body twist [ω; v_o], body coordinates).
        """
        m = self.model
        qd = np.zeros(m.nq)
        qd[m.scalar_q_index] = v[m.scalar_v_index]
        for i in m.free_joints:
            k, j = m.q_index[i], m.v_index[i]
            quat = q[k + 3:k + 7]
            qd[k:k + 3] = _quaternion_to_matrix(quat) @ v[j + 3:j + 6]
            qd[k + 3:k + 7] = 0.5 * _quaternion_multiply(quat, np.r_[v[j:j + 3], 0.0])
        return qd

    def integrate(self, q, delta):
        """q ⊕ δ: sum for scalar joints, SE(3) exponential for free joints, exact for a constant body twist.

        Parameters
        ----------
        q, delta : (nq,), (nv,) ndarray
            Joint coordinates and tangent increment (free joints: [θ (rad); d (m)], body coordinates).
        """
        m = self.model
        out = np.array(q, float)
        out[m.scalar_q_index] += delta[m.scalar_v_index]
        for i in m.free_joints:
            k, j = m.q_index[i], m.v_index[i]
            quat = q[k + 3:k + 7] / np.linalg.norm(q[k + 3:k + 7])
            dquat, dp = _se3_exp(delta[j:j + 6])
            out[k:k + 3] += _quaternion_to_matrix(quat) @ dp
            out[k + 3:k + 7] = _quaternion_multiply(quat, dquat)
        return self.normalize(out)

    def normalize(self, q):
        """q with every free joint's quaternion scaled to unit length.

        Parameters
        ----------
        q : (nq,) array_like
            Joint coordinates.
        """
        m = self.model
        out = np.array(q, float)
        for i in m.free_joints:
            k = m.q_index[i]
            out[k + 3:k + 7] /= np.linalg.norm(out[k + 3:k + 7])
        return out
