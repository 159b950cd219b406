"""Ready-made models: the 3-RRRU parallel robot and the RSSR linkage (DAE models), and
serial, tree and free-floating robots for the recursive solvers (PUMA 560 rigid and
flexible, planar and spatial space arms, dual arm).

The 3-RRRU model itself is :func:`femdyn.robots.rrru.rrru` and the planar space robot
:func:`femdyn.robots.planar_space_robot.planar_space_robot` (imported from their modules,
whose names they share).
"""
from .flexible_puma import flexible_puma560, flexible_puma560_dae, puma_inputs, puma_link_component
from .rrru import RRRU, RRRUGeometry, inverse_kinematics, limb_rates
from .rssr import rssr_model
from .serial import dual_arm_links, puma560, space_arm, space_arm_desired

__all__ = ["RRRU", "RRRUGeometry", "inverse_kinematics", "limb_rates", "rssr_model", "puma560", "space_arm",
           "space_arm_desired", "dual_arm_links", "flexible_puma560", "flexible_puma560_dae", "puma_inputs",
           "puma_link_component"]
