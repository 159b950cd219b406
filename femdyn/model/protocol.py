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
    """Structural type of a model part (see the module docstring for the contract).

    ``isinstance(obj, Contribution)`` checks that ``obj`` has the methods below; derive
    from :class:`Part` to get neutral defaults for all of them. The methods are
    documented on :class:`Part`.

    Parameters
    ----------
    *args, **kwargs
        None are taken: a protocol is a type to check against, not to instantiate.

    Attributes
    ----------
    name : str
        Unique within its family; names result channels and error messages.
    applied : bool
        Whether the statics load factor scales :meth:`force`.
    constant_mass : bool
        Whether the mass block is independent of q.
    """

    name: str
    applied: bool
    constant_mass: bool

    def bind(self, n):
        """Precompute index maps for a System of ``n`` coordinates (see :meth:`Part.bind`).

        Parameters
        ----------
        n : int
            Number of coordinates of the System.
        """

    def mass_coo(self):
        """(rows, cols, values) of the mass block (see :meth:`Part.mass_coo`)."""

    def gravity(self, g):
        """Generalized gravity force (dofs, values) (see :meth:`Part.gravity`).

        Parameters
        ----------
        g : ndarray (3,)
            Gravity vector, m/s², global frame.
        """

    def force(self, q, v, t):
        """Contribution to Q(q, q̇, t) (see :meth:`Part.force`).

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their velocities (SI units per coordinate).
        t : float
            Time, s.
        """

    def tangent_pattern(self):
        """(k_rows, k_cols, c_rows, c_cols) of K and C (see :meth:`Part.tangent_pattern`)."""

    def tangent_values(self, q, v, t):
        """(K values, C values) on the tangent pattern (see :meth:`Part.tangent_values`).

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their velocities.
        t : float
            Time, s.
        """

    def equations(self):
        """Constraint equations of the part (see :meth:`Part.equations`)."""

    def strain_energy(self, q):
        """Elastic energy stored in the part, J (see :meth:`Part.strain_energy`).

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        """


