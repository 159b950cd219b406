"""Joint servo drives: a geared motor on a revolute joint (or, through a screw or belt, on a prismatic joint's
stroke) under a PID position controller with feedforward.

The motor (rotor inertia J_m, gear ratio N, joint side θ = θ_m / N) adds its reflected inertia
J = N² J_m to the joint angle θ(q) as a configuration-dependent mass, T = ½ J θ̇², θ̇ = ∇θ·q̇: no extra
coordinate, the rotor is rigidly geared to the joint. Lagrange's equations give M += J ∇θ∇θᵀ and the
quadratic-velocity force −J ∇θ (q̇ᵀH_θq̇). The controller turns the joint-side error e = r(t) − θ into the
torque command τ = sat(τ_ff(t) + J r̈(t) + k_p e + k_i ∫e + k_d ė) that acts on ``body_b`` about the axis
(−τ on ``body_a``): continuously (every integrator step; the integral by the trapezoidal rule inside
the step), or sampled at its own period T with a zero-order hold, from an encoder of resolution δ on
the joint side (rounded to the nearest count) and ė by backward differences (that rate optionally low-pass
filtered). The integral is clamped while the command saturates (conditional integration, Åström &
Hägglund 2006, §3.5). On a prismatic joint (:class:`LinearServoDrive`) the coordinate is the stroke
s = (p_B − p_A)·w in m, the command a force in N, N in motor radians per metre, and e is not wrapped.
Integrators call
:meth:`ServoDrive.start` and :meth:`ServoDrive.sample` (the discrete-state hook); docs/servo-drives.md.
"""
import math

import numpy as np

from ..errors import ModelError
from ..motion.timefunctions import as_time_function
from ..input_checks import number, positive
from .joints import Prismatic, Revolute
from .protocol import Sensor
from .rotational_springs import RotationalSpringDamper
from .vectorfunctions import Dot, FunctionGroup, Targets

ENCODER_RESOLUTION = 2 * math.pi / 2 ** 16   # 16-bit absolute encoder: 0.00549°, the rig's 0.0055° (Liu et al. 2018)
CONTROLLER_PERIOD = 221e-6                   # Power PMAC interpolation period on the rig, s
_FD_STEP = 1e-7                              # central-difference step of ∂(q̇ᵀH_θq̇)/∂q (rad-scale coordinates)


