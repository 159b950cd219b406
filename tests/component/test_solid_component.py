"""Component files: bit-identical round trip, one named error per validation failure,
the CLI (reduce, show) on a Gmsh-meshed link, and the worked example."""
import os
import re
import shutil
import zipfile

import numpy as np
import pytest

from femdyn.cli.main import main
from femdyn import component as fc
from femdyn.elements.solid_body import SolidBody
from femdyn.mesh.generate import box_mesh, rod_mesh
from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton
from support import ROOT

EXAMPLE = os.path.join(ROOT, "examples", "reduce_rrru_link.py")


@pytest.fixture(scope="module")
def component():
    mesh = box_mesh((0.4, 0.02, 0.02), (10, 1, 1), "tet10", origin=(0, -0.01, -0.01))
    body = SolidBody(mesh, 6.9e10, 0.3, 2700.0)
    red = craig_bampton(body, [Interface("a", mesh.node_sets["x0"]), Interface("b", mesh.node_sets["x1"], "average")],
                        8, damping_ratio=0.01)
    return component_from_reduction(red, output_points=[(0.2, 0, 0)], gauge_points=[(0.1, 0, 0.0099)])


def test_round_trip_is_bit_identical(component, tmp_path):
    """write → read → write gives the same bytes; every array read back equals the one
    written bit for bit, the header too."""
    a, b = tmp_path / "a.fdc", tmp_path / "b.fdc"
    fc.write_component(a, component)
    back = fc.read_component(a)
    fc.write_component(b, back)
    assert a.read_bytes() == b.read_bytes()
    assert back.header == component.header
    assert set(back.arrays) == set(component.arrays)
    for name, value in component.arrays.items():
        assert back.arrays[name].dtype == value.dtype and back.arrays[name].tobytes() == value.tobytes()
    assert np.load(a)["frequencies"].tobytes() == component.frequencies.tobytes()   # plain NPZ too


def broken(component, change):
    header = dict(component.header)
    arrays = {k: v.copy() for k, v in component.arrays.items()}
    change(header, arrays)
    return fc.Component(header, arrays)


def _asym(a, name):
    a[name] = a[name].copy()
    a[name][0, 1] += 0.1 * np.abs(a[name]).max()


CASES = [
    ("wrong format", lambda h, a: h.update(format="other"), fc.ComponentVersionError, "expected 'femdyn-component'"),
    ("future version", lambda h, a: h.update(version="2.0"), fc.ComponentVersionError, "not readable"),
    ("missing field", lambda h, a: a.pop("Cpp"), fc.ComponentShapeError, "'Cpp'.*missing"),
    ("wrong shape", lambda h, a: a.update(Ct=a["Ct"][:, :-1]), fc.ComponentShapeError, "'Ct' has shape"),
    ("wrong rank", lambda h, a: a.update(com=a["com"][None]), fc.ComponentShapeError, "'com' has shape"),
    ("wrong dtype", lambda h, a: a.update(frequencies=a["frequencies"].astype(np.float32)), fc.ComponentShapeError,
     "float64"),
    ("NaN", lambda h, a: a["modal_stiffness"].__setitem__((0, 0), np.nan), fc.ComponentValueError, "NaN"),
    ("negative mass", lambda h, a: a.update(mass=np.array(-a["mass"]), first_moment=-a["first_moment"]),
     fc.ComponentValueError, "positive"),
    ("moment vs com", lambda h, a: a.update(com=a["com"] + 1.0), fc.ComponentValueError, "first_moment"),
    ("asymmetric mass", lambda h, a: _asym(a, "modal_mass"), fc.ComponentSymmetryError, "'modal_mass' is not symmetric"),
    ("asymmetric damping", lambda h, a: _asym(a, "modal_damping"), fc.ComponentSymmetryError, "modal_damping"),
    ("indefinite mass", lambda h, a: a["modal_mass"].__setitem__((0, 0), -1.0), fc.ComponentDefinitenessError,
     "'modal_mass' must be positive definite"),
    ("negative stiffness", lambda h, a: a["modal_stiffness"].__setitem__((1, 1), -a["modal_stiffness"].max()),
     fc.ComponentDefinitenessError, "semi-definite"),
    ("bad inertia", lambda h, a: a.update(inertia=-a["inertia"]), fc.ComponentDefinitenessError, "'inertia'"),
    ("bad cells", lambda h, a: a["mesh_tetra"].__setitem__((0, 0), 10 ** 6), fc.ComponentShapeError,
     "outside 'mesh_points'"),
]


@pytest.mark.parametrize("label,change,error,message", CASES, ids=[c[0] for c in CASES])
def test_every_validation_failure_raises_its_named_error(component, tmp_path, label, change, error, message):
    """Each failure is refused on write, and on load of a file that carries it."""
    bad = broken(component, change)
    with pytest.raises(error, match=message):
        fc.write_component(tmp_path / "x.fdc", bad)
    path = tmp_path / "bad.fdc"
    fc.write_component(path, component)
    with zipfile.ZipFile(path, "w") as z:                       # same layout, broken content
        import io
        import json
        z.writestr("header.json", json.dumps(bad.header))
        for name, value in bad.arrays.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.asarray(value), allow_pickle=False)
            z.writestr(f"{name}.npy", buf.getvalue())
    with pytest.raises(error, match=message):
        fc.read_component(path)


