"""Bad input to the recursive-dynamics models raises ModelError naming the object and the fix."""
import numpy as np
import pytest

from femdyn.errors import ModelError, NonFiniteError
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


@pytest.mark.parametrize("mass", [0.0, -1.0])
def test_non_positive_mass(mass):
    with pytest.raises(ModelError, match="body 'a': mass .* not positive"):
        TreeModel.from_table([row("a", mass=mass)])


def test_non_finite_mass():
    with pytest.raises(NonFiniteError, match=r"body 'a': mass \(kg\): nan is not finite"):
        TreeModel.from_table([row("a", mass=np.nan)])


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


def two_models():
    """A 2-body chain and a 30-body tree: their workspaces differ in every size."""
    from support.trees import random_tree
    rng = np.random.default_rng(0)
    return TreeModel.from_table([row("a"), row("b", "a")]), random_tree(rng, 30, floating=True)


def entry_points(model, data):
    """Every public function that takes (model, data), by name, called with valid arguments for ``model``."""
    from femdyn.solvers.recursive import (LoopClosure, center_of_mass, computed_torque, inverse_dynamics,
                                          kinematics, mass_matrix)
    from femdyn.solvers.recursive.closed_loop import bias, constrained_forward_dynamics, jacobian, residual
    q, v = model.neutral_configuration(), np.zeros(model.nv)
    loop = [LoopClosure("spherical", 0, (np.eye(3), (1, 0, 0)), 1, (np.eye(3), (0, 0, 0)), rows=(1,))]
    return {"kinematics": lambda: kinematics(model, data, q),
            "inverse_dynamics": lambda: inverse_dynamics(model, data, q, v, v),
            "forward_dynamics": lambda: forward_dynamics(model, data, q, v, v),
            "hybrid_dynamics": lambda: hybrid_dynamics(model, data, q, v, None, v, v),
            "mass_matrix": lambda: mass_matrix(model, data, q),
            "center_of_mass": lambda: center_of_mass(model, data, q),
            "momentum": lambda: momentum(model, data, q, v),
            "computed_torque": lambda: computed_torque(model, data, q, v, q, v, v, 1.0, 1.0),
            "floating_base_inverse_dynamics":
                lambda: floating_base_inverse_dynamics(model, data, q, v, np.zeros(max(model.nv - 6, 0))),
            "residual": lambda: residual(model, data, q, loop),
            "jacobian": lambda: jacobian(model, data, q, loop),
            "bias": lambda: bias(model, data, q, v, loop),
            "constrained_forward_dynamics": lambda: constrained_forward_dynamics(model, data, q, v, v, loop)}


def test_workspace_of_another_model_is_refused():
    """A Data of another model's sizes would make the compiled sweeps write out of bounds (a crash): every
    entry point refuses it, both ways round. With its own Data each one runs (the floating-base one on the
    floating tree, the others on the chain)."""
    small, big = two_models()
    for model, other in ((small, big), (big, small)):
        for name, call in entry_points(model, Data(other)).items():
            with pytest.raises(ModelError, match=r"Data built for a model of \(bodies, nq, nv\)"):
                call()
    for name, call in entry_points(small, Data(small)).items():
        (entry_points(big, Data(big))[name] if name == "floating_base_inverse_dynamics" else call)()


@pytest.mark.parametrize("quaternion", [(0.0, 0.0, 0.0, 0.0), (np.nan, 0.0, 0.0, 1.0), (np.inf, 0.0, 0.0, 1.0)])
def test_degenerate_quaternion(quaternion):
    model = TreeModel([Body("a", "world", Joint("free"), **UNIT)])
    q = np.r_[0.1, 0.2, 0.3, quaternion]
    for call in (forward_dynamics, lambda m, d, q, v, t: momentum(m, d, q, v)):
        with pytest.raises(ModelError, match="free joint of body 'a' has the quaternion .* zero or non-finite norm"):
            call(model, Data(model), q, np.zeros(6), np.zeros(6))


@pytest.mark.parametrize("v, message", [(None, "v: expected 1 values .* got None"), (0.0, r"got shape \(\)"),
                                        ("fast", "v: expected 1 numbers, got 'fast'"), ([[0.0]], r"shape \(1, 1\)")])
def test_vectors_must_have_their_shape(v, message):
    model = TreeModel.from_table([row("a")])
    with pytest.raises(ModelError, match=message):
        forward_dynamics(model, Data(model), [0.0], v, [0.0])


def test_overrides_and_wrenches_are_checked():
    model = TreeModel([Body("a", "world", Joint("free"), **UNIT)])
    data, q = Data(model), model.neutral_configuration()
    with pytest.raises(ModelError, match=r"gravity \(m/s², world frame\): expected 3 values"):
        forward_dynamics(model, data, q, np.zeros(6), np.zeros(6), gravity=(0.0, 1.0))
    with pytest.raises(ModelError, match=r"base_wrench .*: expected 6 values"):
        floating_base_inverse_dynamics(model, data, q, np.zeros(6), np.zeros(0), base_wrench=np.zeros(3))
    with pytest.raises(ModelError, match="prescribed: expected one flag"):
        hybrid_dynamics(model, data, q, np.zeros(6), [2], np.zeros(6), np.zeros(6))


@pytest.mark.parametrize("change, message", [
    (dict(com=(0, 0)), r"body 'a': com \(m\): expected shape \(3,\)"),
    (dict(placement_p=(1, 2)), r"body 'a': placement_p \(m\): expected shape \(3,\)"),
    (dict(placement_p=(np.nan, 0, 0)), r"body 'a': placement_p \(m\): .* is not finite"),
    (dict(placement_R=np.full((3, 3), np.nan)), "placement_R is not a proper rotation"),
    (dict(mass="heavy"), r"body 'a': mass \(kg\): 'heavy' is not numeric"),
])
def test_body_fields_are_checked(change, message):
    with pytest.raises(ModelError, match=message):
        TreeModel([Body(**{**dict(name="a", parent="world", joint=Joint(), **UNIT), **change})])


@pytest.mark.parametrize("change, message", [
    (dict(mass="heavy"), "mass .*'heavy' is not numeric"),
    (dict(axis="z"), "joint of body 'a': axis: 'z' is not numeric"),
    (dict(rpy=(0.0, 1.0)), r"table row 0 \('a'\): rpy .*expected shape \(3,\)"),
])
def test_table_values_are_checked(change, message):
    with pytest.raises(ModelError, match=message):
        TreeModel.from_table([row("a", **change)])
