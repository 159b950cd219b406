"""The spring-dampers of a model evaluated as one part (femdyn.model.springs.SpringDampers)
against the per-spring formulas of the module docstring, spring by spring: forces, exact
tangents, readings and energies on random states, for every kind of law and attachment;
tangents against finite differences; the one spring alone is the set of one."""
import numpy as np
import pytest

import femdyn
from femdyn.model.springs import SpringDamper, SpringDampers
from femdyn.solvers.generalized_alpha import integrate
from test_force_elements import energy_gradient_is_minus_force, tangents_against_differences

# The set rearranges the per-spring formulas (K by u uᵀ and G = D_sᵀD_s, products in CSR
# order): a few roundings of numbers of the size of the largest entry, far below this.
ROUND_OFF = 1e-13
# Measured: at most 8e-15 of the largest entry over 20 random states.
# A user law without derivatives is differenced (step h ≈ 6e-6): a one-ulp change of δ moves its
# slopes by ~ε|f|/h ≈ 2e-11 of f (UserForce's stated round-off term); measured up to 8e-11 of
# the largest entry of C (5e-13 of K) over 20 states, hence for its K and C:
DIFFERENCED = 1e-9


def reference(spring, q, v):
    """((f, δ, δ̇), Q, K, C, energy) of one bound spring by the formulas of the module docstring, as written there."""
    d = spring.D @ q[spring.dofs] + spring.d0
    length = np.sqrt(d @ d)
    e = d / length
    d_dot = spring.D @ v[spring.dofs]
    rate = e @ d_dot
    f, k, c = spring.law(length - spring.L0, rate)
    P, T = np.outer(e, e), np.eye(3) - np.outer(e, e)
    Kd = k * P + f / length * T + c / length * np.outer(e, d_dot @ T)
    Q, K, C = np.zeros(q.size), np.zeros((q.size, q.size)), np.zeros((q.size, q.size))
    block = np.ix_(spring.dofs, spring.dofs)
    Q[spring.dofs] = -spring.D.T @ (f * e)
    K[block], C[block] = spring.D.T @ Kd @ spring.D, spring.D.T @ (c * P) @ spring.D
    return (f, length - spring.L0, rate), Q, K, C, spring.law.energy(length - spring.L0)


def dense(part, q, v, n):
    """The part's K and C (n × n) from its tangent pattern and values."""
    k, c = part.tangent_values(q, v, 0.0)
    rows, cols, c_rows, c_cols = part.tangent_pattern()
    K, C = np.zeros((n, n)), np.zeros((n, n))
    np.add.at(K, (rows, cols), k)
    np.add.at(C, (c_rows, c_cols), c)
    return K, C


def close(a, b, tol=ROUND_OFF):
    """a equals b to ``tol`` of b's largest entry."""
    a, b = np.asarray(a, float), np.asarray(b, float)
    assert np.abs(a - b).max() <= tol * max(np.abs(b).max(), 1e-300), np.abs(a - b).max() / np.abs(b).max()


