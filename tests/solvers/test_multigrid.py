"""The parts of the factor-free solid eigensolver: the compiled interior products against scipy, the
Chebyshev step against its formula, the two-level and balancing preconditioners (symmetric, positive,
convergent), LOBPCG and deflated PCG against direct solutions.

Slow-marked: the parallel numba loops take ~30 s to compile on a cold cache (float64 and float32)."""
import numpy as np
import pytest
import scipy.linalg as sla
from sksparse.cholmod import cholesky

from femdyn.elements.solid_body import SolidBody
from femdyn.mesh.generate import box_mesh
from femdyn.solvers import multigrid_compiled as mc
from femdyn.solvers.multigrid import (CoarseSpace, Deflated, FactorFreeInterior, InteriorOperators, TwoLevel,
                                      block_pcg, lobpcg_modes)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def bar():
    """A Tet10 bar (0.4 × 0.04 × 0.03 m, 12 × 2 × 2 cells) held at x = 0, renumbered: body, free nodes, K_ii, M_ii."""
    mesh, _ = box_mesh((0.4, 0.04, 0.03), (12, 2, 2), element="tet10").renumbered()
    body = SolidBody(mesh, 2.1e11, 0.3, 7800.0)
    free = np.ones(mesh.n_nodes, bool)
    free[mesh.node_set("x0")] = False
    dofs = np.flatnonzero(np.repeat(free, 3))
    K, M = body.stiffness(), body.mass()
    return body, free, dofs, K[dofs][:, dofs].tocsc(), M[dofs][:, dofs].tocsc()


def interior_block(dofs, n, m, seed=0):
    """A random (n, m) block with rows outside ``dofs`` zero."""
    X = np.zeros((n, m))
    X[dofs] = np.random.default_rng(seed).standard_normal((len(dofs), m))
    return X


@pytest.mark.parametrize("dtype, tol", [(np.float64, 1e-13), (np.float32, 2e-6)])
def test_interior_products_equal_scipy(bar, dtype, tol):
    """K_ii X, M_ii X and B − K_ii X on full-length blocks equal scipy's products of the sliced matrices to
    round-off of the precision (sums of ~80 terms: 1e-13 in float64, 2e-6 in float32); held rows stay zero."""
    body, free, dofs, Kii, Mii = bar
    ops = InteriorOperators(body, free)
    X = interior_block(dofs, body.ndof, 5).astype(dtype)
    B = interior_block(dofs, body.ndof, 5, seed=1).astype(dtype)
    held = np.setdiff1d(np.arange(body.ndof), dofs)
    ref = Kii @ X[dofs].astype(float)
    Y = np.empty_like(X)
    mc.stiffness_product(ops.indptr, ops.indices, ops.kdata.astype(dtype), ops.free, X, Y)
    assert np.abs(Y[dofs] - ref).max() <= tol * np.abs(ref).max() and not Y[held].any()
    mc.residual(ops.indptr, ops.indices, ops.kdata.astype(dtype), ops.free, B, X, Y)
    assert np.abs(Y[dofs] - (B[dofs] - ref)).max() <= tol * np.abs(ref).max() and not Y[held].any()
    if dtype == np.float64:
        assert np.abs(ops.mass(X)[dofs] - Mii @ X[dofs]).max() <= tol * np.abs(Mii @ X[dofs]).max()


