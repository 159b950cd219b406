"""A rotational spring-damper on a revolute joint, about the joint angle femdyn measures (:class:`.vectorfunctions.Angle`).

δ = wrap(θ(q) − θ₀) ∈ [−π, π), δ̇ = ∇θ·q̇; the torque f(δ, δ̇) acts on body B against δ (−f on A):
Q = −f ∇θ, K = f_δ ∇θ∇θᵀ + f_δ̇ ∇θ (H_θ q̇)ᵀ + f H_θ, C = f_δ̇ ∇θ∇θᵀ.
"""
import numpy as np

from ..validation import number
from .forcelaws import ForceElement, ForceLaw
from .vectorfunctions import Angle, FunctionGroup, Targets


class RotationalSpringDamper(ForceElement):
    """A torque f = f₀ + k δ + c δ̇ + g(δ, δ̇) in a revolute joint about its angle, δ from the rest angle θ₀."""

    reading_names = ("torque", "angle", "rate")

    def __init__(self, name, revolute, stiffness, damping=0.0, rest_angle=None, preload=0.0, law=None):
        self.name, self.revolute = name, revolute
        self.law = ForceLaw(f"rotational spring '{name}'", stiffness, damping, preload, law,
                            ("N·m/rad", "N·m·s/rad", "N·m"))
        self.theta0 = revolute.angle0 if rest_angle is None else number(
            rest_angle, f"rotational spring '{name}': rest angle", "rad")

    def bind(self, n):
        self.n = n
        a, b, u, offset = self.revolute.angle_vectors()
        self.group = g = FunctionGroup(Angle, [(a, b, u)], np.zeros((1, 3)), Targets([self.theta0 - offset], [None]), n)
        self.dofs = np.unique(g.cols)
        self._cols, self._h = np.searchsorted(self.dofs, g.cols), (np.searchsorted(self.dofs, g.h_rows),
                                                                   np.searchsorted(self.dofs, g.h_cols))

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

    def rotational_spring(self, name, revolute, stiffness=0.0, damping=0.0, rest_angle=None, preload=0.0, law=None):
        """Add a rotational spring-damper in a revolute joint: torque f₀ + k δ + c δ̇ + g(δ, δ̇) against δ = θ − θ₀.

        θ is the joint angle of :meth:`revolute` (as :meth:`sensor_angle` records it); the torque
        turns ``body_b`` back towards θ₀ (−torque on ``body_a``). δ is wrapped to [−π, π): a spring
        wound past half a turn from θ₀ snaps to the other side.

        Parameters
        ----------
        name : str
        revolute : str or femdyn.model.joints.Revolute
        stiffness : float, optional
            k, N·m/rad.
        damping : float, optional
            c, N·m·s/rad.
        rest_angle : float, optional
            θ₀, rad (default the joint's ``angle0``: unloaded as drawn).
        preload : float, optional
            f₀, the torque at θ₀, N·m.
        law : Table, UserForce or callable, optional
            g(δ, δ̇), N·m, added to the linear law.
        """
        return self.add(RotationalSpringDamper(name, self._revolute(revolute), stiffness, damping, rest_angle,
                                               preload, law))
