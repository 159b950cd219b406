"""Jerk-limited profiles, paths and trajectories: continuity at every phase boundary,
limits, exact length and cruise speed, derivatives against finite differences, bad input.

Tolerances: the profile is piecewise cubic, so at a phase boundary the one-sided limits
at t_k ± δ differ by O(J δ) in acceleration, O(a δ) in speed, O(v δ) in position; with
δ = 1e-9 s a continuous quantity moves at most 2δ times the bound of its derivative,
while a jump would be of the order of the quantity itself. Central
differences with step δ = 1e-5 s inside a phase have truncation error δ²/6·|f'''| (≤ 1e-8
for J ≤ 100 m/s³), so a relative tolerance 1e-6 separates right from wrong.
"""
import doctest

import numpy as np
import pytest

import femdyn.motion.trajectories as trajectories
from femdyn.errors import ModelError
from femdyn.model import Model
from femdyn.motion import CirclePath, LinePath, PathMotion, PolylinePath, SCurve, stop_at_vertices

# (length m, speed m/s, acceleration m/s², jerk m/s³): the four shapes of the profile
CASES = {
    "full seven phases": (2 * np.pi * 0.1, 0.5, 2.5, 50.0),
    "acceleration limit not reached": (1.0, 0.5, 10.0, 50.0),        # v J = 25 < a² = 100
    "cruise speed not reached": (0.1, 0.5, 2.5, 50.0),
    "neither reached": (1e-4, 0.5, 2.5, 50.0),
}


def one_sided(f, t, delta=1e-9):
    return f(t - delta), f(t + delta)


@pytest.mark.parametrize("case", sorted(CASES))
def test_profile_continuous_at_every_phase_boundary(case):
    L, v, a, j = CASES[case]
    s = SCurve(L, v, a, j, start=0.3)
    for tk in s.breakpoints:
        # a continuous f with |f'| ≤ bound moves at most 2δ·bound between t_k ∓ δ
        for f, bound, scale in ((s.value, s.peak_speed, L), (s.d1, s.peak_acceleration, v), (s.d2, j, a)):
            left, right = one_sided(f, tk)
            assert abs(left - right) <= 2.01e-9 * bound + 1e-15 * scale, (case, tk, f.__name__, left, right)
    # rest before the start and after the end
    assert s.state(0.0) == (0.0, 0.0, 0.0)
    assert s.value(s.breakpoints[-1] + 1.0) == L


@pytest.mark.parametrize("case", sorted(CASES))
def test_profile_limits_length_and_speed(case):
    L, v, a, j = CASES[case]
    s = SCurve(L, v, a, j)
    t = np.linspace(0, s.duration, 20001)
    st = np.array([s.state(x) for x in t])
    assert s.value(s.duration) == pytest.approx(L, rel=1e-14, abs=0)
    assert np.all(np.diff(st[:, 0]) >= -1e-16)                 # monotone progress
    assert st[:, 1].max() <= v * (1 + 1e-12)
    assert np.abs(st[:, 2]).max() <= a * (1 + 1e-12)
    jerks = np.array([s.d3(x) for x in t[:-1]])
    assert np.abs(jerks).max() <= j
    # ∫ṡ dt = L (trapezoid on a piecewise-quadratic speed: error ≤ T Δt² max|s⃛|/12)
    dt = t[1] - t[0]
    assert np.trapezoid(st[:, 1], t) == pytest.approx(L, abs=s.duration * dt**2 * j / 12 + 1e-15)
    if case in ("full seven phases", "acceleration limit not reached"):
        assert s.peak_speed == v and s.t_cruise > 0
        mid = s.t_accel + 0.5 * s.t_cruise
        assert s.d1(mid) == v                                     # cruise speed exact
    else:
        assert s.t_cruise == 0 and s.peak_speed < v
    if case == "acceleration limit not reached" or case == "neither reached":
        assert s.peak_acceleration < a
        assert s.peak_acceleration == pytest.approx(np.sqrt(s.peak_speed * j), rel=1e-12)
    else:
        assert np.abs(st[:, 2]).max() == pytest.approx(a, rel=1e-3)


