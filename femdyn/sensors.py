"""Sensors: channels recorded at every output step of a run (SI units)."""
import numpy as np

from .vectorfunctions import Angle, FunctionGroup, Targets


class Sensor:
    """Base class: ``columns`` names the channels, ``measure`` returns their values."""

    columns = ()

    def bind(self, system):
        pass

    def measure(self, q, v, a, lam, t):
        raise NotImplementedError


class PointSensor(Sensor):
    """Position (m) and velocity (m/s) of a material point."""

    def __init__(self, name, expr):
        self.name, self.expr = name, expr
        self.columns = tuple(f"{name}.{c}" for c in ("x", "y", "z", "vx", "vy", "vz"))

    def measure(self, q, v, a, lam, t):
        vel = self.expr(v) - self.expr.offset
        return np.concatenate([self.expr(q), vel])


class JointAngleSensor(Sensor):
    """Joint angle (rad, from the initial configuration plus the joint's offset, wrapped to
    (−π, π]; results unwrap it) and joint rate (rad/s) of a revolute joint."""

    def __init__(self, name, revolute):
        self.name, self.revolute = name, revolute
        self.columns = (f"{name}.angle", f"{name}.rate")

    def bind(self, system):
        a, b, u, self.offset = self.revolute.angle_vectors()
        self.group = FunctionGroup(Angle, [(a, b, u)], np.zeros((1, 3)), Targets([0.0], [None]), system.n)

    def measure(self, q, v, a, lam, t):
        theta, grad = Angle.angle(self.group.vectors(q))
        rate = np.bincount(self.group.cols, grad.ravel()[self.group.rows] * self.group.vals * v[self.group.cols])
        return np.array([theta[0] + self.offset, rate.sum()])


class ReactionSensor(Sensor):
    """Reactions of one joint from its multipliers (see ``Joint.reaction``: forces on body B
    in N for coincidence rows, the drive torque in N·m for an angle drive)."""

    def __init__(self, name, joint):
        self.name, self.joint = name, joint

    def bind(self, system):
        self.rows = self.joint.rows
        names, _ = self.joint.reaction(np.zeros(len(self.rows)))
        self.columns = tuple(f"{self.name}.{c}" for c in names)

    def measure(self, q, v, a, lam, t):
        return self.joint.reaction(lam[self.rows])[1]


class BeamSensor(Sensor):
    """A strain quantity at a material point of an ANCF beam, recorded every step:
    "strain" (axial strain at section point (y, z): the reading of a strain gauge bonded
    there, dimensionless), "curvature" (κ_y, κ_z in 1/m), and for fully parameterized
    beams "twist" (rad/m) and "shear" (γ_y, γ_z in rad). See the kernels' methods of the
    same names for definitions and sign conventions."""

    QUANTITIES = {"strain": ("strain",), "curvature": ("kappa_y", "kappa_z"), "twist": ("twist",),
                  "shear": ("gamma_y", "gamma_z")}
    METHODS = {"strain": "axial_strain", "curvature": "curvature", "twist": "twist", "shear": "shear_angles"}

    def __init__(self, name, beam, element, xi, quantity="strain", y=0.0, z=0.0):
        from .errors import ModelError
        if quantity not in self.QUANTITIES or not hasattr(beam.kernel, self.METHODS[quantity]):
            raise ModelError(f"sensor '{name}': beam '{beam.name}' ({type(beam.kernel).__name__}) cannot report "
                             f"'{quantity}'; choose from {[k for k, m in self.METHODS.items() if hasattr(beam.kernel, m)]}")
        self.name, self.beam, self.element, self.quantity = name, beam, element, quantity
        self.xi, self.y, self.z = float(xi), float(y), float(z)
        self.columns = tuple(f"{name}.{c}" for c in self.QUANTITIES[quantity])

    def measure(self, q, v, a, lam, t):
        qe = q[self.beam.dofs]
        method = getattr(self.beam.kernel, self.METHODS[self.quantity])
        value = method(qe, self.xi, self.y, self.z) if self.quantity == "strain" else method(qe, self.xi)
        return np.atleast_1d(np.asarray(value)[self.element])