class ServoDrive(RotationalSpringDamper):
    """A geared motor with a PID position controller on a revolute joint's angle (arguments: ``servo_drive``)."""

    reading_names = ("torque", "motor_torque", "error", "measured", "angle", "rate")

    def __init__(self, name, vectors, reference, gains, feedforward, motor_inertia, gear_ratio, torque_limit,
                 period, resolution, filter_time=0.0):
        super().__init__(name, vectors, 0.0)
        what = f"servo drive '{name}'"
        self.reference = as_time_function(reference, f"{what}: reference (rad)")
        self.feedforward = None if feedforward is None else as_time_function(feedforward, f"{what}: feedforward (N·m)")
        if np.size(gains) != 3:
            raise ModelError(f"{what}: gains must be (kp, ki, kd) in N·m/rad, N·m/(rad·s), N·m·s/rad; got {gains!r}")
        self.kp, self.ki, self.kd = (positive(g, f"{what}: gain {k}", u, allow_zero=True) for g, k, u in
                                     zip(gains, ("kp", "ki", "kd"), ("N·m/rad", "N·m/(rad·s)", "N·m·s/rad")))
        self.gear = positive(gear_ratio, f"{what}: gear ratio", "motor turns per joint turn")
        self.inertia = positive(motor_inertia, f"{what}: motor inertia", "kg·m²", allow_zero=True) * self.gear ** 2
        self.limit = math.inf if torque_limit is None else positive(torque_limit, f"{what}: torque limit", "N·m")
        self.period = None if period is None else positive(period, f"{what}: controller period", "s")
        self.resolution = positive(resolution, f"{what}: encoder resolution", "rad", allow_zero=True)
        self.filter_time = positive(filter_time, f"{what}: velocity filter time constant", "s", allow_zero=True)
        self.constant_mass = self.inertia == 0.0
        self.start(None, None, 0.0)

    # --- the discrete-state hook -------------------------------------------------------------------------
    def start(self, q, v, t):
        """Reset the controller at a run's start t; with (q, v), take the first sample (True: the torque changed)."""
        self.z = self.e_old = self.theta_old = self.e_dot = 0.0
        self.t_old, self.next_sample, self.u, self.measured, self.first = t, t, 0.0, 0.0, True
        return q is not None and self.sample(q, v, t)

    def sample(self, q, v, t):
        """The discrete-state hook after an accepted step to t: integral, or a new held sample (True: torque jumped)."""
        _, theta, rate, _ = self._state(q, v)
        if self.period is None:
            e = self._error(theta, t)
            z = self.z + 0.5 * (t - self.t_old) * (self.e_old + e)
            if not self._winding(self._command(t, e, z, self.reference.d1(t) - rate)[1], e):
                self.z = z
            self.e_old, self.t_old, self.measured = e, t, theta
            return False
        if t < self.next_sample - 1e-9 * self.period:
            return False
        measured = self._quantize(theta)
        e = self._error(measured, t)
        raw_rate = self.reference.d1(t) - (rate if self.first else (measured - self.theta_old) / self.period)
        a = 0.0 if self.first else self.filter_time / (self.filter_time + self.period)
        e_dot = self.e_dot = a * self.e_dot + (1 - a) * raw_rate    # first-order low-pass (backward Euler), T_f
        z = self.z + self.period * e
        u, raw = self._command(t, e, z, e_dot)
        if self._winding(raw, e):
            u = self._command(t, e, self.z, e_dot)[0]
        else:
            self.z = z
        changed = u != self.u
        self.u, self.theta_old, self.measured, self.first = u, measured, measured, False
        self.next_sample += self.period * max(1, math.floor((t - self.next_sample) / self.period + 1e-9) + 1)
        return changed

    def _quantize(self, theta):
        """The encoder's reading: θ rounded to the nearest count of the resolution, rad."""
        return theta if self.resolution == 0 else self.resolution * np.round(theta / self.resolution)

    def _error(self, theta, t):
        """e = wrap(r(t) − θ) ∈ [−π, π), rad."""
        return (self.reference(t) - theta + math.pi) % (2 * math.pi) - math.pi

    def _command(self, t, e, z, e_dot):
        """(saturated, unsaturated) torque command, N·m."""
        ff = (self.feedforward(t) if self.feedforward is not None else 0.0) + self.inertia * self.reference.d2(t)
        raw = ff + self.kp * e + self.ki * z + self.kd * e_dot
        return min(max(raw, -self.limit), self.limit), raw

    def _winding(self, raw, e):
        """Whether integrating e now would wind the integral up (command saturated, e pushing further)."""
        return abs(raw) > self.limit and raw * e > 0

    # --- forces ---------------------------------------------------------------------------------------
    def _torque(self, q, v, t):
        """(τ, ∂τ/∂θ, ∂τ/∂θ̇, ∇θ, θ, θ̇): the torque now and its derivatives (0 when held or saturated)."""
        grad, theta, rate, _ = self._state(q, v)
        if self.period is not None:
            return self.u, 0.0, 0.0, grad, theta, rate
        e = self._error(theta, t)
        w = 0.5 * (t - self.t_old)
        u, raw = self._command(t, e, self.z + w * (self.e_old + e), self.reference.d1(t) - rate)
        if abs(raw) > self.limit:
            return u, 0.0, 0.0, grad, theta, rate
        return u, -(self.kp + self.ki * w), -self.kd, grad, theta, rate

    def force(self, q, v, t):
        u, _, _, grad, _, rate = self._torque(q, v, t)
        f = u * grad
        if self.inertia:
            f -= self.inertia * grad * (v[self.dofs] @ self._hessian(q) @ v[self.dofs])
        return self._scatter(f)

    def tangent_values(self, q, v, t):
        u, du, dr, grad, _, _ = self._torque(q, v, t)
        H, vl = self._hessian(q), v[self.dofs]
        K = -u * H - du * np.outer(grad, grad) - dr * np.outer(grad, H @ vl)
        C = -dr * np.outer(grad, grad)
        if self.inertia:
            K += self.inertia * (vl @ H @ vl * H + np.outer(grad, self._curvature_rate(q, vl)))
            C += 2 * self.inertia * np.outer(grad, H @ vl)
        return K.ravel(), C.ravel()

    def _curvature_rate(self, q, vl):
        """∂(q̇ᵀH_θq̇)/∂q on the dofs, by central differences of H_θ (step ``_FD_STEP``)."""
        out, x = np.empty(self.dofs.size), q.copy()
        for k, i in enumerate(self.dofs):
            x[i] = q[i] + _FD_STEP
            plus = vl @ self._hessian(x) @ vl
            x[i] = q[i] - _FD_STEP
            out[k] = (plus - vl @ self._hessian(x) @ vl) / (2 * _FD_STEP)
            x[i] = q[i]
        return out

    # --- reflected inertia: M(q) = J ∇θ∇θᵀ on the dofs ------------------------------------------------
    def mass_coo(self):
        if self.constant_mass:
            return super().mass_coo()
        rows, cols, _, _ = self.tangent_pattern()
        q0 = getattr(self, "_q0", None)
        return rows, cols, self.mass_values(q0) if q0 is not None else np.zeros(len(rows))

    def mass_values(self, q):
        grad = self._state(q, np.zeros_like(q))[0]
        return self.inertia * np.outer(grad, grad).ravel()

    def mass_derivative_pattern(self):
        return self.tangent_pattern()[:2] if not self.constant_mass else super().mass_derivative_pattern()

    def mass_derivative(self, q, a):
        if self.constant_mass:
            return super().mass_derivative(q, a)
        grad, H, al = self._state(q, np.zeros_like(q))[0], self._hessian(q), a[self.dofs]
        return self.inertia * (np.outer(grad, H @ al) + (grad @ al) * H).ravel()

    def reading(self, q, v, t):
        u, _, _, _, theta, rate = self._torque(q, v, t)
        return u, u / self.gear, self._error(theta, t), self.measured, theta, rate

    def strain_energy(self, q):
        return 0.0


