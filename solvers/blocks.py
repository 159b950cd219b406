"""Block layout of the unknowns and the sparse block assembler of saddle-point matrices.

:class:`BlockLayout` names the blocks of x = [Δq; Δλ; …] (``q``, ``lam``, ``nu`` of the
stabilized index-2 form, ``u`` of servo inputs); :class:`SaddlePattern` assembles

    S = [[w_M M(q) + w_C C + w_K (K + ∂(M a)/∂q + H(λ)) + D,  Φ_qᵀ],
         [Φ_q,                                                 0  ]]

on one fixed CSC pattern for every solver (weights: docs/solvers.md).
"""
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from femdyn.sparse import Pattern


class BlockLayout:
    """Named, ordered blocks of one unknown vector."""

    def __init__(self, **sizes):
        self.sizes = {name: int(size) for name, size in sizes.items()}
        self.offsets, offset = {}, 0
        for name, size in self.sizes.items():
            self.offsets[name] = offset
            offset += size
        self.size = offset

    def slice(self, name):
        """The slice of a block in the stacked vector."""
        return slice(self.offsets[name], self.offsets[name] + self.sizes[name])

    def bmat(self, blocks):
        """Sparse matrix on the layout from named sub-matrices; missing blocks are zero."""
        names = list(self.sizes)
        grid = [[blocks.get((r, c)) for c in names] for r in names]
        for i, r in enumerate(names):      # bmat needs a known size in every block row and column
            if all(b is None for b in grid[i]) or all(grid[k][i] is None for k in range(len(names))):
                grid[i][i] = sp.csc_matrix((self.sizes[r], self.sizes[r]))
        return sp.bmat(grid, format="csc")


@dataclass
class TangentValues:
    """COO values of the pieces of an iteration matrix, each on the System's fixed pattern."""

    mass: np.ndarray
    jacobian: np.ndarray
    damping: np.ndarray = field(default_factory=lambda: np.zeros(0))
    stiffness: np.ndarray = field(default_factory=lambda: np.zeros(0))
    mass_derivative: np.ndarray = field(default_factory=lambda: np.zeros(0))
    hessian: np.ndarray = field(default_factory=lambda: np.zeros(0))
    weights: tuple = (1.0, 0.0, 0.0)
    diagonal: np.ndarray = None
    transpose: np.ndarray = None

    @property
    def symmetric(self):
        """Whether the upper-right block is Φ_qᵀ (else Gᵀ, with the actuator rows −B)."""
        return self.transpose is None


class SaddlePattern:
    """Fixed CSC pattern of the (q, λ) saddle matrix of a System (see the module docstring)."""

    def __init__(self, system):
        p = system.patterns
        n, m = p.n, p.m
        block = [p.mass, p.damping, p.stiffness, p.mass_derivative, p.hessian]      # the pieces of A, in order
        self.lengths = [len(x) for x in block]
        rows = [x.rows for x in block] + [p.jacobian.rows + n, p.jacobian.cols]
        cols = [x.cols for x in block] + [p.jacobian.cols, p.jacobian.rows + n]
        self.servo = p.servo
        if self.servo:          # room for Gᵀ beside Φ_qᵀ: both on one pattern, one symbolic analysis
            rows.append(p.transpose.cols)
            cols.append(p.transpose.rows + n)
        diag = np.arange(n + m)  # explicit diagonal: room for weights and regularization, square pattern
        self.pattern = Pattern(np.concatenate(rows + [diag]), np.concatenate(cols + [diag]), (n + m, n + m), "csc")
        self.block_pattern = Pattern(np.concatenate(rows[:5]), np.concatenate(cols[:5]), (n, n), "csc")
        self.diagonal_slots = self.pattern.index[-(n + m):]     # where the explicit diagonal sits in the data
        self.piece_lengths = [len(r) for r in rows]
        self._matrix = None

    def _block_values(self, v):
        w_mass, w_damp, w_stiff = v.weights
        pieces = [(w_mass, v.mass, 0), (w_damp, v.damping, 1), (w_stiff, v.stiffness, 2),
                  (w_stiff, v.mass_derivative, 3), (w_stiff, v.hessian, 4)]
        return [w * x if len(x) else np.zeros(self.lengths[i]) for w, x, i in pieces]

    def matrix(self, values):
        """The saddle matrix S = [[A, Φ_qᵀ], [Φ_q, 0]] for given values."""
        pieces = [(w, x) for w, x in zip(values.weights + (values.weights[2],) * 2,
                                         (values.mass, values.damping, values.stiffness,
                                          values.mass_derivative, values.hessian))]
        jac = values.jacobian
        if not self.servo:
            upper = [jac]
        elif values.symmetric:
            upper = [jac, None]
        else:
            upper = [None, values.transpose]
        pieces += [(1.0, x) for x in [jac] + upper]
        if self._matrix is None:
            self._matrix = sp.csc_matrix((np.zeros(self.pattern.nnz), self.pattern.indices, self.pattern.indptr),
                                         shape=self.pattern.shape)
        data = self._matrix.data
        data[:] = 0.0
        start = 0
        for (weight, x), length in zip(pieces, self.piece_lengths):
            if x is not None and len(x) and weight != 0.0:
                self.pattern.add(x, data, start, weight)
            start += length
        if values.diagonal is not None:
            self.pattern.add(values.diagonal, data, start)
        return self._matrix

    def coordinate_block(self, values):
        """The (q, q) block A alone, without the diagonal term."""
        return self.block_pattern.matrix(np.concatenate(self._block_values(values)))
