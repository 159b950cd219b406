"""Inverses of a linearized servo problem (a :class:`~femdyn.solvers.linearization.LinearServo`), one module each.

:func:`causal_inverse` integrates every internal mode forward from rest (:mod:`.causal`);
:func:`noncausal_inverse` keeps them bounded, stable modes forward and unstable ones backward
(Devasia, Chen & Paden 1996; :mod:`.noncausal`); both solve in the Weierstrass form of the
pencil (:mod:`.weierstrass`). :func:`optimal_control_inverse` trades tracking against input
as an LQ problem (Bastos, Seifried & Brüls 2013; :mod:`.optimal_control`). Each returns an
:class:`Inverse` (:mod:`.result`). Derivations and checks: docs/inversion.md.
"""
from .causal import causal_inverse
from .noncausal import noncausal_inverse
from .optimal_control import optimal_control_inverse
from .result import Inverse

__all__ = ["Inverse", "causal_inverse", "noncausal_inverse", "optimal_control_inverse"]
