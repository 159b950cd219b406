"""Servo-constraint inverse dynamics (Blajer & Kołodziejczyk 2004): actuator inputs as
unknowns of the DAE, checked against closed-form torques, the power balance, statics,
finite differences of the iteration matrix and forward dynamics replaying the inputs."""
import math

import numpy as np
import pytest

import femdyn
from femdyn.motion.timefunctions import Sine, Tabulated, TimeFunction
from femdyn.solvers.blocks import TangentValues
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.kkt import KKTMatrix
from femdyn.solvers.static import static_equilibrium

G = 9.81
TIGHT = Options(rho_inf=0.9, tol_dynamic=1e-10, tol_constraint=1e-13)


class TipHeight(TimeFunction):
    """z(t) = −L sin θ(t) for θ(t) = a sin(ω t), with exact derivatives (m)."""

    def __init__(self, length, a, w):
        self.L, self.a, self.w = length, a, w

    def _theta(self, t):
        return self.a * math.sin(self.w * t), self.a * self.w * math.cos(self.w * t), \
            -self.a * self.w ** 2 * math.sin(self.w * t)

    def value(self, t):
        return -self.L * math.sin(self._theta(t)[0])

    def d1(self, t):
        th, thd, _ = self._theta(t)
        return -self.L * math.cos(th) * thd

    def d2(self, t):
        th, thd, thdd = self._theta(t)
        return -self.L * (math.cos(th) * thdd - math.sin(th) * thd ** 2)


def test_pendulum_torque_from_a_prescribed_tip_height():
    """Rod (m, L) pinned about y, its tip height prescribed so that θ = 0.3 sin 2t (θ below
    the horizontal): the actuator torque is I_O θ̈ − m g (L/2) cos θ, I_O = mL²/3.
    Generalized-α starts with an O(h) transient in the algebraic unknowns (Arnold & Brüls
    2007, §4: 3.7e-4 of the peak torque at h = 1e-3, halving with h, damped by ρ∞ per step);
    after 0.2 s the torque is within 1e-6 relative. The inputs sit where multipliers sit, so
    a position tolerance ε on Φ perturbs them by ~ε m/(βh²): inverse dynamics asks for a
    tight tol_constraint (1e-12 m here; the default 1e-8 m gives 4e-5 relative at h = 1e-3)."""
    mass, L, a, w = 1.2, 0.8, 0.3, 2.0
    m = femdyn.Model("servo pendulum", gravity=(0, 0, -G))
    O, A = m.point("O", (0, 0, 0)), m.point("A", (L, 0, 0))
    rod = m.rigid_beam("rod", O, A, mass=mass)
    m.revolute("pivot", m.ground, rod, (0, 0, 0), (0, 1, 0))
    m.actuator("motor", "pivot")
    m.servo("tip", rod, (L, 0, 0), [TipHeight(L, a, w)], [(0, 0, 1)])
    r = integrate(m.assemble(), 2.0, 1e-3, TIGHT)
    th, thdd = a * np.sin(w * r.t), -a * w ** 2 * np.sin(w * r.t)
    exact = mass * L ** 2 / 3 * thdd - mass * G * L / 2 * np.cos(th)
    error, peak = np.abs(r["motor.torque"] - exact), np.abs(exact).max()
    assert error.max() < 5e-4 * peak and error[r.t > 0.2].max() < 1e-6 * peak


L1, L2, M1, M2 = 0.5, 0.4, 1.0, 0.8
CENTER, RADIUS = np.array([0.45, -0.35]), 0.1           # circle in the (x, z) plane


def two_link_angles(x, z):
    """Elbow-down inverse kinematics of the planar arm: θ1 (shoulder) and θ2 (elbow, relative),
    both about +y, i.e. measured from +x towards −z."""
    X, Y = x, -z
    c2 = (X * X + Y * Y - L1 * L1 - L2 * L2) / (2 * L1 * L2)
    t2 = math.acos(c2)
    t1 = math.atan2(Y, X) - math.atan2(L2 * math.sin(t2), L1 + L2 * math.cos(t2))
    return t1, t2


def two_link_arm(actuated=True, omega=2.0):
    """Two rods in the (x, z) plane, revolutes about y at the shoulder and the elbow; the
    tip starts at the circle's rightmost point. With ``actuated``, actuators at both joints
    and a servo making the tip go round the circle at ω rad/s."""
    start = CENTER + (RADIUS, 0.0)
    t1, t2 = two_link_angles(*start)
    elbow = L1 * np.array([math.cos(t1), 0, -math.sin(t1)])
    tip = elbow + L2 * np.array([math.cos(t1 + t2), 0, -math.sin(t1 + t2)])
    m = femdyn.Model("two-link arm", gravity=(0, 0, -G))
    u = m.vector("axis", (0, 1, 0))
    O, E, T = m.point("O", (0, 0, 0)), m.point("E", elbow), m.point("T", tip)
    upper = m.rigid_beam("upper", O, E, mass=M1, axis=u)
    fore = m.rigid_beam("fore", E, T, mass=M2)
    m.revolute("shoulder", m.ground, upper, (0, 0, 0), (0, 1, 0), angle0=t1)
    m.revolute("elbow", upper, fore, elbow, (0, 1, 0), angle0=t2)
    m.sensor_point("tip", "fore", tip)
    m.sensor_angle("shoulder", "shoulder")
    m.sensor_angle("elbow", "elbow")
    if actuated:
        m.actuator("shoulder motor", "shoulder")
        m.actuator("elbow motor", "elbow")
        m.servo("tip servo", fore, tip, [Sine(RADIUS, omega, math.pi / 2, CENTER[0]), Sine(RADIUS, omega, 0.0, CENTER[1])],
                [(1, 0, 0), (0, 0, 1)])
    return m, (t1, t2)


