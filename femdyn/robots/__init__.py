"""Ready-made models: the 3-RRRU parallel robot and the RSSR linkage (DAE models), and serial,
tree and free-floating robots for the recursive solvers. The 3-RRRU model itself is
:func:`femdyn.robots.rrru.rrru`, the space robot :func:`femdyn.robots.planar_space_robot.planar_space_robot`;
parallel robots of any architecture as descriptions (six ready ones, or a TOML file):
:func:`femdyn.robots.parallel.parallel_robot`."""
from .parallel import parallel_robot, read_description
from .flexible_puma import flexible_puma560, flexible_puma560_dae, puma_inputs, puma_link_component
from .rrru import RRRU, RRRUGeometry, inverse_kinematics, limb_rates
from .rssr import rssr_model
from .serial import dual_arm_links, puma560, space_arm, space_arm_desired

__all__ = ["RRRU", "RRRUGeometry", "inverse_kinematics", "limb_rates", "rssr_model", "puma560", "space_arm",
           "space_arm_desired", "dual_arm_links", "flexible_puma560", "flexible_puma560_dae", "puma_inputs",
           "puma_link_component", "parallel_robot", "read_description"]
