"""The settings of the 3-RRRU robot's runs on femdyn.robots.rrru's hand-made model (the closed-form
kinematics): :class:`StudyConfig` and the rigid servo inverse :func:`run_rigid`, read by the tracking
experiment (:mod:`.rrru_tracking`), the four inverses (:mod:`.rrru_inverses`) and the test rig's gauges
(:mod:`.rrru_gauges`). ``femdyn study rrru`` itself is the parallel-robot study on the preset
``presets/rrru.toml`` (:mod:`.rrru_preset`, docs/rrru.md).
"""
from dataclasses import dataclass, field

from ..robots.rrru import RRRUGeometry
from .rrru import CircleMotion, servo_robot


@dataclass
class StudyConfig(CircleMotion):
    """Settings of the 3-RRRU study (SI units, angles in rad), after the circle fields of :class:`CircleMotion`.

    - ``duration``: simulated time, s (0: the whole circle, 1.51 s);
    - ``h``: time step, s;
    - ``rigid_rho_inf``, ``flexible_rho_inf``: generalized-α ρ∞ of the runs (the plain causal inverse needs 0);
    - ``inverse_method``: "stable" (:func:`~femdyn.solvers.stable_inverse.stable_causal_inverse`) or "causal";
    - ``stable_h``: sample spacing of the stable inverse, s;
    - ``stable_iterations``, ``stable_window``, ``stable_elastic_window``: its ``StableInverseOptions`` (windows in s);
    - ``zero_dynamics_samples``: samples of the flexible inverse at which the internal dynamics are computed;
    - ``validate_inverse``: also drive the flexible forward model with the flexible inverse's torques;
    - ``tol_rigid``, ``tol_flexible``: Newton tolerances on the relative dynamic residual;
    - ``n_elements``: ANCF elements per flexible link (2 is the coarsest that runs the whole circle);
    - ``formulation``: "index3" or "stabilized", of the forward runs;
    - ``max_halvings``: step halvings a run may use past a failed Newton iteration (0: stop);
    - ``payload``: point mass on the platform, kg (1.6 on the paper's test rig);
    - ``gravity``: m/s²;
    - ``forward``, ``inverse``: run part (b), part (c);
    - ``paraview_every``: every k-th step of the flexible inverse to the ParaView series (0: none);
    - ``geometry``: the robot (E = 6.9e8 Pa in the paper's simulation).
    """

    duration: float = field(default=0.0, metadata={"schema": {"at_least": 0, "unit": "s"}})
    h: float = field(default=1e-3, metadata={"schema": {"above": 0, "unit": "s"}})
    rigid_rho_inf: float = 0.5
    flexible_rho_inf: float = 0.0
    tol_rigid: float = 1e-10
    tol_flexible: float = 1e-8
    formulation: str = "index3"
    max_halvings: int = 4
    inverse_method: str = "stable"
    stable_h: float = 5e-3
    stable_iterations: int = 4
    stable_window: float = 0.02
    stable_elastic_window: float = 0.3
    zero_dynamics_samples: int = 3
    validate_inverse: bool = True
    n_elements: int = 8
    payload: float = 0.0
    gravity: tuple = (0.0, 0.0, -9.81)
    forward: bool = True
    inverse: bool = True
    paraview_every: int = 20
    geometry: RRRUGeometry = field(default_factory=RRRUGeometry)


def run_rigid(config, motion, t_end, progress=False):
    """The rigid robot's inverse dynamics: servo constraints on the platform centre."""
    from femdyn.solvers.generalized_alpha import Options, integrate
    options = Options(rho_inf=config.rigid_rho_inf, tol_dynamic=config.tol_rigid, tol_constraint=1e-12,
                      **_policy(config))
    return integrate(servo_robot(config, motion).model.assemble(), t_end, config.h, options, progress=progress)


def _policy(config):
    """The failure policy of every run: retry with halved steps up to ``max_halvings`` times."""
    return dict(on_failure="retry" if config.max_halvings else "stop", max_halvings=config.max_halvings)
