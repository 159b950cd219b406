"""Servo inversion, linearized: the one import place of its steps, each in its own module.

Linearized about (q, λ), a servo problem reads (Blajer & Kołodziejczyk 2004, eqs. 1–3)

    M δq̈ + C δq̇ + K_t δq + Φ_qᵀ δμ = f(t) + Bᵀ u,   Φ_q δq = 0,   Ψ_q δq = y(t),

and with δq = N z (N a basis of the joint rows' null space) an ODE in z
(:mod:`.linearization`). Its zero dynamics (Isidori 1995) are the finite eigenvalues of its
Rosenbrock pencil (:mod:`.invariant_zeros`). Inverses (:mod:`.inverses`):
:func:`causal_inverse` (forward from rest), :func:`noncausal_inverse` (Devasia, Chen & Paden
1996, IEEE TAC 41(7):930–942: stable part forward, unstable backward) and
:func:`optimal_control_inverse` (Bastos, Seifried & Brüls 2013, Multibody Syst. Dyn.
30:359–376). Dense: up to a few thousand coordinates. Derivations and checks: docs/inversion.md.
"""
from .invariant_zeros import ZeroDynamics, zero_dynamics
from .inverses import Inverse, causal_inverse, noncausal_inverse, optimal_control_inverse
from .linearization import LinearServo, linearize

__all__ = ["LinearServo", "linearize", "ZeroDynamics", "zero_dynamics", "Inverse", "causal_inverse",
           "noncausal_inverse", "optimal_control_inverse"]
