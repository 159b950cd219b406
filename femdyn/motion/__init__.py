"""Functions of time that drive constraints and loads: steps, ramps, polynomials, tables."""
from .timefunctions import Constant, Polynomial, RampedMotion, Sine, SmoothStep, Tabulated, TimeFunction, as_time_function

__all__ = ["TimeFunction", "Constant", "Polynomial", "Sine", "SmoothStep", "RampedMotion", "Tabulated",
           "as_time_function"]