def test_chebyshev_step_and_block_jacobi_follow_their_formulas(bar):
    """The fused step equals X + D, R − K D, c₁ D + c₂ D⁻¹(R − K D) evaluated by scipy, and the block-Jacobi
    inverses invert K's 3×3 diagonal node blocks (1e-12)."""
    body, free, dofs, Kii, _ = bar
    ops = InteriorOperators(body, free)
    dinv = mc.block_jacobi(ops.indptr, ops.indices, ops.kdata, ops.free)
    K = body.stiffness()
    a = np.flatnonzero(free)[3]
    block = K[3 * a:3 * a + 3][:, 3 * a:3 * a + 3].toarray()
    assert np.allclose(dinv[a] @ block, np.eye(3), atol=1e-12)
    D, R, X = (interior_block(dofs, body.ndof, 4, seed=s) for s in (2, 3, 4))
    D_next = np.empty_like(D)
    R_ref, X_ref = R[dofs] - Kii @ D[dofs], X[dofs] + D[dofs]
    Dblock = sla.block_diag(*dinv[free])
    D_ref = 0.3 * D[dofs] + 0.7 * Dblock @ R_ref
    mc.chebyshev_step(ops.indptr, ops.indices, ops.kdata, ops.free, dinv, D, R, X, D_next, 0.3, 0.7)
    scale = np.abs(R_ref).max()
    assert np.abs(R[dofs] - R_ref).max() <= 1e-12 * scale and np.allclose(X[dofs], X_ref, atol=1e-14)
    assert np.abs(D_next[dofs] - D_ref).max() <= 1e-12 * np.abs(D_ref).max()


def test_two_level_preconditioner_is_symmetric_positive_and_contracts(bar):
    """B (float32 smoothing) is symmetric to float32 round-off (yᵀBx = xᵀBy to 1e-5), positive, and the
    eigenvalues of BK_ii lie in (0, 1.1]: the smoothed two-level error propagation I − BK is a contraction
    (measured: 0.12–1.0 on this bar)."""
    body, free, dofs, Kii, _ = bar
    ops = InteriorOperators(body, free)
    B = TwoLevel(ops, CoarseSpace(body, free))
    X = interior_block(dofs, body.ndof, 2, seed=5)
    BX = B(X)
    assert abs(X[:, 1] @ BX[:, 0] - X[:, 0] @ BX[:, 1]) <= 1e-5 * np.sqrt((X[:, 0] @ BX[:, 0]) * (X[:, 1] @ BX[:, 1]))
    Kd = Kii.toarray()
    Bd = B(InteriorOperators.full(ops, dofs, np.eye(len(dofs))))[dofs]
    Bd = 0.5 * (Bd + Bd.T)
    mu = sla.eigh(Kd @ Bd @ Kd, Kd, eigvals_only=True)                  # B K v = μ v
    assert mu.min() > 0 and mu.max() <= 1.1


def test_lobpcg_and_deflated_pcg_against_direct(bar):
    """LOBPCG from the coarse modes gives the 6 lowest fixed-interface eigenvalues of the held bar to 1e-9
    relative (stop at an estimate of 1e-10), M-orthonormal; the balancing-deflated PCG solves K_ii x = b to its
    1e-10 residual in fewer iterations than plain PCG, and both match CHOLMOD to 1e-8."""
    body, free, dofs, Kii, Mii = bar
    interior = FactorFreeInterior(body, free)
    lam, Phi = interior.modes(6, rtol=1e-10)
    exact = sla.eigh(Kii.toarray(), Mii.toarray(), subset_by_index=(0, 5), eigvals_only=True)
    assert np.allclose(lam, exact, rtol=1e-9, atol=0)
    assert np.allclose(Phi.T @ (Mii @ Phi), np.eye(6), atol=1e-10)
    ops = interior.ops
    B = ops.full(dofs, np.random.default_rng(6).standard_normal((len(dofs), 3)))
    plain, plain_stats = block_pcg(ops.stiffness, B, interior.precondition)
    deflated = Deflated(interior.precondition, interior.ritz)
    X, stats = block_pcg(ops.stiffness, B, deflated, deflated.start(B))
    direct = cholesky(Kii)(B[dofs])
    for sol in (plain, X):
        assert np.abs(sol[dofs] - direct).max() <= 1e-8 * np.abs(direct).max()
    assert stats.iterations < plain_stats.iterations


def test_lobpcg_refuses_when_it_cannot_converge(bar):
    """An identity 'preconditioner' and 2 iterations cannot reach 1e-9: SolverError naming the fix."""
    from femdyn.errors import SolverError
    body, free, dofs, _, _ = bar
    ops = InteriorOperators(body, free)
    X = interior_block(dofs, body.ndof, 8, seed=7)
    with pytest.raises(SolverError, match="shift-invert"):
        lobpcg_modes(ops.stiffness, ops.mass, X, 4, lambda R: R, rtol=1e-9, maxiter=2)
