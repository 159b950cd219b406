"""Reference solutions: the inextensible elastica (cantilever under a dead tip load) and,
at the end, the small deflections of a quarter-ring cantilever (Castigliano).

Published values: Mattiasson 1981, "Numerical results from large deflection beam and
frame problems analysed by means of elliptic integrals", Int. J. Numer. Meth. Engng
17:145–153, Table I (tip deflections of a cantilever with a transverse tip load).
Independent check: with θ the slope angle, EI θ'' = −P cos θ, θ(0) = 0, θ'(L) = 0, the
first integral θ'² = 2(P/EI)(sin θ_L − sin θ) gives, with w² = sin θ_L − sin θ,
    L = ∫₀^√S 2 dw / (√(2P/EI) cos θ),  v = ∫₀^√S 2 (S − w²) dw / (√(2P/EI) cos θ),
    x_L = √(2 S EI/P),   S = sin θ_L,  cos θ = √(1 − (S − w²)²)
(elliptic integrals evaluated by adaptive quadrature); S is found so that L = 1.
"""
import numpy as np
from scipy.integrate import quad
from scipy.optimize import brentq

MATTIASSON = {1.0: (0.30172, 0.05643), 2.0: (0.49346, 0.16064), 5.0: (0.71379, 0.38763), 10.0: (0.81061, 0.55500)}


def _integrals(S, lam):
    c = np.sqrt(2 * lam)
    cos = lambda w: np.sqrt(1 - (S - w * w) ** 2)
    length = quad(lambda w: 2 / (c * cos(w)), 0, np.sqrt(S), epsabs=0, epsrel=1e-11, limit=200)[0]
    v = quad(lambda w: 2 * (S - w * w) / (c * cos(w)), 0, np.sqrt(S), epsabs=0, epsrel=1e-11, limit=200)[0]
    return length, v, np.sqrt(2 * S / lam)


def cantilever_tip(load_parameter):
    """(v/L, u/L): tip deflection along the load and shortening, for PL²/EI = load_parameter (L = EI = 1)."""
    lam = float(load_parameter)
    S = brentq(lambda S: _integrals(S, lam)[0] - 1.0, 1e-9, 0.9999, xtol=1e-15)
    _, v, x = _integrals(S, lam)
    return v, 1.0 - x


def quarter_ring_tip(F, R, EI_in, EI_out, GJ, EA, kGA):
    """Tip deflections (in-plane along the free end's normal, out-of-plane) of a quarter-circle
    cantilever of radius R clamped at one end under a tip force F, by Castigliano's
    theorem for a thin curved bar (as in Young & Budynas, Roark's Formulas for Stress and
    Strain, 7th ed., 2002, ch. 9, curved beams in and normal to their plane).
    With φ the angle from the clamp and the load at φ = π/2:
    - in plane, F along the radius at the tip: M = FR cos φ, N = F cos φ, V = F sin φ,
      δ = πFR³/4EI + πFR/4EA + πFR/4kGA;
    - out of plane: bending moment FR cos φ, torque FR(1 − sin φ), shear F,
      δ = πFR³/4EI + (3π/4 − 2)FR³/GJ + πFR/2kGA.
    Thin-bar energy: the coupling of bending and stretch of a curved bar, relative
    ~I/(AR²), is left out."""
    inplane = np.pi / 4 * F * R**3 / EI_in + np.pi / 4 * F * R / EA + np.pi / 4 * F * R / kGA
    outplane = np.pi / 4 * F * R**3 / EI_out + (3 * np.pi / 4 - 2) * F * R**3 / GJ + np.pi / 2 * F * R / kGA
    return inplane, outplane
