"""Repeated assembly of sparse matrices with a fixed pattern.

Element and constraint contributions come as COO triplets whose (row, col) positions
never change during a run; only the values do. :class:`Pattern` sorts the positions once
and afterwards sums new values into the compressed data array with one ``bincount``, so
no index sorting or duplicate merging happens per Newton iteration.
"""
import numpy as np
import scipy.sparse as sp


class Pattern:
    """Fixed sparsity pattern of a matrix assembled from COO triplets.

    ``assemble(values)`` returns the matrix whose entry (rows[i], cols[i]) receives the
    sum of values[i] over duplicate positions.

    Parameters
    ----------
    rows, cols : array_like of int
        Positions of the COO entries (duplicates allowed).
    shape : (int, int)
        Matrix shape.
    fmt : str, optional
        "csr" or "csc".

    Examples
    --------
    >>> p = Pattern([0, 1, 0], [0, 1, 0], (2, 2))
    >>> p.nnz, p.assemble(np.array([1.0, 2.0, 3.0])).toarray().tolist()
    (2, [[4.0, 0.0], [0.0, 2.0]])
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

    def data(self, values):
        """The compressed data array (nnz,) for new COO values (duplicates summed).

        Parameters
        ----------
        values : ndarray
            One value per (rows, cols) entry given at construction.

        Returns
        -------
        ndarray (nnz,)
        """
        return np.bincount(self.index, weights=values, minlength=self.nnz)

    def assemble(self, values):
        """The sparse matrix for new COO values.

        Parameters
        ----------
        values : ndarray
            One value per (rows, cols) entry given at construction.

        Returns
        -------
        scipy.sparse.csr_matrix or scipy.sparse.csc_matrix
        """
        cls = sp.csr_matrix if self.fmt == "csr" else sp.csc_matrix
        return cls((self.data(values), self.indices, self.indptr), shape=self.shape)


def coo_block(rows, cols, values, row_offset=0, col_offset=0):
    """Shift a COO triplet set into a block of a larger matrix.

    Parameters
    ----------
    rows, cols : array_like of int
        Positions within the block.
    values : array_like
        Entries.
    row_offset, col_offset : int, optional
        Position of the block's first row and column.

    Returns
    -------
    rows, cols, values : ndarray

    Examples
    --------
    >>> [a.tolist() for a in coo_block([0], [1], [5.0], row_offset=3)]
    [[3], [1], [5.0]]
    """
    return np.asarray(rows) + row_offset, np.asarray(cols) + col_offset, np.asarray(values)
