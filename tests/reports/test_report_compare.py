"""The comparison pipeline (``strain_report.compare``) on synthetic runs with known
answers: a rosette's principal strains, zero-balancing of an offset, and the common lag,
each through the same path as the command line."""
import numpy as np
import pytest

from femdyn.model.sensors import Gauge
from femdyn.reports.measurements import ComparisonSettings, GaugeMap, Histories, MapEntry
from femdyn.reports.strain_report import compare
from femdyn.results.store import Results

DT = 1e-3
T = np.arange(0, 1.0, DT)


def run(channels, t=T):
    """Results of a synthetic run holding the given '<name>.strain' channels."""
    names = [f"{k}.strain" for k in channels]
    meta = {"sensor_columns": names, "coordinates": [], "status": "completed", "summary": "synthetic run",
            "solver": {}, "model": "synthetic"}
    arrays = {"t": t, "q": np.zeros((len(t), 0)), "v": None, "a": None, "lam": None,
              "sensors": np.column_stack([channels[k] for k in channels]), "steps": None, "iterations": None}
    return Results(meta, arrays)


def gauge_map(names, settings, rosettes=None, directions=None):
    entries = [MapEntry(n, f"CH_{n}", Gauge(n, "beam", "beam.0", 0.5, direction_deg=(directions or {}).get(n, 0.0)),
                        unit="strain", simulated=f"{n}.strain") for n in names]
    return GaugeMap(settings, entries, rosettes or {}, "synthetic.toml")


def measured(channels, t=T):
    return Histories(t, {f"CH_{k}": v for k, v in channels.items()}, {f"CH_{k}": None for k in channels}, "m.csv")


def test_rosette_principal_strains_scale_with_the_readings():
    """Measured rosette readings from a known strain state (ε_x, ε_s, γ_xs)(t) at
    0°/45°/90°; the simulation is 1.1 times it. Principal strains are homogeneous of
    degree 1 in the readings, so ε₁ and ε₂ have Sprague–Geers M = 0.1 and P = 0 like
    each gauge (tolerance 1e-9: only rounding)."""
    w = 2 * np.pi * 5
    ex, es, g = 1e-4 * np.sin(w * T), -3e-5 * np.sin(w * T), 4e-5 * np.sin(w * T + 0.3)
    read = {n: ex * np.cos(th) ** 2 + es * np.sin(th) ** 2 + g * np.sin(th) * np.cos(th)
            for n, th in (("Ra", 0.0), ("Rb", np.pi / 4), ("Rc", np.pi / 2))}
    result = compare(run({k: 1.1 * v for k, v in read.items()}), measured(read),
                     gauge_map(list(read), ComparisonSettings(), {"R": ["Ra", "Rb", "Rc"]},
                               {"Ra": 0.0, "Rb": 45.0, "Rc": 90.0}))
    got = {r.name: r.metrics for r in result.gauges}
    assert set(got) == {"Ra", "Rb", "Rc", "R.eps1", "R.eps2"}
    for name in got:
        assert got[name]["sg_magnitude"] == pytest.approx(0.1, abs=1e-9)
        assert got[name]["sg_phase"] == pytest.approx(0.0, abs=1e-6)
    centre = (ex + es) / 2
    radius = np.hypot((ex - es) / 2, g / 2)
    np.testing.assert_allclose(result.gauges[3].measured, centre + radius, atol=1e-18)


def test_zero_balancing_removes_an_offset_of_the_measurement():
    """Measured = simulated + 7 µε: balanced at t = 0 both start at zero and agree to
    rounding; without balancing the RMS error is the offset."""
    sim = 2e-5 * np.sin(2 * np.pi * 3 * T) ** 2
    data = measured({"G": sim + 7e-6})
    balanced = compare(run({"G": sim}), data, gauge_map(["G"], ComparisonSettings(balance_time=0.0)))
    assert balanced.gauges[0].metrics["rmse"] < 1e-18
    raw = compare(run({"G": sim}), data, gauge_map(["G"], ComparisonSettings()))
    assert raw.gauges[0].metrics["rmse"] == pytest.approx(7e-6, rel=1e-12)


def test_common_lag_found_and_removed():
    """Two channels measured 7.3 ms late (a non-integer number of samples): one lag for
    both, within one sample; after the shift the histories agree to 2 % NRMSE (the
    parabolic refinement leaves about 0.2 ms, a phase error 2π·9 Hz·0.2 ms ≈ 0.011 on
    the faster channel), against more than 10 % unaligned."""
    s = lambda t, f: np.exp(-2 * t) * np.sin(2 * np.pi * f * t) * (t > 0.1)
    sims = {"A": s(T - 0.1, 4.0), "B": s(T - 0.1, 9.0)}
    meas = {"A": s(T - 0.1 - 0.0073, 4.0), "B": s(T - 0.1 - 0.0073, 9.0)}
    result = compare(run(sims), measured(meas), gauge_map(["A", "B"], ComparisonSettings(max_lag=0.02)))
    assert result.lag == pytest.approx(0.0073, abs=DT)
    assert all(g.metrics["nrmse"] < 0.02 for g in result.gauges)
    unaligned = compare(run(sims), measured(meas), gauge_map(["A", "B"], ComparisonSettings()))
    assert all(g.metrics["nrmse"] > 0.1 for g in unaligned.gauges)
