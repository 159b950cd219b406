"""Joints with radial clearance: journal and bearing centres free within c, a continuous contact force beyond.

d = p_b − p_a (journal centre on B minus bearing centre on A, d = D x + d₀), eccentricity e = ‖d‖,
n = d/e, penetration δ = e − c, δ̇ = n·ḋ (Flores, Ambrósio, Claro & Lankarani 2008, Kinematics and
Dynamics of Multibody Systems with Imperfect Joints, ch. 3). For δ ≤ 0 the journal flies freely. In
contact the normal force is Lankarani & Nikravesh (1990) F_n = K δⁿ (1 + 3(1 − c_r²) δ̇ / (4 δ̇⁻)), or
Flores et al. (2011) F_n = K δⁿ (1 + 8(1 − c_r) δ̇ / (5 c_r δ̇⁻)), held ≥ 0 in the rebound; K is the
Hertz stiffness of Flores et al. (2006, 2008) K = 4/(3(σ_i + σ_j)) √(R_i R_j/(R_i − R_j)), σ = (1 − ν²)/E,
n = 3/2 (R_i = R_j + c bearing, R_j journal). Friction: Ambrósio's (2002) modified Coulomb law
F_t = −μ c_d(v_t) F_n v_t/‖v_t‖ with c_d 0 below v₀, linear to 1 at v₁, on the tangential velocity
v_t = (I − nnᵀ) ḋ of the centres (the journal's spin about the axis does not enter).

On a revolute the axial offset u·d = 0 and the tilt rows of the ideal hinge stay constraints (u the
axis carried by one body): the journal moves in the joint plane only, e = ‖d‖ is its radial
eccentricity. With f_b = −F_n n − μ F_n g(s) v_t (g = c_d/s, s = ‖v_t‖): Q = Dᵀ f_b, K = −Dᵀ ∂f_b/∂d D,
C = −Dᵀ ∂f_b/∂ḋ D, exact. δ̇⁻ is the approach rate δ̇ of the last state seen in free flight (the
previous accepted step at impact; at least ``min_impact_velocity``), or a fixed ``impact_velocity``.
"""
import dataclasses
import math
import warnings

import numpy as np

from ..errors import ModelError, StepSizeWarning
from ..input_checks import number, positive, vector3
from .constraints import Equation
from .forcelaws import ForceSensor
from .joints import Joint, Revolute, Spherical
from .springs import SpringDamper
from .vectorfunctions import Dot

STEEL = (2.07e11, 0.3)      # E (Pa), ν of Flores et al. (2006)
LAWS = {"lankarani-nikravesh": lambda cr: 3.0 * (1.0 - cr * cr) / 4.0,
        "flores": lambda cr: 8.0 * (1.0 - cr) / (5.0 * cr)}


def hertz_stiffness(journal_radius, clearance, materials=(STEEL, STEEL)):
    """K = 4/(3(σ_i + σ_j)) √(R_i R_j/(R_i − R_j)), N/m^1.5 (Flores et al. 2006), σ = (1 − ν²)/E."""
    sigma = sum((1.0 - nu * nu) / E for E, nu in materials)
    r_j, r_i = journal_radius, journal_radius + clearance
    return 4.0 / (3.0 * sigma) * math.sqrt(r_i * r_j / clearance)


DEFAULTS = dict(stiffness=None, exponent=1.5, restitution=0.9, law="lankarani-nikravesh", friction=0.0,
                friction_velocities=(1e-4, 1e-3), materials=(STEEL, STEEL), impact_velocity=None,
                min_impact_velocity=1e-3)


