"""What a run leaves: the incrementally written :class:`Results` store, plots and figures."""
from .store import Results, ResultsWriter, load

__all__ = ["Results", "ResultsWriter", "load"]
