"""A body's kind and capabilities, asked through the Body contract (femdyn.model.protocol.Body).

Rigid bodies and point masses take the contract's neutral answers (no component, no output
points, no mesh); a natural-coordinate body's turning vectors are its basis, whose turning
rate is the spin the integrator checks: a rod turning at ω about its pivot gives ω exactly
(|ḃ|/|b| of a rotating vector, to round-off). The recursive models are told apart by class.
"""
import numpy as np
import pytest

import femdyn
from femdyn.model.protocol import Body, missing
from femdyn.solvers.recursive import Body as TreeBody, Joint, TreeModel
from femdyn.solvers.recursive.data import Data
from femdyn.solvers.recursive.flexible_dynamics import FlexibleData
from femdyn.solvers.spin import turning_rates


def pendulum_with_bob():
    """A 1 m rod on a pivot about y and a 0.5 kg point mass at its tip."""
    m = femdyn.Model("contract")
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    m.revolute("pivot", m.ground, rod, point=(0, 0, 0), axis=(0, 1, 0))
    bob = m.point_mass("bob", "A", 0.5)
    return m, rod, bob


def test_rigid_bodies_take_the_neutral_answers():
    m, rod, bob = pendulum_with_bob()
    q = m.assemble().q0
    for body in (rod, bob):
        assert body.component is None and body.mesh_cells(q) is None and body.mesh_stress(q) is None
        with pytest.raises(femdyn.ModelError, match=f"body '{body.name}' has no output points"):
            body.locate_output_point((1.0, 0, 0))
    assert bob.turning_vectors() == ()
    assert len(rod.turning_vectors()) == len(rod.basis) > 0


def test_the_contract_names_what_a_body_lacks():
    class Lump:
        name, points, vectors = "lump", (), ()

    lacks = missing(Lump(), Body)
    assert {"component", "locate_output_point", "turning_vectors", "mesh_cells", "mesh_stress"} <= set(lacks)


def test_a_turning_rod_spins_at_its_rate():
    m, rod, _ = pendulum_with_bob()
    system = m.assemble()
    omega = 3.0                                                      # rad/s about +y
    v = np.zeros(system.n)
    tip = system.nodes["A"]
    v[tip.dofs] = np.cross([0, omega, 0], tip.initial[:3])           # the tip's velocity, m/s
    assert turning_rates(system, system.q0, v)["rod"] == pytest.approx(omega, rel=1e-12)


def test_the_recursive_data_ask_the_model_class():
    rod = TreeBody("rod", "world", Joint("revolute", (0, 1, 0)), 1.0, com=(0.5, 0, 0),
                   inertia=(1e-3, 0.08, 0.08, 0, 0, 0))
    model = TreeModel([rod])
    assert Data(model).sizes == model.sizes
    with pytest.raises(femdyn.ModelError, match="FlexibleData needs a FlexibleTreeModel, got TreeModel"):
        FlexibleData(model)
    with pytest.raises(femdyn.ModelError, match="Data needs a TreeModel, got str"):
        Data("rod")
