"""Liu et al.'s (2018) tracking experiment simulated (docs/rrru.md, "The tracking experiment"): the
parallel-robot study's tracking experiment on the 3rrru robot with the paper's rig as data (the preset
femdyn/studies/presets/rrru_tracking.toml): the flexible robot with the 1.6 kg payload follows the circle
under sampled PID joint drives fed with the rigid and with the stable causal flexible inverse; a laser
tracker's samples are fitted with circles; Table 2's differences and Table 3's peaks beside femdyn's.

    python examples/rrru_tracking.py [output folder] [duration s] [elements per link]
"""
import sys

from femdyn.schema import config_from_dict
from femdyn.studies.parallel_tracking_outputs import tracking_markdown
from femdyn.studies.rrru_tracking_command import RRRUTrackingConfig
from femdyn.studies.parallel_study import run_parallel_study


def main(output="rrru-tracking", duration=0.0, n_elements=4):
    config = config_from_dict({"duration": duration, "parameters": {"E": 6.9e10, "elements": n_elements}},
                              RRRUTrackingConfig)
    study = run_parallel_study(config, output=output)
    print(tracking_markdown(study["summary"], study["tracking"]))
    for row in study["summary"]["reference"]:
        print(f"{row['quantity']}: femdyn {row['femdyn']}, paper {row['published']}: {row['verdict']}")
    print(f"report: {output}/report.html")
    return study


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rrru-tracking", *(float(x) for x in sys.argv[2:3]),
         *(int(x) for x in sys.argv[3:4]))