def test_unreadable_files_raise_format_errors(tmp_path):
    """Not a ZIP, or a ZIP without header.json: ComponentFormatError."""
    path = tmp_path / "junk.fdc"
    path.write_bytes(b"not a zip")
    with pytest.raises(fc.ComponentFormatError, match="cannot read"):
        fc.read_component(path)
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mass.npy", b"")
    with pytest.raises(fc.ComponentFormatError, match="no header.json"):
        fc.read_component(path)


def test_cli_reduces_a_gmsh_link_and_shows_it(tmp_path, capsys):
    """femdyn reduce on a Gmsh .msh (interfaces by group and by box, one averaging),
    then femdyn show: the file validates, the summary names the frequencies and the size,
    the VTU holds every mode, pictures are rendered (or the test says which package is
    missing)."""
    mesh_path = str(tmp_path / "link.msh")
    rod_mesh(0.815, 0.01, 0.008, order=2, path=mesh_path)
    out = str(tmp_path / "link.fdc")
    code = main(["reduce", mesh_path, "--interface", "elbow=group:end0@0,0,0",
                 "--interface", "hooke=box:0.8149,-1,-1,1,1,1", "--average", "hooke", "--modes", "6",
                 "--gauge", "0.2,0,0.0099", "--point", "0.4075,0,0", "--damping", "0.01", "-o", out, "--quiet"])
    text = capsys.readouterr().out
    assert code == 0 and "frequencies [Hz]" in text and "MB" in text and "hooke (" in text
    c = fc.read_component(out)
    assert c.n_modes == 12 + 6 - 6 and np.allclose(c.interface_origins[0], 0.0)
    assert c.header["interfaces"][1]["coupling"] == "average"
    assert main(["reduce", mesh_path, "--interface", "x=box:5,5,5,6,6,6", "-o", out, "--quiet"]) == 2
    assert "selects no node" in capsys.readouterr().err
    from femdyn.mesh.pictures import RenderError
    try:
        code = main(["show", out, "--modes", "1", "2", "--out", str(tmp_path / "pics")])
    except RenderError as err:
        pytest.skip(f"no off-screen rendering here: {err}")
    assert code == 0
    assert os.path.getsize(tmp_path / "pics" / "mode_01.png") > 1000
    import meshio
    assert len(meshio.read(tmp_path / "pics" / "modes.vtu").point_data) == c.n_modes


def test_example_reduces_the_rrru_link(tmp_path, monkeypatch):
    """The worked example runs (coarse mesh, 8 mm elements): first bending frequency within
    1 % of Euler–Bernoulli free-free (135.5 Hz; shear, rotary inertia and the rigid end
    caps shift it by a few per mille)."""
    import runpy
    monkeypatch.chdir(tmp_path)
    ns = runpy.run_path(EXAMPLE, run_name="example")
    c, f_eb = ns["main"](size=0.008, out=str(tmp_path / "out"), modes=8, pictures=False)
    assert abs(c.frequencies[0] / f_eb - 1) < 0.01
    assert c.gauge_strain_modes.shape == (3, 6, c.n_modes)
    shutil.rmtree(tmp_path / "out")


def test_show_lists_interfaces_quietly_and_draws_a_colour_bar(component, tmp_path):
    """femdyn show as a subprocess: every interface with its name and origin (what
    body.interface(name) takes), no VTK X-server warning or terminal colour codes, and each
    mode picture with a colour bar (a column of many colours at its right)."""
    import subprocess
    import sys
    from matplotlib.image import imread
    path = fc.write_component(str(tmp_path / "bar.fdc"), component)
    done = subprocess.run([sys.executable, "-m", "femdyn", "show", path, "--modes", "1",
                           "--out", str(tmp_path / "pics")], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode == 2 and "cannot render off-screen" in done.stderr:
        pytest.skip(done.stderr.strip())
    assert done.returncode == 0, done.stderr
    assert "interfaces (2; body.interface(name) in a model):" in done.stdout
    assert re.search(r"\n  a +origin \(0, 0, 0\) m  \[rigid, \d+ nodes\]", done.stdout)
    assert re.search(r"\n  b +origin \(0\.4, 0, 0\) m  \[average, \d+ nodes\]", done.stdout)
    assert "\x1b[" not in done.stdout + done.stderr and "X server" not in done.stdout + done.stderr
    image = imread(tmp_path / "pics" / "mode_01.png")[..., :3]
    bar = image[:, int(0.78 * image.shape[1]):int(0.84 * image.shape[1])]
    assert len(np.unique(np.round(bar.reshape(-1, 3), 2), axis=0)) > 40
