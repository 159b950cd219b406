"""File formats femdyn reads and writes beyond its results store."""
