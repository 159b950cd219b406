"""What a run leaves: the :class:`Results` store, matplotlib figures, off-screen pyvista renderings."""
from .plots import draw_time_histories, plot_channels, plot_configuration, time_histories
from .render import deflection_from_chord, largest_deflection, render_configuration
from .store import Results, load

__all__ = ["Results", "load", "time_histories", "draw_time_histories", "plot_channels", "plot_configuration",
           "render_configuration", "largest_deflection", "deflection_from_chord"]
