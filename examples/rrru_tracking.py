"""Liu et al.'s (2018) tracking experiment simulated (docs/rrru.md, "The tracking experiment"): the
flexible 3-RRRU robot with the 1.6 kg payload follows the circle under sampled PID joint drives fed
with the rigid and with the stable causal flexible inverse; a laser tracker's samples are fitted with
circles, and femdyn's Table 2 is printed beside the paper's.

    python examples/rrru_tracking.py [output folder] [duration s] [elements per link]
"""
import sys

from femdyn.studies.rrru_tracking import TrackingConfig, run_tracking
from femdyn.studies.rrru_tracking_outputs import table2_markdown


def main(output="rrru-tracking", duration=0.0, n_elements=4):
    study = run_tracking(TrackingConfig(duration=duration, n_elements=n_elements), output=output)
    print(table2_markdown(study["table2"]))
    for row in study["table3"]:
        print(f"{row['gauge']}: zero-balanced peaks {row['femdyn'][0]:+.3f} / {row['femdyn'][1]:+.3f} µε "
              f"(paper {row['paper'][0]:+.3f} / {row['paper'][1]:+.3f} µε)")
    print(f"report: {output}/report.html")
    return study


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rrru-tracking", *(float(x) for x in sys.argv[2:3]),
         *(int(x) for x in sys.argv[3:4]))
