"""The worked examples that the docstrings of motion, identification and studies no longer carry."""
import numpy as np

from femdyn.identification import Cubic, Selection
from femdyn.identification.config import parse
from femdyn.motion import Polynomial, Sine, as_time_function
from femdyn.robots.serial import puma560
from femdyn.solvers.recursive.regressor import inertial_parameters
from femdyn.studies.rrru_figures import angle_figures, figure_label, torque_figures
from femdyn.studies.reference import Band


def test_time_functions_compose_with_their_derivatives():
    f = 2.0 * Polynomial([0.0, 1.0]) + Sine(1.0, np.pi)      # 2t + sin(πt)
    assert (round(f(0.5), 12), round(f.d1(0.0), 12)) == (2.0, 5.14159265359)
    assert (type(as_time_function(2.0)).__name__, type(as_time_function(np.sin)).__name__) == ("Constant", "Callable")


def test_cubic_plan_is_rest_to_rest():
    q, v, a = Cubic([0.0], [np.pi / 6], 10.0)(np.array([0.0, 5.0, 10.0]))
    assert np.allclose(q[:, 0], [0, np.pi / 12, np.pi / 6]) and np.allclose(v[[0, 2], 0], 0)


def test_selection_reproduces_the_reference_parameters():
    s = Selection(puma560(), [("link2", "mass"), ("link2", "Izz")])
    assert np.allclose(s.parameters(s.values()), inertial_parameters(puma560()))


def test_identification_config_fills_defaults():
    c = parse({"robot": {"builtin": "puma560"}, "experiment": {"kind": "joint_torque"}})
    assert (c["experiment"]["period"], c["output"]["folder"]) == (10.0, "identify-out")


def test_rrru_figure_readings():
    assert figure_label("mid_link_deformation") == "mid_link_deformation [m]"
    f = torque_figures([[-9.0, -11.0, -10.0], [-7.0, -8.0, -6.0]])
    assert (f["torque_peak_largest"], f["torque_peak_largest_limb"], f["torque_peak_smallest"],
            f["torque_max"]) == (-11.0, 2, -9.0, -6.0)
    f = angle_figures(np.radians([[2.0, 2.0, 2.0], [12.0, 0.0, -6.0]]))
    assert [round(f[k], 6) for k in ("angle_max_deg", "angle_max_up_deg", "angle_excursion_deg")] == [12.0, 6.0, 10.0]
    assert Band(0.0, 0.5, "< 0.5°").factor(0.75) == 1.5
