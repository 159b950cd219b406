"""Servo constraints on a body's whole pose: three position rows and three orientation rows.

The body frame of a natural-coordinate body is the global frame carried along with the body: its
material vector of axis j, e_j(q) = ``body.material_vector(E_j)``, equals E_j as built and R_b(q) E_j
after a rotation R_b (affine in q). The servo prescribes R_b(t) = exp([φ(t)]×) F (F the ``frame``,
default 1) with three ``Linear`` rows of constant directions a_k, the columns of an anchor
orientation R_0 (default the prescribed one at t = 0):

    rx: e_2·a_3 = (R_b(t) E_2)·a_3,   ry: −e_1·a_3 = −(R_b(t) E_1)·a_3,   rz: e_1·a_2 = (R_b(t) E_1)·a_2.

Their Jacobian with respect to a small rotation δθ of the body (global) is [a_1; a_2; a_3] at R_b = R_0
and has determinant D₁₁D₃₃ (D = R_0ᵀR_b) in general, ≥ cos²θ for a rotation θ from the anchor: regular
below 90°, singular at 90° about each of the anchor's axes. ``LIMIT_ANGLE`` bounds the range; docs/inversion.md.
"""
import math

import numpy as np

from ..errors import ModelError
from ..geometry import rotation_matrix, skew
from ..motion.poses import StateComponent
from ..input_checks import finite
from .bodies import Ground
from .constraints import Equation
from .joints import AXES, Joint
from .vectorfunctions import Linear

LIMIT_ANGLE = 80.0                                         # deg: the rows are refused when D₁₁D₃₃ < cos²(80°)
SINGULAR_LIMIT = math.cos(math.radians(LIMIT_ANGLE)) ** 2  # 0.0302
ORIENTATION_ROWS = (("rx", 1, 2, 1.0), ("ry", 0, 2, -1.0), ("rz", 0, 1, 1.0))   # (label, j, k, sign): sign a_k·e_j


def _rotation(value, what):
    """A rotation matrix from a (3, 3) orthonormal matrix with det +1 or a (3,) rotation vector (rad)."""
    x = finite(value, what)
    if x.shape == (3,):
        return rotation_matrix(x)
    if x.shape != (3, 3) or not np.allclose(x.T @ x, np.eye(3), atol=1e-9) or np.linalg.det(x) < 0:
        raise ModelError(f"{what}: expected a rotation vector (3,) in rad or a proper rotation matrix (3, 3) "
                         f"(orthonormal columns, det +1), got {np.round(x, 6).tolist()}")
    return x


class _OrientationTargets:
    """The right-hand sides of a pose servo's three orientation rows and their rates; refuses near-singular rows."""

    def __init__(self, name, pose, frame, anchor):
        self.name, self.pose, self.frame, self.anchor = name, pose, frame, anchor
        self.directions = np.array([s * anchor[:, k] for _, _, k, s in ORIENTATION_ROWS])
        self.columns = [j for _, j, _, _ in ORIENTATION_ROWS]
        self._t, self._kept = None, None

    def at(self, t):
        """(f, f′, f″) (3,) each: d_i·R_b r, d_i·[ω]R_b r, d_i·([α] + [ω]²)R_b r with r = E_j of row i."""
        if t != self._t:
            R, omega, alpha = self.pose.orientation(t)
            Rb = R @ self.frame
            self._check(Rb, t)
            W = skew(omega)
            X = Rb[:, self.columns]
            self._kept = tuple(np.einsum("ij,ji->i", self.directions, M @ X)
                               for M in (np.eye(3), W, skew(alpha) + W @ W))
            self._t = t
        return self._kept

    def _check(self, Rb, t):
        """ModelError when the rows' Jacobian determinant D₁₁D₃₃ falls below ``SINGULAR_LIMIT``."""
        D = self.anchor.T @ Rb
        det = D[0, 0] * D[2, 2]
        if det < SINGULAR_LIMIT:
            angle = math.degrees(math.acos(min(max((np.trace(D) - 1) / 2, -1.0), 1.0)))
            raise ModelError(
                f"pose servo '{self.name}': at t = {t:g} s the prescribed orientation is {angle:.1f}° from the "
                f"anchor orientation; its rotation rows become singular at 90° (Jacobian determinant D11·D33 = "
                f"{det:.3g} < cos²({LIMIT_ANGLE:g}°) = {SINGULAR_LIMIT:.3g}). Give servo_pose an anchor= rotation "
                "vector between the extreme orientations, or split the motion; rotations of less than "
                f"{LIMIT_ANGLE:g}° from the anchor are always accepted")


class PoseServo(Joint):
    """Servo constraint on a body's pose: rows ``name: x, y, z`` (the point) and ``rx, ry, rz`` (the orientation)."""

    kind = "servo"
    servo = True

    def __init__(self, name, body, point, pose, frame=None, anchor=None, rows=None):
        super().__init__(name, body, body)
        labels = ("x", "y", "z") + tuple(label for label, *_ in ORIENTATION_ROWS)
        rows = labels if rows is None else tuple(rows)
        if not rows or any(r not in labels for r in rows) or len(set(rows)) != len(rows):
            raise ModelError(f"pose servo '{name}': rows {list(rows)} must be distinct names among {list(labels)}")
        if isinstance(body, Ground) or body.span_rank < 3:
            raise ModelError(f"pose servo '{name}': '{body.name}' does not carry three material directions; prescribe "
                             "the pose of a full rigid body (e.g. 2 points + 2 unit vectors, 3 points + 1 vector)")
        self.pose = pose
        self.frame = np.eye(3) if frame is None else _rotation(frame, f"pose servo '{name}': frame")
        phi0 = pose.state(0.0)[0][3:] if anchor is None else anchor
        self.anchor = _rotation(phi0, f"pose servo '{name}': anchor") @ self.frame
        targets = _OrientationTargets(name, pose, self.frame, self.anchor)
        expr = body.material_point(point)
        self._equations = [Equation(Linear, (expr,), AXES[k], 0.0, pose.component(k), f"{name}: {'xyz'[k]}")
                           for k in range(3)]
        self._equations += [Equation(Linear, (body.material_vector(AXES[j]),), targets.directions[i], 0.0,
                                     StateComponent(targets.at, i), f"{name}: {label}")
                            for i, (label, j, _, _) in enumerate(ORIENTATION_ROWS)]
        self._equations = [e for e, label in zip(self._equations, labels) if label in rows]
