"""Large-mesh paths of the solid pipeline: the compiled assembly against the reference element
matrices, and the eigensolver choice of a Craig–Bampton reduction (by size, overridable, shown)."""
import numpy as np
import pytest
import scipy.sparse as sp

from femdyn.elements import solid
from femdyn.elements.solid_body import SolidBody
from femdyn.errors import SolverError
from femdyn.mesh.generate import box_mesh
from femdyn.mesh.solid import SolidMesh
from femdyn.solvers.eigen import DENSE_LIMIT, MULTIGRID_LIMIT, choose_eigensolver, sparse_eigenmodes
from femdyn.solvers.reduction import Interface, craig_bampton


def reference_matrices(body):
    """K and M_s summed from the reference (numpy) element matrices with a COO scatter."""
    mesh, n = body.mesh, body.mesh.n_nodes
    K, Ms = sp.csr_matrix((3 * n, 3 * n)), sp.csr_matrix((n, n))
    for etype, conn in mesh.blocks:
        X = mesh.points[conn]
        Ke = solid.stiffness_matrices(etype, X, body.E, body.nu)
        Me = solid.scalar_mass_matrices(etype, X, body.rho)
        d = (3 * conn[:, :, None] + np.arange(3)).reshape(len(conn), -1)
        w = d.shape[1]
        K = K + sp.csr_matrix((Ke.ravel(), (np.repeat(d, w, 1).ravel(), np.tile(d, (1, w)).ravel())), shape=K.shape)
        m = conn.shape[1]
        Ms = Ms + sp.csr_matrix((Me.ravel(), (np.repeat(conn, m, 1).ravel(), np.tile(conn, (1, m)).ravel())),
                                shape=Ms.shape)
    return K, Ms


@pytest.mark.parametrize("element", ["tet4", "tet10", "hex8"])
def test_compiled_assembly_equals_reference(element):
    """Distorted box meshes (random node shifts up to 5 % of the smallest h): K, M_s and M = M_s ⊗ I₃ equal the
    reference sums to 1e-13 relative (round-off of differently ordered sums of ~100 terms), the mass also when it
    is assembled alone first."""
    mesh = box_mesh((0.3, 0.1, 0.06), (3, 2, 2), element=element)
    shift = np.random.default_rng(1).uniform(-0.0015, 0.0015, mesh.points.shape)
    mesh = SolidMesh(mesh.points + shift, mesh.blocks, mesh.node_sets)
    body = SolidBody(mesh, 2.1e11, 0.3, 7800.0)
    K, Ms = reference_matrices(body)
    mass_first = SolidBody(mesh, 2.1e11, 0.3, 7800.0)                 # the mass alone: no stiffness quadrature
    assert abs(mass_first.scalar_mass() - Ms).max() <= 1e-13 * abs(Ms).max() and mass_first._K is None
    assert abs(mass_first.stiffness() - K).max() <= 1e-13 * abs(K).max()
    assert abs(body.stiffness() - K).max() <= 1e-13 * abs(K).max()
    assert abs(body.scalar_mass() - Ms).max() <= 1e-13 * abs(Ms).max()
    assert abs(body.mass() - sp.kron(Ms, sp.identity(3))).max() <= 1e-13 * abs(Ms).max()


def test_compiled_assembly_of_mixed_blocks():
    """Two blocks (Tet4 and Hex8 sharing no nodes) assemble as the sum of their reference matrices."""
    a, b = box_mesh((0.2, 0.1, 0.1), (2, 1, 1), "tet4"), box_mesh((0.2, 0.1, 0.1), (2, 1, 1), "hex8", (0.5, 0, 0))
    (ta, ca), (tb, cb) = a.blocks[0], b.blocks[0]
    mesh = SolidMesh(np.vstack([a.points, b.points]), [(ta, ca), (tb, cb + a.n_nodes)], check=False)
    body = SolidBody(mesh, 2.1e11, 0.3, 7800.0)
    K, Ms = reference_matrices(body)
    assert abs(body.stiffness() - K).max() <= 1e-13 * abs(K).max()
    assert abs(body.scalar_mass() - Ms).max() <= 1e-13 * abs(Ms).max()


def mac(a, b):
    """Modal assurance criterion of two mode shapes."""
    return (a @ b) ** 2 / ((a @ a) * (b @ b))


def test_eigensolver_by_size_and_override():
    """A clamped Tet10 bar (1233 dof > DENSE_LIMIT): 'shift-invert' is chosen; forced 'dense' (exact
    eigh) gives the same 8 frequencies to 1e-8 relative (ARPACK at machine precision, eigh exact: 1e-6
    is asked) and mode shapes with MAC ≥ 0.9999 (the clamped bar's modes are separated)."""
    mesh = box_mesh((0.4, 0.04, 0.03), (8, 2, 1), element="tet10")
    body = SolidBody(mesh, 2.1e11, 0.3, 7800.0)
    clamp = np.concatenate([3 * mesh.node_set("x0")[:, None] + np.arange(3)]).ravel()
    assert mesh.ndof - len(clamp) > DENSE_LIMIT
    K, M = body.stiffness(), body.mass()
    auto = sparse_eigenmodes(K, M, 8, fixed=clamp)
    dense = sparse_eigenmodes(K, M, 8, fixed=clamp, method="dense")
    assert (auto.method, dense.method) == ("shift-invert", "dense")
    assert np.allclose(auto.frequencies, dense.frequencies, rtol=1e-8, atol=0)
    assert min(mac(auto.modes[:, k], dense.modes[:, k]) for k in range(8)) >= 0.9999
    assert choose_eigensolver(DENSE_LIMIT) == "dense"
    with pytest.raises(SolverError, match="eigensolver 'arnoldi' unknown"):
        choose_eigensolver(10, "arnoldi")


