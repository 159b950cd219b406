"""Meshes and pictures of geometry: solid meshes (read, generated, checked, node sets), line
meshes for beams (:mod:`femdyn.mesh.lines`, used by the model builder), the geometry of a
configuration that every picture draws from, ParaView series and pictures of a component's
modes."""
from .configuration import ConfigurationGeometry, configuration_geometry
from .generate import box_mesh, rod_mesh
from .pictures import RenderError, render_modes, write_mode_vtu
from .solid import MeshError, SolidMesh, read_solid_mesh, select
from .vtk import write_series

__all__ = ["ConfigurationGeometry", "configuration_geometry", "box_mesh", "rod_mesh", "MeshError", "SolidMesh",
           "read_solid_mesh", "select", "write_series", "RenderError", "render_modes", "write_mode_vtu"]