def _options(what, contact):
    """The contact options with their ``DEFAULTS``; an unknown name raises ModelError."""
    unknown = set(contact) - set(DEFAULTS)
    if unknown:
        raise ModelError(f"{what}: unknown options {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    return {**DEFAULTS, **contact}


class _ClearanceForce(SpringDamper):
    """A spring-damper of rest length c on d = p_b − p_a with the contact law and friction (module docstring)."""

    reading_names = ("force", "friction", "penetration", "eccentricity", "rate")

    def _setup(self, what, pa, pb, clearance, radius, stiffness, exponent, restitution, law, friction,
               friction_velocities, materials, impact_velocity, min_impact_velocity):
        """Check and store the contact parameters."""
        self.difference = pb - pa
        self.c = positive(clearance, f"{what}: clearance", "m", allow_zero=True)
        self.radius = positive(radius, f"{what}: journal radius", "m")
        if stiffness is None:
            if self.c == 0:
                raise ModelError(f"{what}: the Hertz stiffness is infinite at zero clearance; give stiffness (N/m^n)")
            for E, nu in materials:
                positive(E, f"{what}: Young's modulus", "Pa")
                if not 0 <= number(nu, f"{what}: Poisson's ratio", "1") < 0.5:
                    raise ModelError(f"{what}: Poisson's ratio must lie in [0, 0.5), got {nu!r}")
            stiffness = hertz_stiffness(self.radius, self.c, materials)
        self.K = positive(stiffness, f"{what}: stiffness", "N/m^n")
        self.p = number(exponent, f"{what}: exponent", "1")
        if not self.p >= 1:
            raise ModelError(f"{what}: the force exponent must be ≥ 1 (1.5 Hertz), got {exponent!r}")
        self.cr = number(restitution, f"{what}: restitution", "1")
        if law not in LAWS:
            raise ModelError(f"{what}: law must be one of {sorted(LAWS)}, got {law!r}")
        if not 0 < self.cr <= 1:
            raise ModelError(f"{what}: the coefficient of restitution must lie in (0, 1], got {restitution!r}")
        self.law, self.chi = law, LAWS[law](self.cr)
        self.mu = positive(friction, f"{what}: friction coefficient", "1", allow_zero=True)
        self.v0, self.v1 = (positive(v, f"{what}: friction velocity", "m/s") for v in friction_velocities)
        if not self.v1 > self.v0:
            raise ModelError(f"{what}: friction_velocities (v0, v1) need v0 < v1 (m/s), got {friction_velocities!r}")
        self.fixed = None if impact_velocity is None else positive(impact_velocity, f"{what}: impact velocity", "m/s")
        self.floor = positive(min_impact_velocity, f"{what}: min_impact_velocity", "m/s")
        self.approach = self.floor

    def _normal(self, delta, rate):
        """(F_n, ∂F_n/∂δ, ∂F_n/∂δ̇) of the contact law; zero in free flight and where the rebound would pull."""
        if delta <= 0:
            if rate > 0:
                self.approach = max(rate, self.floor)
            return 0.0, 0.0, 0.0
        chi = self.chi / (self.fixed or self.approach)
        spring, factor = self.K * delta ** self.p, 1.0 + chi * rate
        if factor <= 0:
            return 0.0, 0.0, 0.0
        return spring * factor, self.p * self.K * delta ** (self.p - 1) * factor, spring * chi

    def _friction(self, s):
        """(g, g') with g(s) = c_d(s)/s of Ambrósio's law, s = ‖v_t‖."""
        if s <= self.v0 or self.mu == 0:
            return 0.0, 0.0
        if s < self.v1:
            w = self.v1 - self.v0
            return (s - self.v0) / (w * s), self.v0 / (w * s * s)
        return 1.0 / s, -1.0 / (s * s)

    def _state(self, q, v):
        """(e, n, ḋ, δ̇, F_n and its partials, v_t) at (q, v)."""
        d = self.D @ q[self.dofs] + self.d0
        d_dot = self.D @ v[self.dofs]
        e = math.sqrt(d @ d)
        n = d / e if e > 0 else np.zeros(3)
        rate = n @ d_dot
        return e, n, d_dot, rate, self._normal(e - self.c, rate), d_dot - rate * n

    def reading(self, q, v, t):
        e, _, _, rate, (f, _, _), vt = self._state(q, v)
        return f, self.mu * f * self._friction(math.sqrt(vt @ vt))[0] * math.sqrt(vt @ vt), e - self.c, e, rate

    def _contact_force(self, q, v):
        """The force on B's journal, f_b (3,), N."""
        _, n, _, _, (f, _, _), vt = self._state(q, v)
        return -f * n - self.mu * f * self._friction(math.sqrt(vt @ vt))[0] * vt

    def force(self, q, v, t):
        return self._scatter(self.D.T @ self._contact_force(q, v))

    def tangent_values(self, q, v, t):
        e, n, d_dot, rate, (f, fd, fr), vt = self._state(q, v)
        m = self.dofs.size
        if f == 0:
            return np.zeros(m * m), np.zeros(m * m)
        P = np.eye(3) - np.outer(n, n)
        dF_dd, dF_dv = fd * n + fr * (P @ d_dot) / e, fr * n
        Kd = np.outer(n, dF_dd) + f * P / e
        Cd = np.outer(n, dF_dv)
        s = math.sqrt(vt @ vt)
        g, g1 = self._friction(s)
        if g:
            dh = g * np.eye(3) + g1 * np.outer(vt, vt) / s
            dvt_dd = -(rate * P + np.outer(n, d_dot @ P)) / e
            Kd += self.mu * (np.outer(g * vt, dF_dd) + f * dh @ dvt_dd)
            Cd += self.mu * (np.outer(g * vt, dF_dv) + f * dh @ P)
        return (self.D.T @ Kd @ self.D).ravel(), (self.D.T @ Cd @ self.D).ravel()

    def strain_energy(self, q):
        d = self.D @ q[self.dofs] + self.d0
        delta = math.sqrt(d @ d) - self.c
        return self.K * delta ** (self.p + 1) / (self.p + 1) if delta > 0 else 0.0

    def contact_time(self, mass, speed):
        """Duration (s) of an undamped impact of ``mass`` (kg) at ``speed`` (m/s) under K δⁿ (Hertz; Johnson 1985 §11.4)."""
        a = 1.0 / (self.p + 1.0)
        peak = ((self.p + 1.0) * mass * speed * speed / (2.0 * self.K)) ** a
        return 2.0 * peak / speed * math.sqrt(math.pi) * math.gamma(1.0 + a) / math.gamma(0.5 + a)

    def check_step(self, h, mass, speed, steps=10):
        """Warn (StepSizeWarning) when h > contact_time/steps; returns the contact time, s."""
        tc = self.contact_time(mass, speed)
        if h > tc / steps:
            warnings.warn(f"clearance joint '{self.name}': h = {h:.3g} s resolves its impact ({tc:.3g} s for "
                          f"{mass:g} kg at {speed:g} m/s) in fewer than {steps} steps; use h ≤ {tc / steps:.3g} s",
                          StepSizeWarning, stacklevel=2)
        return tc


class ClearanceSpherical(_ClearanceForce, Joint):
    """Ball joint with clearance: no constraint rows, the contact force on d in 3-D."""

    kind = "spherical clearance"

    def __init__(self, name, body_a, body_b, point, **contact):
        Joint.__init__(self, name, body_a, body_b)
        self.point = vector3(point, f"spherical clearance '{name}': point (m)")
        self._setup(f"spherical clearance '{name}'", body_a.material_point(point), body_b.material_point(point),
                    **contact)
        self._equations = []


class ClearanceRevolute(_ClearanceForce, Revolute):
    """Hinge with radial clearance: u·d = 0 and the hinge's tilt rows constrained, the joint plane free."""

    kind = "revolute clearance"

    def __init__(self, name, body_a, body_b, point, axis, angle0=0.0, **contact):
        Revolute.__init__(self, name, body_a, body_b, point, axis, angle0)
        pa, pb = body_a.material_point(point), body_b.material_point(point)
        self._setup(f"revolute clearance '{name}'", pa, pb, **contact)
        self._equations = [Equation(Dot, (pb - pa, self.axis_expr), None, 0.0, None, f"{name}: axial")] + \
            self._orientation(name)


class ClearanceBuilder:
    """The clearance-joint constructors of :class:`~femdyn.model.Model` (``m.revolute_clearance`` …)."""

    def revolute_clearance(self, name, body_a, body_b, point, axis, clearance, radius, angle0=0.0, **contact):
        """Add a hinge with radial clearance: bearing on ``body_a``, journal on ``body_b`` (docs/clearance.md).

        The journal's axial offset and tilt stay constrained (1 + up to 2 rows); in the joint plane
        its centre flies freely while the eccentricity e ≤ c and meets a contact force
        K δⁿ (1 + χ δ̇/δ̇⁻) plus Coulomb friction beyond (module :mod:`femdyn.model.clearance`).
        Drives, rotational springs and angle sensors accept it as a revolute.

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            Bearing and journal bodies; one carries the axis as a material direction.
        point : (3,) array_like
            The common centre as drawn (journal centred), m.
        axis : (3,) array_like
            Hinge axis direction (normalised).
        clearance : float
            c = R_bearing − R_journal, m (0 needs ``stiffness``).
        radius : float
            Journal radius R_j, m.
        angle0 : float, optional
            Joint angle as drawn, rad.
        **contact
            The contact options below (``DEFAULTS`` of :mod:`femdyn.model.clearance`).
        stiffness : float, optional
            K, N/m^n (default the Hertz value of Flores et al. 2006 from the radii and ``materials``).
        exponent : float, optional
            n ≥ 1 (default 1.5).
        restitution : float, optional
            c_r in (0, 1].
        law : {"lankarani-nikravesh", "flores"}, optional
            Hysteresis damping χ = 3(1 − c_r²)/4 or 8(1 − c_r)/(5 c_r).
        friction : float, optional
            μ, dimensionless (default 0).
        friction_velocities : (2,) array_like, optional
            v₀ < v₁ of Ambrósio's law, m/s.
        materials : ((E, ν), (E, ν)), optional
            Bearing and journal: Pa and dimensionless (default steel, 207 GPa, 0.3).
        impact_velocity : float, optional
            A fixed δ̇⁻, m/s (default: the approach rate of the last state in free flight).
        min_impact_velocity : float, optional
            Lower bound of δ̇⁻, m/s (a resting contact).

        Raises
        ------
        ModelError
            On a non-positive radius, a negative clearance, zero clearance without stiffness, c_r outside (0, 1].
        """
        contact = _options(f"revolute clearance '{name}'", contact)
        return self._add_joint(ClearanceRevolute(name, self.body(body_a), self.body(body_b), point, axis, angle0,
                                                 clearance=clearance, radius=radius, **contact))

    def spherical_clearance(self, name, body_a, body_b, point, clearance, radius, **contact):
        """Add a ball joint with clearance: socket on ``body_a``, ball on ``body_b``, free within c in 3-D.

        No constraint rows; the contact force and friction of :meth:`revolute_clearance` act on the
        centres' offset d in space (the Hertz K of conforming spheres).

        Parameters
        ----------
        name : str
        body_a, body_b : str or body
            Socket and ball bodies (a point mass will do).
        point : (3,) array_like
            The common centre as drawn, m.
        clearance : float
            c = R_socket − R_ball, m.
        radius : float
            Ball radius, m.
        **contact
            ``stiffness``, ``exponent``, ``restitution``, ``law``, ``friction``, ``friction_velocities``,
            ``materials``, ``impact_velocity``, ``min_impact_velocity`` as in :meth:`revolute_clearance`.

        Raises
        ------
        ModelError
            As :meth:`revolute_clearance`.
        """
        contact = _options(f"spherical clearance '{name}'", contact)
        return self._add_joint(ClearanceSpherical(name, self.body(body_a), self.body(body_b), point,
                                                  clearance=clearance, radius=radius, **contact))

    def clearance(self, joint, clearance, radius, **contact):
        """Give an existing revolute or spherical joint radial clearance, in place (same name, bodies, point, axis).

        The joint becomes that of :meth:`revolute_clearance` or :meth:`spherical_clearance`, keeping
        its place in the model; drives and sensors added before keep working on its bodies.

        Parameters
        ----------
        joint : str or joint
            A revolute or spherical joint of this model, or its name.
        clearance : float
            c, m.
        radius : float
            Journal (ball) radius, m.
        **contact
            The contact options of :meth:`revolute_clearance`.

        Raises
        ------
        ModelError
            If ``joint`` is neither a revolute nor a spherical joint of this model.

        Examples
        --------
        >>> import femdyn
        >>> m = femdyn.Model("pendulum")
        >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
        >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
        >>> m.clearance("pivot", 50e-6, 0.01).kind
        'revolute clearance'
        """
        old = self.joints.get(joint) if isinstance(joint, str) else joint
        name = getattr(old, "name", joint)
        if type(old) not in (Revolute, Spherical) or self.joints.get(name) is not old:
            raise ModelError(f"clearance: '{name}' is not a revolute or spherical joint of this model; known: "
                             f"{[n for n, j in self.joints.items() if type(j) in (Revolute, Spherical)]}")
        contact = _options(f"clearance of '{name}'", contact)
        if isinstance(old, Revolute):
            new = ClearanceRevolute(name, old.body_a, old.body_b, old.point, old.axis, old.angle0,
                                    clearance=clearance, radius=radius, **contact)
        else:
            new = ClearanceSpherical(name, old.body_a, old.body_b, old.point, clearance=clearance, radius=radius,
                                     **contact)
        self.joints[name] = new
        return new

    def offset_joint(self, joint, offset):
        """Hold an ideal revolute's or spherical joint's journal at ``offset`` from its bearing centre, in place.

        Its coincidence rows become p_b − p_a = ``offset``. For statics before :meth:`clearance`: a
        centred journal has no stiffness in the clearance plane, a journal held on its loaded side
        (offset = (c + penetration) along the load) starts the statics with clearance in contact.

        Parameters
        ----------
        joint : str or joint
            A revolute or spherical joint of this model, or its name.
        offset : (3,) array_like
            p_b − p_a, m (for a revolute, in its joint plane).

        Raises
        ------
        ModelError
            If ``joint`` is neither a revolute nor a spherical joint of this model.
        """
        old = self.joints.get(joint) if isinstance(joint, str) else joint
        if type(old) not in (Revolute, Spherical) or self.joints.get(old.name) is not old:
            raise ModelError(f"offset_joint: '{getattr(old, 'name', joint)}' is not a revolute or spherical joint "
                             f"of this model")
        d = vector3(offset, f"offset of '{old.name}' (m)")
        rows = {f"{old.name}: {axis}": k for k, axis in enumerate("xyz")}
        old._equations = [dataclasses.replace(e, value=-d[rows[e.label]]) if e.label in rows else e
                          for e in old._equations]
        return old

    def sensor_clearance(self, name, joint):
        """Record a clearance joint: ``force`` and ``friction`` (N), ``penetration``, ``eccentricity`` (m), ``rate`` (m/s).

        Parameters
        ----------
        name : str
        joint : str or clearance joint
            A joint added by :meth:`revolute_clearance` or :meth:`spherical_clearance`, or its name.

        Raises
        ------
        ModelError
            If ``joint`` is not a clearance joint of this model.
        """
        found = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if not isinstance(found, _ClearanceForce):
            raise ModelError(f"clearance sensor '{name}': '{getattr(joint, 'name', joint)}' is not a clearance joint; "
                             f"known: {[j for j, p in self.joints.items() if isinstance(p, _ClearanceForce)]}")
        return self.add_sensor(ForceSensor(name, found))
