"""Element kernels: natural-coordinate rigid bodies (:mod:`.ncf`), ANCF cables and beams,
cross-sections, and linear solid elements with the solid body they assemble into.

The model builds parts from these (:class:`femdyn.model.Model`); users meet them as the
section of a beam, the element kind of a mesh and the solid body of a reduction.
"""
from .ancf_beam import ANCFBeam3D
from .ancf_beam_quadratic import ANCFBeamQuadratic
from .ancf_cable import ANCFCable2D, ANCFCable3D
from .sections import CrossSection, circular, rectangular
from .solid import HEX8, TET4, TET10, ElementType
from .solid_body import SolidBody

__all__ = ["CrossSection", "circular", "rectangular", "ANCFCable2D", "ANCFCable3D", "ANCFBeam3D",
           "ANCFBeamQuadratic", "SolidBody", "ElementType", "TET4", "TET10", "HEX8"]
