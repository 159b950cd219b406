"""The component file (``.fdc``): a reduced flexible body for the floating-frame and recursive
solvers — format and checks (:mod:`.file`), modal inertia invariants (:mod:`.invariants`),
reference transformations (:mod:`.reference`), strains, stresses and gauges (:mod:`.stress`), a cache
that hands out copies (:mod:`.cache`).
Components are built by the reductions in :mod:`femdyn.solvers`; this room imports only ``femdyn.errors`` and ``femdyn.geometry``.
"""
from .cache import cached_components
from .file import (FIELDS, FORMAT, VERSION, Component, ComponentDefinitenessError, ComponentError,
                   ComponentFormatError, ComponentShapeError, ComponentSymmetryError, ComponentValueError,
                   ComponentVersionError, interface_index, new_component, read_component, validate,
                   write_component)
from .invariants import modal_invariants
from .reference import keep_modes, reference_to_interface
from .stress import STRESS_COLUMNS, STRESS_UNITS, ComponentGauge, gauge_modes, stress_rows, stress_state

__all__ = ["Component", "read_component", "write_component", "validate", "new_component", "modal_invariants",
           "interface_index", "reference_to_interface", "keep_modes", "FIELDS", "FORMAT", "VERSION",
           "ComponentError", "ComponentFormatError", "ComponentVersionError", "ComponentShapeError",
           "ComponentValueError", "ComponentSymmetryError", "ComponentDefinitenessError", "ComponentGauge", "gauge_modes",
           "stress_state", "stress_rows", "STRESS_COLUMNS", "STRESS_UNITS", "cached_components"]
