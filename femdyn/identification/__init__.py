"""Dynamic parameter identification on the recursive solvers (the space-robot identification study and beyond).

* regressors (in :mod:`femdyn.solvers.recursive.regressor`): momentum, joint forces and
  first moment of any tree, linear in the inertial parameters π;
* :mod:`.parameters` — names, physical form, consistency, selections of physical parameters;
* :mod:`.base_parameters` — identifiable combinations by pivoted QR;
* :mod:`.excitation` — cubic plans and optimized Fourier series;
* :mod:`.experiment` — simulated measurements (reaction-wheel momentum, joint forces), noise;
* :mod:`.regression` — measurement equations (linear stacks, centroidal momentum);
* :mod:`.estimators` — least squares with covariance, the linearized iteration, differential evolution;
* :mod:`.report`, :mod:`.config`, :mod:`.study`, :mod:`.torque_study` — tables, plots, TOML studies
  (``femdyn identify``): momentum of a free-floating robot, joint forces of a fixed-base arm.
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
