"""ParaView output: the VTU files hold the configuration of each written step."""
import re

import meshio
import numpy as np

import femdyn
from femdyn.elements import sections
from femdyn.mesh.vtk import write_series
from femdyn.solvers.generalized_alpha import integrate


def test_series_round_trip(tmp_path):
    m = femdyn.Model("swing")
    rod = m.rigid_beam("rod", m.point("O", (0, 0, 0)), m.point("A", (0.5, 0, 0)), mass=1.0)
    m.revolute("pin", m.ground, rod, (0, 0, 0), (0, 1, 0))
    m.straight_beam("cable", (0.5, 0, 0), (1.0, 0, 0), 2, E=1e8, rho=1000.0, section=sections.circular(0.01))
    m.spherical("ball", rod, "cable.0", (0.5, 0, 0))
    s = m.assemble()
    r = integrate(s, 0.05, 0.01)
    pvd = write_series(s, r, str(tmp_path), every=2)
    text = open(pvd).read()
    files = re.findall(r'file="([^"]+)"', text)
    times = [float(x) for x in re.findall(r'timestep="([^"]+)"', text)]
    assert len(files) == 3 and np.allclose(times, r.t[::2])
    last = meshio.read(str(tmp_path / files[-1]))
    # the rod's tip and the cable's first centreline point are the same material point
    assert np.allclose(last.points[1], r.q[4, 3:6]) and np.allclose(last.points[2], last.points[1], atol=1e-8)
    assert set(np.unique(last.cell_data["part"][0])) == {0, 1}