def test_reduced_speed_is_the_highest_reachable():
    """Without cruise, the speed-up and slow-down together cover exactly L; a hair more
    speed would overshoot it (the degraded profile is the fastest one within the limits)."""
    L, v, a, j = CASES["cruise speed not reached"]
    s = SCurve(L, v, a, j)
    assert s.peak_speed * s.t_accel == pytest.approx(L, rel=1e-13)      # accel + decel distance v·T_a
    faster = SCurve(10 * L, s.peak_speed * 1.001, a, j)
    assert faster.peak_speed * faster.t_accel > L


@pytest.mark.parametrize("case", sorted(CASES))
def test_profile_derivatives_against_finite_differences(case):
    L, v, a, j = CASES[case]
    s = SCurve(L, v, a, j)
    d = 1e-5 * min(s.t_jerk, 1.0)
    edges = s.breakpoints
    for t in np.linspace(0, s.duration, 97)[1:-1]:
        if np.min(np.abs(edges - t)) < 2 * d:
            continue
        assert (s.value(t + d) - s.value(t - d)) / (2 * d) == pytest.approx(s.d1(t), rel=1e-6, abs=1e-9 * v)
        assert (s.d1(t + d) - s.d1(t - d)) / (2 * d) == pytest.approx(s.d2(t), rel=1e-6, abs=1e-9 * a)


def fd_check(motion, times, delta=1e-5):
    for t in times:
        r0, v0, a0 = motion.state(t)
        vp = (motion.position(t + delta) - motion.position(t - delta)) / (2 * delta)
        ap = (motion.velocity(t + delta) - motion.velocity(t - delta)) / (2 * delta)
        assert np.abs(vp - v0).max() <= 1e-6 * max(1.0, np.abs(v0).max()), t
        assert np.abs(ap - a0).max() <= 1e-6 * max(1.0, np.abs(a0).max()), t


def test_circle_trajectory_exact_geometry_and_derivatives():
    circle = CirclePath((0.01, -0.02, -0.8), 0.1, normal=(0.2, -0.1, 1.0), start_angle=0.4)
    profile = SCurve(circle.length, 0.5, 2.5, 50.0)
    motion = PathMotion(circle, profile)
    t = np.linspace(0, motion.end, 301)
    r = np.array([motion.position(x) for x in t])
    radius = np.linalg.norm(r - circle.centre, axis=1)
    assert np.abs(radius - 0.1).max() < 1e-15 * 10                   # on the circle to round-off
    assert np.abs((r - circle.centre) @ circle.normal).max() < 1e-15 * 10   # in its plane
    assert np.linalg.norm(r[-1] - r[0]) < 1e-14                         # one full turn, closed
    mid = profile.t_accel + 0.5 * profile.t_cruise
    assert np.linalg.norm(motion.velocity(mid)) == pytest.approx(0.5, rel=1e-14)       # cruise speed
    assert np.linalg.norm(motion.acceleration(mid)) == pytest.approx(0.5**2 / 0.1, rel=1e-12)  # v²/R
    keep = [x for x in t[1:-1] if np.min(np.abs(profile.breakpoints - x)) > 1e-4]
    fd_check(motion, keep)
    assert np.allclose(motion.position(-1.0), r[0]) and np.allclose(motion.velocity(motion.end + 1), 0)


