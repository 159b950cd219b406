"""femdyn.solvers."""