def test_static_inverse_problem_gives_the_gravity_torques():
    """Held at rest at its start pose, the inputs are the gravity torques:
    τ2 = −m2 g (L2/2) cos(θ1+θ2), τ1 = −g [m1 L1/2 cos θ1 + m2 (L1 cos θ1 + L2/2 cos(θ1+θ2))]."""
    m, (t1, t2) = two_link_arm()
    s = m.assemble()
    q, lam = static_equilibrium(s)
    u = lam[[s.input_of["shoulder motor"], s.input_of["elbow motor"]]]
    tau2 = -M2 * G * L2 / 2 * math.cos(t1 + t2)
    tau1 = -G * (M1 * L1 / 2 * math.cos(t1) + M2 * (L1 * math.cos(t1) + L2 / 2 * math.cos(t1 + t2)))
    assert u == pytest.approx([tau1, tau2], rel=1e-10)


def test_inverse_dynamics_iteration_matrix_matches_finite_differences():
    """[[K + H, Gᵀ], [Φ_q, 0]] (the statics iteration matrix, with the actuators' −Bᵀ in Gᵀ
    and −u ∂²θ/∂q² in H) against central differences of [Gᵀλ − Q; Φ] in (q, λ)."""
    m, _ = two_link_arm()
    s = m.assemble()
    rng = np.random.default_rng(1)
    q, lam, v = s.q0 + 1e-3 * rng.standard_normal(s.n), rng.standard_normal(s.m), np.zeros(s.n)
    kkt = KKTMatrix(s)
    k_vals, c_vals = s.tangent_values(q, v, 0.0)
    _, jac = s.constraints.evaluate(q, 0.0)
    S = kkt.saddle_matrix(TangentValues(s.mass_values(q), jac, c_vals, k_vals, hessian=s.hessian_values(q, lam),
                                   weights=(0.0, 0.0, 1.0), transpose=s.force_transpose_values(q, jac))).toarray()

    def F(x):
        r, _, phi, _ = s.residual(x[:s.n], v, None, x[s.n:], 0.0)
        return np.concatenate([r, phi])
    x = np.concatenate([q, lam])
    fd = np.column_stack([(F(x + e) - F(x - e)) / 2e-7 for e in 1e-7 * np.eye(len(x))])
    assert np.abs(S - fd).max() < 1e-6 * np.abs(S).max()
    assert not np.allclose(S, S.T)          # non-collocated: Gᵀ ≠ Φ_qᵀ


@pytest.fixture(scope="module")
def circle_run():
    m, _ = two_link_arm()
    return integrate(m.assemble(), 3.0, 1e-3, TIGHT)


def test_servo_tip_follows_the_circle_and_inputs_balance_the_power(circle_run):
    """The prescribed tip is on the circle to the constraint tolerance; the work of the
    actuators ∫ Σ u_k θ̇_k dt equals the change of mechanical energy (trapezoidal rule on
    h = 1e-3: 1e-6 of the energy scale m g L)."""
    r = circle_run
    x, z = r["tip.x"], r["tip.z"]
    assert np.abs(np.hypot(x - CENTER[0], z - CENTER[1]) - RADIUS).max() < 1e-9
    power = r["shoulder motor.torque"] * r["shoulder.rate"] + r["elbow motor.torque"] * r["elbow.rate"]
    work = np.concatenate([[0.0], np.cumsum(0.5 * (power[1:] + power[:-1]) * np.diff(r.t))])
    energy = r["energy"] - r["energy"][0]
    assert np.abs(work - energy).max() < 1e-6 * (M1 + M2) * G * L1


def test_forward_dynamics_replaying_the_inputs_reproduces_the_motion(circle_run):
    """The torques of the inverse run, replayed as loads (cubic splines of the samples) from
    its initial state (the tip already moving at ωR), drive the free arm round the same
    circle to 1e-5 m over 1 s."""
    r = circle_run
    m, _ = two_link_arm(actuated=False)
    m.torque("shoulder drive", "shoulder", Tabulated(r.t, r["shoulder motor.torque"]))
    m.torque("elbow drive", "elbow", Tabulated(r.t, r["elbow motor.torque"]))
    f = integrate(m.assemble(), 1.0, 1e-3, TIGHT, v0=r.v[0])
    k = len(f.t)
    assert np.abs(f["tip.x"] - r["tip.x"][:k]).max() < 1e-5 and np.abs(f["tip.z"] - r["tip.z"][:k]).max() < 1e-5


def test_servo_rows_need_as_many_actuators():
    m, _ = two_link_arm(actuated=False)
    m.actuator("shoulder motor", "shoulder")
    m.servo("tip servo", "fore", m.nodes["T"].initial, [0.3, -0.3], [(1, 0, 0), (0, 0, 1)])
    with pytest.raises(femdyn.ModelError, match="2 servo constraint rows but 1 actuators"):
        m.assemble()
