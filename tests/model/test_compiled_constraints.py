"""The compiled constraint kinds (one call per operation for Linear, Dot and Angle rows) against the
numpy reference (``ConstraintSet(..., compiled=False)``, the kinds' own ``evaluate``/``hessian``/
``time_terms``) on random states of every joint kind; the joint-torque load and the actuator
inputs, which use the same compiled groups, against their reference too.

Tolerance 1e-13 relative: the two paths do the same arithmetic in a different order (gather by
loop vs bincount, wrap by % in compiled code), so they differ by a few ulps of the largest value.
The finite-difference checks of Φ_q, the Hessian term, Φ_t and γ run on the compiled path in
tests/model/test_core_jacobians.py.
"""
import numpy as np
import pytest

import femdyn

from femdyn.model.actuators import Actuator
from femdyn.model.constraints import ConstraintSet
from femdyn.model.vectorfunctions import CODES, FunctionGroup
from support.checks import assert_close
from support.ffr_models import bar, pendulum
from support.models import flexible_four_bar, zoo
from support.servo_chains import chain

RTOL = 1e-13


def _close(actual, expected):
    assert actual.shape == expected.shape
    if expected.size:
        assert_close(actual, expected, RTOL)


def _states(system, count=4, seed=11):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        q = system.q0 + 0.2 * rng.standard_normal(system.n)       # far from consistent: every term nonzero
        yield q, rng.standard_normal(system.n), rng.standard_normal(system.m), float(rng.uniform(0, 2))


def _compare(compiled, reference, system):
    for q, v, lam, t in _states(system):
        (phi, jac), (phi_r, jac_r) = compiled.evaluate(q, t), reference.evaluate(q, t)
        assert_close(phi, phi_r, RTOL)
        assert_close(jac, jac_r, RTOL)
        assert_close(compiled.hessian_values(q, lam), reference.hessian_values(q, lam), RTOL)
        for x, y in zip(compiled.acceleration_terms(q, v, t), reference.acceleration_terms(q, v, t)):
            assert_close(x, y, RTOL)


def _welded():
    """A box welded to the ground, a rigid beam with one end fixed and the other on the box: weld, fix, ball rows."""
    m = femdyn.Model("welded", gravity=(0, 0, -9.81))
    P0, P1 = m.point("P0", (0, 0, 0)), m.point("P1", (0.4, 0, 0))
    beam = m.rigid_beam("beam", P0, P1, mass=1.0, axis=m.vector("u", (0, 1, 0)))
    m.fix(P0)
    Q0, Q1 = m.point("Q0", (0.4, 0, 0.1)), m.point("Q1", (0.4, 0.3, 0.1))
    box = m.rigid_body("box", [Q0, Q1], [m.vector("w1", (1, 0, 0)), m.vector("w2", (0, 0, 1))], mass=2.0,
                       com=(0.4, 0.15, 0.1), inertia=np.diag([0.02, 0.03, 0.04]))
    m.weld("weld", "ground", box, (0.4, 0, 0.05))
    m.spherical("ball", beam, box, (0.4, 0, 0))
    return m


@pytest.mark.parametrize("build", [zoo, flexible_four_bar, lambda: chain(3)[0], _welded],
                         ids=["zoo", "four bar", "servo chain", "weld and fix"])
def test_compiled_set_equals_reference(build):
    model = build()
    system = model.assemble()
    c = system.constraints
    assert not c.generic and c.batch.nnz == len(c.jac_rows)
    reference = ConstraintSet(c.equations, c.n, compiled=False)
    np.testing.assert_array_equal(c.jac_rows, reference.jac_rows)      # same pattern, same order
    np.testing.assert_array_equal(c.hess_cols, reference.hess_cols)
    _compare(c, reference, system)


def test_zoo_angle_rows_are_compiled():
    kinds = {g.kind for _, g in zoo().assemble().constraints.groups}
    assert kinds == set(CODES)


def test_angle_wraps_like_the_reference():
    """Link 1 turned through two full turns about the drive's axis: the compiled wrap (float %) equals the reference's."""
    system = zoo().assemble()
    c = system.constraints
    reference = ConstraintSet(c.equations, c.n, compiled=False)
    start = system.nodes["P1"].start
    for angle in np.linspace(-2 * np.pi, 2 * np.pi, 81):
        q = system.q0.copy()
        q[start:start + 2] = 0.5 * np.array([np.cos(angle), np.sin(angle)])
        assert_close(c.phi(q, 0.3), reference.phi(q, 0.3), RTOL)


def test_custom_kind_keeps_the_generic_path():
    """A floating-frame body's Attachment rows go through their own methods beside the compiled kinds."""
    model, _ = pendulum(bar()[2], modes=3)
    system = model.assemble()
    c = system.constraints
    assert c.generic and c.batch.nnz
    reference = ConstraintSet(c.equations, c.n, compiled=False)
    for q, v, lam, t in _states(system, 2):
        J, J_r = c.jacobian(q, t).toarray(), reference.jacobian(q, t).toarray()
        assert_close(J, J_r, RTOL)
        assert_close(c.phi(q, t), reference.phi(q, t), RTOL)
        from femdyn.sparse import Pattern
        H = Pattern(c.hess_rows, c.hess_cols, (c.n, c.n)).matrix(c.hessian_values(q, lam)).toarray()
        H_r = Pattern(reference.hess_rows, reference.hess_cols, (c.n, c.n)).matrix(
            reference.hessian_values(q, lam)).toarray()
        assert_close(H, H_r, RTOL)
        for x, y in zip(c.acceleration_terms(q, v, t), reference.acceleration_terms(q, v, t)):
            assert_close(x, y, RTOL)


def test_loads_and_actuators_use_compiled_groups():
    """Joint torque (Angle), actuator inputs of a revolute (Angle) and a prismatic (Dot): compiled group
    against the reference group."""
    system = zoo().assemble()
    actuators = [Actuator("a", system.joints[name]) for name in ("r2", "p1")]
    for a in actuators:
        a.bind(system.n)
    groups = [p.group for p in system.parts if hasattr(p, "group")] + [a.group for a in actuators]
    assert len(groups) == 3 and all(g.batch is not None for g in groups)
    for g in groups:
        ref = FunctionGroup.__new__(FunctionGroup)
        ref.__dict__.update(g.__dict__, batch=None)
        for q, v, _, t in _states(system, 3):
            w = np.array([1.7])
            _close(g.evaluate(q, t)[1], ref.evaluate(q, t)[1])
            _close(g.hessian_values(q, w), ref.hessian_values(q, w))
            _close(g.acceleration_terms(q, v, t)[1], ref.acceleration_terms(q, v, t)[1])
