"""Regressor cost per sample: femdyn's joint-force and momentum regressors against Pinocchio's
computeJointTorqueRegressor, on the PUMA 560 (6 joints) and Qiu et al.'s floating space arm (8 bodies).

    python benchmarks/bench_identification.py

Best of 5 timed loops of 2000 samples each (random states drawn once); Pinocchio has no
momentum regressor, so that column has only femdyn's figure.
"""
import time

import numpy as np

from femdyn.identification.base_parameters import random_states
from femdyn.robots.serial import puma560, space_arm
from femdyn.solvers.recursive import Data
from femdyn.solvers.recursive.regressor import momentum_regressor, torque_regressor

REPEAT, SAMPLES = 5, 2000


def per_sample(function, states):
    best = np.inf
    for _ in range(REPEAT):
        t0 = time.perf_counter()
        for s in states:
            function(*s)
        best = min(best, (time.perf_counter() - t0) / len(states))
    return best


def main():
    import sys
    sys.path.insert(0, "tests")
    from support.trees import to_pinocchio, to_pinocchio_vector
    import pinocchio as pin
    print(f"{'model':<22}{'femdyn Y_tau':>14}{'Pinocchio Y_tau':>17}{'ratio':>8}{'femdyn Y_h':>13}")
    for name, model in (("PUMA 560", puma560()), ("space arm (floating)", space_arm(floating=True))):
        data, pm = Data(model), to_pinocchio(model)
        pd = pm.createData()
        states = random_states(model, np.random.default_rng(0), SAMPLES)
        pin_states = [(q, to_pinocchio_vector(model, v), to_pinocchio_vector(model, a)) for q, v, a in states]
        ours = per_sample(lambda q, v, a: torque_regressor(model, data, q, v, a), states)
        ref = per_sample(lambda q, v, a: pin.computeJointTorqueRegressor(pm, pd, q, v, a), pin_states)
        mom = per_sample(lambda q, v, a: momentum_regressor(model, data, q, v), states)
        print(f"{name:<22}{ours * 1e6:>11.1f} µs{ref * 1e6:>14.1f} µs{ours / ref:>8.1f}{mom * 1e6:>10.1f} µs")


if __name__ == "__main__":
    main()
