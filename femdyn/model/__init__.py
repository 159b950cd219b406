"""Model building: the :class:`Model` (registry of nodes and parts, with every family's
constructors), its assembled, frozen form (:class:`System`), and the part contract
(:class:`Part` and its side contracts) that a new kind of body, element, load or sensor
follows."""
from .builder import Model
from .flexible import register_element_kind
from .forcelaws import Table, UserForce
from .nodes import register_node_kind
from .protocol import Body, Constraint, Inputs, Part, Sensor
from .sensors import Gauge
from .system import System

__all__ = ["Model", "System", "Part", "Constraint", "Inputs", "Body", "Sensor", "Gauge", "Table", "UserForce",
           "register_node_kind", "register_element_kind"]
