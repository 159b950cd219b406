"""Model building: nodes, bodies, ANCF element sets, joints, loads and sensors
(:class:`Model`), and their assembled, frozen form (:class:`System`)."""
from .builder import Model
from .system import System

__all__ = ["Model", "System"]
