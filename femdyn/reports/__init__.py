"""Strain-gauge comparison reports: gauges declared on a model, measured bridge signals
converted to strain, signal conditioning, validation metrics, and the HTML/PDF/JSON report.

Gauges are declared on the model (:class:`femdyn.model.Gauge`, ``Model.sensor_strain``).
Modules: :mod:`.measurements` (measured histories and peaks, gauge maps),
:mod:`.gauges` (rosettes), :mod:`.bridge`
(Wheatstone-bridge output to strain), :mod:`.signals` (zero-balancing, filtering,
resampling, alignment), :mod:`.metrics` (peaks, RMS, correlation, Sprague–Geers,
Russell), :mod:`.figures`, :mod:`.html`, :mod:`.pdf` (the report's pieces) and
:mod:`.strain_report` (the whole comparison, as run by ``femdyn report strain``).
:mod:`.pages` renders every report page (this one and the 3-RRRU study's) from the
Jinja2 templates in ``templates/``: one base template and stylesheet.
"""
from .bridge import bridge_to_strain, to_strain
from .gauges import principal_strains
from .measurements import GaugeMap, read_gauge_map, read_measurements
from .metrics import history_metrics, peak_metrics
from .pages import render_page
from .strain_report import Comparison, compare, strain_report, write_report

__all__ = ["strain_report", "compare", "write_report", "Comparison", "read_measurements", "read_gauge_map",
           "GaugeMap", "principal_strains", "bridge_to_strain", "to_strain", "history_metrics", "peak_metrics",
           "render_page"]
