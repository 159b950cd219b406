"""Small geometric helpers, written once for the whole library: the cross-product matrix
(:func:`skew`), the Levi-Civita tensor (:data:`LEVI_CIVITA`) and Rodrigues' rotation
(:func:`rotation_about`, :func:`rotation_matrix`, :func:`rotated_vector` with its derivatives,
:func:`transported` along the smallest rotation between two directions)."""
import numpy as np

__all__ = ["skew", "LEVI_CIVITA", "rotation_about", "rotation_matrix", "rotated_vector", "transported"]

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
    v = np.asarray(v, float)
    out = np.zeros(v.shape + (3,))
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
    angle : float
        Rotation angle φ about k, rad (right-handed).

    Returns
    -------
    (3, 3) ndarray
        R, mapping vectors of the rotated frame into the reference frame.

    Examples
    --------
    >>> np.round(rotation_about([0, 0, 1], np.pi / 2) @ [1.0, 0.0, 0.0], 12)
    array([0., 1., 0.])
    """
    k = skew(np.asarray(axis, float))
    return np.eye(3) + np.sin(angle) * k + (1.0 - np.cos(angle)) * k @ k


def _series_coefficients(terms=16):
    """Power-series coefficients in s of α, β, γ (rows) and of their first and second
    s-derivatives: (3, 3, terms)."""
    from math import factorial
    k = np.arange(terms)
    out = np.zeros((3, 3, terms))
    for f in range(3):                                    # α: (−1)^k/(2k)!, β: …/(2k+1)!, γ: …/(2k+2)!
        c = np.array([(-1.0) ** j / factorial(2 * j + f) for j in k])
        out[f, 0] = c
        out[f, 1, :-1] = (k * c)[1:]
        out[f, 2, :-2] = (k * (k - 1) * c)[2:]
    return out


RODRIGUES_SERIES = np.ascontiguousarray(_series_coefficients()[:, :, ::-1])   # highest power first (Horner)


def _rodrigues_coefficients(s):
    """α = cos φ, β = sin φ / φ, γ = (1 − cos φ)/φ² as functions of s = φ², with their first
    and second derivatives in s: array (3, 3, m) indexed [function, derivative order].
    Power series (16 terms, Horner) below s = 4: converged to round-off (the last term is
    < 4¹⁶/32! ≈ 1e-26) and free of the cancellation of the closed forms near φ = 0;
    closed forms above."""
    s = np.asarray(s, float)
    out = np.empty((3, 3) + s.shape)
    acc = np.zeros((3, 3) + s.shape)
    for c in RODRIGUES_SERIES.transpose(2, 0, 1):
        acc = acc * s + c[:, :, None]
    out[...] = acc
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