def mixed(differenced=True):
    """Springs of every law (linear with preload and damping, one table shared by three springs, a
    spline, user laws with derivatives and, if ``differenced``, without) between point masses, the
    ground, a rigid beam and a rigid body with unit vectors (3 to 18 coordinates a spring); each
    spring with a sensor."""
    table = femdyn.Table([-0.02, 0.0, 0.02], [-5.0, 0.0, 4.0])       # narrow: the deflections leave it
    cubic = lambda d, r: 40.0 * d + 300.0 * d ** 3 + 2.0 * r * (1 + d * d)
    hardening = femdyn.UserForce(lambda d, r: 5.0 * np.sinh(10.0 * d) + 0.5 * r * abs(r),
                                 lambda d, r: (50.0 * np.cosh(10.0 * d), abs(r)))
    laws = [dict(stiffness=80.0, damping=1.5, preload=3.0), dict(law=table, damping=0.7), dict(law=table),
            dict(law=femdyn.Table([-0.5, 0.0, 0.05, 0.1, 0.3], [-30.0, 0.0, 3.0, 9.0, 12.0], "spline"), stiffness=5.0),
            dict(law=cubic if differenced else hardening), dict(law=femdyn.UserForce(cubic, lambda d, r: (40.0 + 900.0 * d * d + 4.0 * r * d,
                                                                          2.0 * (1 + d * d)))),
            dict(stiffness=120.0, law=table), dict(stiffness=60.0, damping=0.2)]
    m = femdyn.Model("springs", gravity=(0, 0, -9.81))
    for i in range(3):
        m.point_mass(f"p{i}", (1.0 + 0.7 * i, 0.2 * i, -0.1), 1.0)
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 1.0)), m.point("A", (0.6, 0.3, 1.0)), mass=1.0)
    box = m.rigid_body("box", [m.point("B", (2.0, 1.0, 0.5))], [m.vector(f"b{k}", np.eye(3)[k]) for k in range(3)],
                       mass=2.0, com=(2.0, 1.0, 0.5), inertia=np.diag([0.1, 0.2, 0.3]))
    ends = [("ground", (0, 0, 0), "p0", (1.0, 0, -0.1)), ("p0", (1.0, 0, -0.1), "p1", (1.7, 0.2, -0.1)),
            ("p1", (1.7, 0.2, -0.1), "p2", (2.4, 0.4, -0.1)), ("p2", (2.4, 0.4, -0.1), rod, (0.6, 0.3, 1.0)),
            (rod, (0.3, 0.15, 1.0), box, (2.1, 1.2, 0.4)), ("ground", (3.0, 0, 0), box, (2.0, 0.8, 0.6)),
            ("p1", (1.7, 0.2, -0.1), box, (1.9, 1.0, 0.5)), ("ground", (0, 1.0, 0), "p2", (2.4, 0.4, -0.1))]
    for i, ((a, pa, b, pb), law) in enumerate(zip(ends, laws)):
        m.spring(f"s{i}", a, pa, b, pb, rest_length=0.9 * np.linalg.norm(np.subtract(pb, pa)), **law)
        m.sensor_force(f"s{i}", f"s{i}")
    return m.assemble()


def random_state(s, seed):
    rng = np.random.default_rng(seed)
    return s.q0 + 0.05 * rng.standard_normal(s.n), rng.standard_normal(s.n)


def test_the_system_evaluates_all_its_springs_as_one_part_of_blocks_of_each_size():
    s = mixed()
    sets = [p for p in s.force_parts if isinstance(p, SpringDampers)]
    assert len(sets) == 1 and not any(isinstance(p, SpringDamper) for p in s.force_parts + s.tangent_parts)
    assert [p for p in s.energy_parts if isinstance(p, (SpringDamper, SpringDampers))] == sets
    assert [p.name for p in s.parts if isinstance(p, SpringDamper)] == [f"s{i}" for i in range(8)]
    # ground (fixed, no coordinates)–point, point–point, point–beam or –box (a vector or two), beam–box
    assert sorted(b[1].shape[2] for b in sets[0].blocks) == [3, 6, 9, 18]


@pytest.mark.parametrize("seed, differenced", [(1, False), (2, False), (3, False), (1, True), (2, True)])
def test_the_set_equals_the_per_spring_formulas_on_random_states(seed, differenced):
    s = mixed(differenced)
    tol = DIFFERENCED if differenced else ROUND_OFF
    springs = [p for p in s.parts if isinstance(p, SpringDamper)]
    part = next(p for p in s.force_parts if isinstance(p, SpringDampers))
    q, v = random_state(s, seed)
    refs = [reference(x, q, v) for x in springs]
    assert np.ptp([r[0][1] for r in refs]) > 0.05                          # table ends crossed, both signs
    close(part.force(q, v, 0.0), sum(r[1] for r in refs))
    K, C = dense(part, q, v, s.n)
    close(K, sum(r[2] for r in refs), tol)
    close(C, sum(r[3] for r in refs), tol)
    close(part.readings(q, v), [r[0] for r in refs])
    assert part.strain_energy(q) == pytest.approx(sum(r[4] for r in refs), rel=ROUND_OFF)
    for spring, sensor, ref in zip(springs, s.sensors, refs):              # each alone: the set of one
        assert sensor.columns == (f"{spring.name}.force", f"{spring.name}.deflection", f"{spring.name}.rate")
        close(sensor.measure(q, v, None, None, 0.0), ref[0])
        close(spring.force(q, v, 0.0), ref[1])
        close(np.array(dense(spring, q, v, s.n)), np.array(ref[2:4]), tol)
        assert spring.tension(q, v) == pytest.approx(ref[0][0], rel=ROUND_OFF)


