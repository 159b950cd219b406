"""The models a parallel-robot study runs, for any robot: the flexible model with strain gauges on its
flexible links and the platform's position sensor, and the actuated joints' coordinates (a revolute's
angle, rad; a prismatic joint's stroke, m) recorded and read back as arrays."""
import numpy as np

from ..errors import ModelError
from ..model.joints import Prismatic
from .parallel_measures import shear_sensors

COORDINATE = " coordinate"       # the suffix of an actuated joint's coordinate sensor


def flexible_model(robot, pose, config, servo=None):
    """The flexible model with its gauges, the platform's position and the actuated joints' coordinates.

    Parameters
    ----------
    robot : ParallelRobot
    pose : (n_task,) array_like
        Task coordinates at the model's pose, m and rad.
    config : object with ``gauges``
        Per gauge a table {set, s, y, z} on an ANCF set, or {set, gauge} on a component link
        (:class:`~.parallel_study.ParallelStudyConfig`).
    servo : object with ``state(t)``, optional
        The task in time: a servo model for inverse dynamics (:meth:`ParallelRobot.model`).

    Returns
    -------
    RobotModel
        Sensors ``platform.x``, ``.y``, ``.z`` (m), ``gauge {k} {set}.strain``, ``gauge {name} {body}.strain``
        (a component's stored gauge), the shear at mid-link (:func:`~.parallel_measures.shear_sensors`) and
        :func:`coordinate_sensors`.

    Raises
    ------
    ModelError
        A gauge outside its link.
    """
    built = robot.model(pose, flexible=True, servo=servo)
    m = built.model
    m.sensor_point("platform", built.platform, built.state[-6:-3])
    for name, (set_name, element, xi, y, z) in gauge_places(built, config).items():
        m.sensor_strain(name, set_name, element, xi, y=y, z=z)
    for name, (body, gauge) in component_gauges(built, config).items():
        m.sensor_component_gauge(gauge, body, name)
    shear_sensors(built)
    coordinate_sensors(built)
    return built


def gauge_places(built, config):
    """Gauge name → (element set, element, ξ, y, z) from ``config.gauges`` or at every set's middle."""
    m, out = built.model, {}
    tables = [g for g in config.gauges if g["set"] not in built.components] if config.gauges else \
        [{"set": s, "s": None} for s in built.flexible]
    for k, g in enumerate(tables):
        beam = m.element_set(g["set"])
        length = float(np.sum(beam.kernel.length))
        s = 0.5 * length if g.get("s") is None else float(g["s"])
        if not 0 <= s <= length:
            raise ModelError(f"gauge {k} on '{g['set']}': s = {s} m lies outside the link (0 … {length:.4g} m)")
        x = s / length * beam.count
        element = min(int(x), beam.count - 1)
        radius = built.flexible[g["set"]].radius if g.get("y") is None else float(g["y"])
        out[f"gauge {k} {g['set']}"] = (g["set"], element, x - element, radius, float(g.get("z", 0.0)))
    return out


def component_gauges(built, config):
    """Gauge name → (component link's body, stored gauge) from the ``config.gauges`` tables naming a component
    link (``gauge``: one of its component's gauges, default all), or every stored gauge of every component link."""
    from ..component import gauge_modes
    tables = [g for g in config.gauges if g["set"] in built.components] if config.gauges else \
        [{"set": body} for body in built.components]
    out = {}
    for g in tables:
        stored = gauge_modes(built.model.bodies[g["set"]].component)[0]
        for gauge in ([g["gauge"]] if g.get("gauge") is not None else stored):
            out[f"gauge {gauge} {g['set']}"] = (g["set"], gauge)
    return out


def is_prismatic(built, joint):
    """Whether the actuated ``joint`` of a built robot is prismatic (its effort a force, its coordinate a stroke)."""
    return isinstance(built.model.joints[joint], Prismatic)


def coordinate_sensors(built):
    """Record every actuated joint's coordinate as ``<joint> coordinate.angle`` (rad) or ``.stroke`` (m)."""
    m = built.model
    for joint in built.actuated:
        (m.sensor_slide if is_prismatic(built, joint) else m.sensor_angle)(joint + COORDINATE, joint)


def actuator_coordinates(results, built):
    """The actuated joints' coordinates along a run of a model with :func:`coordinate_sensors`, (k, n_act): rad or m."""
    return np.column_stack([results[f"{joint}{COORDINATE}.{'stroke' if is_prismatic(built, joint) else 'angle'}"]
                            for joint in built.actuated])


def actuator_inputs(results, built):
    """The actuators' inputs along a servo model's run, (k, n_act): N·m for a revolute, N for a prismatic joint."""
    return np.column_stack([results[f"{a}.{'force' if is_prismatic(built, a) else 'torque'}"]
                            for a in built.actuators])
