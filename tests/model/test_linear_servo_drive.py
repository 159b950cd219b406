"""Servo drives on a prismatic joint's stroke (femdyn.model.drives.LinearServoDrive), the slide drive and the
stroke sensor, against closed forms: a block on a rail under PID follows the exact third-order closed-loop
response with the screw's reflected mass N²J_m; under a constant force the stroke sensor reads F t²/2m;
a slide drive holds a block against gravity with the reaction m g; a non-prismatic joint is refused by name."""
import numpy as np
import pytest
from scipy.linalg import expm

import femdyn
from femdyn.errors import ModelError
from femdyn.solvers.generalized_alpha import integrate
from femdyn.solvers.static import static_equilibrium

MASS, MOTOR, LEAD = 2.0, 2e-5, 2 * np.pi / 0.01     # kg; kg·m²; a 10 mm lead screw, rad per metre
M_EFF = MASS + LEAD ** 2 * MOTOR                    # the block plus the rotor's reflected mass, kg
KP, KI, KD, STEP = 4e4, 4e5, 800.0, 0.01            # N/m, N/(m·s), N·s/m; a 10 mm step


def rail(gravity=(0, 0, 0), drive=True):
    """A block on a rail along x, the rail fixed to the ground, optionally under a PID drive to STEP."""
    m = femdyn.Model("rail", gravity=gravity)
    block = m.rigid_body("block", [m.point("P", (0, 0, 0))], [m.vector("u", (1, 0, 0)), m.vector("v", (0, 1, 0)),
                                                             m.vector("w", (0, 0, 1))], mass=MASS)
    m.prismatic("rail", "ground", block, (0, 0, 0), (1, 0, 0))
    if drive:
        m.servo_drive("drive", "rail", STEP, KP, KI, KD, motor_inertia=MOTOR, gear_ratio=LEAD)
    return m


def closed_loop(t):
    """s(t) of M s̈ = k_p e + k_i ∫e − k_d ṡ, e = r − s, from rest (state [s, ṡ, ∫e, 1])."""
    A = np.zeros((4, 4))
    A[0, 1] = 1.0
    A[1] = [-KP / M_EFF, -KD / M_EFF, KI / M_EFF, KP * STEP / M_EFF]
    A[2] = [-1.0, 0.0, 0.0, STEP]
    return np.array([(expm(A * s) @ [0, 0, 0, 1.0])[0] for s in t])


def test_a_pid_drive_on_a_rail_follows_the_closed_form_in_h():
    # generalized-α is second order: halving h quarters the error; below 1e-3 of the step at h = 0.5 ms
    errors = []
    for h in (5e-4, 2.5e-4):
        res = integrate(rail().assemble(), 0.2, h)
        errors.append(np.abs(res["drive.stroke"] - closed_loop(res.t)).max())
    assert errors[0] < 1e-3 * STEP
    assert 3.5 < errors[0] / errors[1] < 4.5
    assert res["drive.error"][-1] == pytest.approx(STEP - res["drive.stroke"][-1], abs=1e-15)    # not wrapped


def test_the_stroke_sensor_reads_a_pushed_block():
    # F = 4 N on 2 kg: s = F t²/2m, ṡ = F t/m (exact for the integrator's constant acceleration)
    m = rail(drive=False)
    m.joint_force("push", "rail", 4.0)
    m.sensor_slide("slide", "rail")
    res = integrate(m.assemble(), 1.0, 0.01)
    np.testing.assert_allclose(res["slide.stroke"], res.t ** 2, atol=1e-9)
    np.testing.assert_allclose(res["slide.rate"], 2 * res.t, atol=1e-9)


def test_a_slide_drive_holds_a_block_against_gravity():
    m = rail(gravity=(-9.81, 0, 0), drive=False)
    drive = m.drive_slide("hold", "rail", 0.02)
    m.sensor_reaction("hold", drive)
    m.sensor_slide("slide", "rail")
    system = m.assemble()
    q, lam = static_equilibrium(system, max_correction=0.05)        # the hold moves the block 20 mm
    assert q[system.nodes["P"].dofs][0] == pytest.approx(0.02, abs=1e-12)
    reaction = -lam[system.equation_rows["hold"]][0]          # the drive force on the block along x, N
    assert reaction == pytest.approx(MASS * 9.81, rel=1e-9)


def test_a_joint_that_is_not_prismatic_is_refused_by_name():
    m = rail(drive=False)
    rod = m.rigid_beam("rod", m.point("O", (0, 1, 0)), m.point("A", (1, 1, 0)), mass=1.0)
    m.spherical("ball", "ground", rod, (0, 1, 0))
    with pytest.raises(ModelError, match="'ball' is not a prismatic joint of this model; known prismatic joints: "
                                         r"\['rail'\]"):
        m.drive_slide("hold", "ball", 0.0)
    with pytest.raises(ModelError, match="'ball' is not a revolute or prismatic joint"):
        m.servo_drive("drive", "ball", 0.0, 1.0)