class Part:
    """Neutral implementation of :class:`Contribution`: a part that adds nothing.

    Subclasses override what they contribute; the System calls only the methods of this
    class, with the global coordinates q (n,) of the model (SI units: m for positions,
    dimensionless for unit vectors and position gradients) and time t in s. A part
    refers to coordinates through its nodes' ``node.dofs`` (global indices in q).

    Example, a linear spring of stiffness k (N/m) between two point nodes (see
    ``docs/contributing.md`` and ``tests/parts.py`` for the complete class)::

        class Spring(Part):
            def force(self, q, v, t):
                d = q[self.b] - q[self.a]            # b, a: index arrays of the two points
                ...

    Attributes
    ----------
    name : str
        Unique among the parts of its family (bodies, joints, added parts, …).
    applied : bool
        Whether the statics load factor scales :meth:`force` (loads: True; elastic and
        inertial forces: False).
    constant_mass : bool
        Whether :meth:`mass_coo` is independent of q (else :meth:`mass_values` and
        :meth:`mass_derivative` are called every iteration).

    Examples
    --------
    A part that adds nothing assembles and leaves the equations unchanged:

    >>> import femdyn
    >>> from femdyn.model.protocol import Part
    >>> m = femdyn.Model("empty part")
    >>> _ = m.point("P", (0, 0, 0))
    >>> _ = m.add(Part())
    >>> system = m.assemble()
    >>> system.n, system.m
    (3, 0)
    """

    name = "part"
    applied = False          # scaled by the statics load factor?
    constant_mass = True     # mass independent of q?

    def bind(self, n):
        """Prepare the part for a System of ``n`` coordinates.

        Called once, on the System's own deep copy of the part (never on the object the
        user added to the Model): precompute index maps and patterns here. The default
        stores ``self.n = n``; overrides should call it or set ``n`` themselves.

        Parameters
        ----------
        n : int
            Number of coordinates q of the System.
        """
        self.n = n

    def mass_coo(self):
        """The part's mass block as COO triplets.

        Constant-mass parts: assembled once into the System's mass matrix (duplicates
        are summed). Configuration-dependent parts (``constant_mass = False``): the
        rows and cols fix the pattern, the values those of M(q0).

        Returns
        -------
        rows, cols : ndarray of int
            Global indices into q.
        values : ndarray of float
            Mass entries (kg for position coordinates; kg·m or kg·m² for entries of
            dimensionless coordinates).
        """
        return EMPTY_INT, EMPTY_INT, EMPTY

    def mass_values(self, q):
        """Values of M(q) on the rows and cols of :meth:`mass_coo` (configuration-dependent parts).

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        ndarray
            One value per entry of :meth:`mass_coo`'s pattern. The default returns the
            constant values of :meth:`mass_coo`.
        """
        return self.mass_coo()[2]

    def mass_derivative_pattern(self):
        """(rows, cols) of ∂(M(q) a)/∂q (configuration-dependent parts; empty by default)."""
        return EMPTY_INT, EMPTY_INT

    def mass_derivative(self, q, a):
        """Values of ∂(M(q) a)/∂q on :meth:`mass_derivative_pattern` (configuration-dependent parts).

        This is the inertia term of the Newton iteration matrix; constant-mass parts
        leave it empty.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.
        a : ndarray (n,)
            Accelerations q̈ (m/s² for position coordinates).

        Returns
        -------
        ndarray
            One value per entry of the pattern (kg/s² per unit of q for position rows).
        """
        return EMPTY

    def gravity(self, g):
        """The constant generalized gravity force ∫ρ Sᵀg dV of a constant-mass part.

        Summed once at assembly; a configuration-dependent part returns nothing here and
        puts its weight into :meth:`force`.

        Parameters
        ----------
        g : ndarray (3,)
            Gravity vector, m/s², global frame.

        Returns
        -------
        dofs : ndarray of int
            Global indices into q (duplicates are summed).
        values : ndarray of float
            Generalized forces (N for position coordinates).
        """
        return EMPTY_INT, EMPTY

    def force(self, q, v, t):
        """Contribution to the generalized forces Q(q, q̇, t).

        Sign as in M q̈ + Φ_qᵀλ = Q: applied loads enter with their own sign, an
        element's internal (elastic, damping) forces with a minus sign; quadratic-velocity
        forces of configuration-dependent parts belong here too.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their time derivatives.
        t : float
            Time, s.

        Returns
        -------
        ndarray (n,) or None
            The contribution (N for position coordinates), or None when the part adds
            no force (the default).
        """
        return None

    def tangent_pattern(self):
        """Fixed COO patterns of the stiffness K = −∂Q/∂q and damping C = −∂Q/∂q̇.

        Returns
        -------
        k_rows, k_cols, c_rows, c_cols : ndarray of int
            Global indices; empty (the default) when the part's forces do not depend on
            q or q̇.
        """
        return EMPTY_INT, EMPTY_INT, EMPTY_INT, EMPTY_INT

    def tangent_values(self, q, v, t):
        """Values of K = −∂Q/∂q and C = −∂Q/∂q̇ on :meth:`tangent_pattern`.

        Parameters
        ----------
        q, v : ndarray (n,)
            Coordinates and their time derivatives.
        t : float
            Time, s.

        Returns
        -------
        k, c : ndarray
            One value per entry of the K and C patterns (N/m and N·s/m for position
            coordinates).
        """
        return EMPTY, EMPTY

    def equations(self):
        """Constraint equations Φ_i(q, t) = 0 of the part.

        Returns
        -------
        list of femdyn.model.constraints.Equation
            Rows batched by kind with exact Jacobians and Hessians (empty by default).
        """
        return []

    def strain_energy(self, q):
        """Elastic energy stored in the part.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        float
            Energy in J (0 by default).
        """
        return 0.0

    def potential_energy(self, q):
        """Potential energy of the part other than the constant gravity of :meth:`gravity`.

        Its strain energy, plus gravity for a configuration-dependent part; the System
        adds −Q_gᵀq for the constant gravity.

        Parameters
        ----------
        q : ndarray (n,)
            Coordinates.

        Returns
        -------
        float
            Energy in J (the default: :meth:`strain_energy`).
        """
        return self.strain_energy(q)
