"""The random trees of ``support.trees`` and their Pinocchio twins describe the same robot."""
import numpy as np
import pytest

from support.trees import (random_rotation, random_inertia, random_tree, random_state, to_pinocchio,
                           depth_first, coordinate_map, from_pinocchio_vector, pinocchio_mass_matrix)


def test_pinocchio_twin_has_same_tree():
    """The converter keeps the number of coordinates and the total mass (1e-12 kg: sums of the same numbers)."""
    pin = pytest.importorskip("pinocchio")
    rng = np.random.default_rng(0)
    model = random_tree(rng, 9, kinds=("revolute", "prismatic", "fixed"), floating=True)
    pm = to_pinocchio(model)
    assert (pm.nq, pm.nv) == (model.nq, model.nv)
    assert abs(pin.computeTotalMass(pm) - model.mass.sum()) < 1e-12
