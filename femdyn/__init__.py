"""femdyn: rigid-flexible multibody dynamics with natural coordinates and finite elements.

Build a :class:`Model`, ``assemble()`` it into a :class:`System`, and solve with
:mod:`femdyn.solvers` (static equilibrium, generalized-α). SI units throughout.
"""
from .errors import (ConstraintError, ConvergenceError, FemdynError, FemdynWarning, ModelError, NonFiniteError,
                     PhysicalConsistencyWarning, ServoWarning, SingularMatrixError, SolverError, StepSizeWarning,
                     UnitsWarning)
from .model import Model, System, Table, UserForce
from .results import Results, load

from .motion.timefunctions import Constant, Polynomial, Sine, SmoothStep, TimeFunction

__all__ = ["Model", "System", "Results", "load", "FemdynError", "ModelError", "ConstraintError", "SolverError",
           "ConvergenceError", "SingularMatrixError", "TimeFunction", "Constant", "Polynomial", "Sine",
           "SmoothStep", "NonFiniteError", "FemdynWarning", "UnitsWarning", "StepSizeWarning",
           "PhysicalConsistencyWarning", "ServoWarning", "Table", "UserForce"]
__version__ = "0.1.0"
