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
    """A simulation that could not continue, carrying what was computed before the failure.

    Every payload a solver or study attaches to its error is declared here (None or empty when
    the raiser has none); raisers that learn a payload late (the integrator closes the partial
    Results after the failing step raised) set the attribute on the caught error.

    Parameters
    ----------
    message : str
        What failed, where (time, step) and what to try.
    results : femdyn.results.Results, optional
        The steps computed before the failure (time integration, servo inverses).
    partial : object, optional
        The partial answer of a solver whose answer is not a Results: the
        :class:`~femdyn.solvers.continuation.EquilibriumPath` traced up to the failure, or a
        study part's (Results, System, …) tuple.
    study : dict, optional
        A study's outputs computed before the failure (its ``summary`` and finished parts), for
        the command line to print and picture.
    history : list of tuple, optional
        The failed step's Newton iterations (step, iteration, residual norms), recorded into the
        partial Results.

    Attributes
    ----------
    results, partial, study, history
        As given (``history`` a list, empty by default).

    Examples
    --------
    >>> from femdyn.errors import ConvergenceError
    >>> err = ConvergenceError("no convergence at t = 0.1 s", partial=[0.0, 0.05])
    >>> err.results is None, err.partial, err.history
    (True, [0.0, 0.05], [])
    """

    def __init__(self, message, results=None, *, partial=None, study=None, history=None):
        super().__init__(message)
        self.results = results
        self.partial = partial
        self.study = study
        self.history = [] if history is None else history


class ConvergenceError(SolverError):
    """Newton iterations did not converge.

    Parameters
    ----------
    message : str
        The diagnosis (stalled or diverged, residuals, time).
    results, partial, study, history : optional
        What was computed before the failure, as for :class:`SolverError`.
    """


class SingularMatrixError(SolverError):
    """The iteration (KKT) matrix is singular: redundant constraints or a lost degree of freedom.

    Parameters
    ----------
    message : str
        The diagnosis, naming the dependent constraint rows where known.
    results, partial, study, history : optional
        What was computed before the failure, as for :class:`SolverError`.
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
