"""Mass-spring chains for servo-constraint inverse dynamics with relative degree 2N, and
their closed-form (flat) inputs.

N sliders of mass m_i (kg) on prismatic joints along x, joined by springs k_i (N/m)
between neighbours (at rest in the initial configuration); an actuator pushes slider
``driven`` along x and a servo prescribes the x position of slider N along a
rest-to-rest smoothstep polynomial. Each slider is a short rigid rod
(:meth:`femdyn.Model.rigid_beam`) on its prismatic joint: for its one degree of freedom,
a point mass.

Closed form (the chain is differentially flat with the output y = ξ_N, the displacement
of slider N from its initial position; Seifried & Blajer 2013, Mech. Sci. 4:113–129;
the n-car example of Altmann & Heiland 2017, Multibody Syst. Dyn. 40:75–98). The equations of
motion of the displacements ξ_i, with input u on slider 1,

    m_1 ξ̈_1 = u − k_1 (ξ_1 − ξ_2),
    m_i ξ̈_i = k_{i−1} (ξ_{i−1} − ξ_i) − k_i (ξ_i − ξ_{i+1}),   1 < i < N,
    m_N ξ̈_N = k_{N−1} (ξ_{N−1} − ξ_N),

are solved from the far end for the neighbour of lower index:

    ξ_{N−1} = y + m_N ÿ / k_{N−1},
    ξ_{i−1} = ξ_i + [m_i ξ̈_i + k_i (ξ_i − ξ_{i+1})] / k_{i−1},
    u       = m_1 ξ̈_1 + k_1 (ξ_1 − ξ_2),

so ξ_{N−j} is a combination of y, ÿ, …, y^(2j) and u of y … y^(2N): the relative degree
is 2N. For u to start and end at rest (continuous, zero) the derivatives of y up to
order 2N must vanish at both ends, which the generalized smoothstep of order p = 2N
does (degree 2p + 1):

    S_p(τ) = τ^{p+1} Σ_{j=0}^{p} C(p+j, j) C(2p+1, p−j) (−τ)^j,   τ = t/T ∈ [0, 1].

With the input on slider N itself (collocated), u = m_N ÿ + k_{N−1}(ξ_N − ξ_{N−1}) and the
other sliders are driven by the springs only (no closed form; compared with an ODE
solution instead).
"""
from math import comb

import numpy as np
from numpy.polynomial import Polynomial

import femdyn
from femdyn.motion.timefunctions import TimeFunction

GAP, ROD = 0.2, 0.05            # m: distance of neighbouring sliders (their springs' rest length + ROD), length of a slider


def smoothstep(order):
    """S_p(τ) as a numpy Polynomial in τ, p = ``order`` (see the module docstring)."""
    p = order
    return Polynomial([0.0] * (p + 1) + [comb(p + j, j) * comb(2 * p + 1, p - j) * (-1) ** j for j in range(p + 1)])


def output_polynomial(order, duration, height):
    """y(t) = height · S_p(t/T), m, as a Polynomial in t (for the closed form)."""
    return height * smoothstep(order)(Polynomial([0.0, 1.0 / duration]))


class RestToRest(TimeFunction):
    """height · S_p(t/T) (m), constant outside [0, T]. Evaluated as a polynomial in
    s = τ − ½ (S_p − ½ is odd in s, with coefficients of order one): the power series in τ
    has coefficients up to 10⁵ of alternating sign and loses about 1e-14 m to cancellation,
    which a non-collocated servo's inputs amplify by about (ωh)^(−r) (r the relative
    degree) into visible noise."""

    def __init__(self, height, order, duration):
        self.height, self.order, self.T = height, order, duration
        self.s = smoothstep(order)(Polynomial([0.5, 1.0]))
        self.ds, self.dds = self.s.deriv(1), self.s.deriv(2)

    def _centred(self, t):
        """(s = τ − ½ with τ clipped to [0, 1], whether t lies inside [0, T])."""
        tau = t / self.T
        return min(max(tau, 0.0), 1.0) - 0.5, 0.0 <= tau <= 1.0

    def value(self, t):
        return self.height * float(self.s(self._centred(t)[0]))

    def d1(self, t):
        s, inside = self._centred(t)
        return self.height * float(self.ds(s)) / self.T if inside else 0.0

    def d2(self, t):
        s, inside = self._centred(t)
        return self.height * float(self.dds(s)) / self.T ** 2 if inside else 0.0


