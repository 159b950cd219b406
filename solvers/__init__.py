"""Solvers of an assembled :class:`~femdyn.model.system.System` (index-3 DAE in natural and ANCF coordinates).

Statics (:func:`static_equilibrium`) and load–displacement paths (:func:`equilibrium_path`, :class:`EquilibriumPath`), consistent initial conditions (:func:`consistent_state`),
generalized-α time integration (:func:`integrate`, :class:`Options`; a tolerance instead of a step
and :class:`Event` functions located in the run: docs/time-step.md), free vibration
(:func:`eigenmodes` of a System, :func:`sparse_eigenmodes` of matrices), and servo (inverse)
problems: the stable causal inverse (:func:`stable_causal_inverse`), the linearized zero dynamics
and bounded inverses (:func:`linearize`, :func:`zero_dynamics`, :func:`noncausal_inverse`, …),
the realization check (:func:`servo_realization`) and the step of a plain causal inverse
(:func:`servo_step`). All drive one saddle matrix [[A, Φ_qᵀ], [Φ_q, 0]] (:mod:`.kkt`) by weights;
conventions in docs/conventions.md.
"""
from .causal_step import servo_step
from .continuation import EquilibriumPath, equilibrium_path
from .eigen import Eigenmodes, eigenmodes, sparse_eigenmodes
from .events import Event
from .generalized_alpha import Options, integrate
from .initial import consistent_state
from .invariant_zeros import ZeroDynamics, zero_dynamics
from .inverses import Inverse, causal_inverse, noncausal_inverse, optimal_control_inverse
from .linearization import LinearServo, linearize
from .servo import servo_realization
from .stable_inverse import StableInverseOptions, stable_causal_inverse
from .static import static_equilibrium

__all__ = ["EquilibriumPath", "equilibrium_path", "Eigenmodes", "Event", "Inverse", "LinearServo", "Options", "StableInverseOptions", "ZeroDynamics",
           "causal_inverse", "consistent_state", "eigenmodes", "integrate", "linearize", "noncausal_inverse",
           "optimal_control_inverse", "servo_realization", "servo_step", "sparse_eigenmodes",
           "stable_causal_inverse", "static_equilibrium", "zero_dynamics"]
