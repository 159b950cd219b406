"""Strain-gauge comparison reports: gauges declared on a model, measured bridge signals
converted to strain, signal conditioning, validation metrics, and the HTML/PDF/JSON report.

Modules: :mod:`.gauges` (gauge geometry, the gauge sensor, rosettes), :mod:`.bridge`
(Wheatstone-bridge output to strain), :mod:`.signals` (zero-balancing, filtering,
resampling, alignment), :mod:`.metrics` (peaks, RMS, correlation, Sprague–Geers,
Russell), :mod:`.figures`, :mod:`.html`, :mod:`.pdf` (the report's pieces) and
:mod:`.strain_report` (the whole comparison, as run by ``femdyn report strain``).
:mod:`.pages` renders every report page (this one and the 3-RRRU study's) from the
Jinja2 templates in ``templates/``: one base template and stylesheet.
"""
