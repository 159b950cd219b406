"""femdyn.elements."""