def test_components_drive_a_coordinate():
    """The scalar pieces are TimeFunctions that Model.drive_coordinate accepts; they agree
    with the vector trajectory."""
    line = LinePath((0.0, 0.0, 0.0), (0.3, 0.2, -0.1))
    motion = PathMotion(line, SCurve(line.length, 0.4, 3.0, 60.0, start=0.1))
    d = np.array([1.0, 2.0, 2.0]) / 3
    f = motion.along((1.0, 2.0, 2.0))
    x, y, z = motion.components()
    for t in (0.0, 0.2, 0.5, motion.end):
        assert f.value(t) == pytest.approx(d @ motion.position(t), abs=1e-15)
        assert f.d2(t) == pytest.approx(d @ motion.acceleration(t), abs=1e-14)
        assert (x.d1(t), y.d1(t), z.d1(t)) == pytest.approx(tuple(motion.velocity(t)), abs=1e-15)
    m = Model("slider", gravity=(0, 0, 0))
    m.rigid_body("block", [m.point("P", (0, 0, 0)), m.point("Q", (0.1, 0, 0))], [m.vector("n", (0, 0, 1))], mass=1.0)
    m.drive_coordinate("follow", "block", (0, 0, 0), (1.0, 2.0, 2.0), f)
    assert m.joints["follow"].equations()[0].function is f


def test_polyline_stops_at_vertices_and_is_continuous():
    pts = [(0, 0, 0), (0.1, 0, 0), (0.1, 0.05, 0.02), (0.0, 0.05, 0.02)]
    motion = stop_at_vertices(pts, 0.5, 2.5, 50.0, start=0.2, dwell=0.05)
    for k, piece in enumerate(motion.pieces):
        assert np.allclose(piece.position(piece.end), pts[k + 1], atol=1e-15)
        for tk in (piece.start, piece.end):
            for f in (motion.position, motion.velocity, motion.acceleration):
                left, right = one_sided(f, tk)
                assert np.abs(left - right).max() < 1e-7
        assert np.abs(motion.velocity(piece.end)).max() < 1e-15
    path = PolylinePath(pts)
    assert path.length == pytest.approx(0.1 + np.hypot(0.05, 0.02) + 0.1, rel=1e-15)
    p0, p1 = motion.pieces[0].profile, motion.pieces[1].profile
    fd_check(motion, [0.2 + 0.5 * p0.t_jerk, 0.2 + 0.5 * p0.t_accel, p1.start + 0.7 * p1.t_jerk, motion.end - 0.013])


@pytest.mark.parametrize("bad, word", [
    (lambda: SCurve(-0.1, 0.5, 2.5, 50.0), "length"),
    (lambda: SCurve(0.0, 0.5, 2.5, 50.0), "length"),
    (lambda: SCurve(0.1, -0.5, 2.5, 50.0), "speed"),
    (lambda: SCurve(0.1, 0.5, 0.0, 50.0), "acceleration"),
    (lambda: SCurve(0.1, 0.5, 2.5, -1.0), "jerk"),
    (lambda: SCurve(0.1, 0.5, 2.5, float("nan")), "jerk"),
    (lambda: SCurve(0.1, 0.5, 2.5, 50.0, exact_speed=True), "speed"),     # 0.5 m/s unreachable in 0.1 m
    (lambda: CirclePath((0, 0, 0), 0.0), "radius"),
    (lambda: CirclePath((0, 0, 0), 0.1, normal=(0, 0, 0)), "normal"),
    (lambda: LinePath((1, 2, 3), (1, 2, 3)), "zero length"),
    (lambda: PolylinePath([(0, 0, 0), (0, 0, 0), (1, 0, 0)]), "coincide"),
    (lambda: PathMotion(PolylinePath([(0, 0, 0), (1, 0, 0), (1, 1, 0)]), SCurve(2.0, 0.5, 2.5, 50.0)), "corners"),
    (lambda: PathMotion(LinePath((0, 0, 0), (1, 0, 0)), SCurve(2.0, 0.5, 2.5, 50.0)), "length"),
])
def test_bad_input_names_the_parameter(bad, word):
    with pytest.raises(ModelError, match=word):
        bad()


def test_docstring_examples():
    assert doctest.testmod(trajectories).failed == 0
