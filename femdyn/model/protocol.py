"""The contribution protocol: what every part of a model gives the assembled System.

A *part* is anything that adds terms to the equations of motion

    M(q) q̈ + Φ_qᵀ λ = Q(q, q̇, t),    Φ(q, t) = 0            (García de Jalón & Bayo 1994, eq. 5.2)

through the coordinates of the nodes it uses: a rigid body, an ANCF element set, a load,
a joint, and later a solid or floating-frame component. The System never asks what kind
of part it holds; it only calls the methods below, so a new kind of body, element or load
is a new class in its own module and touches no shared file (see ``docs/contributing.md``).

Contract (every method has a neutral default in :class:`Part`, override what applies):

- ``name`` — unique within its family; names result channels and error messages.
- ``bind(n)`` — called once on the System's own copy, with the number of coordinates n;
  precompute index maps here. Never called on the user's Model objects.
- **mass**: ``mass_coo()`` → (rows, cols, values) of a constant mass block (assembled once);
  a part whose mass depends on q sets ``constant_mass = False`` and also gives
  ``mass_values(q)`` (values on the same rows, cols) and ``mass_derivative(q, a)`` →
  (rows, cols, values) of ∂(M(q) a)/∂q on ``mass_derivative_pattern()``.
  Quadratic-velocity (gyroscopic, centrifugal) forces belong to ``force``.
- ``gravity(g)`` → (dofs, values): the generalized gravity force ∫ρ Sᵀg dV for the
  gravity vector g (m/s²) — only for constant-mass parts (it is then constant and summed once);
  a configuration-dependent part puts gravity into ``force``.
- **forces**: ``force(q, v, t)`` → Q contribution (n,) or None, sign as in the equation above
  (an element's internal force enters with a minus sign); ``applied`` says whether the
  statics load factor scales it (loads: yes; elastic and inertial forces: no).
  ``tangent_pattern()`` → (k_rows, k_cols, c_rows, c_cols) and ``tangent_values(q, v, t)``
  → (k, c): K = −∂Q/∂q and C = −∂Q/∂q̇ on those fixed patterns.
- **constraints**: ``equations()`` → list of :class:`~femdyn.model.constraints.Equation`
  (Φ_i(q, t) = 0 rows, batched by kind with exact Jacobians and Hessians).
- **energy**: ``strain_energy(q)`` (J) — elastic energy stored in the part;
  ``potential_energy(q)`` (J) — the strain energy plus any potential not in ``gravity``.

Sensors read parts through their own methods (material points, strains), not through
this protocol, so a part that cannot be observed still assembles and runs.
"""
from typing import Protocol, runtime_checkable

import numpy as np

EMPTY_INT = np.zeros(0, int)
EMPTY = np.zeros(0)


@runtime_checkable
class Contribution(Protocol):
    """Structural type of a model part (see the module docstring for the contract)."""

    name: str
    applied: bool
    constant_mass: bool

    def bind(self, n): ...

    def mass_coo(self): ...

    def gravity(self, g): ...

    def force(self, q, v, t): ...

    def tangent_pattern(self): ...

    def tangent_values(self, q, v, t): ...

    def equations(self): ...

    def strain_energy(self, q): ...


class Part:
    """Neutral implementation of :class:`Contribution`: a part that adds nothing.

    Subclasses override what they contribute. Example, a linear spring of stiffness k
    (N/m) between two point nodes (see ``tests/parts.py`` for the complete class)::

        class Spring(Part):
            def force(self, q, v, t):
                d = q[self.b] - q[self.a]            # b, a: index arrays of the two points
                ...
    """

    name = "part"
    applied = False          # scaled by the statics load factor?
    constant_mass = True     # mass independent of q?

    def bind(self, n):
        """Called once with the number of coordinates ``n`` of the System."""
        self.n = n

    def mass_coo(self):
        """(rows, cols, values) of the part's mass matrix (constant parts: assembled once)."""
        return EMPTY_INT, EMPTY_INT, EMPTY

    def mass_values(self, q):
        """Values of M(q) on the rows and cols of :meth:`mass_coo` (configuration-dependent parts)."""
        return self.mass_coo()[2]

    def mass_derivative_pattern(self):
        """(rows, cols) of ∂(M(q) a)/∂q (configuration-dependent parts)."""
        return EMPTY_INT, EMPTY_INT

    def mass_derivative(self, q, a):
        """Values of ∂(M(q) a)/∂q on :meth:`mass_derivative_pattern` (kg/s², per unit of q)."""
        return EMPTY

    def gravity(self, g):
        """(dofs, values) of the constant generalized gravity force for gravity g (m/s²)."""
        return EMPTY_INT, EMPTY

    def force(self, q, v, t):
        """Contribution to Q(q, q̇, t) (n,), or None."""
        return None

    def tangent_pattern(self):
        """(k_rows, k_cols, c_rows, c_cols) of K = −∂Q/∂q and C = −∂Q/∂q̇."""
        return EMPTY_INT, EMPTY_INT, EMPTY_INT, EMPTY_INT

    def tangent_values(self, q, v, t):
        """(K values, C values) on :meth:`tangent_pattern`."""
        return EMPTY, EMPTY

    def equations(self):
        """Constraint equations Φ_i(q, t) = 0 of the part."""
        return []

    def strain_energy(self, q):
        """Elastic energy stored in the part (J)."""
        return 0.0

    def potential_energy(self, q):
        """Potential energy of the part other than the constant gravity of ``gravity`` (J):
        its strain energy, plus gravity for a configuration-dependent part."""
        return self.strain_energy(q)
