"""The space-robot identification study: identify the masses and inertias of a planar free-floating space robot from
the momentum its reaction wheel absorbs.

Part 1 runs the study's design (three rest-to-rest cubic plans: base to π/6, joint 1 to π/2,
joint 2 to π/3, 10 s each, sampled every 0.5 s) from examples/identify_space_robot.toml;
the identifiability report shows that one combination of the six parameters is invisible
to these data in the study's (centre-of-mass) form. Part 2 adds one plan that moves all
three coordinates at once and identifies again: then all six parameters are seen.

    python examples/identify_space_robot.py [out_folder]
"""
import copy
import os
import pathlib

from femdyn.identification import config, study
from femdyn.results.plots import output_folder

STUDY = pathlib.Path(__file__).with_name("identify_space_robot.toml")
COMBINED_PLAN = {"final_deg": {"base": 30.0, "link1": 90.0, "link2": 60.0}}


def main(out):
    cfg = config.load(STUDY)
    study_design = study.simulate_experiments(cfg)
    first = study.run(cfg, out=os.path.join(out, "study_design"), experiments=study_design)
    print(first.text)

    extra = copy.deepcopy(cfg)
    extra["experiment"]["plan"] = [COMBINED_PLAN]
    extra["experiment"]["seed"] = cfg["experiment"]["seed"] + len(cfg["experiment"]["plan"])
    more, model = study.simulate_experiments(extra)
    combined = copy.deepcopy(cfg)
    combined["title"] = cfg["title"] + " — the study's design plus one combined plan"
    second = study.run(combined, out=os.path.join(out, "combined_design"),
                       experiments=(study.concatenate([study_design[0], more]), model))
    print("\n" + second.text)
    print(f"\nreports and figures in {out}/study_design and {out}/combined_design")


if __name__ == "__main__":
    main(output_folder(__doc__.splitlines()[0]))