def test_the_tangents_of_the_set_match_finite_differences():
    s = mixed()
    q, v = random_state(s, 4)
    K, C = tangents_against_differences(s, q, v)          # central differences, 1e-6 of the largest entry
    assert np.abs(K - K.T).max() > 1e-3 * np.abs(K).max()   # the unsymmetric damping term is there
    energy_gradient_is_minus_force(s, q)


def test_coincident_end_points_are_refused_naming_the_spring():
    m = femdyn.Model("coincide", gravity=(0, 0, 0))
    m.point_mass("a", (1.0, 0, 0), 1.0)
    m.point_mass("b", (2.0, 0, 0), 1.0)
    m.spring("first", "ground", (0, 0, 0), "a", (1.0, 0, 0), stiffness=1.0)
    m.spring("second", "a", (1.0, 0, 0), "b", (2.0, 0, 0), stiffness=1.0)
    m.spring("third", "ground", (0, 0, 0), "b", (2.0, 0, 0), stiffness=1.0)
    s = m.assemble()
    q, v = s.q0.copy(), np.zeros(s.n)
    q[s.nodes["b"].dofs] = q[s.nodes["a"].dofs]
    with pytest.raises(femdyn.ModelError, match=r"^spring 'second': its end points coincide; its direction is "
                                                r"undefined$"):
        s.forces(q, v, 0.0)
    q[s.nodes["a"].dofs] = q[s.nodes["b"].dofs] = 0.0
    with pytest.raises(femdyn.ModelError, match=r"spring 'first': its end points coincide.*so do 2 more"):
        s.tangent_values(q, v, 0.0)
    with pytest.raises(femdyn.ModelError, match="spring 'third': its end points coincide"):
        next(p for p in s.parts if p.name == "third").force(q, v, 0.0)


def test_recorded_spring_channels_are_read_together_and_keep_their_order():
    """Force sensors on springs and on a rotational spring, interleaved: the store's one read per class
    (ForceSensor.reader, the springs as one set) gives each sensor's own measure, column by column."""
    m = femdyn.Model("readings", gravity=(0, 0, -9.81))
    m.point_mass("a", (1.0, 0, 0), 1.0)
    m.point_mass("b", (2.0, 0, 0), 1.0)
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 1.0)), m.point("A", (0.6, 0.3, 1.0)), mass=1.0,
                       axis=m.vector("axis", (0, 0, 1)))
    m.revolute("hinge", "ground", rod, (0, 0, 1.0), (0, 0, 1))
    m.set_rigid_velocity(rod, (0, 0, 2.0), reference=(0, 0, 1.0))
    m.spring("s1", "ground", (0, 0, 0), "a", (1.0, 0, 0), stiffness=50.0, damping=0.5)
    m.rotational_spring("rs", "hinge", stiffness=3.0, damping=0.1)
    m.spring("s2", "a", (1.0, 0, 0), "b", (2.0, 0, 0), law=femdyn.Table([-0.1, 0.0, 0.1], [-2.0, 0.0, 3.0]))
    for name in ("s2", "rs", "s1"):
        m.sensor_force(name, name)
    s = m.assemble()
    q, v = random_state(s, 5)
    read = type(s.sensors[0]).reader(s.sensors)
    close(read(q, v, None, None, 0.0), np.concatenate([x.measure(q, v, None, None, 0.0) for x in s.sensors]))
    close(read(q, None, None, None, 0.0), np.concatenate([x.measure(q, None, None, None, 0.0) for x in s.sensors]))
    r = integrate(s, 0.05, 1e-3)
    assert r["s1.force"] == pytest.approx(50.0 * r["s1.deflection"] + 0.5 * r["s1.rate"], abs=1e-12)
    assert np.ptp(r["rs.angle"]) > 0 and np.ptp(r["s2.force"]) > 0
