"""Dynamic parameter identification on the recursive solvers (docs/identification.md).

Parameters and consistency (:mod:`.parameters`), base parameters (:mod:`.base_parameters`), excitation,
simulated experiments, measurement equations, estimators, and TOML studies (``femdyn identify``).
"""
from .base_parameters import BaseParameters, base_parameters, structural
from .estimators import Estimate, global_fit, least_squares, linearized_iteration
from .excitation import Cubic, Fourier, optimize_fourier
from .experiment import Measurements, add_noise, merge_body, torque_experiment, wheel_experiment
from .parameters import Selection, consistency, parameter_names, with_parameters
from .regression import CentroidalMomentum, momentum_rows, torque_rows

__all__ = ["BaseParameters", "CentroidalMomentum", "Cubic", "Estimate", "Fourier", "Measurements", "Selection",
           "add_noise", "base_parameters", "consistency", "global_fit", "least_squares", "linearized_iteration",
           "merge_body", "momentum_rows", "optimize_fourier", "parameter_names", "structural", "torque_experiment",
           "torque_rows", "wheel_experiment", "with_parameters"]
