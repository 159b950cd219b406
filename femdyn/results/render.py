"""Off-screen 3-D pictures with pyvista, flexible links' deflection from their chord magnified
(docs/howto/paraview.md); needs OpenGL libraries, no X server.
"""
import numpy as np

from femdyn.mesh.configuration import configuration_geometry
from femdyn.mesh.pictures import RenderError


def deflection_from_chord(points):
    """Transverse deflection r − p of a polyline's points from its chord (p: projection on the line through the ends), m.

    Parameters
    ----------
    points : (k, 3) array
        Points along a link's centreline (m), the end points first and last.
    """
    points = np.asarray(points, float)
    a, b = points[0], points[-1]
    d = (b - a) / np.linalg.norm(b - a)
    offset = points - a
    return offset - np.outer(offset @ d, d)


def largest_deflection(system, q):
    """Largest deflection from the chord (m) over the ANCF element sets, one value per configuration.

    Parameters
    ----------
    system, q : System, (k, system.n) or (system.n,) array
        The assembled model; coordinates, one configuration per row (e.g. ``results.q``).
    """
    q = np.atleast_2d(q)
    out = np.zeros(len(q))
    for k, qk in enumerate(q):
        for _, line in configuration_geometry(system, qk, meshes=False).beams:
            out[k] = max(out[k], np.linalg.norm(deflection_from_chord(line), axis=1).max())
    return out


def render_configuration(system, q, path, magnify=1.0, title=None, polygons=(), size=(1000, 800), labels=None,
                         gravity=None, triad=True):
    """Write an off-screen PNG of ``system`` at ``q`` with a global-axes triad and gravity arrow; returns ``path``.

    RenderError if pyvista cannot render off-screen (install Debian's libgl1 and libegl1).

    Parameters
    ----------
    system, q : System, (system.n,) array
        The assembled model; its coordinates.
    path : str
        The PNG file.
    magnify : float
        Factor on the flexible links' deflection from their chord (1: true shape).
    title : str, optional
        Text in the top-left corner (the factor is added below it).
    polygons, labels : sequence of (k, 3) arrays, dict, optional
        Fixed polygons drawn in grey (m), e.g. a robot's base; text → (3,) point (m) to label.
    gravity : (3,) array, optional
        Gravity arrow (m/s²); default the system's, none when zero.
    size, triad : (int, int), bool
        Pixels; draw the global x, y, z axes.
    """
    import pyvista as pv
    from vtkmodules.vtkCommonCore import vtkLogger
    pv.OFF_SCREEN = True
    vtkLogger.SetStderrVerbosity(vtkLogger.VERBOSITY_ERROR)   # no warning when there is no X display
    geometry = configuration_geometry(system, q, meshes=False)
    every = np.vstack([geometry.points()] + [np.asarray(p, float) for p in polygons])
    radius = 0.006 * np.linalg.norm(np.ptp(every, axis=0))
    try:
        plotter = pv.Plotter(off_screen=True, window_size=list(size))
        for _, xyz in geometry.bodies:
            _add_body(plotter, pv, xyz, radius)
        for polygon in polygons:
            plotter.add_mesh(_polygon(pv, polygon), color="lightgrey", opacity=0.6)
        lines = [line for _, line in geometry.beams]
        deflections = [deflection_from_chord(line) for line in lines]
        peak = max([1e3 * np.linalg.norm(d, axis=1).max() for d in deflections], default=0.0)
        for k, (line, deflection) in enumerate(zip(lines, deflections)):
            shape = pv.lines_from_points(line + (magnify - 1.0) * deflection)
            shape["deflection (mm)"] = 1e3 * np.linalg.norm(deflection, axis=1)
            plotter.add_mesh(shape.tube(radius=radius), scalars="deflection (mm)", cmap="plasma",
                             clim=(0.0, max(peak, 1e-9)), show_scalar_bar=k == 0,
                             scalar_bar_args={"vertical": True, "fmt": "%.2g", "position_x": 0.86,
                                              "position_y": 0.1})
            plotter.add_mesh(pv.lines_from_points(line[[0, -1]]), color="grey", line_width=1)
        _add_frame(plotter, pv, every, system if gravity is None else None, gravity, triad)
        if labels:
            plotter.add_point_labels(np.array(list(labels.values()), float), list(labels), font_size=14,
                                     point_size=1, shape_opacity=0.7, always_visible=True)
        plotter.add_text(f"{title or system.name}\nflexible links: deflection from the chord x {magnify:g} "
                         f"(largest {peak:.3g} mm)", font_size=10)
        plotter.view_isometric()
        plotter.camera.zoom(1.15)
        plotter.screenshot(path)
        plotter.close()
    except Exception as err:  # VTK reports a missing OpenGL in several ways
        raise RenderError(f"cannot render off-screen ({err}); install Debian's libgl1 and libegl1 "
                          "(bash .ci/setup does)") from None
    return path


def _add_body(plotter, pv, xyz, radius):
    """A rigid body: tube through its outline points, spheres at them, a filled closed outline."""
    if len(xyz) > 3 and np.allclose(xyz[0], xyz[-1]):
        plotter.add_mesh(_polygon(pv, xyz[:-1]), color="steelblue", opacity=0.8)
    if len(xyz) > 1:
        plotter.add_mesh(pv.lines_from_points(xyz).tube(radius=radius), color="steelblue")
    for point in xyz:
        plotter.add_mesh(pv.Sphere(radius=1.6 * radius, center=point), color="dimgrey")


def _add_frame(plotter, pv, points, system, gravity, triad):
    """The global axes (a triad in the lower-left corner) and the gravity arrow to the scene's left."""
    if triad:
        plotter.add_axes(xlabel="x", ylabel="y", zlabel="z", line_width=3, viewport=(0.0, 0.0, 0.22, 0.22))
    g = np.asarray(getattr(system, "gravity", (0.0, 0.0, 0.0)) if gravity is None else gravity, float)
    if np.linalg.norm(g) > 0:
        low, high = points.min(axis=0), points.max(axis=0)
        size, centre = float(np.linalg.norm(high - low)), 0.5 * (low + high)
        start = centre + 0.55 * size * np.array([0.7071, -0.7071, 0.0])   # left of the scene in the isometric view
        start[2] = high[2]
        down = g / np.linalg.norm(g)
        plotter.add_mesh(pv.Arrow(start=start, direction=down, scale=0.2 * size), color="black")
        plotter.add_point_labels(start[None, :], [f"gravity {np.linalg.norm(g):.3g} m/s²"], font_size=14,
                                 shape=None, show_points=False, always_visible=True)


def _polygon(pv, points):
    """A filled pyvista polygon through ``points``."""
    points = np.asarray(points, float)
    return pv.PolyData(points, faces=np.concatenate([[len(points)], np.arange(len(points))]))
