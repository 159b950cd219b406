"""Recursive O(N) rigid-body dynamics of kinematic trees (Featherstone 2008, RBDA).

Spatial vectors are [angular; linear] (see :mod:`.spatial`); bodies in parent-first
order; an immutable :class:`TreeModel`, a mutable :class:`Data` workspace, and the
algorithms as functions of both. Closed loops are a tree plus :class:`LoopClosure`
constraints, one per cut joint, of that joint's kind; :func:`build_topology` makes both
from links' configuration parameters. Flexible bodies with modal coordinates:
:class:`FlexibleTreeModel` of :class:`ModalBody` (:mod:`.flexible`), their dynamics in
:mod:`.flexible_dynamics`, time integration by :func:`simulate_flexible`, strains and stresses by
:func:`body_stresses` and :func:`body_gauges`. ParaView series of every body of a run (rigid and
flexible) by :func:`write_series`.
"""
from .closed_loop import LoopClosure, close_loops, constrained_forward_dynamics, project
from .configuration import TreeSpace, VectorSpace
from .control import computed_torque, track
from .data import Data
from .dynamics import (center_of_mass, forward_dynamics, hybrid_dynamics, inverse_dynamics, kinematics,
                       mass_matrix, momentum)
from .flexible import FlexibleTreeModel, ModalBody, flexible_chain
from .flexible_dynamics import FlexibleData
from .flexible_simulation import FlexibleTrajectory, simulate_flexible
from .floating import floating_base_inverse_dynamics
from .modal_strains import body_gauges, body_stresses
from .integrators import Trajectory, simulate
from .series import write_series
from .model import Body, Joint, TreeModel
from .topology import Interface, Link, Topology, build_topology, inertia_sets

__all__ = ["Body", "Data", "FlexibleData", "FlexibleTrajectory", "FlexibleTreeModel", "Interface", "Joint", "Link",
           "LoopClosure", "ModalBody", "Topology", "Trajectory", "TreeModel", "flexible_chain", "simulate_flexible",
           "TreeSpace", "VectorSpace", "close_loops", "build_topology", "center_of_mass", "computed_torque",
           "constrained_forward_dynamics", "floating_base_inverse_dynamics", "forward_dynamics", "hybrid_dynamics",
           "inertia_sets", "inverse_dynamics", "kinematics", "mass_matrix", "momentum", "project",
           "simulate", "track", "body_gauges", "body_stresses", "write_series"]
