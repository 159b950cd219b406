"""The femdyn component file (``.fdc``): a reduced flexible body for floating-frame and
recursive solvers, after the Standard Input Data convention (Wallrapp 1994, Mech. Struct.
Mach. 22:283–304).

An uncompressed ZIP (the NPZ layout) of ``header.json`` and one ``<field>.npy`` per array,
written deterministically. Fields, units and the checks on load: docs/components.md
(:data:`FIELDS` is their machine-readable form). Modal coordinates η have unit modal mass.
"""
import copy
import io
import json
import zipfile
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import FemdynError
from femdyn.input_checks import plural

FORMAT = "femdyn-component"
VERSION = "1.3"           # 1.1: stress nodes and strain gauges; 1.2: quadratic cells; 1.3: the header's "origin"
                          # (CAD file, SHA-256, mesh settings and counts); older files read unchanged
_DATE = (1980, 1, 1, 0, 0, 0)

# name: (shape with symbols q = modes, i = interfaces, p = output points, g = gauges,
#        n = mesh nodes, t/h = mesh cells, s = stress nodes; unit; required)
FIELDS = {
    "mass": ((), "kg", True),
    "com": ((3,), "m", True),
    "inertia": ((3, 3), "kg m^2", True),
    "first_moment": ((3,), "kg m", True),
    "second_moment": ((3, 3), "kg m^2", True),
    "frequencies": (("q",), "Hz", True),
    "modal_mass": (("q", "q"), "kg", True),
    "modal_stiffness": (("q", "q"), "kg/s^2", True),
    "modal_damping": (("q", "q"), "kg/s", True),
    "Ct": ((3, "q"), "kg m", True),
    "Cr": ((3, "q"), "kg m^2", True),
    "Cx": ((3, 3, "q"), "kg m^2", True),
    "Cpp": ((3, 3, "q", "q"), "kg m^2", True),
    "interface_origins": (("i", 3), "m", True),
    "interface_shapes": (("i", 6, "q"), "m, rad", True),
    "output_points": (("p", 3), "m", True),
    "output_shapes": (("p", 3, "q"), "m", True),
    "gauge_points": (("g", 3), "m", True),
    "gauge_strain_modes": (("g", 6, "q"), "1", True),
    "mesh_points": (("n", 3), "m", False),
    "mesh_tetra": (("t", 4), "node index", False),
    "mesh_tetra10": (("t", 10), "node index", False),
    "mesh_hexahedron": (("h", 8), "node index", False),
    "mesh_shapes": (("n", 3, "q"), "m", False),
    "stress_nodes": (("s",), "node index", False),
    "stress_strain_modes": (("s", 6, "q"), "1", False),
}
INTEGER_FIELDS = ("mesh_tetra", "mesh_tetra10", "mesh_hexahedron", "stress_nodes")


class ComponentError(FemdynError, ValueError):
    """A component file femdyn cannot use (base class of the specific errors below)."""


class ComponentFormatError(ComponentError):
    """Not a component file: unreadable, not a ZIP, no or malformed ``header.json``."""


class ComponentVersionError(ComponentError):
    """Another format, or a major version this femdyn does not read."""


class ComponentShapeError(ComponentError):
    """A required field is missing, or a field has the wrong shape or type."""


class ComponentValueError(ComponentError):
    """Non-finite numbers, or a mass or centre of mass that contradicts the moments."""


class ComponentSymmetryError(ComponentError):
    """A matrix that must be symmetric (modal mass, stiffness, damping, inertia) is not."""


class ComponentDefinitenessError(ComponentError):
    """Modal mass or inertia not positive definite, or stiffness/damping not semi-definite."""


