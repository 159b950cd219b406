"""Validation of the ANCF cable against the extensible elastica (issue: fidelity).

The reference is computed in the test by shooting (benchmarks/validation/references.py);
the shooting code is itself checked against Mattiasson's inextensible table."""

import numpy as np
import pytest

from support.elastica import MATTIASSON

import cantilever_extensible as case
from references import extensible_cantilever_tip                     


@pytest.mark.parametrize("load_parameter", sorted(MATTIASSON))
def test_shooting_reproduces_mattiasson_in_the_stiff_limit(load_parameter):
    """EA → ∞ (inextensible): (v/L, u/L) within 1e-5 of Mattiasson's 5-digit table (its
    rounding is 5e-6; the 10 entry's u/L = 0.55500 is quoted to 5 digits too)."""
    u, v = extensible_cantilever_tip(1.0, np.inf, 1.0, (0.0, -load_parameter))
    assert abs(-v - MATTIASSON[load_parameter][0]) <= 1e-5
    assert abs(-u - MATTIASSON[load_parameter][1]) <= 1e-5


def test_shooting_reproduces_the_published_extensible_tip():
    """Gerstmayr & Irschik 2008 give the converged tip (−0.508537304, −1.207239855) m; the
    shooting reproduces all nine digits (measured difference < 5e-10 m)."""
    assert np.abs(case.reference_tip() - case.PUBLISHED_TIP).max() <= 1e-9


def test_extensible_cantilever_tip_within_1e6_at_64_elements():
    """Rotation-rate bending measure: 3.4e-8 m at 32 elements and 1.7e-9 m at 64 (measured;
    goal 1e-6 m at 64), fourth order between 8, 16, 32 elements (errors 3.2e-5, 9.2e-7,
    3.4e-8 m; bound: observed order ≥ 3.5). With the former measure (curvature of the
    deformed axis over the reference length) the tip stayed 1.2e-3 m away at any mesh."""
    ref = case.reference_tip()
    errors = {n: np.linalg.norm(case.femdyn_tip(n) - ref) for n in (8, 16, 32, 64)}
    assert errors[64] <= 1e-6
    assert np.log2(errors[8] / errors[16]) >= 3.5 and np.log2(errors[16] / errors[32]) >= 3.5


def test_spatial_cable_gives_the_same_tip():
    """The 3-D cable (ANCFCable3D, κ² from the Lagrange identity) on the same problem: within
    1e-6 m of the planar cable at 32 elements (two element formulations, one rod)."""
    planar = case.femdyn_tip(32)
    spatial = case.femdyn_tip(32, element="cable")
    assert np.abs(spatial - planar).max() <= 1e-6


def test_shear_deformable_beams_converge_to_reissners_rod():
    """The same cantilever with the fully parameterized beams (ν = 0.3) against Reissner's
    shear-deformable rod (shooting with k G A, Cowper's k): the quadratic beam is 3.5e-5,
    1.2e-6 m away at 8, 16 elements and settles at 2.6e-6 m (the axial strain |r'| − 1
    against Reissner's r'·d₁ − 1 differs by γ²/2); the two-node beam converges at second
    order (3.8e-3, 9.3e-4, 2.3e-4 m at 8, 16, 32). Bounds: 1e-5 m (quadratic, 16
    elements) and a ratio ≥ 3.5 per refinement (two-node)."""
    G = case.E / (2 * 1.3)
    k = case.SECTION.shear_factor(0.3)[0]
    ref = extensible_cantilever_tip(case.L, case.EA, case.EI, case.LOAD, k * G * float(case.SECTION.area))
    assert np.linalg.norm(case.femdyn_tip(16, element="beam3") - ref) <= 1e-5
    e8, e16 = (np.linalg.norm(case.femdyn_tip(n, element="beam") - ref) for n in (8, 16))
    assert e8 / e16 >= 3.5
