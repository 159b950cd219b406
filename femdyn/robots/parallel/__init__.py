"""Parallel robots of any architecture, described as data (docs/parallel-robots.md)."""
from .description import (BeamSpec, Joint, Limb, Link, Platform, RobotDescription, description_from_dict,
                          read_description)
from .robot import ParallelRobot

__all__ = ["BeamSpec", "Joint", "Limb", "Link", "Platform", "RobotDescription", "description_from_dict",
           "read_description", "ParallelRobot"]
