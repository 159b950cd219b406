"""Configuration space of a tree: q̇ from v, Lie-group update q ⊕ δ, quaternion normalisation.

Free joints carry q = [p; quaternion (x, y, z, w)] and a body-frame twist v = [ω; v_o]
(see :mod:`.model`). Two updates are offered:

* :meth:`TreeSpace.rate` — q̇ = (R v_o, ½ q ⊗ (ω, 0)) for integrating q in R⁷ with any
  Runge–Kutta method, followed by :meth:`TreeSpace.normalize` (quaternion projection);
* :meth:`TreeSpace.integrate` — q ⊕ δ = (p, R)·exp(δ) with the SE(3) exponential (Murray,
  Li & Sastry 1994, ch. 2, exponential coordinates of SE(3)), exact for a constant body twist, for increment-based
  schemes such as Zhai's method.

:class:`VectorSpace` gives the same three operations for ordinary vector states.
"""
import numpy as np

from femdyn.geometry import skew


def _quaternion_multiply(a, b):
    """Hamilton product a ⊗ b of quaternions stored (x, y, z, w).

    Examples
    --------
    >>> import numpy as np
    >>> i, j = np.array([1.0, 0, 0, 0]), np.array([0, 1.0, 0, 0])
    >>> _quaternion_multiply(i, j).tolist()          # i j = k
    [0.0, 0.0, 1.0, 0.0]
    """
    u, s, v, t = a[:3], a[3], b[:3], b[3]
    return np.r_[s * v + t * u + np.cross(u, v), s * t - u @ v]


def _quaternion_to_matrix(quat):
    """Rotation matrix of a quaternion (x, y, z, w), normalized first.

    Examples
    --------
    >>> import numpy as np
    >>> R = _quaternion_to_matrix([0, 0, np.sin(np.pi / 4), np.cos(np.pi / 4)])   # 90° about z
    >>> (R @ [1, 0, 0]).round(12).tolist()
    [0.0, 1.0, 0.0]
    """
    x, y, z, w = np.asarray(quat, float) / np.linalg.norm(quat)
    return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                     [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                     [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])


def _se3_exp(twist):
    """SE(3) exponential exp([ω; v]) of a body twist increment.

    Translation V v with V = 1 + (1 − cos θ)/θ² ω× + (θ − sin θ)/θ³ ω×² (Murray, Li & Sastry
    1994, ch. 2); series below θ = 1e-6 rad, where their truncation error O(θ⁴) is below
    round-off.

    Examples
    --------
    >>> import numpy as np
    >>> quat, p = _se3_exp(np.array([0, 0, np.pi, 1.0, 0, 0]))    # half turn while moving along x
    >>> p.round(6).tolist()                                       # a semicircle of diameter 2/π
    [0.0, 0.63662, 0.0]
    """
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
        q : ndarray
            State (unused).
        v : array_like
            Velocity.

        Returns
        -------
        ndarray
        """
        return np.asarray(v, float)

    def integrate(self, q, delta):
        """q ⊕ δ = q + δ.

        Parameters
        ----------
        q : ndarray
            State.
        delta : ndarray
            Increment.

        Returns
        -------
        ndarray
        """
        return q + delta

    def normalize(self, q):
        """q unchanged (a vector space needs no projection).

        Parameters
        ----------
        q : ndarray
            State.

        Returns
        -------
        ndarray
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
        q : (nq,) ndarray
            Joint coordinates.
        v : (nv,) ndarray
            Joint velocities (free joints: body twist [ω; v_o] in body coordinates).

        Returns
        -------
        (nq,) ndarray
            q̇ (free joints: position rate in parent coordinates and quaternion rate).
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
        q : (nq,) ndarray
            Joint coordinates.
        delta : (nv,) ndarray
            Tangent increment (free joints: twist increment [θ (rad); d (m)] in body coordinates).

        Returns
        -------
        (nq,) ndarray
            Updated coordinates with unit quaternions.
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

        Returns
        -------
        (nq,) ndarray
        """
        m = self.model
        out = np.array(q, float)
        for i in m.free_joints:
            k = m.q_index[i]
            out[k + 3:k + 7] /= np.linalg.norm(out[k + 3:k + 7])
        return out
