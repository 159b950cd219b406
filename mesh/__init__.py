"""femdyn.mesh."""
