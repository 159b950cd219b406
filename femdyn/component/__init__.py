"""The component file (``.fdc``): a reduced flexible body for the floating-frame and the
recursive solvers — its format, version and checks (:mod:`.file`), its modal inertia
invariants (:mod:`.invariants`) and its reference transformations (:mod:`.reference`).

Components are built by the reductions above this room
(:func:`femdyn.solvers.reduction.component_from_reduction`,
:func:`femdyn.solvers.beam_component.ancf_beam_component`); this room imports only
``femdyn.errors`` and ``femdyn.geometry``.
"""
from .file import (FIELDS, FORMAT, VERSION, Component, ComponentDefinitenessError, ComponentError,
                   ComponentFormatError, ComponentShapeError, ComponentSymmetryError, ComponentValueError,
                   ComponentVersionError, interface_index, new_component, read_component, validate,
                   write_component)
from .invariants import modal_invariants
from .reference import keep_modes, reference_to_interface

__all__ = ["Component", "read_component", "write_component", "validate", "new_component", "modal_invariants",
           "interface_index", "reference_to_interface", "keep_modes", "FIELDS", "FORMAT", "VERSION",
           "ComponentError", "ComponentFormatError", "ComponentVersionError", "ComponentShapeError",
           "ComponentValueError", "ComponentSymmetryError", "ComponentDefinitenessError"]
