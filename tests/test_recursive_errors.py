"""Bad input to the recursive-dynamics models raises ModelError naming the object and the fix."""
import numpy as np
import pytest

from femdyn.errors import ModelError
from femdyn.solvers.recursive import Body, Data, Joint, TreeModel, forward_dynamics, hybrid_dynamics, momentum
from femdyn.solvers.recursive.floating import floating_base_inverse_dynamics

UNIT = dict(mass=1.0, inertia=(0.1, 0.1, 0.1, 0, 0, 0))


def row(name, parent="world", **kw):
    return dict(dict(name=name, parent=parent, joint="revolute", axis=(0, 0, 1)), **{**UNIT, **kw})


def test_cycle_is_named():
    cycle = r"parent chain (a -> c -> b -> a|b -> a -> c -> b|c -> b -> a -> c) is a cycle"
    with pytest.raises(ModelError, match=cycle):
        TreeModel.from_table([row("a", "c"), row("b", "a"), row("c", "b")])


def test_missing_parent():
    with pytest.raises(ModelError, match="body 'b': parent 'ghost' does not exist"):
        TreeModel.from_table([row("a"), row("b", "ghost")])


def test_duplicate_name():
    with pytest.raises(ModelError, match="'a' is used twice"):
        TreeModel.from_table([row("a"), row("a")])


@pytest.mark.parametrize("mass", [0.0, -1.0, np.nan])
def test_non_positive_mass(mass):
    with pytest.raises(ModelError, match="body 'a': mass .* not positive"):
        TreeModel.from_table([row("a", mass=mass)])


def test_singular_inertia():
    with pytest.raises(ModelError, match="body 'a': rotational inertia is singular"):
        TreeModel.from_table([row("a", inertia=(0.1, 0.1, 0.0, 0, 0, 0))])


def test_triangle_inequality():
    with pytest.raises(ModelError, match="body 'a': .*triangle inequality"):
        TreeModel.from_table([row("a", inertia=(0.1, 0.1, 0.3, 0, 0, 0))])


def test_unsymmetric_inertia():
    with pytest.raises(ModelError, match="not symmetric"):
        TreeModel.from_table([row("a", inertia=[[1, 0.1, 0], [0, 1, 0], [0, 0, 1]])])


def test_bad_axis_and_kind_and_rotation():
    with pytest.raises(ModelError, match="joint of body 'a': axis"):
        TreeModel.from_table([row("a", axis=(0, 0, 0))])
    with pytest.raises(ModelError, match="unknown joint kind 'ball'"):
        TreeModel.from_table([row("a", joint="ball")])
    with pytest.raises(ModelError, match="placement_R is not a proper rotation"):
        TreeModel.from_table([row("a", R=np.diag([1.0, 1.0, -1.0]))])


def test_table_keys():
    with pytest.raises(ModelError, match="missing key 'mass'"):
        TreeModel.from_table([dict(name="a", inertia=(1, 1, 1, 0, 0, 0))])
    with pytest.raises(ModelError, match=r"unknown keys \['colour'\]"):
        TreeModel.from_table([row("a", colour="red")])


def test_wrong_vector_sizes():
    model = TreeModel.from_table([row("a"), row("b", "a")])
    data = Data(model)
    with pytest.raises(ModelError, match="q: expected 2 values"):
        forward_dynamics(model, data, np.zeros(3), np.zeros(2), np.zeros(2))
    with pytest.raises(ModelError, match="prescribed: expected one flag per joint"):
        hybrid_dynamics(model, data, np.zeros(2), np.zeros(2), [True], np.zeros(2), np.zeros(2))
    with pytest.raises(ModelError, match="no body named 'z'"):
        hybrid_dynamics(model, data, np.zeros(2), np.zeros(2), ["z"], np.zeros(2), np.zeros(2))
    with pytest.raises(ModelError, match="f_ext"):
        forward_dynamics(model, data, np.zeros(2), np.zeros(2), np.zeros(2), f_ext=np.zeros(6))
    with pytest.raises(ModelError, match="about='middle'"):
        momentum(model, data, np.zeros(2), np.zeros(2), about="middle")


def test_floating_inverse_dynamics_needs_free_root():
    model = TreeModel([Body("a", "world", Joint("revolute"), **UNIT)])
    with pytest.raises(ModelError, match="exactly one root body with a 'free' joint"):
        floating_base_inverse_dynamics(model, Data(model), np.zeros(1), np.zeros(1), np.zeros(0))
