"""Checks of recursive-dynamics helpers (formerly examples in their docstrings)."""
import warnings

import numpy as np

from femdyn.errors import PhysicalConsistencyWarning
from femdyn.solvers.recursive.closed_loop import _joint_triad
from femdyn.solvers.recursive.configuration import _quaternion_multiply, _quaternion_to_matrix, _se3_exp
from femdyn.solvers.recursive.model import _check_mass_properties, _parent_first_order, inertia_matrix
from femdyn.solvers.recursive.regressor import inertia_map, parameters_from_inertia
from femdyn.solvers.recursive.spatial import spatial_inertia


def test_joint_triad():
    assert _joint_triad([0, 0, 2.0]).tolist() == [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]


def test_quaternions():
    i, j = np.array([1.0, 0, 0, 0]), np.array([0, 1.0, 0, 0])
    assert _quaternion_multiply(i, j).tolist() == [0.0, 0.0, 1.0, 0.0]          # i j = k
    R = _quaternion_to_matrix([0, 0, np.sin(np.pi / 4), np.cos(np.pi / 4)])       # 90° about z
    assert (R @ [1, 0, 0]).round(12).tolist() == [0.0, 1.0, 0.0]


def test_se3_exp_half_turn():
    quat, p = _se3_exp(np.array([0, 0, np.pi, 1.0, 0, 0]))    # half turn while moving along x
    assert p.round(6).tolist() == [0.0, 0.63662, 0.0]          # a semicircle of diameter 2/π


def test_mass_properties():
    assert inertia_matrix((1, 2, 3, 0.1, 0, 0), "link")[0].tolist() == [1.0, 0.1, 0.0]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _check_mass_properties("link1", 0.0, np.zeros(3), np.diag([0, 0.35, 0]), strict=False)
    assert caught[0].category is PhysicalConsistencyWarning
    assert _parent_first_order(["hand", "arm"], ["arm", "world"]) == [1, 0]


def test_spatial_inertia_and_parameters():
    assert float(spatial_inertia(2.0, [0.5, 0, 0], np.diag([0.1, 0.2, 0.2]))[2, 2]) == 0.7   # 0.2 + 2·0.25
    A = inertia_map(np.array([0.0, 0.0, 1.0, 1.0, 0.0, 0.0]))
    assert A.shape == (6, 10) and float(A[3, 0]) == 1.0          # the linear momentum m u along x
    assert parameters_from_inertia(spatial_inertia(2.0, [0.5, 0, 0], np.eye(3)))[:4].tolist() == [2.0, 1.0, 0.0, 0.0]
