"""The generalized-α scheme's coefficients and the amplification of its one-step map.

Arnold & Brüls 2007 (coefficients), Chung & Hulbert 1993 (ρ∞). Used by the integrator
(:mod:`~femdyn.solvers.generalized_alpha`) and by the step checks of servo runs
(:mod:`~femdyn.solvers.causal_step`).
"""
from dataclasses import dataclass

import numpy as np

from femdyn.errors import SolverError


@dataclass
class Parameters:
    """Generalized-α coefficients (Arnold & Brüls 2007, eqs. 9–11)."""
    alpha_m: float
    alpha_f: float
    gamma: float
    beta: float

    @classmethod
    def from_rho(cls, rho_inf):
        """Coefficients from the spectral radius at infinity ρ∞ (Chung & Hulbert 1993)."""
        if not 0.0 <= rho_inf <= 1.0:
            raise SolverError(f"generalized-α: ρ∞ must lie in [0, 1], got {rho_inf}")
        am, af = (2 * rho_inf - 1) / (rho_inf + 1), rho_inf / (rho_inf + 1)
        g = 0.5 + af - am
        return cls(am, af, g, 0.25 * (g + 0.5) ** 2)


def amplification(sh, rho_inf):
    """Spectral radius of the generalized-α map for ẍ = s² x at one step."""
    p = Parameters.from_rho(rho_inf)
    z2 = complex(sh) ** 2                      # h² q̈ = (sh)² q
    # unknowns (q, h q̇, h² q̈, h² ã) of the new step from those of the old one
    new = np.array([[1, 0, 0, -p.beta], [0, 1, 0, -p.gamma], [0, 0, -(1 - p.alpha_f), 1 - p.alpha_m],
                    [-z2, 0, 1, 0]], complex)
    old = np.array([[1, 1, 0, 0.5 - p.beta], [0, 1, 0, 1 - p.gamma], [0, 0, p.alpha_f, -p.alpha_m], [0, 0, 0, 0]])
    eig = np.linalg.eigvals(np.linalg.solve(new, old))
    return complex(eig[np.argmax(np.abs(eig))])