class LinearServoDrive(ServoDrive):
    """A :class:`ServoDrive` on a prismatic joint's stroke: a force (N) along the axis, errors in m."""

    reading_names = ("force", "motor_torque", "error", "measured", "stroke", "rate")

    def _coordinate(self, n):
        """The one-row FunctionGroup of the stroke s(q) = (p_B − p_A)·w, m."""
        return FunctionGroup(Dot, [self.vectors], np.zeros((1, 3)), Targets([0.0], [None]), n)

    def _error(self, theta, t):
        """e = r(t) − s, m."""
        return self.reference(t) - theta


class ServoSensor(Sensor):
    """The channels ``<name>.<reading>`` of a :class:`ServoDrive` (``DriveBuilder.servo_drive`` lists them)."""

    def __init__(self, drive):
        self.name, self.drive = drive.name, drive
        self.columns = tuple(f"{drive.name}.{c}" for c in drive.reading_names)

    def bind(self, system):
        self.drive = next(p for p in system.parts if p.name == self.drive.name and isinstance(p, ServoDrive))

    def measure(self, q, v, a, lam, t):
        return np.asarray(self.drive.reading(q, np.zeros_like(q) if v is None else v, t), float)


class DriveBuilder:
    """The servo-drive constructor of :class:`~femdyn.model.Model` (``m.servo_drive``)."""

    def servo_drive(self, name, joint, reference, kp, ki=0.0, kd=0.0, feedforward=None, motor_inertia=0.0,
                    gear_ratio=1.0, torque_limit=None, period=None, resolution=0.0, filter_time=0.0):
        """Add a geared servo motor with a PID position controller on a revolute or prismatic joint (docs/servo-drives.md).

        The command τ = sat(τ_ff + N²J_m r̈ + k_p e + k_i ∫e + k_d ė), e = r(t) − θ (joint side),
        acts on ``body_b`` about the axis; the rotor's reflected inertia N²J_m is added to θ's inertia.
        Records ``<name>.torque`` (N·m), ``motor_torque`` (N·m), ``error`` (rad), ``measured`` (rad),
        ``angle`` (rad) and ``rate`` (rad/s). On a prismatic joint θ is the stroke s = (p_B − p_A)·w (m, 0
        where the joint was built, as :meth:`sensor_slide` records it), the command a force along the axis:
        ``<name>.force`` (N), ``motor_torque`` (N·m), ``error``, ``measured``, ``stroke`` (m), ``rate`` (m/s);
        gains in N/m, N/(m·s), N·s/m, N in motor radians per metre, the limit and feedforward in N. Continuous controllers need no hook; a sampled one
        (``period``) needs an integrator that calls ``sample`` after each accepted step (generalized-α
        does) and is exact when the period is a multiple of the step.

        Parameters
        ----------
        name : str
        joint : str, Revolute or Prismatic
            A revolute or prismatic joint of this model.
        reference : TimeFunction, float or callable
            r(t), the joint angle wanted, rad (the joint's angle as :meth:`sensor_angle` records it).
        kp, ki, kd : float
            Proportional (N·m/rad), integral (N·m/(rad·s)) and derivative (N·m·s/rad) gains.
        feedforward : TimeFunction, float or callable, optional
            τ_ff(t), the joint torque of an inverse-dynamics solution, N·m.
        motor_inertia : float, optional
            Rotor inertia J_m, kg·m².
        gear_ratio : float, optional
            N, motor turns per joint turn.
        torque_limit : float, optional
            Largest |τ| on the joint side, N·m (None: no limit).
        period : float, optional
            Controller period T, s (e.g. ``CONTROLLER_PERIOD`` = 221 µs); None: continuous.
        resolution : float, optional
            Encoder resolution on the joint side, rad (e.g. ``ENCODER_RESOLUTION``); 0: exact.
        filter_time : float, optional
            Time constant T_f of the first-order low-pass on the sampled error rate ė, s (0: none).

        Returns
        -------
        ServoDrive

        Raises
        ------
        ModelError
            ``joint`` is neither a revolute nor a prismatic joint of this model, or a gain, inertia, ratio, limit,
            period or resolution is negative or not finite.
        """
        found = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if not isinstance(found, (Revolute, Prismatic)):
            known = sorted(k for k, j in self.joints.items() if isinstance(j, (Revolute, Prismatic)))
            raise ModelError(f"servo drive '{name}': '{getattr(found, 'name', found)}' is not a revolute or prismatic "
                             f"joint of this model; known: {known}")
        number(kp, f"servo drive '{name}': kp", "N·m/rad or N/m")
        kind, vectors = ((ServoDrive, found.angle_vectors()) if isinstance(found, Revolute) else
                         (LinearServoDrive, found.slide_vectors()))
        drive = kind(name, vectors, reference, (kp, ki, kd), feedforward, motor_inertia, gear_ratio, torque_limit,
                     period, resolution, filter_time)
        drive._q0 = self.initial_coordinates()[0]
        self.add(drive)
        self.add_sensor(ServoSensor(drive))
        return drive
