"""Small geometric helpers, written once for the whole library: the cross-product matrix
(:func:`skew`), the Levi-Civita tensor (:data:`LEVI_CIVITA`), Rodrigues' rotation
(:func:`rotation_about`, :func:`rotation_matrix` — the exponential map of SO(3) —, :func:`rotated_vector`
with its derivatives, :func:`transported` along the smallest rotation between two directions) and the
kinematics of a rotation-vector motion (:func:`left_jacobian`, :func:`left_jacobian_rate`,
:func:`angular_motion`)."""
import numpy as np

__all__ = ["skew", "LEVI_CIVITA", "rotation_about", "rotation_matrix", "rotated_vector", "transported",
           "left_jacobian", "left_jacobian_rate", "angular_motion"]

LEVI_CIVITA = np.zeros((3, 3, 3))
LEVI_CIVITA[0, 1, 2] = LEVI_CIVITA[1, 2, 0] = LEVI_CIVITA[2, 0, 1] = 1.0
LEVI_CIVITA[0, 2, 1] = LEVI_CIVITA[2, 1, 0] = LEVI_CIVITA[1, 0, 2] = -1.0
LEVI_CIVITA.flags.writeable = False          # ε_abc: (a × b)_i = ε_ijk a_j b_k


def skew(v):
    """Cross-product matrices [v]× with [v]× w = v × w.

    Parameters
    ----------
    v : (..., 3) array_like
        Vectors, in any one frame (the matrices act in that frame).

    Returns
    -------
    (..., 3, 3) ndarray
        [v]× of each vector (skew-symmetric).

    Examples
    --------
    >>> skew([0.0, 0.0, 1.0]) @ [1.0, 0.0, 0.0]
    array([0., 1., 0.])
    """
    v = np.asarray(v)
    v = v.astype(np.result_type(v, float), copy=False)        # complex vectors stay complex (complex step)
    out = np.zeros(v.shape + (3,), v.dtype)
    out[..., 0, 1], out[..., 0, 2] = -v[..., 2], v[..., 1]
    out[..., 1, 0], out[..., 1, 2] = v[..., 2], -v[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -v[..., 1], v[..., 0]
    return out


def rotation_about(axis, angle):
    """Rotation matrix R = 1 + sin φ [k]× + (1 − cos φ) [k]×² about a unit axis k (Rodrigues).

    Parameters
    ----------
    axis : (3,) array_like
        Unit axis k, in the frame the matrix acts in (not normalized here).
    angle : float or (...) array_like
        Rotation angle φ about k, rad (right-handed); an array gives one matrix per angle (real or complex).

    Returns
    -------
    (3, 3) or (..., 3, 3) ndarray
        R, mapping vectors of the rotated frame into the reference frame.

    Examples
    --------
    >>> np.round(rotation_about([0, 0, 1], np.pi / 2) @ [1.0, 0.0, 0.0], 12)
    array([0., 1., 0.])
    """
    k = skew(np.asarray(axis, float))
    angle = np.asarray(angle)
    return np.eye(3) + np.sin(angle)[..., None, None] * k + (1.0 - np.cos(angle))[..., None, None] * (k @ k)


def _series_coefficients(terms=16, orders=(0, 1, 2)):
    """Power-series coefficients in s of Σ_k (−1)^k s^k/(2k + f)! for f in ``orders`` (rows; f = 0, 1, 2:
    α, β, γ; f = 3: δ) and of their first and second s-derivatives: (len(orders), 3, terms)."""
    from math import factorial
    k = np.arange(terms)
    out = np.zeros((len(orders), 3, terms))
    for i, f in enumerate(orders):                        # α: (−1)^k/(2k)!, β: …/(2k+1)!, γ: …/(2k+2)!
        c = np.array([(-1.0) ** j / factorial(2 * j + f) for j in k])
        out[i, 0] = c
        out[i, 1, :-1] = (k * c)[1:]
        out[i, 2, :-2] = (k * (k - 1) * c)[2:]
    return out


RODRIGUES_SERIES = np.ascontiguousarray(_series_coefficients()[:, :, ::-1])   # highest power first (Horner)
JACOBIAN_SERIES = np.ascontiguousarray(_series_coefficients(orders=(2, 3))[:, :, ::-1])   # γ and δ


def _power_series(series, s):
    """The series (functions, 3, terms; highest power first) at s by Horner's rule: (functions, 3) + s.shape."""
    acc = np.zeros(series.shape[:2] + np.shape(s))
    for c in series.transpose(2, 0, 1):
        acc = acc * s + c.reshape(c.shape + (1,) * np.ndim(s))
    return acc


def _rodrigues_coefficients(s):
    """α = cos φ, β = sin φ / φ, γ = (1 − cos φ)/φ² as functions of s = φ², with their first
    and second derivatives in s: array (3, 3, m) indexed [function, derivative order].
    Power series (16 terms, Horner) below s = 4: converged to round-off (the last term is
    < 4¹⁶/32! ≈ 1e-26) and free of the cancellation of the closed forms near φ = 0;
    closed forms above."""
    s = np.asarray(s, float)
    out = _power_series(RODRIGUES_SERIES, s)
    big = s >= 4.0
    if np.any(big):
        x = s[big]
        phi = np.sqrt(x)
        a, b, g = np.cos(phi), np.sin(phi) / phi, (1 - np.cos(phi)) / x
        a1, b1, g1 = -b / 2, (a - b) / (2 * x), (b / 2 - g) / x
        a2, b2 = -b1 / 2, (a1 - 3 * b1) / (2 * x)
        g2 = (b1 / 2 - 2 * g1) / x
        out[:, :, big] = np.array([[a, a1, a2], [b, b1, b2], [g, g1, g2]])
    return out


def rotated_vector(theta, b, second=True):
    """R(θ) b for the rotation vector θ (R = exp([θ]×), Rodrigues' formula), with its first
    and second derivatives in θ; exact at any angle, including θ = 0.

    R(θ) b = α b + β θ × b + γ (θ·b) θ (Bauchau 2011, eq. 4.19); df[m, c, a] = ∂f_c/∂θ_a.

    Parameters
    ----------
    theta : (3,) or (m, 3) array_like
        Rotation vectors θ = φ k (angle φ in rad times the unit axis k), one per row.
    b : (3,) or (m, 3) array_like
        The vectors to turn (broadcast against ``theta``), in the same frame.
    second : bool, optional
        Also return the second derivatives (default True).

    Returns
    -------
    f : (m, 3) ndarray
        R(θ) b.
    df : (m, 3, 3) ndarray
        ∂f_c/∂θ_a at [m, c, a].
    d2f : (m, 3, 3, 3) ndarray or None
        ∂²f_c/∂θ_a∂θ_b at [m, c, a, b]; None when ``second`` is False.

    Examples
    --------
    >>> f, df, _ = rotated_vector([0.0, 0.0, np.pi], [1.0, 0.0, 0.0], second=False)
    >>> np.round(f, 12)
    array([[-1.,  0.,  0.]])
    """
    theta = np.atleast_2d(np.asarray(theta, float))
    b = np.broadcast_to(np.asarray(b, float), theta.shape)
    (a0, a1, a2), (b0, b1, b2), (g0, g1, g2) = _rodrigues_coefficients(np.einsum("mi,mi->m", theta, theta))
    g = np.empty_like(theta)
    g[:, 0] = theta[:, 1] * b[:, 2] - theta[:, 2] * b[:, 1]
    g[:, 1] = theta[:, 2] * b[:, 0] - theta[:, 0] * b[:, 2]
    g[:, 2] = theta[:, 0] * b[:, 1] - theta[:, 1] * b[:, 0]
    h = np.einsum("mi,mi->m", theta, b)
    I = np.eye(3)
    Bx = -skew(b)                                    # ∂(θ × b)/∂θ
    f = a0[:, None] * b + b0[:, None] * g + (g0 * h)[:, None] * theta
    outer = lambda x, y: x[:, :, None] * y[:, None, :]
    df = (2 * a1[:, None, None] * outer(b, theta) + 2 * b1[:, None, None] * outer(g, theta)
          + b0[:, None, None] * Bx + 2 * (g1 * h)[:, None, None] * outer(theta, theta)
          + g0[:, None, None] * (outer(theta, b) + h[:, None, None] * I))
    if not second:
        return f, df, None
    d2 = lambda c0, c1: 2 * c0[:, None, None] * I + 4 * c1[:, None, None] * outer(theta, theta)   # ∂²c(s)/∂θ²
    Ha, Hb, Hg = d2(a1, a2), d2(b1, b2), d2(g1, g2)
    d_hth = b[:, None, :] * theta[:, :, None] + h[:, None, None] * I          # ∂(h θ_c)/∂θ_a at [m, c, a]
    dd_hth = np.einsum("ma,cb->mcab", b, I) + np.einsum("mb,ca->mcab", b, I)
    d2f = (b[:, :, None, None] * Ha[:, None] + g[:, :, None, None] * Hb[:, None]
           + 2 * b1[:, None, None, None] * (theta[:, None, :, None] * Bx[:, :, None, :]
                                            + theta[:, None, None, :] * Bx[:, :, :, None])
           + (h[:, None] * theta)[:, :, None, None] * Hg[:, None]
           + 2 * g1[:, None, None, None] * (theta[:, None, :, None] * d_hth[:, :, None, :]
                                            + theta[:, None, None, :] * d_hth[:, :, :, None])
           + g0[:, None, None, None] * dd_hth)
    return f, df, d2f


def rotation_matrix(theta):
    """Rotation matrix exp([θ]×) of a rotation vector (Rodrigues' formula, exact at θ = 0).

    Parameters
    ----------
    theta : (3,) array_like
        Rotation vector θ = φ k: angle φ (rad) times the unit axis k.

    Returns
    -------
    (3, 3) ndarray
        R = exp([θ]×).

    Examples
    --------
    >>> np.allclose(rotation_matrix([0.0, 0.0, 0.3]), rotation_about([0, 0, 1], 0.3))
    True
    """
    theta = np.asarray(theta, float)
    return rotated_vector(np.tile(theta, (3, 1)), np.eye(3), second=False)[0].T


def transported(a, b, y):
    """``y`` turned by the smallest rotation taking unit a to unit b: c y + k × y + k (k·y)/(1 + c), k = a × b.

    Parameters
    ----------
    a, b : (..., 3) array_like
        Unit directions, before and after (c = a·b > −1: not opposite), in one frame.
    y : (..., 3) array_like
        The vectors to transport, in the same frame.

    Returns
    -------
    (..., 3) ndarray
        The transported vectors (lengths kept).

    Examples
    --------
    >>> transported([1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0])
    array([0., 0., 1.])
    """
    a, b, y = (np.asarray(x, float) for x in (a, b, y))
    k, c = np.cross(a, b), np.sum(a * b, -1)[..., None]
    return y * c + np.cross(k, y) + k * np.sum(k * y, -1)[..., None] / (1 + c)


def _jacobian_coefficients(s):
    """γ = (1 − cos φ)/φ², δ = (φ − sin φ)/φ³ and their s-derivatives γ′, δ′ at s = φ² (scalar):
    power series below s = 4 (as :func:`_rodrigues_coefficients`), closed forms above."""
    if s < 4.0:
        (g, g1, _), (d, d1, _) = _power_series(JACOBIAN_SERIES, float(s))
        return g, g1, d, d1
    phi = np.sqrt(s)
    a, b = np.cos(phi), np.sin(phi) / phi
    g, d = (1 - a) / s, (1 - b) / s
    b1 = (a - b) / (2 * s)
    return g, (b / 2 - g) / s, d, -(b1 + d) / s


def left_jacobian(phi):
    """The left Jacobian of SO(3), J_l(φ) = 1 + γ [φ]× + δ [φ]×², γ = (1 − cos φ)/φ², δ = (φ − sin φ)/φ³.

    It maps the rate of a rotation vector to the angular velocity in the fixed frame:
    d/dt exp([φ]×) = [J_l(φ) φ̇]× exp([φ]×) (Bauchau 2011, §4.9; Chirikjian 2012, §10.2).
    Exact at any angle, including φ = 0 (power series there, as :func:`rotated_vector`).

    Parameters
    ----------
    phi : (3,) array_like
        Rotation vector (axis × angle), rad.

    Returns
    -------
    ndarray (3, 3)
        J_l, dimensionless.

    Examples
    --------
    >>> import numpy as np
    >>> left_jacobian([0.0, 0.0, 0.0]).tolist() == np.eye(3).tolist()
    True
    >>> (left_jacobian([0, 0, 1.2]) @ [0, 0, 1.0]).round(12).tolist()     # about a fixed axis: ω = φ̇
    [0.0, 0.0, 1.0]
    """
    phi = np.asarray(phi, float)
    g, _, d, _ = _jacobian_coefficients(phi @ phi)
    P = skew(phi)
    return np.eye(3) + g * P + d * P @ P


def left_jacobian_rate(phi, phi_dot):
    """The time derivative of the left Jacobian along a motion, d/dt J_l(φ(t)), analytic:

    J̇_l = 2 (φ·φ̇) (γ′ [φ]× + δ′ [φ]×²) + γ [φ̇]× + δ ([φ̇]×[φ]× + [φ]×[φ̇]×), with γ′, δ′ the
    derivatives of the coefficients of :func:`left_jacobian` in s = φ·φ.

    Parameters
    ----------
    phi : (3,) array_like
        Rotation vector, rad.
    phi_dot : (3,) array_like
        Its rate φ̇, rad/s.

    Returns
    -------
    ndarray (3, 3)
        J̇_l, 1/s.

    Examples
    --------
    >>> left_jacobian_rate([0, 0, 0.7], [0, 0, 2.0]).round(12).tolist()[2]    # fixed axis: J_l φ̇ stays φ̇
    [0.0, 0.0, 0.0]
    """
    phi, phi_dot = np.asarray(phi, float), np.asarray(phi_dot, float)
    g, g1, d, d1 = _jacobian_coefficients(phi @ phi)
    P, Pd = skew(phi), skew(phi_dot)
    s_dot = 2 * phi @ phi_dot
    return s_dot * (g1 * P + d1 * P @ P) + g * Pd + d * (Pd @ P + P @ Pd)


def angular_motion(phi, phi_dot, phi_ddot):
    """Orientation, angular velocity and angular acceleration of a rotation-vector motion φ(t).

    R = exp([φ]×), ω = J_l(φ) φ̇, α = ω̇ = J_l(φ) φ̈ + J̇_l φ̇, so that Ṙ = [ω]× R and
    R̈ = ([α]× + [ω]×²) R; ω and α in the fixed (global) frame.

    Parameters
    ----------
    phi, phi_dot, phi_ddot : (3,) array_like
        φ (rad), φ̇ (rad/s) and φ̈ (rad/s²).

    Returns
    -------
    R : ndarray (3, 3)
        Rotation matrix (fixed-frame components of the rotated axes).
    omega : ndarray (3,)
        Angular velocity, rad/s.
    alpha : ndarray (3,)
        Angular acceleration, rad/s².

    Examples
    --------
    >>> R, w, a = angular_motion([0, 0, np.pi / 2], [0, 0, 2.0], [0, 0, 0.5])
    >>> (R @ [1, 0, 0]).round(12).tolist(), w.round(12).tolist(), a.round(12).tolist()
    ([0.0, 1.0, 0.0], [0.0, 0.0, 2.0], [0.0, 0.0, 0.5])
    """
    phi, phi_dot, phi_ddot = (np.asarray(x, float) for x in (phi, phi_dot, phi_ddot))
    J = left_jacobian(phi)
    return rotation_matrix(phi), J @ phi_dot, J @ phi_ddot + left_jacobian_rate(phi, phi_dot) @ phi_dot
