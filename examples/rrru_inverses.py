"""The flexible 3-RRRU robot's inverse dynamics four ways (docs/rrru.md, "four inverses"):
the stable causal inverse, the plain causal one, Devasia et al.'s non-causal inverse and
Bastos et al.'s optimal-control inverse, their torques beside the rigid robot's.

    python examples/rrru_inverses.py [output folder] [duration s] [elements per link]
"""
import json
import sys
from dataclasses import replace

from femdyn.studies.rrru_inverses import compare_inverses
from femdyn.studies.rrru_preset import RRRUStudyConfig


def main(output="rrru-inverses", duration=0.6, n_elements=4):
    config = RRRUStudyConfig()             # femdyn study rrru's preset: the paper's robot and circle
    config = replace(config, parameters={**config.parameters, "elements": n_elements})
    comparison = compare_inverses(config, duration=duration, output=output)
    print(f"{'inverse':24s} {'|τ − τ_rigid| max (N·m)':>24s} {'variation (N·m/s)':>18s} {'output off (m)':>15s}")
    for name, row in comparison["summary"].items():
        print(f"{name:24s} {row['torque_difference']:24.3f} {row['variation_per_second']:18.1f} "
              f"{row['output_deviation']:15.2e}")
    print(f"non-causal pre-actuation: {comparison['pre_actuation']:.3f} s")
    print(json.dumps(comparison["status"], indent=1, ensure_ascii=False))
    print(f"figure: {output}/inverses.png")
    return comparison


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "rrru-inverses", *(float(x) for x in sys.argv[2:3]),
         *(int(x) for x in sys.argv[3:4]))
