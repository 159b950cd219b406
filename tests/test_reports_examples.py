"""Worked examples of femdyn.reports: readers, signal conditioning, metrics and report pages.

Each was an Examples section of a docstring in the library; here each runs as a doctest
in the namespace of the module it documents.
"""
import doctest
import importlib

import pytest

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

EXAMPLES = {
    ("femdyn.reports.measurements", "read_measurements"): '''
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "measured.csv")
    ...     with open(path, "w") as f:
    ...         _ = f.write("time [ms],SG1 [µε]\\n0,0.0\\n1,2.5\\n2,\\n")
    ...     data = read_measurements(path)
    >>> data.t.tolist(), data.channels["SG1"].tolist(), data.units["SG1"]
    ([0.0, 0.001, 0.002], [0.0, 2.5, nan], 'µε')
''',
    ("femdyn.reports.measurements", "channel_unit"): '''
    >>> channel_unit(Peaks({"SG1": (1e-5, -1e-5)}, {"SG1": "strain"}, "p.csv"), "SG1", None)
    'strain'
''',
    ("femdyn.reports.measurements", "read_gauge_map"): '''
    >>> import os, tempfile
    >>> text = '[comparison]\\ncutoff = 100.0\\n[gauges.G1]\\nchannel = "SG1"\\nsimulated = "tip.strain"\\n'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "gauges.toml")
    ...     with open(path, "w") as f:
    ...         _ = f.write(text)
    ...     gauge_map = read_gauge_map(path)
    >>> [(e.name, e.channel, e.simulated) for e in gauge_map.entries], gauge_map.comparison.cutoff
    ([('G1', 'SG1', 'tip.strain')], 100.0)
''',
    ("femdyn.reports.metrics", "verdicts"): '''
    Example
    -------
    >>> verdicts({"correlation": 0.95, "nrmse": 0.4}, {"correlation": 0.9, "nrmse": 0.3})
    {'correlation': True, 'nrmse': False}
''',
    ("femdyn.reports.pages", "png"): '''
    Example
    -------
    >>> from matplotlib.figure import Figure
    >>> png(Figure(figsize=(1, 1)))[:22]
    'data:image/png;base64,'
''',
    ("femdyn.reports.pages", "cells"): '''
    Example
    -------
    >>> cells(("G1", "pass"), {"pass": "pass"})
    [('G1', ''), ('pass', 'pass')]
''',
    ("femdyn.reports.signals", "check_samples"): '''
    Example
    -------
    >>> t, x, w = check_samples([0, 1, 2, 3, 4], [0, float("nan"), 2, 3, 4], "SG1")
    >>> len(t), w[0].startswith("channel 'SG1': 1 NaN")
    (4, True)
''',
    ("femdyn.reports.signals", "zero_balance"): '''
    >>> zero_balance([0.0, 1.0], [5.0, 7.0], 0.0)
    array([0., 2.])
''',
    ("femdyn.reports.signals", "lowpass"): '''
    Example
    -------
    >>> t = np.arange(0, 1, 1e-3); y = lowpass(t, np.sin(2 * np.pi * 5 * t), 50.0)
''',
    ("femdyn.reports.signals", "common_grid"): '''
    >>> common_grid([(0, 1), (0.5, 2)], 0.25)
    array([0.5 , 0.75, 1.  ])
''',
    ("femdyn.reports.signals", "estimate_lag"): '''
    Example
    -------
    >>> t = np.arange(0, 2, 1e-3); ref = np.sin(2 * np.pi * 3 * t)
    >>> round(estimate_lag(ref, np.sin(2 * np.pi * 3 * (t - 0.02)), 1e-3, 0.05), 4)
    0.02
''',
}


@pytest.mark.parametrize("module, name", sorted(EXAMPLES), ids=lambda key: key)
def test_example(module, name, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)                      # examples that write files write them here
    globs = dict(vars(importlib.import_module(module)))
    test = doctest.DocTestParser().get_doctest(EXAMPLES[module, name], globs, f"{module}.{name}", module, 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (output above)"
