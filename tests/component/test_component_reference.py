"""Re-referencing a component to one of its interfaces (the inner-joint frame of a
recursive flexible body): clamped interface rows, invariants against direct integration
over the mesh, frequencies against a direct Ritz solve, validity and round trip."""
import numpy as np
import pytest
import scipy.linalg as sla

from femdyn import component as fc
from femdyn.elements.solid_body import SolidBody
from femdyn.mesh.generate import box_mesh
from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton


@pytest.fixture(scope="module")
def reduced():
    """An L-free bar with a rigid interface at each end and an averaging one in the middle, off the axis."""
    mesh = box_mesh((0.5, 0.03, 0.02), (10, 2, 1), "tet10", origin=(0.1, -0.01, -0.015))
    body = SolidBody(mesh, 2.1e11, 0.3, 7850.0)
    mid = np.flatnonzero(np.abs(mesh.points[:, 0] - 0.35) < 1e-9)
    red = craig_bampton(body, [Interface("root", mesh.node_sets["x0"]), Interface("tip", mesh.node_sets["x1"]),
                               Interface("mid", mid, "average")], 6, damping_ratio=0.02)
    comp = component_from_reduction(red, output_points=[(0.4, 0.005, 0.0)], gauge_points=[(0.3, 0.0, 0.004)])
    return body, red, comp


@pytest.mark.parametrize("k", [0, 1, 2])
def test_clamped_interface_rows_vanish(reduced, k):
    """Interface k's rows of every mode are zero after re-referencing: 1e-12 × the largest row (round-off of
    a subtraction of O(1) numbers)."""
    _, _, comp = reduced
    ref = fc.reference_to_interface(comp, k)
    scale = np.abs(ref.interface_shapes).max()
    assert np.abs(ref.interface_shapes[k]).max() <= 1e-12 * scale
    assert np.abs(ref.interface_origins[k]).max() == 0.0
    assert ref.header["reference_interface"] == comp.header["interfaces"][k]["name"]


@pytest.mark.parametrize("k", [0, 2])
def test_invariants_match_mesh_integration(reduced, k):
    """Every invariant equals its integral over the re-referenced nodal shapes with the solid's consistent scalar
    mass (modal_invariants' formulas written out here): 1e-10 relative (round-off of sums over ~1000 nodes)."""
    body, _, comp = reduced
    ref = fc.reference_to_interface(comp, k)
    Ms, X, P = body.scalar_mass(), ref.mesh_points, ref.mesh_shapes
    w = np.asarray(Ms.sum(axis=1)).ravel()
    MsP = np.stack([Ms @ P[:, j] for j in range(3)], 1)
    direct = {"mass": w.sum(), "first_moment": X.T @ w, "second_moment": X.T @ (Ms @ X),
              "Ct": np.einsum("n,njk->jk", w, P), "Cx": np.einsum("ni,njk->ijk", X, MsP),
              "Cpp": np.einsum("nik,njl->ijkl", P, MsP)}
    direct["modal_mass"] = np.einsum("aakl->kl", direct["Cpp"])
    m, ell = direct["mass"], 0.5
    scale = {"mass": m, "first_moment": m * ell, "second_moment": m * ell**2, "Ct": m**0.5, "Cx": m**0.5 * ell,
             "Cpp": 1.0, "modal_mass": 1.0}
    for name, value in direct.items():
        assert np.abs(ref.arrays[name] - value).max() <= 1e-10 * scale[name], name
    assert np.allclose(ref.modal_mass, np.eye(ref.n_modes), atol=1e-12)
    # the clamped shapes still have the strain energy ½ ηᵀKη: Φ'ᵀ K_solid Φ' = diag(ω'²)
    Kq = P.reshape(-1, ref.n_modes).T @ (body.stiffness() @ P.reshape(-1, ref.n_modes))
    assert np.abs(Kq - ref.modal_stiffness).max() <= 1e-8 * ref.modal_stiffness.max()


@pytest.mark.parametrize("k", [0, 1])
def test_frequencies_are_the_clamped_ritz_frequencies(reduced, k):
    """The reduced (Craig–Bampton) system with interface k's six frame coordinates held at zero, solved
    directly: same frequencies to 1e-9 relative (two dense eigen-solves of the same pencil)."""
    _, red, comp = reduced
    ref = fc.reference_to_interface(comp, k)
    keep = np.setdiff1d(np.arange(red.K_cb.shape[0]), np.arange(6 * k, 6 * k + 6))
    lam = sla.eigh(red.K_cb[np.ix_(keep, keep)], red.M_cb[np.ix_(keep, keep)], eigvals_only=True)
    f = np.sqrt(lam) / (2 * np.pi)
    assert ref.n_modes == len(f)
    assert np.abs(ref.frequencies - f).max() <= 1e-9 * f.max()


def test_valid_round_trip_and_truncation(reduced, tmp_path):
    """The result passes validation and round-trips to disk; strain modes are transformed by Z only (unchanged
    strains of the same physical modes); keep_modes keeps the lowest ones."""
    _, _, comp = reduced
    ref = fc.reference_to_interface(comp, "tip")
    path = fc.write_component(tmp_path / "tip.fdc", ref)
    back = fc.read_component(path)
    for name, value in ref.arrays.items():
        assert back.arrays[name].tobytes() == value.tobytes()
    three = fc.keep_modes(ref, 3)
    assert three.n_modes == 3 and np.array_equal(three.frequencies, ref.frequencies[:3])
    assert three.Cpp.shape == (3, 3, 3, 3)
    fc.validate(fc.keep_modes(ref, 0))
    with pytest.raises(fc.ComponentShapeError, match="keep_modes"):
        fc.keep_modes(ref, ref.n_modes + 1)
    with pytest.raises(fc.ComponentShapeError, match="no interface named 'elbow'"):
        fc.reference_to_interface(comp, "elbow")
