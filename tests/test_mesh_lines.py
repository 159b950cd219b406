"""Line meshes read with meshio become ANCF cable chains."""
import meshio
import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.mesh.lines import chains
from femdyn.solvers.static import static_equilibrium

POINTS = np.array([[0, 0, 0], [0.25, 0, 0], [0.5, 0, 0], [0.75, 0, 0], [1.0, 0, 0]], float)


def write(path, fmt):
    order = [2, 0, 4, 1, 3]                                 # shuffled points and cells
    cells = np.array([[1, 3], [3, 0], [4, 2], [0, 4]])
    meshio.write_points_cells(str(path), POINTS[order], [("line", cells)], file_format=fmt)


@pytest.mark.parametrize("name,fmt", [("beam.vtk", "vtk"), ("beam.msh", "gmsh22")])
def test_mesh_gives_the_same_cantilever_as_the_builder(tmp_path, name, fmt):
    """A shuffled line mesh is ordered into one chain; its cantilever deflection equals the
    one of ``straight_beam`` to round-off (same nodes, same elements)."""
    write(tmp_path / name, fmt)
    tips = []
    for source in ("mesh", "builder"):
        m = femdyn.Model(source, gravity=(0, 0, 0))
        args = dict(E=2.1e11, rho=7800, section=sections.circular(0.01))
        if source == "mesh":
            (beam,) = m.beam_from_mesh("b", str(tmp_path / name), **args)
            root, tip = ("b.0", "b.4") if np.allclose(m.nodes["b.0"].initial[:3], 0) else ("b.4", "b.0")
        else:
            beam = m.straight_beam("b", (0, 0, 0), (1, 0, 0), 4, **args)
            root, tip = "b.0", "b.4"
        m.clamp("root", root)
        m.force("load", tip, m.nodes[tip].initial[:3], (0, 0, -5.0))
        q, _ = static_equilibrium(m.assemble())
        tips.append(q[m.nodes[tip].start + 2])
    assert beam.count == 4 and np.isclose(tips[0], tips[1], rtol=1e-10)


def test_branched_mesh_is_refused():
    with pytest.raises(femdyn.ModelError, match="join more than two lines"):
        chains(np.array([[0, 1], [1, 2], [1, 3]]))


def test_mesh_without_lines(tmp_path):
    meshio.write_points_cells(str(tmp_path / "tri.vtk"), POINTS[:3], [("triangle", np.array([[0, 1, 2]]))])
    with pytest.raises(femdyn.ModelError, match="no 2-node 'line' cells"):
        femdyn.Model().beam_from_mesh("b", str(tmp_path / "tri.vtk"), E=1e9, rho=1e3,
                                      section=sections.circular(0.01))
