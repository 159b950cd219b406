"""Strain-gauge comparison reports: measured bridge signals converted to strain, signal
conditioning, validation metrics, and the HTML/PDF/JSON report (``femdyn report strain``).

Gauges are declared on the model (:class:`femdyn.model.Gauge`, ``Model.sensor_gauge``);
:mod:`.pages` renders every report page from the Jinja2 templates in ``templates/``. Bad input
raises FemdynError naming the channel, gauge, key or file. Guide: docs/strain-reports.md.
Circle metrology of a tracked path (:mod:`.metrology`): docs/rrru.md.
"""
from .bridge import bridge_to_strain, to_strain
from .gauges import principal_strains
from .measurements import GaugeMap, read_gauge_map, read_measurements
from .metrics import history_metrics, peak_metrics
from .metrology import CircleFit, fit_circle, tracker_samples
from .pages import render_page
from .strain_report import Comparison, compare, strain_report, write_report

__all__ = ["strain_report", "compare", "write_report", "Comparison", "read_measurements", "read_gauge_map",
           "GaugeMap", "principal_strains", "bridge_to_strain", "to_strain", "history_metrics", "peak_metrics",
           "render_page", "CircleFit", "fit_circle", "tracker_samples"]
