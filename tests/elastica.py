"""Reference solution of the inextensible elastica: cantilever under a dead tip load.

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
