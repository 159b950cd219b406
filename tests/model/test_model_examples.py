"""Worked examples of femdyn.model and femdyn.reports, run as doctests.

Models built with the Model constructors (with the numbers they give), measurement readers,
signal conditioning, metrics and report pages. Each was an Examples section of a docstring
in the library; each runs in the namespace of the module it documents.
"""
import doctest
import importlib

import pytest

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

EXAMPLES = {
    ("femdyn.model.actuators", "ActuatorBuilder.actuator"): '''
    See :meth:`servo` for a complete inverse-dynamics model.

    >>> from femdyn.model import Model
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> m.actuator("motor", "pivot").quantity
    'torque'
''',
    ("femdyn.model.actuators", "ActuatorBuilder.servo"): '''
    Inverse dynamics of a 1 kg rod on a motor: its tip height follows 0.1 sin t; at
    t = 0 the motor holds the weight, −m g L/2 about +y:

    >>> from femdyn.model import Model
    >>> from femdyn.motion import Sine
    >>> from femdyn.solvers.generalized_alpha import integrate
    >>> m = Model("arm")
    >>> rod = m.rigid_beam("arm", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> _ = m.actuator("motor", "pivot")
    >>> _ = m.servo("tip", "arm", (1.0, 0, 0), [Sine(0.1, 1.0)], [(0, 0, 1)])
    >>> results = integrate(m.assemble(), t_end=0.02, h=0.01)
    >>> round(float(results["motor.torque"][0]), 4)
    -4.905
''',
    ("femdyn.model.bodies", "BodyBuilder.rigid_beam"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("A", (0, 0, 0)), m.point("B", (2.0, 0, 0)),
    ...                    density=7800.0, area=1e-4)
    >>> round(rod.mass, 6), float(rod.length)
    (1.56, 2.0)
''',
    ("femdyn.model.bodies", "BodyBuilder.rigid_body"): '''
    >>> from femdyn.model import Model
    >>> import numpy as np
    >>> m = Model()
    >>> P, Q = m.point("P", (0, 0, 0)), m.point("Q", (1.0, 0, 0))
    >>> u, v = m.vector("u", (0, 1, 0)), m.vector("v", (0, 0, 1))
    >>> box = m.rigid_body("box", [P, Q], [u, v], mass=2.0, com=(0.5, 0, 0),
    ...                    inertia=np.diag([0.1, 0.2, 0.2]))
    >>> m.assemble().degrees_of_freedom()
    6
''',
    ("femdyn.model.bodies", "BodyBuilder.triangle_platform"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> plate = m.triangle_platform("P", (0, 0, 1.0), (0, 0, 1), 0.2, mass=3.0)
    >>> [round(float(x), 6) for x in plate.vertices[0]]
    [0.2, 0.0, 1.0]
''',
    ("femdyn.model.builder", "Model.add_node"): '''
    >>> m = Model()
    >>> m.add_node("P", "point", (0.0, 0.0, 1.0)).dofs
    array([0, 1, 2])
''',
    ("femdyn.model.builder", "Model.node"): '''
    >>> m = Model()
    >>> _ = m.point("O", (0, 0, 0))
    >>> m.node("O").start
    0
''',
    ("femdyn.model.builder", "Model.body"): '''
    >>> m = Model()
    >>> m.body("ground").name
    'ground'
''',
    ("femdyn.model.builder", "Model.set_velocity"): '''
    >>> m = Model()
    >>> _ = m.point("P", (0, 0, 0))
    >>> m.set_velocity("P", (1.0, 0, 0))
    >>> m.initial_coordinates()[1].tolist()
    [1.0, 0.0, 0.0]
''',
    ("femdyn.model.builder", "Model.set_rigid_velocity"): '''
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> m.set_rigid_velocity(rod, omega=(0, 0, 2.0))
    >>> m.initial_coordinates()[1].tolist()       # A moves at ω × (1, 0, 0)
    [0.0, 0.0, 0.0, 0.0, 2.0, 0.0]
''',
    ("femdyn.model.builder", "Model.initial_coordinates"): '''
    >>> m = Model()
    >>> _ = m.point("P", (1.0, 2.0, 3.0))
    >>> m.initial_coordinates()[0].tolist()
    [1.0, 2.0, 3.0]
''',
    ("femdyn.model.flexible", "BeamBuilder.ancf_beam"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model()
    >>> nodes = [m.cable_node(f"n{i}", (0.5 * i, 0, 0)) for i in range(3)]
    >>> cable = m.ancf_beam("cable", nodes, E=2.1e11, rho=7850.0, section=sections.circular(0.01))
    >>> cable.count
    2
''',
    ("femdyn.model.flexible", "BeamBuilder.straight_beam"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model()
    >>> beam = m.straight_beam("arm", (0, 0, 0), (1.0, 0, 0), 4, E=7e10, rho=2700.0,
    ...                        section=sections.rectangular(0.02, 0.01), element="beam")
    >>> beam.count, m.node("arm.4").initial[:3].tolist()
    (4, [1.0, 0.0, 0.0])
''',
    ("femdyn.model.flexible", "BeamBuilder.beam_through_points"): '''
    >>> from femdyn.model import Model
    >>> import numpy as np
    >>> from femdyn.elements import sections
    >>> m = Model()
    >>> angles = np.linspace(0, np.pi / 2, 5)
    >>> arc = m.beam_through_points("arc", np.column_stack([np.cos(angles), np.sin(angles), 0 * angles]),
    ...                             E=2e11, rho=7800.0, section=sections.circular(0.005))
    >>> arc.count, m.node("arc.0").kind
    (4, 'cable')
''',
    ("femdyn.model.flexible", "BeamBuilder.beam_from_mesh"): '''
    >>> from femdyn.model import Model
    >>> import os, tempfile, meshio, numpy as np
    >>> from femdyn.elements import sections
    >>> folder = tempfile.TemporaryDirectory()
    >>> path = os.path.join(folder.name, "line.vtk")
    >>> meshio.write_points_cells(path, np.array([[0.0, 0, 0], [500, 0, 0], [1000, 0, 0]]),
    ...                           [("line", np.array([[0, 1], [1, 2]]))])
    >>> m = Model()
    >>> [b.count for b in m.beam_from_mesh("rod", path, 2e11, 7800.0, sections.circular(0.01), scale=1e-3)]
    [2]
    >>> folder.cleanup()
''',
    ("femdyn.model.floating_frame", "_modal_node_kind"): '''
    Example
    -------
    >>> _modal_node_kind(10)
    'modal4'
''',
    ("femdyn.model.joints", "_perpendicular_vectors"): '''
    >>> from femdyn.model.bodies import Ground
    >>> len(_perpendicular_vectors(Ground(), np.array([0.0, 0.0, 1.0])))
    2
''',
    ("femdyn.model.joints", "JointBuilder.fix"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> P = m.point("P", (0, 0, 1.0))
    >>> len(m.fix(P, components=(2,)).equations())
    1
''',
    ("femdyn.model.joints", "JointBuilder.clamp"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model()
    >>> beam = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
    >>> len(m.clamp("root", "b.0").equations())
    5
''',
    ("femdyn.model.joints", "JointBuilder.spherical"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0, 0, -1.0)), mass=1.0)
    >>> _ = m.spherical("ball", "ground", rod, point=(0, 0, 0))
    >>> m.assemble().degrees_of_freedom()      # the rod's spin about itself is no coordinate
    2
''',
    ("femdyn.model.joints", "JointBuilder.revolute"): '''
    A rod falling from the horizontal turns about +y by θ ≈ (3g/2L)·t²/2 at first:

    >>> from femdyn.model import Model
    >>> from femdyn.solvers.generalized_alpha import integrate
    >>> m = Model("pendulum")
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=2.0)
    >>> _ = m.revolute("pivot", "ground", rod, point=(0, 0, 0), axis=(0, 1, 0))
    >>> _ = m.sensor_angle("theta", "pivot")
    >>> results = integrate(m.assemble(), t_end=0.1, h=0.01)
    >>> round(float(results["theta.angle"][-1]), 3)
    0.074
