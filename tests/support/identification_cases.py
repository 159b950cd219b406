"""Simulated identification experiments shared by the identification tests (each simulated once per session)."""
import copy
import functools

import numpy as np

from femdyn.identification import config, study
from femdyn.identification.excitation import Fourier
from femdyn.identification.experiment import torque_experiment
from support import ROOT
from support.trees import random_tree

STUDY = ROOT / "examples" / "identify_space_robot.toml"
COMBINED = {"final_deg": {"base": 30.0, "link1": 90.0, "link2": 60.0}}


def study_config(noise=0.0):
    """The example study (the space-robot identification study's three plans) with the given noise σ (N·m·s), RK4 step 0.01 s."""
    cfg = config.load(STUDY)
    cfg["experiment"]["noise_std"] = noise
    return cfg


@functools.lru_cache(maxsize=None)
def study_experiments(combined=False):
    """Noise-free (Measurements, identified model) of the space-robot identification study's three plans, plus the combined plan if asked."""
    if combined:
        cfg = copy.deepcopy(study_config())
        cfg["experiment"]["plan"] = [COMBINED]
        more, model = study.simulate_experiments(cfg, log=lambda *a: None)
        return study.concatenate([study_experiments()[0], more]), model
    return study.simulate_experiments(study_config(), log=lambda *a: None)


def arm(seed=3):
    """A random spatial 3-joint chain (revolute and prismatic joints, random axes) under gravity."""
    return random_tree(np.random.default_rng(seed), 3, chain=True)


@functools.lru_cache(maxsize=None)
def arm_experiment():
    """Noise-free joint-force experiment of :func:`arm`: a 3-harmonic Fourier trajectory, 2 s, samples every 0.05 s."""
    rng = np.random.default_rng(8)
    traj = Fourier(np.zeros(3), rng.uniform(-1, 1, (3, 3)), rng.uniform(-1, 1, (3, 3)), np.pi)
    model = arm()
    return torque_experiment(model, traj, 2.0, 0.05, step=0.005), model
