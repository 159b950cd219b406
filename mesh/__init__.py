"""Meshes and pictures of geometry: CAD parts (STEP, IGES, BREP: faces, bores, meshing with Gmsh and
its report, :mod:`femdyn.mesh.cad_mesh`), solid meshes (read, generated, checked, node sets), line
meshes for beams (:mod:`femdyn.mesh.lines`, used by the model builder), the geometry of a
configuration that every picture draws from, ParaView series and pictures of a component's
modes."""
from .cad import CadFace, cad_faces, file_unit
from .cad_mesh import CadMesh, mesh_cad
from .cad_pictures import render_faces
from .configuration import ConfigurationGeometry, configuration_geometry
from .generate import box_mesh, rod_mesh
from .pictures import RenderError, render_modes, write_mode_vtu
from .solid import MeshError, SolidMesh, read_solid_mesh, select
from .vtk import write_series

__all__ = ["CadFace", "CadMesh", "cad_faces", "file_unit", "mesh_cad", "render_faces", "ConfigurationGeometry", "configuration_geometry", "box_mesh", "rod_mesh", "MeshError", "SolidMesh",
           "read_solid_mesh", "select", "write_series", "RenderError", "render_modes", "write_mode_vtu"]
