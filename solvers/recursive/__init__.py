"""femdyn.solvers.recursive."""
