"""The floating-frame body of an ANCF beam's component against the full ANCF beam: the
component is the element set linearized at its reference (same frequencies), the
reduced pendulum converges to the full one as modes are added, and the remaining
difference is the geometric stiffening a linear modal body lacks (it scales with the
load)."""
from functools import lru_cache

import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.component import read_component, validate, write_component
from femdyn.solvers.generalized_alpha import Options, integrate
from femdyn.solvers.eigen import eigenmodes
from femdyn.studies.flexible_beam import beam_component, hub_with_beam, tip_deflection

SECTION = sections.rectangular(0.02, 0.02)
STEEL = (1.0, 4, 2.1e11, 7800.0, SECTION)          # length (m), elements, E (Pa), ρ (kg/m³), section


def test_component_is_the_linearized_element_set(tmp_path):
    """Held at x0, the FFR body with all modes has the frequencies of the ANCF cantilever
    (clamped at its first node, linearized at rest): relative 1e-5 (the dense eigensolver
    on the ANCF null space resolves the 1e-7 level; measured 6e-7). Its mass properties
    are the beam's, the mean-axis invariants Ct, Cr vanish, and the file round trip is
    exact."""
    length, n_el, E, rho, section = STEEL
    comp = beam_component(*STEEL)
    validate(comp)
    assert float(comp.mass) == pytest.approx(rho * float(section.area) * length, rel=1e-12)
    assert np.allclose(comp.com, (length / 2, 0, 0), atol=1e-12)
    assert np.abs(comp.Ct).max() < 1e-7 and np.abs(comp.Cr).max() < 1e-7
    again = read_component(write_component(tmp_path / "beam.fdc", comp))
    assert all(np.array_equal(again.arrays[k], comp.arrays[k]) for k in comp.arrays)
    held = femdyn.Model("held", gravity=(0, 0, 0))
    body = held.flexible_body("beam", comp)
    held.weld("root", held.ground, body.interface("x0"), (0, 0, 0))
    ancf = femdyn.Model("ancf", gravity=(0, 0, 0))
    ancf.straight_beam("beam", (0, 0, 0), (length, 0, 0), n_el, E, rho, section, element="beam", y_axis=(0, 1, 0))
    ancf.clamp("root", "beam.0", "ground")
    w_ffr, _ = eigenmodes(held.assemble(), count=12, method="dense")
    w_ancf, _ = eigenmodes(ancf.assemble(), count=12, method="dense")
    assert np.allclose(w_ffr, w_ancf, rtol=1e-5)


@lru_cache(maxsize=None)
def swing(link, modes=None, g=9.81, t_end=0.1):
    """Tip deflection (m, along the hub's z axis) of the steel bar (1 m, 20 × 20 mm)
    released horizontal on the hub's hinge (axis y), h = 1 ms, ρ∞ = 0.8."""
    m = hub_with_beam(link, *STEEL, gravity=(0, 0, -g), modes=modes)
    s = m.assemble()
    r = integrate(s, t_end, 1e-3, Options(rho_inf=0.8))
    return tip_deflection(r, s, 2)


def relative_error(modes, g=9.81):
    full = swing("ancf", g=g)
    return np.abs(swing("ffr", modes, g) - full).max() / np.abs(full).max()


def test_reduced_pendulum_converges_to_the_full_ancf_beam():
    """Flexible pendulum (tip deflection ≈ 0.27 mm over the first 0.1 s of its swing): the
    error of the reduced body falls as modes are added (measured: 2 modes 51 %, 4: 20 %,
    8: 0.16 %, 16: 0.13 %, 24 and all 48: 0.035 %). Two different errors, told apart by
    the load: the truncation error of a linear model does not depend on the load
    amplitude (8 modes: the same at g and g/10, ±30 %), while what remains with all modes
    is the geometric stiffening of the nonlinear ANCF beam under its axial force, which a
    linear modal body lacks: the axial force grows with the swing angle and rate, ∝ g², so
    at g/10 this error drops by two orders (> 20 required; the Newton tolerance floors it)."""
    e4, e8, e_all = relative_error(4), relative_error(8), relative_error(None)
    assert e4 > 0.1 and e8 < 3e-3 and e_all < 1e-3
    assert 0.7 < e8 / relative_error(8, g=0.981) < 1.3
    assert e_all / relative_error(None, g=0.981) > 20
