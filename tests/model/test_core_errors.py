"""Bad input and failing runs give femdyn exceptions that name the object and the fix,
and a failed run keeps every step computed before the failure."""
import numpy as np
import pytest

import femdyn
from femdyn import ConstraintError, ConvergenceError, ModelError, SingularMatrixError
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.static import static_equilibrium
from support.models import pendulum


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
    """A fix that repeats the revolute's coincidence rows: set aside, named in the summary, and the run goes on."""
    m = pendulum()
    m.fix("O")                                   # the revolute to ground already fixes O
    system = m.assemble()
    assert "joint fix O: fix O: O.rx" in system.summary()
    assert integrate(system, 0.01, 1e-3).status == "completed"


def test_bad_time_function():
    m = pendulum()
    with pytest.raises(ModelError, match="joint torque 'motor'"):
        m.torque("motor", "pivot", "fast")


def test_massless_free_spin_is_diagnosed():
    """A rigid beam carrying an axis vector, free in space: the vector's spin about the beam
    has neither inertia nor a joint. The solver stops with a SingularMatrixError that says
    so and names the vector's coordinates."""
    m = femdyn.Model(gravity=(0, 0, 0))
    m.rigid_beam("b", m.point("A", (0, 0, 0)), m.point("B", (1, 0, 0)), mass=1.0, axis=m.vector("u", (0, 0, 1)))
    with pytest.raises(SingularMatrixError, match=r"no inertia or stiffness.*'u\.u"):
        integrate(m.assemble(), 0.01, 1e-3)


def test_unused_node_is_named():
    m = pendulum()
    m.point("stray", (2.0, 0.0, 0.0))
    with pytest.raises(SingularMatrixError, match=r"'stray\.r[xyz]'"):
        integrate(m.assemble(), 0.01, 1e-3)


def test_singular_iteration_matrix_is_diagnosed():
    """The KKT matrix of a step (not only the initial solve) gets the same diagnosis."""
    from femdyn.solvers.blocks import TangentValues
    from femdyn.solvers.kkt import KKTMatrix
    m = pendulum()
    m.point("stray", (2.0, 0.0, 0.0))
    s = m.assemble()
    kkt = KKTMatrix(s)
    q = s.q0
    phi, jac = s.constraints.evaluate(q, 0.0)
    S = kkt.saddle_matrix(TangentValues(s.mass_values(q), jac, hessian=s.constraints.hessian_values(q, np.zeros(s.m))))
    with pytest.raises(SingularMatrixError, match=r"singular KKT matrix.*'stray\.r[xyz]'"):
        kkt.factorize(S, q, 0.0, symmetric=False)


def test_statics_checks_the_model_like_a_run():
    m = pendulum()
    m.fix("O")                                          # redundant rows: set aside, as in a run
    q, lam = static_equilibrium(m.assemble())
    assert np.allclose(q, [0, 0, 0, 0, 0, -1.0], atol=1e-9)
    m = pendulum()
    m.nodes["A"].initial[2] -= 0.3                      # tip 0.3 m off the rod's length
    with pytest.raises(ConstraintError, match="had to move"):
        static_equilibrium(m.assemble())


def test_fixed_unit_vector_is_not_redundant():
    """fix() on a unit-vector node pins its two smaller components; the unit-length row
    gives the third: a ground-fixed axis vector carries a revolute pair of beams."""
    m = femdyn.Model("double pendulum")
    u = m.vector("axis", (0, 1, 0))
    m.fix(u)
    O, A, B = m.point("O", (0, 0, 0)), m.point("A", (1, 0, 0)), m.point("B", (2, 0, 0))
    m.fix(O)
    m.rigid_beam("l1", O, A, mass=1.0, axis=u)
    m.rigid_beam("l2", A, B, mass=1.0, axis=u)
    s = m.assemble()
    assert s.degrees_of_freedom() == 2
    r = integrate(s, 0.2, 1e-3)
    assert np.allclose(r.q[:, u.start:u.start + 3], [0, 1, 0], atol=1e-12)


