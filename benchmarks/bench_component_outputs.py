"""Outputs of reduced components, per call: stress rows at a point between the nodes of a Tet10
component (quadratic cells), gauge placement on the meshed surface, and one written step of the
recursive solvers' ParaView series (a stressed modal bar with a rigid tip, and the rigid PUMA 560).

No peer computes interpolated modal strain or these series, so there is no peer ratio; the accuracy
proofs are the tests (tests/component/test_component_stress.py, tests/solvers/recursive/).

Run: python benchmarks/bench_component_outputs.py [--offset 1e-4]   (gauges given that far off the face, m)
"""
import argparse
import os
import sys
import tempfile
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from common import best_of                                                       # noqa: E402
from femdyn import component as fc                                               # noqa: E402
from femdyn.elements.solid_body import SolidBody                                 # noqa: E402
from femdyn.mesh.generate import box_mesh                                        # noqa: E402
from femdyn.solvers import recursive as rec                                      # noqa: E402
from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton  # noqa: E402
from femdyn.solvers.stress_modes import with_strains                             # noqa: E402

L, B, H = 0.5, 0.02, 0.02


best = best_of


def stress_and_gauges(offset):
    """Rows: cantilever size, stress_rows [ms], placement of 7 gauges × 3 grid points [ms]."""
    for div in ((25, 2, 2), (50, 4, 4)):
        mesh = box_mesh((L, B, H), div, "tet10", origin=(0, -B / 2, -H / 2))
        body = SolidBody(mesh, 2.1e11, 0.3, 7850.0)
        red = craig_bampton(body, [Interface("root", mesh.node_sets["x0"]),
                                   Interface("tip", mesh.node_sets["x1"], "average")], 10)
        comp = with_strains(component_from_reduction(red), red, "surface")
        p = (0.113, 0.003, H / 2)
        t_rows = best(lambda: fc.stress_rows(comp, p), 30)
        gauges = [fc.ComponentGauge(f"g{k}", (0.05 + 0.05 * k, 0.001, H / 2 + offset), (1, 0, 0), 0.01)
                  for k in range(7)]
        t_g = best(lambda: with_strains(comp, red, gauges=gauges), 3)
        print(f"cantilever {div}: {len(comp.mesh_tetra)} Tet10, {len(comp.mesh_points)} nodes, file "
              f"{comp.header['version']}: stress_rows {t_rows * 1e3:.2f} ms; 7 gauges × 3 grid points "
              f"{t_g * 1e3:.1f} ms")


def series():
    """Per written step of write_series: the modal bar with a rigid tip, and the rigid PUMA 560 [ms]."""
    from component.test_component_stress import bar
    from femdyn.robots import puma560
    _, _, comp = bar()
    clamped = fc.reference_to_interface(comp, "root")
    J = rec.Joint("revolute", (0, 1, 0))
    model = rec.FlexibleTreeModel([rec.ModalBody("bar", "world", J, component=clamped, inner="root"),
                                   rec.ModalBody("tip", "bar", J, at="tip", mass=1e-3,
                                                 inertia=(1e-9, 1e-9, 1e-9, 0, 0, 0))], gravity=(0, 0, 0))
    rng = np.random.default_rng(0)
    states = np.tile(model.neutral_configuration(), (20, 1))
    states[:, 2:] = 1e-4 * rng.standard_normal((20, model.n_eta))
    run = SimpleNamespace(t=np.arange(20) * 1e-3, state_q=states)
    rec.write_series(model, run, tempfile.mkdtemp())                       # warm up (compile, caches)
    t = best(lambda: rec.write_series(model, run, tempfile.mkdtemp()), 5)
    print(f"series, modal bar + rigid tip, 20 steps: {1e3 * t / 20:.2f} ms per step")
    puma = puma560()
    q = rng.uniform(-1, 1, (20, 6))
    prun = rec.Trajectory(np.arange(20) * 1e-2, q, 0 * q, 0 * q)
    rec.write_series(puma, prun, tempfile.mkdtemp())
    t = best(lambda: rec.write_series(puma, prun, tempfile.mkdtemp()), 5)
    print(f"series, rigid PUMA 560, 20 steps: {1e3 * t / 20:.2f} ms per step")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--offset", type=float, default=0.0, help="gauges given this far above the face, m")
    a = ap.parse_args()
    stress_and_gauges(a.offset)
    series()


if __name__ == "__main__":
    main()
