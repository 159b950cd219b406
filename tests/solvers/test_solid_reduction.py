"""Craig–Bampton reduction: reduced frequencies against the full model, exact static
response to interface loads (the Guyan part) and to requested point loads, invariants
equal to the full mesh's, averaging interfaces, damping, and input errors."""
import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.linalg as spla

from femdyn.elements.solid_body import SolidBody
from femdyn.errors import ModelError
from femdyn.mesh.generate import box_mesh
from femdyn.solvers.eigen import constraint_basis, sparse_eigenmodes
from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton, interface_constraints

L, B = 0.4, 0.02


@pytest.fixture(scope="module")
def body():
    return SolidBody(box_mesh((L, B, B), (20, 2, 2), "tet10", origin=(0, -B / 2, -B / 2)), 2.1e11, 0.3, 7800.0)


def ends(body, coupling="rigid"):
    return [Interface("x0", body.mesh.node_sets["x0"], coupling), Interface("x1", body.mesh.node_sets["x1"], coupling)]


def full_model(body, interfaces):
    """Full [u; ξ] stiffness and mass reduced to the coupling constraints' null space."""
    n, nb = body.ndof, 6 * len(interfaces)
    G = interface_constraints(body, interfaces)
    T, independent = constraint_basis(G, n + nb, keep=np.arange(n, n + nb))
    K = T.T @ sp.block_diag([body.stiffness(), sp.csr_matrix((nb, nb))]) @ T
    M = T.T @ sp.block_diag([body.mass(), sp.csr_matrix((nb, nb))]) @ T
    return K.tocsc(), M.tocsc(), T, independent


@pytest.mark.parametrize("coupling", ["rigid", "average"])
def test_reduced_frequencies_match_the_full_model(body, coupling):
    """The free-free component keeps the 6 rigid modes out and its elastic frequencies never
    fall below the full constrained model's (Rayleigh–Ritz). With 20 fixed-interface modes
    the first bending pair is within 1e-4 (measured 5.7e-5) and the first 8 within 4e-3
    (measured ≤ 3.5e-3); with 40 modes every one of the 8 errors shrinks at least 5-fold
    (measured 6–8-fold)."""
    K, M, _, _ = full_model(body, ends(body, coupling))
    full = sparse_eigenmodes(K, M, 14, rigid=6).omega[6:8 + 6]
    errors = []
    for modes in (20, 40):
        red = craig_bampton(body, ends(body, coupling), modes)
        assert red.n_rigid == 6
        assert np.all(red.omega[:8] >= full * (1 - 1e-10))
        errors.append(red.omega[:8] / full - 1)
    assert np.all(errors[0][:2] < 1e-4) and np.all(errors[0] < 4e-3)
    assert np.all(errors[1] < errors[0] / 5)


def test_averaging_coupling_is_softer_than_rigid(body):
    """An averaging (RBE3-like) coupling adds no stiffness: its full-model frequencies are
    below the rigid (RBE2-like) coupling's; the frame of a rigid motion is that motion."""
    w_rigid = sparse_eigenmodes(*full_model(body, ends(body))[:2], 10, rigid=6).omega[6:]
    w_avg = sparse_eigenmodes(*full_model(body, ends(body, "average"))[:2], 10, rigid=6).omega[6:]
    assert np.all(w_avg < w_rigid)
    itf = ends(body, "average")
    G = interface_constraints(body, itf)
    xi = np.array([1e-3, -2e-3, 5e-4, 0.01, -0.02, 0.03])
    frames = np.concatenate([np.r_[xi[:3] + np.cross(xi[3:], i.origin), xi[3:]] for i in itf])   # ξ at each origin
    x = np.concatenate([body.rigid_modes() @ xi, frames])
    assert np.abs(G @ x).max() < 1e-14


def test_static_response_to_interface_loads_is_exact(body):
    """Frame x0 clamped, a wrench on frame x1: the reduced model reproduces the full static
    displacement field at every node to 1e-9 relative (the constraint modes are the exact
    static solutions for interface loads)."""
    itf = ends(body)
    red = craig_bampton(body, itf, 6)
    K, M, T, independent = full_model(body, itf)
    n = body.ndof
    b = np.searchsorted(independent, np.arange(n, n + 12))
    wrench = np.array([50.0, -80.0, 120.0, 3.0, -2.0, 1.5])
    f = np.zeros(K.shape[0])
    f[b[6:]] = wrench
    keep = np.setdiff1d(np.arange(K.shape[0]), b[:6])
    y = np.zeros(K.shape[0])
    y[keep] = spla.spsolve(K[keep][:, keep], f[keep])
    u_full = (T @ y)[:n]
    q_keep = np.arange(6, red.K_cb.shape[0])
    q = np.zeros(red.K_cb.shape[0])
    fr = np.zeros_like(q)
    fr[6:12] = wrench
    q[q_keep] = np.linalg.solve(red.K_cb[np.ix_(q_keep, q_keep)], fr[q_keep])
    u_red = red.basis[:n] @ q
    assert np.abs(u_red - u_full).max() < 1e-9 * np.abs(u_full).max()


