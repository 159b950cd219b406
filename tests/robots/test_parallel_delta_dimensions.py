"""The Delta's default dimensions are Williams' (2015) ABB IRB 360 parameters, in his own notation.

R. L. Williams II, *The Delta Parallel Robot: Kinematics Solutions* (Ohio University, 2015): s_B = 0.567 m,
s_P = 0.076 m, L = 0.524 m, l = 1.244 m, h = 0.131 m; base joints B_i at w_B = s_B/(2√3) from the base centre
(limb 1 along −y, limbs 2 and 3 at 30° and 150°), platform joints P_i at u_P = s_P/√3 (the triangle's
vertices), θ_i = 0 with the upper leg horizontal, positive downwards. His inverse kinematics, per limb,
E_i cos θ_i + F_i sin θ_i + G_i = 0 with (limb 1) E = 2L(y + a), F = 2zL, G = x² + y² + z² + a² + L² + 2ya − l²,
a = w_B − u_P, solved by the tangent half-angle t = (−F − √(E² + F² − G²))/(G − E), θ = 2 atan t (elbow out).
Limbs 2 and 3 are limb 1 in frames turned by ±120°, which is how the test evaluates them.
"""
import math

import numpy as np

from femdyn.robots.parallel import delta, parallel_robot

S_B, S_P, L, ELL, H = 0.567, 0.076, 0.524, 1.244, 0.131


def _williams_angle(p):
    """θ of Williams' limb 1 (along −y) for the platform point p, rad."""
    a = S_B / (2 * math.sqrt(3)) - S_P / math.sqrt(3)
    x, y, z = p
    E, F = 2 * L * (y + a), 2 * z * L
    G = x * x + y * y + z * z + a * a + L * L + 2 * y * a - ELL**2
    return 2 * math.atan((-F - math.sqrt(E * E + F * F - G * G)) / (G - E))


def test_the_defaults_are_williams_parameters_converted():
    d = delta()
    limb = d.limbs[0]
    A, E, C = (np.array(v) for v in (limb.joints[0].point, limb.joints[1].point, limb.joints[1].end))
    home = np.array(d.platform.home[:3])
    assert math.hypot(*A[:2]) == round(S_B / (2 * math.sqrt(3)), 4)          # w_B to 0.1 mm
    assert np.linalg.norm(C - home) == np.float64(round(S_P / math.sqrt(3), 5))  # u_P
    assert abs(np.linalg.norm(E - A) - L) < 1e-12 and abs(np.linalg.norm(C - E) - ELL) < 1e-12
    assert limb.joints[1].width == H and "Williams" in d.source


def test_inverse_kinematics_equals_williams_closed_form_in_his_frame():
    """The catalogue robot with Williams' limb directions (−90°, 30°, 150°) and his exact w_B, u_P gives his
    angles to 1e-10 rad at poses over the workspace (limb k evaluated in his frame turned by its azimuth)."""
    azimuths = (-math.pi / 2, math.pi / 6, 5 * math.pi / 6)
    robot = parallel_robot("delta", base_radius=S_B / (2 * math.sqrt(3)), platform_radius=S_P / math.sqrt(3),
                           azimuths=azimuths)
    poses = robot.sample_poses(20, seed=2)
    angles = robot.inverse_kinematics(poses)
    for p, theta in zip(poses, angles):
        for k, phi in enumerate(azimuths):
            turn = phi + math.pi / 2                 # limb k's frame: Williams' limb 1 turned by this
            c, s = math.cos(turn), math.sin(turn)
            local = (c * p[0] + s * p[1], -s * p[0] + c * p[1], p[2])
            assert abs(theta[k] - _williams_angle(local)) < 1e-10
