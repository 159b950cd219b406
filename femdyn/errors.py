"""Exceptions raised by femdyn.

Every error names the offending object (node, element, joint, solver step) and says how
to fix the input, so users never have to read a numpy traceback.
"""

__all__ = ["FemdynError", "ModelError", "ConstraintError", "NonFiniteError", "SolverError", "ConvergenceError",
           "SingularMatrixError", "FemdynWarning", "UnitsWarning", "StepSizeWarning", "PhysicalConsistencyWarning",
           "ServoWarning"]


class FemdynError(Exception):
    """Base class of all femdyn errors."""


class ModelError(FemdynError, ValueError):
    """Invalid model input: unknown node, zero-length link, bad material data, ..."""


class SchemaError(ModelError):
    """An input file (TOML) that does not follow its schema: unknown table or key, value of
    the wrong kind or out of range, missing key; the message names the file, the table and
    key, and what to write instead (:mod:`femdyn.schema`)."""


class ConstraintError(ModelError):
    """Redundant, conflicting or unsatisfiable constraints."""


class SolverError(FemdynError, RuntimeError):
    """A simulation that could not continue; ``results`` holds the steps computed before the failure (or None).

    Parameters
    ----------
    message : str
        What failed, where (time, step) and what to try.
    results : femdyn.results.Results, optional
        The steps computed before the failure.
    """

    def __init__(self, message, results=None):
        super().__init__(message)
        self.results = results


class ConvergenceError(SolverError):
    """Newton iterations did not converge.

    Parameters
    ----------
    message : str
        The diagnosis (stalled or diverged, residuals, time).
    results : femdyn.results.Results, optional
        The steps computed before the failure.
    """


class SingularMatrixError(SolverError):
    """The iteration (KKT) matrix is singular: redundant constraints or a lost degree of freedom.

    Parameters
    ----------
    message : str
        The diagnosis, naming the dependent constraint rows where known.
    results : femdyn.results.Results, optional
        The steps computed before the failure.
    """


class NonFiniteError(ModelError):
    """A NaN or infinite number in the model input or the initial state; the message names
    the part, or the node and component of the coordinate."""


class FemdynWarning(UserWarning):
    """Base class of femdyn's warnings: input that is accepted but probably not what was
    meant. Silence one kind with ``warnings.filterwarnings("ignore", category=...)``."""


class UnitsWarning(FemdynWarning):
    """A value far outside its physical range in SI units (gravity, density, Young's
    modulus, lengths, inertia against mass): often a model in mm, g or N/mm²."""


class StepSizeWarning(FemdynWarning):
    """A time step too large to resolve the shortest period of the linearized model while
    the integrator does not damp that mode out."""


class PhysicalConsistencyWarning(FemdynWarning):
    """Mass properties no rigid body can have (zero mass, inertia violating positivity or
    the triangle inequality), accepted because the caller asked for ``strict=False``."""


class ServoWarning(FemdynWarning):
    """Servo-constraint inverse dynamics with settings its realization does not suit: a
    non-collocated servo (an actuator reaching its prescribed output only through other
    bodies or compliant elements) integrated with too little numerical damping."""