def flat_chain(y, masses, stiffnesses):
    """The displacements ξ_1 … ξ_N and the input u on slider 1 as Polynomials of t, from the
    output y = ξ_N (see the module docstring)."""
    N = len(masses)
    xi = [None] * N
    xi[N - 1] = y
    if N > 1:
        xi[N - 2] = y + masses[N - 1] / stiffnesses[N - 2] * y.deriv(2)
    for i in range(N - 2, 0, -1):         # 0-based: ξ_{i−1} from ξ_i, ξ_{i+1}
        xi[i - 1] = xi[i] + (masses[i] * xi[i].deriv(2) + stiffnesses[i] * (xi[i] - xi[i + 1])) / stiffnesses[i - 1]
    u = masses[0] * xi[0].deriv(2) + (stiffnesses[0] * (xi[0] - xi[1]) if N > 1 else 0.0)
    return xi, u


def chain_model(masses, stiffnesses, output, driven=0, damping=0.0, name="chain", force=None):
    """The chain with slider ``driven`` (0-based) actuated and slider N, which starts at
    x = 0, prescribed to x_N = output(t); slider i starts at x = (i − N)·GAP, its sensor
    ``x<i>`` on its left end. With ``force`` (a time function, N) instead, slider ``driven``
    is pushed along x by it and nothing is prescribed (forward dynamics). The output coordinate near 0 lets the position tolerance go
    down to 1e-15 m, which the first steps need (y ∝ t^{p+1} is below 1e-13 m there)."""
    m = femdyn.Model(name, gravity=(0.0, 0.0, 0.0))
    sliders, N = [], len(masses)
    for i, mass in enumerate(masses):
        x = (i + 1 - N) * GAP
        rod = m.rigid_beam(f"slider {i + 1}", m.point(f"L{i + 1}", (x, 0, 0)), m.point(f"R{i + 1}", (x + ROD, 0, 0)),
                           mass=mass)
        m.prismatic(f"guide {i + 1}", "ground", rod, (x, 0, 0), (1, 0, 0))
        m.sensor_point(f"x{i + 1}", rod, (x, 0, 0))
        sliders.append(rod)
    for i, k in enumerate(stiffnesses):
        x = (i + 1 - N) * GAP
        m.spring(f"spring {i + 1}", sliders[i], (x + ROD, 0, 0), sliders[i + 1], (x + GAP, 0, 0),
                 stiffness=k, damping=damping)
    if force is not None:
        m.force("push", sliders[driven], ((driven + 1 - N) * GAP, 0, 0), (1.0, 0, 0), force)
        return m
    m.actuator("push", f"guide {driven + 1}")
    m.servo("output", sliders[-1], (0, 0, 0), [output], [(1, 0, 0)])
    return m


HEIGHT = 0.1                                 # m: the travel of slider N
# N: (masses kg, spring stiffnesses N/m, duration T s, step h s); the first natural
# frequencies are 25 rad/s (N = 2) and 22 rad/s (N = 3)
CHAINS = {2: ([1.0, 0.8], [400.0], 1.5, 1e-3),
          3: ([1.0, 0.8, 0.6], [1600.0, 1200.0], 6.0, 4e-3)}
# inverse dynamics needs tight Newton tolerances: the inputs sit where multipliers sit and a
# position error ε of the output reaches them amplified by about (ωh)^(−r), r = 2N
TIGHT = dict(tol_dynamic=1e-12, tol_constraint=1e-15)


def chain(N, driven=0):
    """(model, output polynomial y(t), duration, step) of the chain with N sliders."""
    masses, stiffnesses, T, h = CHAINS[N]
    output = RestToRest(HEIGHT, 2 * N + 1, T)
    return chain_model(masses, stiffnesses, output, driven=driven), output_polynomial(2 * N + 1, T, HEIGHT), T, h


def positions(results, N):
    """Displacements ξ_i of the sliders from their initial positions (m), one column each."""
    return np.column_stack([results[f"x{i + 1}.x"] - (i + 1 - N) * GAP for i in range(N)])
