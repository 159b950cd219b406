"""Repeated assembly of sparse matrices with a fixed pattern, and their products.

Element and constraint contributions come as COO triplets whose (row, col) positions
never change during a run; only the values do. :class:`Pattern` sorts the positions once
and afterwards sums new values into the compressed data array with one ``bincount`` (or
into a preallocated array, :meth:`Pattern.data`), so no index sorting or duplicate
merging happens per Newton iteration.

:func:`product` multiplies a compressed matrix (CSR or CSC, given by its arrays) by a
vector in one compiled call writing into a preallocated array: the Newton iterations
make a handful of such products per iteration on small matrices, where scipy's ``@``
spends ~10 µs in operator dispatch and type checks for a product of a few hundred
entries.
"""
import numpy as np
import scipy.sparse as sp
from numba import njit

__all__ = ["Pattern", "coo_block", "product"]


class Pattern:
    """Fixed sparsity pattern of a matrix assembled from COO triplets.

    Parameters
    ----------
    rows, cols : (k,) array_like of int
        Row and column of each COO entry (repeated positions are summed).
    shape : (int, int)
        Shape of the matrix.
    fmt : {"csr", "csc"}, optional
        Compressed format of the matrices built (default CSR).

    Examples
    --------
    >>> p = Pattern([0, 1, 1], [0, 1, 1], (2, 2))
    >>> p.nnz, p.matrix(np.array([1.0, 2.0, 3.0])).toarray().tolist()
    (2, [[1.0, 0.0], [0.0, 5.0]])
    """

    def __init__(self, rows, cols, shape, fmt="csr"):
        rows = np.asarray(rows, np.int64)
        cols = np.asarray(cols, np.int64)
        self.shape, self.fmt = shape, fmt
        major, minor, n_minor = (rows, cols, shape[1]) if fmt == "csr" else (cols, rows, shape[0])
        key = major * n_minor + minor
        unique, self.index = np.unique(key, return_inverse=True)
        self.nnz = unique.size
        self.indices = (unique % n_minor).astype(np.int32)
        n_major = shape[0] if fmt == "csr" else shape[1]
        self.indptr = np.concatenate([[0], np.cumsum(np.bincount(unique // n_minor, minlength=n_major))]).astype(np.int32)

    def data(self, values, out=None):
        """The compressed data array (nnz,) for new COO values (duplicates summed).

        Parameters
        ----------
        values : (k,) array_like
            One value per COO entry of the pattern, in its order.
        out : (nnz,) ndarray, optional
            Array to write into (overwritten); a new one when None.

        Returns
        -------
        (nnz,) ndarray
            The data array of the compressed matrix.
        """
        if out is None:
            return np.bincount(self.index, weights=values, minlength=self.nnz)
        out[:] = 0.0
        self.add(values, out)
        return out

    def add(self, values, out, start=0, weight=1.0):
        """out += ``weight`` · the compressed form of ``values``, the COO values of the
        entries start … start + len(values) − 1 of the pattern (one piece of it).

        Parameters
        ----------
        values : (j,) array_like
            COO values of the entries start … start + j − 1.
        out : (nnz,) ndarray
            Compressed data array, added to in place.
        start : int, optional
            Index of the first entry ``values`` belong to.
        weight : float, optional
            Factor on ``values``.
        """
        _scatter_add(self.index, np.asarray(values, float), float(weight), start, out)

    def matrix(self, values):
        """The sparse matrix for new COO values.

        Parameters
        ----------
        values : (k,) array_like
            One value per COO entry of the pattern (duplicates summed).

        Returns
        -------
        scipy.sparse.csr_matrix or scipy.sparse.csc_matrix
            In the pattern's format.
        """
        cls = sp.csr_matrix if self.fmt == "csr" else sp.csc_matrix
        return cls((self.data(values), self.indices, self.indptr), shape=self.shape)



def coo_block(rows, cols, values, row_offset=0, col_offset=0):
    """Shift a COO triplet set into a block of a larger matrix.

    Parameters
    ----------
    rows, cols, values : (k,) array_like
        The triplets.
    row_offset, col_offset : int, optional
        First row and column of the block in the larger matrix.

    Returns
    -------
    rows, cols, values : (k,) ndarray
        The shifted triplets.

    Examples
    --------
    >>> [a.tolist() for a in coo_block([0, 1], [1, 0], [2.0, 3.0], row_offset=3)]
    [[3, 4], [1, 0], [2.0, 3.0]]
    """
    return np.asarray(rows) + row_offset, np.asarray(cols) + col_offset, np.asarray(values)


def product(matrix, x, out=None):
    """y = A x for a scipy CSR or CSC matrix ``matrix`` (float data), in one compiled call.

    Parameters
    ----------
    matrix : scipy.sparse.csr_matrix or scipy.sparse.csc_matrix
        A, float data.
    x : (n,) ndarray
        The vector, float.
    out : (m,) ndarray, optional
        Array to write y into (overwritten); a new one when None.

    Returns
    -------
    (m,) ndarray
        y = A x.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> product(sp.csr_matrix(np.array([[1.0, 2.0], [0.0, 3.0]])), np.array([1.0, 1.0]))
    array([3., 3.])
    """
    if out is None:
        out = np.empty(matrix.shape[0])
    if matrix.format == "csr":
        _csr_matvec(matrix.indptr, matrix.indices, matrix.data, x, out)
    else:
        _csc_matvec(matrix.indptr, matrix.indices, matrix.data, x, out)
    return out


@njit(cache=True)
def _csr_matvec(indptr, indices, data, x, out):
    """out = A x for A in CSR (rows without entries give 0)."""
    for i in range(len(indptr) - 1):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * x[indices[k]]
        out[i] = s


@njit(cache=True)
def _csc_matvec(indptr, indices, data, x, out):
    """out = A x for A in CSC: column j scattered with weight x_j."""
    out[:] = 0.0
    for j in range(len(indptr) - 1):
        xj = x[j]
        for k in range(indptr[j], indptr[j + 1]):
            out[indices[k]] += data[k] * xj


@njit(cache=True)
def _scatter_add(index, values, weight, start, out):
    """out[index[start + i]] += weight · values[i] for every i."""
    for i in range(len(values)):
        out[index[start + i]] += weight * values[i]
