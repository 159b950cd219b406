"""A rotational spring-damper about a joint angle θ(q) = atan2(u·(a×b), a·b) (:class:`.vectorfunctions.Angle`).

A revolute joint's angle (its ``angle_vectors``), or one of a universal joint's two: about the cross
axis u_a of A, the turn of u_b against A's vector drawn along u_b; about u_b, the turn of B's vector
drawn along u_a against u_a. δ = wrap(θ − θ₀) ∈ [−π, π), δ̇ = ∇θ·q̇; the torque f(δ, δ̇) acts on B against δ:
Q = −f ∇θ, K = f_δ ∇θ∇θᵀ + f_δ̇ ∇θ (H_θ q̇)ᵀ + f H_θ, C = f_δ̇ ∇θ∇θᵀ.
"""
import numpy as np

from ..errors import ModelError
from ..input_checks import number
from .forcelaws import ForceElement, ForceLaw
from .joints import Revolute, Universal
from .vectorfunctions import Angle, FunctionGroup, Targets


class RotationalSpringDamper(ForceElement):
    """A torque f = f₀ + k δ + c δ̇ + g(δ, δ̇) in a joint about one of its angles, δ from the rest angle θ₀."""

    reading_names = ("torque", "angle", "rate")

    def __init__(self, name, vectors, stiffness, damping=0.0, rest_angle=0.0, preload=0.0, law=None):
        self.name, self.vectors = name, vectors
        self.law = ForceLaw(f"rotational spring '{name}'", stiffness, damping, preload, law,
                            ("N·m/rad", "N·m·s/rad", "N·m"))
        self.theta0 = number(rest_angle, f"rotational spring '{name}': rest angle", "rad")

    def bind(self, n):
        self.n = n
        self.group = g = self._coordinate(n)
        self.dofs = np.unique(g.cols)
        self._cols, self._h = np.searchsorted(self.dofs, g.cols), (np.searchsorted(self.dofs, g.h_rows),
                                                                   np.searchsorted(self.dofs, g.h_cols))

    def _coordinate(self, n):
        """The one-row FunctionGroup of δ = θ(q) − θ₀ on n coordinates."""
        a, b, u, offset = self.vectors
        return FunctionGroup(Angle, [(a, b, u)], np.zeros((1, 3)), Targets([self.theta0 - offset], [None]), n)

    def _state(self, q, v):
        """(∇θ on dofs, δ, δ̇, (f, f_δ, f_δ̇))."""
        phi, grad_values = self.group.evaluate(q, 0.0)
        grad = np.bincount(self._cols, grad_values, minlength=self.dofs.size)
        rate = grad @ v[self.dofs]
        return grad, phi[0], rate, self.law(phi[0], rate)

    def _hessian(self, q):
        """H_θ on the element's dofs (dense)."""
        H = np.zeros((self.dofs.size, self.dofs.size))
        np.add.at(H, self._h, self.group.hessian_values(q, np.ones(1)))
        return H

    def reading(self, q, v, t):
        _, angle, rate, (f, _, _) = self._state(q, v)
        return f, angle, rate

    def force(self, q, v, t):
        grad, _, _, (f, _, _) = self._state(q, v)
        return self._scatter(-f * grad)

    def tangent_values(self, q, v, t):
        grad, _, _, (f, k, c) = self._state(q, v)
        H = self._hessian(q)
        K = k * np.outer(grad, grad) + c * np.outer(grad, H @ v[self.dofs]) + f * H
        return K.ravel(), (c * np.outer(grad, grad)).ravel()

    def strain_energy(self, q):
        return self.law.energy(self.group.evaluate(q, 0.0)[0][0])


class RotationalSpringBuilder:
    """The rotational spring-damper constructor of :class:`~femdyn.model.Model` (``m.rotational_spring``)."""

    def rotational_spring(self, name, joint, stiffness=0.0, damping=0.0, rest_angle=None, preload=0.0, law=None,
                          cross="a"):
        """Add a rotational spring-damper in a joint: torque f₀ + k δ + c δ̇ + g(δ, δ̇) against δ = θ − θ₀.

        θ is a revolute's joint angle (as :meth:`sensor_angle` records it), or a universal joint's
        angle about its cross axis ``axis_a`` or ``axis_b`` (0 as drawn); the torque turns ``body_b``
        back towards θ₀ (−torque on ``body_a``). δ is wrapped to [−π, π): a spring wound past half
        a turn from θ₀ snaps to the other side.

        Parameters
        ----------
        name : str
        joint : str, Revolute or Universal
            The joint (by name or object).
        stiffness : float, optional
            k, N·m/rad.
        damping : float, optional
            c, N·m·s/rad.
        rest_angle : float, optional
            θ₀, rad (default the angle as drawn: a revolute's ``angle0``, a universal's 0).
        preload : float, optional
            f₀, the torque at θ₀, N·m.
        law : Table, UserForce or callable, optional
            g(δ, δ̇), N·m, added to the linear law.
        cross : {"a", "b"}, optional
            For a universal joint, the cross axis the spring turns about.
        """
        joint = self.joints.get(joint, joint) if isinstance(joint, str) else joint
        if isinstance(joint, Revolute):
            vectors = joint.angle_vectors()
            drawn = joint.angle0
        elif isinstance(joint, Universal) and cross in ("a", "b"):
            vectors, drawn = _universal_vectors(joint, cross, self.initial_coordinates()[0]), 0.0
        else:
            raise ModelError(f"rotational spring '{name}': '{getattr(joint, 'name', joint)}' is not a revolute or "
                             f"universal joint of this model (with cross 'a' or 'b', got {cross!r})")
        return self.add(RotationalSpringDamper(name, vectors, stiffness, damping, drawn if rest_angle is None
                                               else rest_angle, preload, law))


def _universal_vectors(joint, cross, q0):
    """(a, b, u, offset) of a universal joint's angle about its cross axis ``cross`` (module docstring)."""
    ua, ub = next(e.exprs for e in joint.equations() if e.label.endswith("cross axes perpendicular"))
    if cross == "a":
        return joint.body_a.material_vector(ub(q0)), ub, ua, 0.0
    return ua, joint.body_b.material_vector(ua(q0)), ub, 0.0