@dataclass
class Component:
    """A reduced flexible body: header and named arrays, read as attributes (``c.modal_stiffness``).

    Built by :func:`femdyn.solvers.reduction.component_from_reduction` or
    :func:`femdyn.solvers.beam_component.ancf_beam_component`, stored with :func:`write_component`,
    loaded with :func:`read_component` (docs/components.md).

    Parameters
    ----------
    header : dict
        JSON-able header: format, version, units, reference frame, material, interfaces, names.
    arrays : dict, optional
        Field name → ndarray.
    """
    header: dict
    arrays: dict = field(default_factory=dict)

    def __getattr__(self, name):
        arrays = self.__dict__.get("arrays", {})
        if name in arrays:
            return arrays[name]
        raise AttributeError(name)

    @property
    def n_modes(self):
        return len(self.arrays["frequencies"])

    def copy(self):
        """A deep copy: its header and arrays share nothing with this component's.

        Returns
        -------
        Component
        """
        return Component(copy.deepcopy(self.header), {k: copy.deepcopy(v) for k, v in self.arrays.items()})

    def summary(self):
        """Counts of modes, interfaces, points and gauges; mass properties; first frequencies; gauge placement."""
        a = self.arrays
        f = ", ".join(f"{x:.4g}" for x in a["frequencies"][:8])
        moved = [(float(np.linalg.norm(g["offset"])), g["name"]) for g in self.header.get("gauges", [])
                 if "offset" in g]
        placed = (f"\n  {plural(len(moved), 'strain gauge')} placed on the nearest point of the meshed surface, "
                  f"moved at most {max(moved)[0]:.3g} m ('{max(moved)[1]}'); `femdyn show` lists each" if moved else "")
        return (f"component '{self.header.get('name')}' (format {FORMAT} {self.header.get('version')}): "
                f"{plural(self.n_modes, 'mode')}, {plural(len(a['interface_origins']), 'interface frame')}, "
                f"{plural(len(a['output_points']), 'output point')}, {plural(len(a['gauge_points']), 'gauge point')}, "
                f"{plural(len(self.header.get('gauges', [])), 'strain gauge')}, "
                f"{plural(len(a.get('stress_nodes', ())), 'stress node')}\n"
                f"  mass {float(a['mass']):.6g} kg, centre of mass {np.round(a['com'], 6).tolist()} m, "
                f"principal inertia {np.round(np.linalg.eigvalsh(a['inertia']), 9).tolist()} kg m²\n"
                f"  frequencies [Hz]: {f}{' ...' if self.n_modes > 8 else ''}{placed}")


def write_component(path, component):
    """Validate a component and write it to ``path`` (deterministic bytes); returns ``path``.

    Raises the :class:`ComponentError` subclass of :func:`validate` for an invalid component.

    Parameters
    ----------
    path : str or path-like
        The file (``.fdc`` by convention).
    component : Component
    """
    validate(component)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        z.writestr(zipfile.ZipInfo("header.json", _DATE),
                   json.dumps(component.header, sort_keys=True, indent=1).encode("utf-8"))
        for name in FIELDS:
            if name in component.arrays:
                buf = io.BytesIO()
                np.lib.format.write_array(buf, np.array(component.arrays[name], order="C"), version=(1, 0),
                                          allow_pickle=False)
                z.writestr(zipfile.ZipInfo(f"{name}.npy", _DATE), buf.getvalue())
    return path


def read_component(path):
    """Read and validate a component file.

    Parameters
    ----------
    path : str or path-like

    Raises
    ------
    ComponentError
        ComponentFormatError or ComponentVersionError for a file femdyn cannot read, else as :func:`validate`.
    """
    try:
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if "header.json" not in names:
                raise ComponentFormatError(f"{path}: no header.json; not a femdyn component file")
            header = json.loads(z.read("header.json").decode("utf-8"))
            arrays = {}
            for member in names:
                if member.endswith(".npy"):
                    with z.open(member) as f:
                        arrays[member[:-4]] = np.lib.format.read_array(f, allow_pickle=False)
    except (zipfile.BadZipFile, OSError, json.JSONDecodeError, UnicodeDecodeError, ValueError) as err:
        if isinstance(err, ComponentError):
            raise
        raise ComponentFormatError(f"{path}: cannot read a component file ({err})") from None
    component = Component(header, arrays)
    validate(component, str(path))
    return component


