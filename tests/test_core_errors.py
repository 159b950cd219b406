"""Bad input and failing runs give femdyn exceptions that name the object and the fix,
and a failed run keeps every step computed before the failure."""
import numpy as np
import pytest

import femdyn
from femdyn import ConstraintError, ConvergenceError, ModelError
from femdyn.solvers.generalized_alpha import Options, integrate
from models import pendulum


def test_unknown_node():
    m = femdyn.Model()
    m.point("A", (0, 0, 0))
    with pytest.raises(ModelError, match="unknown node 'B'.*known nodes"):
        m.rigid_beam("link", "A", "B", mass=1.0)


def test_zero_length_link():
    m = femdyn.Model()
    with pytest.raises(ModelError, match="rigid beam 'link': zero length"):
        m.rigid_beam("link", m.point("A", (1, 2, 3)), m.point("B", (1, 2, 3)), mass=1.0)


def test_non_unit_direction():
    with pytest.raises(ModelError, match="vector node 'u'.*normalise"):
        femdyn.Model().vector("u", (1, 1, 0))


def test_negative_density():
    m = femdyn.Model()
    with pytest.raises(ModelError, match="rigid beam 'link': density and area must be positive"):
        m.rigid_beam("link", m.point("A", (0, 0, 0)), m.point("B", (1, 0, 0)), density=-7800, area=1e-4)


def test_bad_inertia():
    m = femdyn.Model()
    pts = [m.point("A", (0, 0, 0)), m.point("B", (1, 0, 0))]
    vecs = [m.vector("u", (0, 1, 0)), m.vector("w", (0, 0, 1))]
    with pytest.raises(ModelError, match="triangle inequality"):
        m.rigid_body("b", pts, vecs, mass=1.0, inertia=np.diag([1.0, 1.0, 3.0]))


def test_revolute_without_axis_carrier():
    m = femdyn.Model()
    a = m.rigid_beam("a", m.point("A", (0, 0, 0)), m.point("B", (1, 0, 0)), mass=1)
    b = m.rigid_beam("b", "B", m.point("C", (2, 0, 0)), mass=1)
    with pytest.raises(ModelError, match="neither 'a' nor 'b' carries the axis"):
        m.revolute("r", a, b, (1, 0, 0), (0, 0, 1))


def test_inconsistent_initial_configuration():
    m = pendulum()
    m.distance("rope", "rod", m.nodes["A"].initial, "ground", (0.0, 0.0, -2.0), distance=0.5)
    with pytest.raises(ConstraintError, match="cannot satisfy|had to move"):
        integrate(m.assemble(), 0.01, 1e-3)


def test_redundant_constraints_are_named():
    m = pendulum()
    m.fix("O")                                   # the revolute to ground already fixes O
    with pytest.raises(ConstraintError, match=r"redundant constraints.*fix O: O\.r"):
        integrate(m.assemble(), 0.01, 1e-3)


def test_bad_time_function():
    m = pendulum()
    with pytest.raises(ModelError, match="joint torque 'motor'"):
        m.torque("motor", "pivot", "fast")


def test_massless_free_spin_is_diagnosed():
    """A rigid beam carrying an axis vector, free in space: the vector's spin about the beam
    has neither inertia nor a joint: the solver must say so instead of returning garbage."""
    m = femdyn.Model(gravity=(0, 0, 0))
    m.rigid_beam("b", m.point("A", (0, 0, 0)), m.point("B", (1, 0, 0)), mass=1.0, axis=m.vector("u", (0, 0, 1)))
    with pytest.raises(femdyn.FemdynError, match="singular|no inertia|massless"):
        integrate(m.assemble(), 0.01, 1e-3)


def test_divergence_keeps_results(tmp_path):
    """An RSSR linkage whose crank is driven into a dead point: the run stops with a
    diagnosis, and both the exception and the output folder keep the steps before it."""
    m = femdyn.Model("dead point")
    O, A = m.point("O", (0, 0, 0)), m.point("A", (0.08, 0, 0))
    B, C = m.point("B", (0.30, 0.12, 0.10)), m.point("C", (0.30, 0.0, 0.10))
    crank = m.rigid_beam("crank", O, A, mass=0.2)
    m.rigid_beam("coupler", A, B, mass=0.5)
    rocker = m.rigid_beam("rocker", C, B, mass=0.3)
    motor = m.revolute("motor", m.ground, crank, (0, 0, 0), (0, 0, 1))
    m.revolute("pivot", m.ground, rocker, (0.30, 0.0, 0.10), (1, 0, 0))
    m.drive_angle("drive", motor, femdyn.timefunctions.RampedMotion(2 * np.pi, 0.5))
    out = tmp_path / "run"
    with pytest.raises(ConvergenceError, match="generalized-α step to t = .*Largest dynamic residuals") as err:
        integrate(m.assemble(), 1.0, 1e-3, Options(max_iterations=15), output=str(out))
    partial = err.value.results
    assert partial.status.startswith("failed") and 0.2 < partial.t[-1] < 1.0
    saved = femdyn.load(str(out))
    assert saved.status.startswith("failed")
    assert np.array_equal(saved.t, partial.t) and np.array_equal(saved.q, partial.q)
