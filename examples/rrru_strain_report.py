"""Liu et al. (2018)'s strain-gauge comparison: the 3-RRRU test rig (E = 6.9e10 Pa, 1.6 kg
payload) driven along the circle, three gauges on limb 1's flexible link, and the report
against the paper's measured peaks (HTML, PDF, JSON).

    python examples/rrru_strain_report.py [OUT] [--duration S] [--elements N]
"""
import argparse

from femdyn.cli import main
from femdyn.studies.rrru_gauges import run_test_rig, rig_config


def run(out="femdyn-out/rrru-gauges", duration=0.0, elements=8):
    results, gauge_map, peaks = run_test_rig(out, rig_config(duration, elements), progress=True)
    return main(["report", "strain", results, peaks, "--map", gauge_map, "-o", f"{out}/report"])


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", nargs="?", default="femdyn-out/rrru-gauges")
    ap.add_argument("--duration", type=float, default=0.0, help="simulated time in s (0: the whole circle)")
    ap.add_argument("--elements", type=int, default=8, help="ANCF beam elements per flexible link")
    a = ap.parse_args()
    raise SystemExit(run(a.out, a.duration, a.elements))