def validate(component, where="component"):
    """Check format, version, fields, shapes, finiteness, symmetry and definiteness of a component.

    Parameters
    ----------
    component : Component
    where : str, optional
        Name of the file or object, for the messages.

    Raises
    ------
    ComponentError
        The matching subclass, naming the field (table in docs/components.md).
    """
    h, a = component.header, component.arrays
    if not isinstance(h, dict) or h.get("format") != FORMAT:
        raise ComponentVersionError(f"{where}: format is {h.get('format') if isinstance(h, dict) else h!r}, "
                                    f"expected '{FORMAT}'")
    major = str(h.get("version", "")).split(".")[0]
    if major != VERSION.split(".")[0]:
        raise ComponentVersionError(f"{where}: version {h.get('version')!r} is not readable by this femdyn "
                                    f"(reads {VERSION.split('.')[0]}.x); re-export it with this femdyn")
    sizes = {}
    for name, (shape, unit, required) in FIELDS.items():
        if name not in a:
            if required:
                raise ComponentShapeError(f"{where}: required field '{name}' ({unit}) is missing")
            continue
        v = a[name]
        integer = name in INTEGER_FIELDS
        if not isinstance(v, np.ndarray) or (v.dtype.kind != "i" if integer else v.dtype != np.float64):
            raise ComponentShapeError(f"{where}: field '{name}' must be a {'integer' if integer else 'float64'} array, "
                                      f"got {getattr(v, 'dtype', type(v))}")
        if v.ndim != len(shape):
            raise ComponentShapeError(f"{where}: field '{name}' has shape {v.shape}, expected {shape}")
        for dim, want in zip(v.shape, shape):
            if isinstance(want, str):
                want = sizes.setdefault(want, dim)
            if dim != want:
                raise ComponentShapeError(f"{where}: field '{name}' has shape {v.shape}, expected "
                                          f"{tuple(sizes.get(s, s) for s in shape)} (symbols: q modes, i interfaces, "
                                          "p output points, g gauges, n mesh nodes, t tetrahedra, s stress nodes)")
        if not integer and not np.all(np.isfinite(v)):
            raise ComponentValueError(f"{where}: field '{name}' holds NaN or infinite values")
    if "mesh_shapes" in a and "mesh_points" not in a:
        raise ComponentShapeError(f"{where}: 'mesh_shapes' needs 'mesh_points'")
    if ("stress_nodes" in a) != ("stress_strain_modes" in a):
        raise ComponentShapeError(f"{where}: 'stress_nodes' and 'stress_strain_modes' come together")
    if "stress_nodes" in a and "mesh_points" not in a:
        raise ComponentShapeError(f"{where}: 'stress_nodes' needs 'mesh_points'")
    for g in h.get("gauges", []):
        if not set(g.get("rows", [])) <= set(range(len(a["gauge_points"]))):
            raise ComponentShapeError(f"{where}: gauge '{g.get('name')}' reads rows {g.get('rows')} outside "
                                      "'gauge_points'")
    for cells in ("mesh_tetra", "mesh_tetra10", "mesh_hexahedron", "stress_nodes"):
        if cells in a and a[cells].size and (a[cells].min() < 0 or a[cells].max() >= sizes.get("n", 0)):
            raise ComponentShapeError(f"{where}: '{cells}' references nodes outside 'mesh_points'")
    if "mesh_tetra10" in a and not ("mesh_tetra" in a and np.array_equal(a["mesh_tetra10"][:, :4], a["mesh_tetra"])):
        raise ComponentShapeError(f"{where}: 'mesh_tetra10' needs 'mesh_tetra' holding its first four nodes (the "
                                  "corners), row for row")
    m = float(a["mass"])
    if not m > 0:
        raise ComponentValueError(f"{where}: mass {m} kg must be positive")
    if not np.allclose(a["first_moment"], m * a["com"], rtol=1e-9, atol=1e-12 * m):
        raise ComponentValueError(f"{where}: first_moment ≠ mass × com")
    for name in ("inertia", "second_moment", "modal_mass", "modal_stiffness", "modal_damping"):
        _symmetric(a[name], name, where)
    if not np.allclose(a["Cpp"], np.transpose(a["Cpp"], (1, 0, 3, 2)), rtol=1e-9, atol=1e-12 * m):
        raise ComponentSymmetryError(f"{where}: field 'Cpp' must satisfy Cpp[i,j,k,l] = Cpp[j,i,l,k]")
    _definite(a["inertia"], "inertia", where, strict=True)
    _definite(a["modal_mass"], "modal_mass", where, strict=True)
    _definite(a["modal_stiffness"], "modal_stiffness", where, strict=False)
    _definite(a["modal_damping"], "modal_damping", where, strict=False)


