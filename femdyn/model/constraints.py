"""Constraint equations Φ(q, t) = 0 gathered from joints, bodies and nodes.

:class:`ConstraintSet` batches the :class:`Equation` records by kind and gives, in global row
order, Φ, Φ_q, ∂(Φ_qᵀλ)/∂q, Φ_t and γ = −ζ with Φ̈ = Φ_q q̈ + ζ.
"""
from dataclasses import dataclass

import numpy as np

from ..sparse import Pattern
from .vectorfunctions import CODES, Batch, FunctionGroup, Targets


@dataclass
class Equation:
    """One constraint row φ(x_1, …, x_k, t) = 0 over material vectors, before batching."""

    kind: type
    exprs: tuple
    param: object = None
    value: float = 0.0
    function: object = None
    label: str = ""


class ConstraintSet:
    """All equations of a model with fixed row order (row i = equations[i])."""

    def __init__(self, equations, n, compiled=True):
        self.equations, self.n, self.m = equations, n, len(equations)
        self.labels = [e.label for e in equations]
        self.groups = []
        for kind in dict.fromkeys(e.kind for e in equations):
            rows = np.array([i for i, e in enumerate(equations) if e.kind is kind])
            eqs = [equations[i] for i in rows]
            params = np.array([e.param if e.param is not None else np.zeros(3) for e in eqs], float)
            targets = Targets([e.value for e in eqs], [e.function for e in eqs])
            self.groups.append((rows, FunctionGroup(kind, [e.exprs for e in eqs], params, targets, n, compiled=False)))
        # the built-in kinds first, evaluated by one compiled call; other kinds by their own methods
        builtin = [(rows, g) for rows, g in self.groups if compiled and g.kind in CODES]
        self.generic = [(rows, g) for rows, g in self.groups if not (compiled and g.kind in CODES)]
        self.groups = builtin + self.generic
        self.batch = Batch(builtin, self.m)
        self.jac_rows = np.concatenate([rows[g.eq] for rows, g in self.groups]) if self.groups else np.zeros(0, int)
        self.jac_cols = np.concatenate([g.cols for _, g in self.groups]) if self.groups else np.zeros(0, int)
        self.hess_rows = np.concatenate([g.h_rows for _, g in self.groups]) if self.groups else np.zeros(0, int)
        self.hess_cols = np.concatenate([g.h_cols for _, g in self.groups]) if self.groups else np.zeros(0, int)
        self.jac_pattern = Pattern(self.jac_rows, self.jac_cols, (self.m, n))

    def evaluate(self, q, t):
        """Φ (m,) and the COO values of Φ_q on (jac_rows, jac_cols)."""
        phi, jac = self.batch.evaluate(q, t)
        if not self.generic:
            return phi, jac
        vals = [jac]
        for rows, g in self.generic:
            p, v = g.evaluate(q, t)
            phi[rows] = p
            vals.append(v)
        return phi, np.concatenate(vals)

    def phi(self, q, t):
        """Constraint values Φ(q, t) (m,)."""
        return self.evaluate(q, t)[0]

    def transpose_product(self, jac_values, lam):
        """Φ_qᵀλ from the COO values of Φ_q (no matrix is formed)."""
        return np.bincount(self.jac_cols, weights=jac_values * lam[self.jac_rows], minlength=self.n)

    def jacobian(self, q, t):
        """The sparse Jacobian Φ_q (m × n, CSR)."""
        return self.jac_pattern.matrix(self.evaluate(q, t)[1])

    def hessian_values(self, q, lam):
        """COO values of ∂(Φ_qᵀλ)/∂q = Σ λ_i ∂²Φ_i/∂q² on (hess_rows, hess_cols)."""
        vals = self.batch.hessian_values(q, lam)
        if not self.generic:
            return vals
        return np.concatenate([vals] + [g.hessian_values(q, lam[rows]) for rows, g in self.generic])

    def acceleration_terms(self, q, v, t):
        """Φ_t (m,) and γ (m,) with Φ_q q̈ = γ."""
        phi_t, gamma = self.batch.acceleration_terms(q, v, t)
        for rows, g in self.generic:
            pt, zeta = g.acceleration_terms(q, v, t)
            phi_t[rows], gamma[rows] = pt, -zeta
        return phi_t, gamma
