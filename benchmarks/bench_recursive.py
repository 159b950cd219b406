"""Speed of femdyn's recursive dynamics beside Pinocchio (C++), per call and per RK4 step.

Chains of n = 1, 7, 50, 200, 400 revolute bodies (axes alternating z, y; 0.1 m links, 1 kg).
Pinocchio gets its specialised JointModelRZ/RY joints; both are called from Python with
numpy arrays, and the RK4 step is the same Python function with either ABA inside. Before
timing, both codes' τ (RNEA) and q̈ (ABA) must agree to 1e-8 relative. n = 1 shows the fixed
cost of a call; the slope of log(time) against log(n) over n = 50 … 400 the growth.

    python benchmarks/bench_recursive.py [--repeat 5] [--sizes 1 7 50 200 400] [--cpu-time]

--cpu-time times with the process's CPU clock instead of the wall clock: on a shared machine
the time the process waits for a core then counts for neither code.
"""
import argparse
import platform
import time
import timeit

import numpy as np
import pinocchio as pin

from femdyn.solvers.recursive import Body, Data, Joint, TreeModel, forward_dynamics, inverse_dynamics
from femdyn.solvers.recursive.integrators import rk4_step

SIZES = (1, 7, 50, 200, 400)


def chain(n):
    """Our model and Pinocchio's of the same n-body chain."""
    bodies, pm = [], pin.Model()
    pm.gravity = pin.Motion(np.array([0.0, 0.0, -9.81, 0.0, 0.0, 0.0]))
    parent, jid = "world", 0
    for i in range(n):
        axis = (0.0, 0.0, 1.0) if i % 2 == 0 else (0.0, 1.0, 0.0)
        offset = (0.0, 0.0, 0.0) if i == 0 else (0.1, 0.0, 0.0)
        bodies.append(Body(f"b{i}", parent, Joint("revolute", axis), 1.0, (0.05, 0.0, 0.0),
                           (1e-3, 2e-3, 2e-3, 0, 0, 0), placement_p=offset))
        joint = pin.JointModelRZ() if i % 2 == 0 else pin.JointModelRY()
        jid = pm.addJoint(jid, joint, pin.SE3(np.eye(3), np.array(offset)), f"b{i}")
        pm.appendBodyToJoint(jid, pin.Inertia(1.0, np.array([0.05, 0.0, 0.0]), np.diag([1e-3, 2e-3, 2e-3])),
                             pin.SE3.Identity())
        parent = f"b{i}"
    return TreeModel(bodies, gravity=(0.0, 0.0, -9.81)), pm


TIMER = [time.perf_counter]


def per_call(fn, repeat):
    """Best mean time (s) of one call over ``repeat`` batches."""
    number = max(10, int(0.05 / max(1e-7, timeit.timeit(fn, number=3) / 3)))
    return min(timeit.repeat(fn, number=number, repeat=repeat, timer=TIMER[0])) / number


def measure(n, repeat):
    model, pm = chain(n)
    data, pd = Data(model), pm.createData()
    rng = np.random.default_rng(n)
    q, v, a = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
    tau = inverse_dynamics(model, data, q, v, a)
    for ours, ref in ((tau, pin.rnea(pm, pd, q, v, a)), (forward_dynamics(model, data, q, v, tau),
                                                          pin.aba(pm, pd, q, v, tau))):
        assert np.abs(ours - ref).max() <= 1e-8 * max(1.0, np.abs(ref).max()), "femdyn and Pinocchio disagree"

    def ours_fd(t, qq, vv):
        return forward_dynamics(model, data, qq, vv, tau)

    def pin_fd(t, qq, vv):
        return pin.aba(pm, pd, qq, vv, tau)

    return {
        "ID": (per_call(lambda: inverse_dynamics(model, data, q, v, a), repeat),
               per_call(lambda: pin.rnea(pm, pd, q, v, a), repeat)),
        "FD": (per_call(lambda: forward_dynamics(model, data, q, v, tau), repeat),
               per_call(lambda: pin.aba(pm, pd, q, v, tau), repeat)),
        "RK4 step": (per_call(lambda: rk4_step(ours_fd, 0.0, q, v, 1e-3), repeat),
                     per_call(lambda: rk4_step(pin_fd, 0.0, q, v, 1e-3), repeat)),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--cpu-time", action="store_true", help="time with the process CPU clock")
    args = parser.parse_args()
    TIMER[0] = time.process_time if args.cpu_time else time.perf_counter
    sizes = args.sizes
    results = {n: measure(n, args.repeat) for n in sizes}
    print(f"python {platform.python_version()}, numpy {np.__version__}, pinocchio {pin.__version__}")
    print(f"{'task':<9} {'n':>4} {'femdyn µs':>10} {'pinocchio µs':>13} {'ratio':>6}")
    big = [n for n in sizes if n >= 50]
    for task in ("ID", "FD", "RK4 step"):
        for n in sizes:
            ours, ref = results[n][task]
            print(f"{task:<9} {n:>4} {ours * 1e6:>10.1f} {ref * 1e6:>13.1f} {ours / ref:>6.2f}")
        if len(big) >= 2:
            slope = [np.polyfit(np.log(big), np.log([results[n][task][k] for n in big]), 1)[0] for k in (0, 1)]
            per_body = [(results[big[-1]][task][k] - results[big[0]][task][k]) / (big[-1] - big[0]) * 1e6
                        for k in (0, 1)]
            print(f"{task:<9} slope of log(time) vs log(n), n = {big[0]}…{big[-1]}: femdyn {slope[0]:.2f}, "
                  f"pinocchio {slope[1]:.2f}; cost per added body: femdyn {per_body[0]:.2f} µs, "
                  f"pinocchio {per_body[1]:.2f} µs")


if __name__ == "__main__":
    main()
