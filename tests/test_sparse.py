"""The compiled sparse kernels of the Newton iterations against scipy.

``femdyn.sparse.product`` (CSR and CSC mat-vec into a preallocated array), the in-place
pattern assembly (``Pattern.data(values, out)``, ``Pattern.add``) and the saddle matrix
the KKT solver assembles piece by piece, each against scipy's own sum of the same
COO triplets. Tolerance: 1e-13 relative to Σ|a_ij x_j| (the kernels add the same
products in a different order: a few ulps per entry), exact where no sum is reordered.
"""
import numpy as np
import pytest
import scipy.sparse as sp

from femdyn.solvers.blocks import SaddlePattern, TangentValues
from femdyn.sparse import Pattern, product
from support.models import flexible_four_bar, zoo


def _random_matrix(rng, shape, density, fmt):
    """Random sparse matrix with some empty rows and columns (every third zeroed)."""
    A = sp.random(*shape, density=density, random_state=rng, format="lil")
    A[::3, :] = 0.0
    A[:, 1::3] = 0.0
    return A.asformat(fmt)


def _bound(A, x):
    return 1e-13 * (abs(A) @ np.abs(x) + 1e-300)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("shape, density", [((40, 40), 0.1), ((25, 60), 0.2), ((60, 7), 0.3), ((5, 5), 0.0)])
def test_product_matches_scipy(fmt, shape, density):
    rng = np.random.default_rng(11)
    A = _random_matrix(rng, shape, density, fmt)
    x = rng.standard_normal(shape[1])
    out = np.full(shape[0], np.nan)              # stale contents must be overwritten
    y = product(A, x, out)
    assert y is out
    assert np.all(np.abs(y - A @ x) <= _bound(A, x))
    assert np.all(y[np.diff(A.tocsr().indptr) == 0] == 0.0)     # empty rows give exact zeros


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_product_sums_duplicates_and_unsorted_indices(fmt):
    """A compressed matrix straight from arrays with a repeated entry and unsorted indices
    (what scipy accepts without canonicalizing)."""
    indptr = np.array([0, 3, 3, 5])
    indices = np.array([2, 0, 2, 1, 0])
    data = np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    cls = sp.csr_matrix if fmt == "csr" else sp.csc_matrix
    A = cls((data, indices, indptr), shape=(3, 3))
    x = np.array([0.5, -2.0, 3.0])
    dense = np.zeros((3, 3))
    for major in range(3):
        for k in range(indptr[major], indptr[major + 1]):
            i, j = (major, indices[k]) if fmt == "csr" else (indices[k], major)
            dense[i, j] += data[k]
    assert np.allclose(product(A, x), dense @ x, rtol=1e-15, atol=0.0)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_pattern_data_in_place(fmt):
    rng = np.random.default_rng(5)
    rows, cols = rng.integers(0, 9, 50), rng.integers(0, 7, 50)     # many duplicate positions
    pattern = Pattern(rows, cols, (9, 7), fmt)
    values = rng.standard_normal(50)
    out = np.full(pattern.nnz, 7.0)
    assert pattern.data(values, out) is out
    assert np.allclose(out, pattern.data(values), rtol=1e-14, atol=1e-15)
    expected = sp.coo_matrix((values, (rows, cols)), shape=(9, 7)).toarray()
    assert np.allclose(pattern.matrix(values).toarray(), expected, rtol=1e-14, atol=1e-15)
    more = rng.standard_normal(10)
    pattern.add(more, out, start=20, weight=-2.5)        # entries 20…29 of the pattern, weighted
    added = np.zeros(50)
    added[20:30] = -2.5 * more
    assert np.allclose(out, pattern.data(values + added), rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("model", [zoo, flexible_four_bar])
def test_saddle_assembly_matches_scipy(model):
    """S = [[w_M M + w_C C + w_K (K + ∂(Ma)/∂q + H), Φ_qᵀ], [Φ_q, 0]] + diag, assembled in the
    pattern's own array, against scipy's COO sum of the same pieces; a second assembly with
    other values overwrites the first completely."""
    s = model().assemble()
    saddle = SaddlePattern(s)
    rng = np.random.default_rng(2)
    n, m = s.n, s.m
    p = s.patterns
    block = [p.mass, p.damping, p.stiffness, p.mass_derivative, p.hessian]

    def values(weights):
        pieces = {name: rng.standard_normal(len(getattr(p, name)))
                  for name in ("mass", "jacobian", "damping", "stiffness", "mass_derivative", "hessian")}
        return TangentValues(**pieces, weights=weights, diagonal=rng.standard_normal(n))

    def reference(v):
        w_m, w_c, w_k = v.weights
        rows = [x.rows for x in block] + [p.jacobian.rows + n, p.jacobian.cols, np.arange(n)]
        cols = [x.cols for x in block] + [p.jacobian.cols, p.jacobian.rows + n, np.arange(n)]
        vals = [w_m * v.mass, w_c * v.damping, w_k * v.stiffness, w_k * v.mass_derivative, w_k * v.hessian,
                v.jacobian, v.jacobian, v.diagonal]
        return sp.coo_matrix((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                             shape=(n + m, n + m)).toarray()

    first = values((0.7, 0.2, 1e-3))
    S1 = saddle.matrix(first).toarray()
    assert np.allclose(S1, reference(first), rtol=1e-14, atol=1e-14)
    second = values((1.0, 0.0, 2.0))
    S2 = saddle.matrix(second)
    assert np.allclose(S2.toarray(), reference(second), rtol=1e-14, atol=1e-14)
