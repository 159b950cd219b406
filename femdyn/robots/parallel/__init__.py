"""Parallel robots of any architecture, described as data (docs/parallel-robots.md)."""
from .catalogue import (READY, delta, linear_delta, parallel_robot, planar_3rrr, robot_description, rps_3, rrru_3,
                        stewart)
from .component_link import ComponentSpec
from .description import (BeamSpec, Joint, Limb, Link, Platform, RobotDescription, description_from_dict,
                          read_description)
from .robot import ParallelRobot

__all__ = ["BeamSpec", "ComponentSpec", "Joint", "Limb", "Link", "Platform", "RobotDescription",
           "description_from_dict", "read_description", "ParallelRobot", "READY", "parallel_robot", "robot_description",
           "delta", "linear_delta", "stewart", "planar_3rrr", "rps_3", "rrru_3"]
