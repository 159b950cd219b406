"""Ready-made models: the RSSR demonstration linkage (DAE model) and serial, tree and
free-floating robots for the recursive solvers (PUMA 560, space arm, dual arm)."""
