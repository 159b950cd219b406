"""Per-call cost of the constraint set, the joint-torque loads and the strain sensors (no peer: these are
femdyn's own stages; bench_chain.py puts the whole step beside Exudyn).

Cases: the rigid chain of bench_chain.py (n = 4 links), and the flexible 3-RRRU robot (8 ANCF beam
elements per link 3, the three motor torques as joint-torque loads, nine strain gauges), both at
perturbed states. Timed: ConstraintSet.evaluate (Φ and Φ_q values), hessian_values (Σλ_i ∂²Φ_i/∂q²),
acceleration_terms (Φ_t, γ); the loads' force and stiffness values; one recorded step's sensor
reading (what the results writer does per step). Then the cost per constraint row of the three
constraint calls for chains up to ~4096 rows, with the slope of log(cost) against log(rows).
Best of --repeat runs of --calls calls each. Runs against any femdyn tree (PYTHONPATH) for before/after.

    python benchmarks/bench_constraints.py [--calls 2000] [--repeat 7] [--sizes 4 16 64 256 1024 2048] [--quick]
"""
import argparse
import time

import numpy as np

import femdyn
from bench_chain import femdyn_chain
from femdyn.results.store import ResultsWriter
from femdyn.robots.rrru import rrru


def best(f, calls, repeat):
    """Best per-call time of f, µs."""
    f()
    times = []
    for _ in range(repeat):
        clock = time.perf_counter()
        for _ in range(calls):
            f()
        times.append((time.perf_counter() - clock) / calls)
    return 1e6 * min(times)


def state(system, seed=0):
    rng = np.random.default_rng(seed)
    return (system.q0 + 1e-3 * rng.standard_normal(system.n), rng.standard_normal(system.n),
            rng.standard_normal(system.m), 0.37)


def constraint_costs(system, calls, repeat):
    c = system.constraints
    q, v, lam, t = state(system)
    return {"evaluate": best(lambda: c.evaluate(q, t), calls, repeat),
            "hessian_values": best(lambda: c.hessian_values(q, lam), calls, repeat),
            "acceleration_terms": best(lambda: c.acceleration_terms(q, v, t), calls, repeat)}


def robot():
    r = rrru(flexible=True, n_elements=8)
    for i, motor in enumerate(r.motors):
        r.model.torque(f"motor torque {i}", motor, femdyn.Sine(2.0, 1.0, 0.1 * i, offset=1.0))
    return r.model.assemble()


def sensor_read(system):
    """One recorded step's sensor values, as the results writer reads them."""
    writer = ResultsWriter(system)
    read = getattr(writer, "_read_sensors", None)
    if read is None:         # a tree before Sensor.reader: every sensor's measure
        return lambda q, v, lam, t: np.concatenate([s.measure(q, v, None, lam, t) for s in system.sensors])
    return lambda q, v, lam, t: read(q, v, None, lam, t)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--sizes", type=int, nargs="+", default=[4, 16, 64, 256, 1024, 2048])
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    if a.quick:
        a.calls, a.repeat, a.sizes = 200, 3, [4, 64, 256]
    print(f"femdyn {femdyn.__file__}")
    chain = femdyn_chain(4)
    flexible = robot()
    print(f"chain n = 4: {chain.n} coordinates, {chain.m} rows; 3-RRRU flexible: {flexible.n} coordinates, "
          f"{flexible.m} rows, {len(flexible.sensors)} sensors")
    print(f"{'per call, µs':24s} {'chain n=4':>10s} {'3-RRRU':>10s}")
    a_costs, b_costs = constraint_costs(chain, a.calls, a.repeat), constraint_costs(flexible, a.calls, a.repeat)
    for key in a_costs:
        print(f"{key:24s} {a_costs[key]:10.2f} {b_costs[key]:10.2f}")
    q, v, lam, t = state(flexible)
    torques = [p for p in flexible.parts if type(p).__name__ == "JointTorque"]
    print(f"{'torque loads force':24s} {'':10s} {best(lambda: [p.force(q, v, t) for p in torques], a.calls, a.repeat):10.2f}"
          f"   ({len(torques)} loads)")
    print(f"{'torque loads stiffness':24s} {'':10s} "
          f"{best(lambda: [p.stiffness_values(q, v, t) for p in torques], a.calls, a.repeat):10.2f}")
    read = sensor_read(flexible)
    print(f"{'sensors, one step':24s} {'':10s} {best(lambda: read(q, v, lam, t), max(a.calls // 20, 10), a.repeat):10.2f}"
          f"   ({len(flexible.sensors)} gauges)")
    print("\ncost per constraint row against size (evaluate + hessian_values + acceleration_terms)")
    print(f"{'links':>6s} {'rows':>6s} {'µs/call':>10s} {'ns/row':>8s}")
    rows, cost = [], []
    for n in a.sizes:
        s = femdyn_chain(n)
        c = constraint_costs(s, max(a.calls * 4 // n, 5), a.repeat)
        total = sum(c.values())
        rows.append(s.m), cost.append(total)
        print(f"{n:6d} {s.m:6d} {total:10.2f} {1e3 * total / s.m:8.1f}")
    large = np.array(rows) >= 100
    if large.sum() >= 2:
        slope = np.polyfit(np.log(np.array(rows)[large]), np.log(np.array(cost)[large]), 1)[0]
        print(f"slope of log(cost) against log(rows), rows ≥ 100: {slope:.2f}")


if __name__ == "__main__":
    main()