''',
    ("femdyn.model.joints", "JointBuilder.universal"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> P, Q, u = m.point("P", (0, 0, 0)), m.point("Q", (0, 0, -1.0)), m.vector("u", (1, 0, 0))
    >>> link = m.rigid_body("link", [P, Q], [u], mass=1.0, com=(0, 0, -0.5))
    >>> _ = m.universal("hooke", "ground", link, (0, 0, 0), axis_a=(0, 1, 0), axis_b=(1, 0, 0))
    >>> m.assemble().degrees_of_freedom()
    2
''',
    ("femdyn.model.joints", "JointBuilder.weld"): '''
    A 2 kg box welded to the ground keeps no degree of freedom; the weld holds up
    its weight, 2 kg · 9.81 m/s²:

    >>> from femdyn.model import Model
    >>> import numpy as np
    >>> from femdyn.solvers.static import static_equilibrium
    >>> m = Model()
    >>> P, Q = m.point("P", (0, 0, 0)), m.point("Q", (1.0, 0, 0))
    >>> u, v = m.vector("u", (0, 1, 0)), m.vector("v", (0, 0, 1))
    >>> box = m.rigid_body("box", [P, Q], [u, v], mass=2.0, com=(0.5, 0, 0),
    ...                    inertia=np.diag([0.1, 0.2, 0.2]))
    >>> _ = m.weld("root", "ground", box, (0, 0, 0))
    >>> _ = m.sensor_reaction("R", "root")
    >>> system = m.assemble()
    >>> system.degrees_of_freedom()
    0
    >>> q, lam = static_equilibrium(system)
    >>> system.sensors[0].measure(q, system.v0, None, lam, 0.0)[:3].round(6).tolist()
    [0.0, 0.0, 19.62]
''',
    ("femdyn.model.joints", "JointBuilder.prismatic"): '''
    >>> from femdyn.model import Model
    >>> import numpy as np
    >>> m = Model()
    >>> P, Q = m.point("P", (0, 0, 0)), m.point("Q", (1.0, 0, 0))
    >>> u, v = m.vector("u", (0, 1, 0)), m.vector("v", (0, 0, 1))
    >>> block = m.rigid_body("block", [P, Q], [u, v], mass=1.0, inertia=np.eye(3) * 0.01)
    >>> _ = m.prismatic("slider", "ground", block, (0, 0, 0), axis=(1, 0, 0))
    >>> m.assemble().degrees_of_freedom()
    1
''',
    ("femdyn.model.joints", "JointBuilder.distance"): '''
    A 1 kg bar hanging level on two 1 m strings: each carries half its weight.

    >>> from femdyn.model import Model
    >>> from femdyn.solvers.static import static_equilibrium
    >>> m = Model()
    >>> bar = m.rigid_beam("bar", m.point("A", (0, 0, -1.0)), m.point("B", (0.5, 0, -1.0)), mass=1.0)
    >>> _ = m.distance("left", "ground", (0, 0, 0), bar, (0, 0, -1.0))
    >>> _ = m.distance("right", "ground", (0.5, 0, 0), bar, (0.5, 0, -1.0))
    >>> system = m.assemble()
    >>> q, lam = static_equilibrium(system)
    >>> round(float(2 * lam[system.joint_rows["left"]][0] * 1.0), 6)     # tension 2 λ d, N
    4.905
''',
    ("femdyn.model.joints", "JointBuilder.drive_angle"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.motion import Polynomial
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> _ = m.drive_angle("motor", "pivot", Polynomial([0.0, 1.0]))     # θ = 1 rad/s · t
    >>> m.assemble().degrees_of_freedom()
    0
''',
    ("femdyn.model.joints", "JointBuilder.drive_coordinate"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> _ = m.drive_coordinate("lift", rod, (1.0, 0, 0), (0, 0, 1), lambda t: 0.1 * t)
    >>> m.assemble().degrees_of_freedom()
    0
''',
    ("femdyn.model.loads", "LoadBuilder.torque"): '''
    >>> from femdyn.model import Model
    >>> m = Model(gravity=(0, 0, 0))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=3.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 0, 1))
    >>> _ = m.torque("motor", "pivot", 1.0)                 # 1 N·m about +z
    >>> system = m.assemble()
    >>> float(system.forces(system.q0, system.v0, 0.0)[4])      # on A.y: T/L = 1 N
    1.0
''',
    ("femdyn.model.loads", "LoadBuilder.force"): '''
    >>> from femdyn.model import Model
    >>> m = Model(gravity=(0, 0, 0))
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.force("push", rod, (0.25, 0, 0), (0, 0, 4.0))
    >>> system = m.assemble()
    >>> system.forces(system.q0, system.v0, 0.0).tolist()   # shared 3:1 by O and A
    [0.0, 0.0, 3.0, 0.0, 0.0, 1.0]
''',
    ("femdyn.model.loads", "LoadBuilder.beam_load"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model(gravity=(0, 0, 0))
    >>> _ = m.straight_beam("b", (0, 0, 0), (2.0, 0, 0), 4, 2e11, 7800.0, sections.circular(0.01))
    >>> _ = m.beam_load("wind", "b", (0, 0, -10.0))
    >>> system = m.assemble()
    >>> round(float(system.forces(system.q0, system.v0, 0.0)[2::6].sum()), 9)   # total: w L
    -20.0
''',
    ("femdyn.model.loads", "LoadBuilder.beam_force"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model(gravity=(0, 0, 0))
    >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
    >>> _ = m.beam_force("tip", "b", 1, 1.0, (0, 0, -5.0))
    >>> system = m.assemble()
    >>> float(system.forces(system.q0, system.v0, 0.0)[system.nodes["b.2"].dofs[2]])
    -5.0
''',
    ("femdyn.model.nodes", "Node"): '''
    >>> node = Node("tip", "cable", [1.0, 0, 0, 1.0, 0, 0], start=6)
    >>> node.dofs, node.slot("rx")
    (array([ 6,  7,  8,  9, 10, 11]), Expr({9: 1.0}, offset=[0.0, 0.0, 0.0]))
''',
    ("femdyn.model.nodes", "Expr"): '''
    >>> import numpy as np
    >>> mid = 0.5 * Expr({0: 1.0}) + 0.5 * Expr({3: 1.0})      # midpoint of two point nodes
    >>> mid(np.array([0.0, 0, 0, 2.0, 4.0, 0]))
    array([1., 2., 0.])
''',
    ("femdyn.model.nodes", "NodeBuilder.point"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> m.point("O", (0, 0, 0)).kind
    'point'
''',
    ("femdyn.model.nodes", "NodeBuilder.vector"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> m.vector("u", (0, 1, 0)).is_unit
    True
''',
    ("femdyn.model.nodes", "NodeBuilder.cable_node"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> m.cable_node("c0", (0, 0, 0)).initial
    array([0., 0., 0., 1., 0., 0.])
''',
    ("femdyn.model.nodes", "NodeBuilder.beam_node"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> m.beam_node("b0", (0, 0, 0)).dofs.size
    12
''',
    ("femdyn.model.nodes", "NodeBuilder.director_node"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> m.director_node("d0", (0, 0, 0)).slots
    ('r', 'ry', 'rz')
''',
    ("femdyn.model.protocol", "Part"): '''
    A part that adds nothing assembles and leaves the equations unchanged:

    >>> import femdyn
    >>> from femdyn.model.protocol import Part
    >>> m = femdyn.Model("empty part")
    >>> _ = m.point("P", (0, 0, 0))
    >>> _ = m.add(Part())
    >>> system = m.assemble()
    >>> system.n, system.m
    (3, 0)
''',
    ("femdyn.model.protocol", "missing"): '''
    >>> missing(Part()), missing(object())[:3]
    ([], ['applied', 'bind', 'constant_mass'])
''',
    ("femdyn.model.sensors", "_wall_radius"): '''
    >>> import numpy as np
    >>> from femdyn.elements import sections
    >>> round(float(_wall_radius(sections.rectangular(0.02, 0.01), 0, np.pi / 4, "G1")), 6)   # the corner
    0.007071
''',
    ("femdyn.model.sensors", "SensorBuilder.sensor_point"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> m.sensor_point("mid", rod, (0.5, 0, 0)).columns[:3]
    ('mid.x', 'mid.y', 'mid.z')
''',
    ("femdyn.model.sensors", "SensorBuilder.sensor_strain"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model()
    >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
    >>> gauge = m.sensor_strain("gauge", "b", element=0, xi=0.0, y=0.01)
    >>> system = m.assemble()
    >>> gauge.columns, float(system.sensors[0].measure(system.q0, None, None, None, 0.0)[0])   # stress-free
    (('gauge.strain',), 0.0)
''',
    ("femdyn.model.sensors", "SensorBuilder.sensor_gauge"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model()
    >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
    >>> wall = m.sensor_gauge(Gauge("wall", "b", "b.0", 0.25, grid_length=0.01))
    >>> system = m.assemble()
    >>> wall.columns, system.sensors[0].measure(system.q0, None, None, None, 0.0).tolist()   # stress-free
    (('wall.strain', 'wall.axial'), [0.0, 0.0])
''',
    ("femdyn.model.sensors", "SensorBuilder.sensor_beam"): '''
    >>> from femdyn.model import Model
    >>> from femdyn.elements import sections
    >>> m = Model()
    >>> _ = m.straight_beam("b", (0, 0, 0), (1.0, 0, 0), 2, 2e11, 7800.0, sections.circular(0.01))
    >>> m.sensor_beam("k", "b", 1, 0.5, "curvature").columns
    ('k.kappa_y', 'k.kappa_z')
''',
    ("femdyn.model.sensors", "SensorBuilder.sensor_angle"): '''
    >>> from femdyn.model import Model
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0), angle0=0.5)
    >>> _ = m.sensor_angle("theta", "pivot")
    >>> system = m.assemble()
    >>> system.sensors[0].measure(system.q0, system.v0, None, None, 0.0).tolist()
    [0.5, 0.0]
''',
    ("femdyn.model.sensors", "SensorBuilder.sensor_reaction"): '''
    A hanging 2 kg rod: the pivot holds it up with 2 kg · 9.81 m/s².

    >>> from femdyn.model import Model
    >>> from femdyn.solvers.static import static_equilibrium
    >>> m = Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0, 0, -1.0)), mass=2.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> _ = m.sensor_reaction("R", "pivot")
    >>> system = m.assemble()
    >>> q, lam = static_equilibrium(system)
    >>> system.sensors[0].measure(q, system.v0, None, lam, 0.0)[:3].round(6).tolist()
    [0.0, 0.0, 19.62]
''',
    ("femdyn.model.springs", "SpringDamper"): '''
    Two points 1.5 m apart on a spring of rest length 1 m and k = 200 N/m: a 100 N pull.

    >>> import numpy as np
    >>> from femdyn.model.nodes import Expr
    >>> s = SpringDamper("s", Expr({0: 1.0}), Expr({3: 1.0}), 200.0, rest_length=1.0)
    >>> s.bind(6)
    >>> q = np.array([0.0, 0, 0, 1.5, 0, 0])
    >>> s.tension(q, np.zeros(6)), s.force(q, np.zeros(6), 0.0)[[0, 3]].tolist()
    (100.0, [100.0, -100.0])
''',
    ("femdyn.model.springs", "SpringBuilder.spring"): '''
    A 2 kg slider tied to the ground by a 800 N/m spring, its rest length the initial
    distance (1 m); pulled 1 cm further out, the spring pulls back with 8 N:

    >>> from femdyn.model import Model
    >>> import numpy as np
    >>> m = Model(gravity=(0, 0, 0))
    >>> block = m.rigid_beam("block", m.point("A", (1.0, 0, 0)), m.point("B", (1.2, 0, 0)), mass=2.0)
    >>> _ = m.prismatic("slider", "ground", block, (1.0, 0, 0), axis=(1, 0, 0))
    >>> spring = m.spring("spring", "ground", (0, 0, 0), block, (1.0, 0, 0), stiffness=800.0)
    >>> system = m.assemble()
    >>> q = system.q0 + 0.01 * np.array([1.0, 0, 0, 1.0, 0, 0])
    >>> float(system.forces(q, system.v0, 0.0)[[0, 3]].sum().round(9))
    -8.0
''',
    ("femdyn.model.system", "System"): '''
    >>> import femdyn
    >>> m = femdyn.Model("pendulum")
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> system = m.assemble()
    >>> system.n, system.m, system.labels[3]
    (6, 5, 'A.rx')
''',
    ("femdyn.model.system", "System.mass"): '''
    A 1 kg uniform rod on two end points: M = m[[1/3, 1/6], [1/6, 1/3]]⊗I₃.

    >>> import femdyn
    >>> m = femdyn.Model()
    >>> _ = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> m.assemble().mass().toarray()[0, [0, 3]].round(6).tolist()
    [0.333333, 0.166667]
''',
    ("femdyn.model.system", "System.forces"): '''
    >>> import femdyn
    >>> m = femdyn.Model(gravity=(0, 0, -10.0))
    >>> _ = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=2.0)
    >>> system = m.assemble()
    >>> system.forces(system.q0, system.v0, 0.0).tolist()      # the weight shared by O and A
    [0.0, 0.0, -10.0, 0.0, 0.0, -10.0]
''',
    ("femdyn.model.system", "System.redundant_constraints"): '''
    >>> import femdyn
    >>> m = femdyn.Model()
    >>> rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.fix("O")
    >>> _ = m.spherical("ball", "ground", rod, (0, 0, 0))     # fixes O a second time
    >>> system = m.assemble()                                  # the repeated rows are set aside
    >>> system.set_aside
    [('ball', 'ball: x'), ('ball', 'ball: y'), ('ball', 'ball: z')]
    >>> system.redundant_constraints(system.q0)                 # the rows kept are independent
    []
''',
    ("femdyn.model.vectorfunctions", "cross"): '''
    >>> cross(np.array([[1.0, 0, 0]]), np.array([[0, 1.0, 0]]))
    array([[0., 0., 1.]])
''',
    ("femdyn.model.vectorfunctions", "_wrap_to_pi"): '''
    >>> float(_wrap_to_pi(3 * np.pi / 2))
    -1.5707963267948966
''',
    ("femdyn.model.vectorfunctions", "Angle.angle"): '''
    >>> X = np.array([[[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]]])    # a = x, b = y, u = z
    >>> float(Angle.angle(X)[0][0])
    1.5707963267948966
''',
    ("femdyn.reports.measurements", "read_measurements"): '''
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "measured.csv")
    ...     with open(path, "w") as f:
    ...         _ = f.write("time [ms],SG1 [µε]\\n0,0.0\\n1,2.5\\n2,\\n")
    ...     data = read_measurements(path)
    >>> data.t.tolist(), data.channels["SG1"].tolist(), data.units["SG1"]
    ([0.0, 0.001, 0.002], [0.0, 2.5, nan], 'µε')
''',
    ("femdyn.reports.measurements", "channel_unit"): '''
    >>> channel_unit(Peaks({"SG1": (1e-5, -1e-5)}, {"SG1": "strain"}, "p.csv"), "SG1", None)
    'strain'
''',
    ("femdyn.reports.measurements", "read_gauge_map"): '''
    >>> import os, tempfile
    >>> text = '[comparison]\\ncutoff = 100.0\\n[gauges.G1]\\nchannel = "SG1"\\nsimulated = "tip.strain"\\n'
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "gauges.toml")
    ...     with open(path, "w") as f:
    ...         _ = f.write(text)
    ...     gauge_map = read_gauge_map(path)
    >>> [(e.name, e.channel, e.simulated) for e in gauge_map.entries], gauge_map.comparison.cutoff
    ([('G1', 'SG1', 'tip.strain')], 100.0)
''',
    ("femdyn.reports.metrics", "verdicts"): '''
    Example
    -------
    >>> verdicts({"correlation": 0.95, "nrmse": 0.4}, {"correlation": 0.9, "nrmse": 0.3})
    {'correlation': True, 'nrmse': False}
''',
    ("femdyn.reports.pages", "png"): '''
    Example
    -------
    >>> from matplotlib.figure import Figure
    >>> png(Figure(figsize=(1, 1)))[:22]
    'data:image/png;base64,'
''',
    ("femdyn.reports.pages", "cells"): '''
    Example
    -------
    >>> cells(("G1", "pass"), {"pass": "pass"})
    [('G1', ''), ('pass', 'pass')]
''',
    ("femdyn.reports.signals", "check_samples"): '''
    Example
    -------
    >>> t, x, w = check_samples([0, 1, 2, 3, 4], [0, float("nan"), 2, 3, 4], "SG1")
    >>> len(t), w[0].startswith("channel 'SG1': 1 NaN")
    (4, True)
''',
    ("femdyn.reports.signals", "zero_balance"): '''
    >>> zero_balance([0.0, 1.0], [5.0, 7.0], 0.0)
    array([0., 2.])
''',
    ("femdyn.reports.signals", "lowpass"): '''
    Example
    -------
    >>> t = np.arange(0, 1, 1e-3); y = lowpass(t, np.sin(2 * np.pi * 5 * t), 50.0)
''',
    ("femdyn.reports.signals", "common_grid"): '''
    >>> common_grid([(0, 1), (0.5, 2)], 0.25)
    array([0.5 , 0.75, 1.  ])
''',
    ("femdyn.reports.signals", "estimate_lag"): '''
    Example
    -------
    >>> t = np.arange(0, 2, 1e-3); ref = np.sin(2 * np.pi * 3 * t)
    >>> round(estimate_lag(ref, np.sin(2 * np.pi * 3 * (t - 0.02)), 1e-3, 0.05), 4)
    0.02
''',
}


@pytest.mark.parametrize("module, name", sorted(EXAMPLES), ids=lambda key: key)
def test_example(module, name, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)                      # examples that write files write them here
    globs = dict(vars(importlib.import_module(module)))
    test = doctest.DocTestParser().get_doctest(EXAMPLES[module, name], globs, f"{module}.{name}", module, 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.attempted > 0
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (output above)"
