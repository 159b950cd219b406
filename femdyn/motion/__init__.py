"""Functions of time that drive constraints and loads: steps, ramps, tables, S-curves, paths, trajectories, poses."""
from .timefunctions import Constant, Polynomial, RampedMotion, Sine, SmoothStep, Tabulated, TimeFunction, as_time_function
from .poses import PoseTrajectory, as_pose_trajectory
from .trajectories import (CirclePath, LinePath, MotionSequence, Path, PathMotion, PolylinePath, SCurve, StateFunction,
                           Trajectory, stop_at_vertices)

__all__ = ["TimeFunction", "Constant", "Polynomial", "Sine", "SmoothStep", "RampedMotion", "Tabulated",
           "as_time_function", "SCurve", "Path", "LinePath", "CirclePath", "PolylinePath", "Trajectory",
           "PathMotion", "MotionSequence", "StateFunction", "stop_at_vertices", "PoseTrajectory", "as_pose_trajectory"]