def test_static_modes_make_point_loads_exact(body):
    """A static mode for a point force at mid-span: with x0 clamped, the reduced response to
    that force equals the full one to 1e-9 relative; without the static mode it does not
    (error > 1e-4)."""
    point, direction = (L / 2, 0.0, B / 2), (0.0, 0.0, -1.0)
    node = np.argmin(np.linalg.norm(body.mesh.points - point, axis=1))
    itf = [Interface("x0", body.mesh.node_sets["x0"])]
    K, _, T, independent = full_model(body, itf)
    n = body.ndof
    b = np.searchsorted(independent, np.arange(n, n + 6))
    keep = np.setdiff1d(np.arange(K.shape[0]), b)
    f = T.T @ np.r_[np.eye(n)[3 * node + 2] * -100.0, np.zeros(6)]
    y = np.zeros(K.shape[0])
    y[keep] = spla.spsolve(K[keep][:, keep], f[keep])
    u_full = (T @ y)[:n]
    errors = []
    for loads in ([(point, direction)], None):
        red = craig_bampton(body, itf, 4, static_loads=loads)
        fr = red.basis[:n].T @ (np.eye(n)[3 * node + 2] * -100.0)
        q = np.zeros(red.K_cb.shape[0])
        q[6:] = np.linalg.solve(red.K_cb[6:, 6:], fr[6:])
        errors.append(np.abs(red.basis[:n] @ q - u_full).max() / np.abs(u_full).max())
    assert errors[0] < 1e-9 and errors[1] > 1e-4


def test_invariants_equal_the_full_mesh(body):
    """The reduced model's rigid-body mass matrix (mass, first moment, inertia) equals the
    full mesh's RᵀMR to 1e-10 relative (the constraint modes come from a solve with
    K_ii of condition ≈ 1e8: round-off, not approximation); the stored modes are M-orthogonal to rigid motions
    (Ct, Cr ≈ 0 to 1e-10 of their scale: mean axes), Σ_i Cpp[i,i] is the identity and
    Φᵀ M Φ from the full sparse mass equals it (1e-10)."""
    itf = ends(body)
    red = craig_bampton(body, itf, 10)
    R = body.rigid_modes()
    full = R.T @ (body.mass() @ R)
    Q = np.zeros((red.K_cb.shape[0], 6))
    for k, i in enumerate(itf):                                  # frame motion of the rigid motion θ about 0
        S = np.eye(6)
        S[:3, 3:] = -np.array([[0, -i.origin[2], i.origin[1]], [i.origin[2], 0, -i.origin[0]],
                               [-i.origin[1], i.origin[0], 0]])
        Q[6 * k:6 * k + 6] = S
    assert np.abs(red.basis[:body.ndof] @ Q - R).max() < 1e-10 * np.abs(R).max()
    assert np.allclose(Q.T @ red.M_cb @ Q, full, rtol=0, atol=1e-10 * np.abs(full).max())
    c = component_from_reduction(red, mesh_shapes=False)
    m = float(c.mass)
    assert np.isclose(m, full[0, 0], rtol=1e-12)
    assert np.abs(c.Ct).max() < 1e-10 * m * np.abs(red.shapes).max()
    assert np.abs(c.Cr).max() < 1e-10 * m * L * np.abs(red.shapes).max()
    q = red.shapes.shape[1]
    assert np.allclose(np.einsum("iikl->kl", c.Cpp), np.eye(q), atol=1e-10)
    assert np.allclose(red.shapes.T @ (body.mass() @ red.shapes), np.eye(q), atol=1e-10)
    assert np.allclose(c.modal_damping, 0.0)


def test_modal_damping_and_interface_rows(body):
    """D = diag(2ζω); a frame's rows are the frame motion of each mode (translation of the
    frame origin equals the rigid fit of its nodes for a rigid coupling)."""
    red = craig_bampton(body, ends(body), 8, damping_ratio=0.02)
    assert np.allclose(red.modal_damping, np.diag(0.04 * red.omega))
    rows = red.frame_rows()
    nodes = red.interfaces[1].nodes
    u = red.shapes.reshape(-1, 3, red.shapes.shape[1])[nodes]          # (s, 3, q)
    r = body.mesh.points[nodes] - red.interfaces[1].origin
    predicted = rows[1, None, :3] + np.cross(rows[1, None, 3:].transpose(0, 2, 1), r[:, None, :]).transpose(0, 2, 1)
    assert np.abs(u - predicted).max() < 1e-10 * np.abs(u).max()


def test_bad_interfaces_are_refused(body):
    """Empty, overlapping, unknown coupling, repeated names, none at all; an averaging or a
    rigid interface on one node (its frame's rotation would be free: before this check, a
    singular mass matrix in the eigen-solver beside a holding interface)."""
    nodes = body.mesh.node_sets["x0"]
    cases = [([Interface("a", [])], ModelError, "empty node set"),
             ([Interface("a", nodes), Interface("b", nodes[:3])], ModelError, "share node"),
             ([Interface("a", nodes, "glued")], ModelError, "coupling 'glued' unknown"),
             ([Interface("a", nodes), Interface("a", body.mesh.node_sets["x1"])], ModelError, "repeat"),
             ([], ModelError, "at least one interface"),
             ([Interface("a", nodes[:1], "average")], ModelError, "at least 3 nodes"),
             ([Interface("a", nodes[:1])], ModelError, "rigid coupling of 1 node leaves the frame's rotation free"),
             ([Interface("a", nodes[:1]), Interface("b", body.mesh.node_sets["x1"])], ModelError,
              "interface 'a': a rigid coupling of 1 node")]
    for interfaces, error, message in cases:
        with pytest.raises(error, match=message):
            craig_bampton(body, interfaces, 4)