def _symmetric(A, name, where):
    """Raise ComponentSymmetryError unless A = Aᵀ to 1e-9 relative."""
    if A.size == 0:                       # a component without modes (a rigid body)
        return
    scale = max(np.abs(A).max(), np.finfo(float).tiny)
    if np.abs(A - A.T).max() > 1e-9 * scale:
        raise ComponentSymmetryError(f"{where}: field '{name}' is not symmetric (max |A − Aᵀ| = "
                                     f"{np.abs(A - A.T).max():.3g}); store the symmetric part")


def _definite(A, name, where, strict):
    """Raise ComponentDefinitenessError unless A is positive (semi-)definite."""
    if A.size == 0:
        return
    lam = np.linalg.eigvalsh(A)
    scale = max(np.abs(lam).max(), np.finfo(float).tiny)
    if (strict and lam.min() <= 1e-12 * scale) or (not strict and lam.min() < -1e-9 * scale):
        raise ComponentDefinitenessError(f"{where}: field '{name}' must be positive "
                                         f"{'definite' if strict else 'semi-definite'}; smallest eigenvalue "
                                         f"{lam.min():.3g}")


def interface_index(component, interface):
    """Index of ``interface`` into ``interface_origins`` and ``interface_shapes``; ComponentShapeError if unknown.

    Parameters
    ----------
    component : Component
    interface : str or int
        Interface name (as in the header) or index.
    """
    names = [i.get("name") for i in component.header.get("interfaces", [])]
    count = len(component.arrays["interface_origins"])
    if isinstance(interface, str):
        if interface not in names:
            raise ComponentShapeError(f"component '{component.header.get('name')}': no interface named "
                                      f"'{interface}'; its interfaces are {names}")
        return names.index(interface)
    k = int(interface)
    if not 0 <= k < count:
        raise ComponentShapeError(f"component '{component.header.get('name')}': interface index {k} is out of "
                                  f"range; it has {count} interface frames")
    return k


UNITS = {"length": "m", "mass": "kg", "time": "s", "angle": "rad", "strain": "1", "frequency": "Hz"}
STRAIN_ORDER = ["exx", "eyy", "ezz", "gyz", "gxz", "gxy"]


def new_component(name, arrays, reference_frame, material, mesh, reduction, interfaces):
    """A Component from its arrays and header parts (format, version, units filled in; not validated).

    Parameters
    ----------
    name : str
    arrays : dict
        Field name → array_like (:data:`FIELDS`); made C-ordered float64 (mesh cells int64).
    reference_frame : str
        What the body frame is (origin, axes, mean-axis or clamped modes).
    material : dict
        E (Pa), nu, rho (kg/m³) and the material model.
    mesh : dict
        Mesh name, node count and element counts by kind.
    reduction : dict
        Method, normal modes, rigid modes removed, modes, damping ratios.
    interfaces : list of dict
        Name, coupling and node count of each interface frame, in ``interface_origins`` order.
    """
    header = {"format": FORMAT, "version": VERSION, "name": name, "units": dict(UNITS),
              "reference_frame": reference_frame, "material": material, "mesh": mesh, "reduction": reduction,
              "interfaces": interfaces, "strain_order": list(STRAIN_ORDER)}
    arrays = {k: np.array(v, np.int64 if k in INTEGER_FIELDS else np.float64, order="C")
              for k, v in arrays.items()}
    return Component(header, arrays)
