"""The flexible PUMA 560 (Tian et al. 2010): the link component, the model and the example (shortened)."""
import importlib.util

import numpy as np

from femdyn.component import reference_to_interface
from femdyn.robots.flexible_puma import (E, LENGTH, PUMA_MOTION_GIVEN, RHO, THICKNESS, WIDTH, flexible_puma560,
                                         puma_link_component)
from femdyn.solvers.recursive import flexible_dynamics as fd
from support import ROOT

EXAMPLE = ROOT / "examples" / "recursive_flexible_puma560.py"


def test_link_is_the_papers_link():
    """1 m, 2 kg (1e-12 relative: exact mass integration of a box), steel; the clamped bending frequencies are
    Euler–Bernoulli's cantilever values β² √(EI/ρA)/(2π L²) within 4 % (the 127 mm wide strip bends as a plate,
    stiffer by up to 1/√(1 − ν²) = 4.8 %, and its ends are held rigidly across the width)."""
    link = reference_to_interface(puma_link_component(), "inner")
    assert abs(float(link.mass) - 2.0) < 2e-12
    assert np.allclose(link.interface_origins, [[0, 0, 0], [LENGTH, 0, 0]])
    EI = E * WIDTH * THICKNESS**3 / 12
    beam = np.array([1.875104, 4.694091]) ** 2 * np.sqrt(EI / (RHO * WIDTH * THICKNESS)) / (2 * np.pi * LENGTH**2)
    assert np.all(np.abs(link.frequencies[:2] / beam - 1) < 0.04)


def test_model_and_hybrid_inputs():
    """24 coordinates (6 joints + 6 × 3 modes); every link 2 kg; at rest with the paper's torques the
    motion-given joints keep q̈ = 0 exactly and the torque-given ones accelerate."""
    model = flexible_puma560()
    assert (model.nq, model.nv, model.n_eta) == (24, 24, 18)
    assert np.allclose(model.mass, 2.0)
    data = fd.FlexibleData(model)
    tau = np.zeros(24)
    tau[[0, 2, 5]] = [0.5, 0.3, 0.3]
    qdd, forces = fd.hybrid_dynamics(model, data, model.neutral_configuration(), np.zeros(24), PUMA_MOTION_GIVEN,
                                     tau, np.zeros(24))
    assert np.all(qdd[[1, 3, 4]] == 0.0) and np.all(np.abs(qdd[[0, 2, 5]]) > 0)
    assert np.all(np.isfinite(forces))


def test_example_runs_shortened(tmp_path):
    """The example for 0.5 s: both figures written; joints 2, 4, 5 stay at q = 0; the links deform; Zhai at
    h = 0.005 s stays within 0.05 rad of RK4 at h = 0.00125 s over 0.5 s (second-order error of the
    ringing modes at ωh ≈ 1.5; the full 10 s run drifts to ~1 rad, reported by the example)."""
    spec = importlib.util.spec_from_file_location("flexible_puma_example", EXAMPLE)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    zhai, wall = example.main(str(tmp_path), t_end=0.5)
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["puma560_flexible_modes.png",
                                                              "puma560_flexible_outputs.png"]
    assert np.all(zhai.q[:, [1, 3, 4]] == 0.0)
    assert np.abs(zhai.eta).max() > 1e-3
    fine = example.run(flexible_puma560(), 0.5, example.H / 4, "rk4")
    assert np.abs(zhai.q - fine.q[::4]).max() < 0.05


def test_docs_example_runs():
    """The Python block of docs/recursive-flexible.md runs as written; its motion-given joints stay at q = 0."""
    import re
    doc = (ROOT / "docs" / "recursive-flexible.md").read_text(encoding="utf-8")
    namespace = {}
    exec(compile(re.findall(r"```python\n(.*?)```", doc, re.S)[0], "docs/recursive-flexible.md", "exec"), namespace)
    assert np.all(namespace["run"].q[:, 1::2] == 0.0) and namespace["run"].eta.shape == (201, 18)