def test_craig_bampton_shows_and_records_its_eigensolver():
    """The progress callback names the eigensolver and the Reduction records it; forcing 'dense' on
    the same bar keeps the fixed-interface frequencies to 1e-8 relative."""
    mesh = box_mesh((0.4, 0.04, 0.03), (8, 2, 1), element="tet10")
    body = SolidBody(mesh, 2.1e11, 0.3, 7800.0)
    interfaces = lambda: [Interface("a", mesh.node_set("x0")), Interface("b", mesh.node_set("x1"))]
    stages = []
    red = craig_bampton(body, interfaces(), 6, progress=stages.append)
    forced = craig_bampton(body, interfaces(), 6, eigensolver="dense")
    assert "normal modes: shift-invert" in stages and red.eigensolver == "shift-invert"
    assert forced.eigensolver == "dense"
    assert np.allclose(red.omega_fixed, forced.omega_fixed, rtol=1e-8, atol=0)


@pytest.mark.slow   # ~15–20 s with a cold compile cache; the slow suite runs it in CI
def test_p_multigrid_against_shift_invert():
    """A Tet10 bar of ~11k dof between two rigid faces, forced 'p-multigrid' (no fine-level factor, run on the
    Morton-renumbered copy and mapped back) against 'shift-invert' (CHOLMOD + Lanczos): the 10 fixed-interface
    frequencies to 1e-6 relative (the issue's accuracy; LOBPCG stops at an estimated eigenvalue error of 1e-9,
    measured 1e-10), the fixed-interface modes by MAC ≥ 0.9999 in the body's own numbering (separated modes;
    the bar's cross-section 4:3 splits the bending pairs), and the free-free reduced frequencies to 1e-6
    (measured 8e-7: Ritz values of a subspace whose Φ columns carry first-order errors; constraint modes by
    deflated PCG to 1e-9 residual); 'p-multigrid' is chosen from MULTIGRID_LIMIT."""
    mesh = box_mesh((0.4, 0.04, 0.03), (24, 4, 3), element="tet10")
    body = SolidBody(mesh, 2.1e11, 0.3, 7800.0)
    interfaces = lambda: [Interface("a", mesh.node_set("x0")), Interface("b", mesh.node_set("x1"))]
    stages = []
    pmg = craig_bampton(body, interfaces(), 10, eigensolver="p-multigrid", progress=stages.append)
    ref = craig_bampton(body, interfaces(), 10, eigensolver="shift-invert")
    assert "normal modes: p-multigrid" in stages and pmg.eigensolver == "p-multigrid"
    assert np.allclose(pmg.omega_fixed, ref.omega_fixed, rtol=1e-6, atol=0)
    assert np.allclose(pmg.omega, ref.omega, rtol=1e-6, atol=0)
    n = mesh.ndof
    free = np.abs(ref.basis[:n, 12:]).sum(1) > 0
    assert min(mac(pmg.basis[:n, 12 + k][free], ref.basis[:n, 12 + k][free]) for k in range(10)) >= 0.9999
    assert choose_eigensolver(MULTIGRID_LIMIT, multigrid=True) == "p-multigrid"
    assert choose_eigensolver(MULTIGRID_LIMIT - 1, factorization=True, multigrid=True) == "shift-invert"
    with pytest.raises(SolverError, match="only in a Craig–Bampton"):
        choose_eigensolver(10, "p-multigrid")


def test_fixed_interface_frequencies_are_never_called_rigid():
    """A held interior whose lowest eigenvalue is below 1e-8 of the mean stiffness-to-mass ratio (as on a fine,
    slender Tet10 rod: at 273k dof the first two bending modes were reported as 0 rad/s): shift-invert reports it
    (K_ii is factored as definite, so it has no zero modes), to 1e-10 relative."""
    n = 600
    lam = np.r_[1e-3, np.linspace(1e6, 2e6, n - 1)]
    K = sp.diags(np.r_[lam, 1.0]).tolil()
    K[0, n] = K[n, 0] = 1e-5
    K = K.tocsc()
    K[n, n] = 1.0
    from femdyn.solvers.reduction import craig_bampton_matrices
    r = craig_bampton_matrices(K, sp.identity(n + 1, format="csc"), [n], 3, eigensolver="shift-invert")
    assert np.allclose(r.omega_fixed, np.sqrt(lam[:3]), rtol=1e-10, atol=0)
