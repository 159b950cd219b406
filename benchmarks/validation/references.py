"""Reference solutions of the validation cases computed independently of femdyn's elements.

Extensible elastica (Reissner 1972, "On one-dimensional finite-strain beam theory: the
plane problem", ZAMP 23:795–804, without shear): a cantilever of reference length L,
clamped at s = 0 along +x, under a dead tip force F = (F_x, F_y). With s the reference
arc length, θ the tangent angle, N the axial force and M the bending moment,

    x' = λ cos θ,   y' = λ sin θ,   λ = 1 + N/EA,   N = F·(cos θ, sin θ),
    θ' = M/EI,      M' = −(r' × F)_z = F_x y' − F_y x',

with θ(0) = 0 and M(L) = 0 (free end). Shooting on M(0): the ODE is integrated with an
8th-order Runge–Kutta method (DOP853, rtol 1e-13) and M(L)(M(0)) = 0 is solved by the
secant method. EA → ∞ gives the inextensible elastica, checked against Mattiasson 1981
(tests/validation/test_validation_cable.py). Units SI.
"""
import numpy as np
from scipy.integrate import solve_ivp
from scipy.optimize import brentq


def _shoot(M0, L, EA, EI, F, GA=np.inf):
    Fx, Fy = F

    def rhs(s, u):
        x, y, theta, M = u
        c, s_ = np.cos(theta), np.sin(theta)
        lam = 1.0 + (Fx * c + Fy * s_) / EA                  # 1 + N/EA, N = F·d₁
        gamma = (-Fx * s_ + Fy * c) / GA                      # Q/GA, Q = F·d₂
        dx, dy = lam * c - gamma * s_, lam * s_ + gamma * c   # r' = λ d₁ + γ d₂
        return [dx, dy, M / EI, Fx * dy - Fy * dx]

    sol = solve_ivp(rhs, (0.0, L), [0.0, 0.0, 0.0, M0], method="DOP853", rtol=1e-13, atol=1e-15 * max(1.0, abs(M0)))
    return sol.y[:, -1]


def extensible_cantilever_tip(L, EA, EI, F, GA=np.inf):
    """Tip displacement (u_x, u_y) [m] of the extensible elastica cantilever (module
    docstring) of length L [m], axial and bending stiffnesses EA [N], EI [N m²], under the
    dead tip force F = (F_x, F_y) [N]; EA = np.inf for the inextensible elastica. A finite
    shear stiffness GA [N] (k G A) gives Reissner's shear-deformable rod: with the section
    directors d₁ = (cos θ, sin θ), d₂ = (−sin θ, cos θ), r' = (1 + N/EA) d₁ + (Q/GA) d₂,
    N = F·d₁, Q = F·d₂ (Reissner 1972).

    The root moment M(0) = (r(L) × F)_z lies between 0 and (F_y L − F_x |y(L)|)-type
    bounds; it is bracketed by ±2 |F| L (the tip stays within 2L of the root for
    |λ − 1| < 1) and found by Brent's method to round-off.

    Example
    -------
    >>> extensible_cantilever_tip(1.0, np.inf, 1.0, (0.0, -1.0))    # Mattiasson: v/L = 0.30172
    array([-0.05643...,  -0.30174...])
    """
    F = np.asarray(F, float)
    bound = 2.0 * np.linalg.norm(F) * L
    end_moment = lambda M0: _shoot(M0, L, EA, EI, F, GA)[3]
    M0 = brentq(end_moment, -bound, bound, xtol=1e-16 * bound, rtol=1e-15, maxiter=200)
    x, y, _, _ = _shoot(M0, L, EA, EI, F, GA)
    return np.array([x - L, y])


def heavy_top_com(t_end, mass, inertia_com, com, omega0, gravity=(0.0, 0.0, -9.81), rtol=1e-13):
    """Centre of mass [m] at ``t_end`` [s] of a heavy top: a rigid body turning about a fixed
    point at the origin, body axes aligned with the global ones at t = 0, ``inertia_com``
    (3, 3) [kg m²] about the centre of mass and ``com`` (3,) [m] from the fixed point, both
    in body axes, initial angular velocity ``omega0`` (3,) [rad/s] in body axes.

    Euler's equations about the fixed point with the inertia J_O = J_C + m(|X|²1 − X Xᵀ)
    (Steiner), J_O Ω̇ + Ω × J_O Ω = X × Rᵀ m g, and Ṙ = R [Ω]× (Brüls, Cardona & Arnold
    2012, "Lie group generalized-α time integration of constrained flexible multibody
    systems", Mech. Mach. Theory 48:121–137, heavy top), integrated with DOP853 at
    ``rtol``; R is re-orthonormalized only through the accuracy of the integrator (its
    drift, ‖RᵀR − 1‖, is returned for the caller to check).

    Returns
    -------
    com_position : (3,) array [m]
    orthogonality_drift : float
    """
    X = np.asarray(com, float)
    J = np.asarray(inertia_com, float) + mass * (X @ X * np.eye(3) - np.outer(X, X))
    J_inv = np.linalg.inv(J)
    weight = mass * np.asarray(gravity, float)

    def rhs(t, u):
        R, W = u[:9].reshape(3, 3), u[9:]
        torque = np.cross(X, R.T @ weight)
        dW = J_inv @ (torque - np.cross(W, J @ W))
        dR = R @ np.array([[0.0, -W[2], W[1]], [W[2], 0.0, -W[0]], [-W[1], W[0], 0.0]])
        return np.concatenate([dR.ravel(), dW])

    u0 = np.concatenate([np.eye(3).ravel(), np.asarray(omega0, float)])
    sol = solve_ivp(rhs, (0.0, t_end), u0, method="DOP853", rtol=rtol, atol=rtol * 1e-2)
    R = sol.y[:9, -1].reshape(3, 3)
    return R @ X, float(np.abs(R.T @ R - np.eye(3)).max())