def test_joint_angle_of_an_oblique_rigid_beam():
    """A revolute about z between the ground and a rigid beam leaning out of the joint's
    plane: the angle sensor, drive and torque use the beam's own direction (not ⟂ the axis),
    whose projection turns with the joint."""
    m = femdyn.Model("oblique", gravity=(0, 0, 0))
    O, A = m.point("O", (0, 0, 0)), m.point("A", (1.0, 0.0, 1.0))
    m.rigid_beam("rod", O, A, mass=1.0, axis=m.vector("z", (0, 0, 1)))
    hinge = m.revolute("hinge", m.ground, "rod", (0, 0, 0), (0, 0, 1))
    m.sensor_angle("hinge", hinge)
    m.drive_angle("drive", hinge, femdyn.Polynomial([0.0, 0.0, 1.0]))      # θ = t²
    r = integrate(m.assemble(), 0.5, 1e-3)
    assert np.allclose(r["hinge.angle"], r.t**2, atol=1e-8)
    tip = r.q[:, A.start:A.start + 3]
    assert np.allclose(np.arctan2(tip[:, 1], tip[:, 0]), r.t**2, atol=1e-8)


@pytest.mark.parametrize("build, match", [
    (lambda m: m.point("P", (0, 0)), "point node 'P'"),
    (lambda m: m.vector("w", ("a", 0, 0)), "vector node 'w'"),
    (lambda m: m.spherical("s", m.ground, "rod", (0, 0)), "ground point"),
    (lambda m: m.force("f", "rod", (0, 0, -0.5), (1, 2)), "force 'f'"),
    (lambda m: m.rigid_body("b", ["O", "A"], mass="heavy"), "rigid body 'b': mass"),
    (lambda m: m.rigid_body("b", ["O", "A"], com=(1, 2)), "rigid body 'b': com"),
    (lambda m: m.rigid_beam("r2", "O", "A", mass=1.0, end_masses=(-1.0, 0.0)), "rigid beam 'r2': end mass"),
    (lambda m: m.rigid_beam("r2", "O", "A", mass=1.0, end_masses=(1.0,)), "end_masses must be two"),
    (lambda m: m.set_velocity("A", (1, 2)), "initial velocity of node 'A'"),
    (lambda m: m.sensor_reaction("r", "no such joint"), "unknown joint 'no such joint'"),
    (lambda m: m.sensor_angle("pivot", "pivot"), "sensor 'pivot' exists already"),
    (lambda m: m.triangle_platform("plat", (0, 0, 1), (0, 0, 1), 0.1, 0.01), "platform 'plat'"),
    (lambda m: femdyn.Model("g", gravity=(0, -9.81)), "gravity"),
])
def test_malformed_input_is_a_model_error(build, match):
    with pytest.raises(ModelError, match=match):
        build(pendulum())


def test_end_time_is_reached(tmp_path):
    """The run ends at the first step at or after t_end, never before it."""
    r = integrate(pendulum().assemble(), 1.0, 0.3)
    assert np.allclose(r.t, [0.0, 0.3, 0.6, 0.9, 1.2])
    r = integrate(pendulum().assemble(), 0.01, 0.03)
    assert np.allclose(r.t, [0.0, 0.03])


def test_residual_history_of_every_step_is_kept():
    r = integrate(pendulum(0.0).assemble(), 0.1, 1e-3, record_every=10)
    assert len(r.t) == 11
    assert np.array_equal(np.unique(r.iterations[:, 0]), np.arange(1, 101))


def test_interrupted_run_keeps_its_steps(tmp_path):
    """An exception from user code (here a load function) is not a SolverError: the
    steps before it are still written, and the folder says the run was interrupted."""
    def load(t):
        if t > 0.0505:
            raise KeyboardInterrupt
        return 1.0

    m = pendulum(0.0)
    m.torque("motor", "pivot", load)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt):
        integrate(m.assemble(), 1.0, 1e-3, output=str(out))
    saved = femdyn.load(str(out))
    assert saved.status.startswith("interrupted at t = 0.051")
    assert np.isclose(saved.t[-1], 0.050) and len(saved.t) == 51
    assert saved.iterations[-1, 0] == 50


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
    m.drive_angle("drive", motor, femdyn.motion.timefunctions.RampedMotion(2 * np.pi, 0.5))
    out = tmp_path / "run"
    with pytest.raises(ConvergenceError, match="generalized-α step to t = .*Largest dynamic residuals") as err:
        integrate(m.assemble(), 1.0, 1e-3, Options(max_iterations=15), output=str(out))
    partial = err.value.results
    assert partial.status.startswith("failed") and 0.2 < partial.t[-1] < 1.0
    saved = femdyn.load(str(out))
    assert saved.status.startswith("failed")
    assert np.array_equal(saved.t, partial.t) and np.array_equal(saved.q, partial.q)
