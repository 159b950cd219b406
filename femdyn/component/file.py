"""The femdyn component file (``.fdc``): a reduced flexible body for floating-frame and
recursive multibody solvers, after the Standard Input Data convention (Wallrapp 1994,
"Standardization of flexible body modeling in multibody system codes, Part I", Mech.
Struct. Mach. 22:283–304).

Container: an uncompressed ZIP holding ``header.json`` (format name, version, units,
reference frame, material, interfaces, names) and one ``<field>.npy`` per array — the
NPZ layout, so ``numpy.load`` opens it too. Chosen over HDF5 because it needs nothing
beyond numpy, is readable anywhere numpy is, and is written byte-for-byte
deterministically (fixed member order and timestamps): reading and writing a file again
reproduces it bit for bit. The fields, units and every check on load are in
``docs/components.md``; :data:`FIELDS` is their machine-readable form.

Modal coordinates η are scaled to unit modal mass: mode shapes in m per unit η, modal
mass the identity [kg], modal stiffness diag(ω²) [kg/s²], modal damping diag(2ζω) [kg/s].
"""
import io
import json
import zipfile
from dataclasses import dataclass, field

import numpy as np

from femdyn.errors import FemdynError

FORMAT = "femdyn-component"
VERSION = "1.0"
_DATE = (1980, 1, 1, 0, 0, 0)

# name: (shape with symbols q = modes, i = interfaces, p = output points, g = gauges,
#        n = mesh nodes, t/h = mesh cells; unit; required)
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
    "mesh_hexahedron": (("h", 8), "node index", False),
    "mesh_shapes": (("n", 3, "q"), "m", False),
}


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
    """A reduced flexible body: header and named arrays (see ``docs/components.md``).

    Build one with :func:`femdyn.solvers.reduction.component_from_reduction` (a solid body)
    or :func:`femdyn.solvers.beam_component.ancf_beam_component` (an ANCF beam), store it
    with :func:`write_component`, load it with :func:`read_component`. Arrays are read-only attributes by name, e.g.
    ``c.modal_stiffness``; units as in :data:`FIELDS` (modal coordinates at unit modal mass).

    Parameters
    ----------
    header : dict
        JSON-able header: format, version, units, reference frame, material, interfaces,
        names.
    arrays : dict, optional
        Field name → ndarray (:data:`FIELDS`).

    Examples
    --------
    >>> import os, tempfile
    >>> from femdyn.mesh.generate import box_mesh
    >>> from femdyn.elements.solid_body import SolidBody
    >>> from femdyn.solvers.reduction import Interface, component_from_reduction, craig_bampton
    >>> body = SolidBody(box_mesh((1.0, 0.1, 0.1), (4, 1, 1)), E=2.1e11, nu=0.3, rho=7800)
    >>> link = component_from_reduction(craig_bampton(body, [Interface("root", body.mesh.node_set("x0"))], n_modes=4))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     again = read_component(write_component(os.path.join(folder, "link.fdc"), link))
    >>> again.n_modes, round(float(again.mass), 9), again.modal_mass.shape
    (4, 78.0, (4, 4))
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

    def summary(self):
        """Three lines: modes, interfaces, output points and gauges; mass, centre of mass [m] and principal inertia [kg·m²]; the first frequencies [Hz].

        Returns
        -------
        str
        """
        a = self.arrays
        f = ", ".join(f"{x:.4g}" for x in a["frequencies"][:8])
        return (f"component '{self.header.get('name')}' (format {FORMAT} {self.header.get('version')}): "
                f"{self.n_modes} modes, {len(a['interface_origins'])} interface frames, "
                f"{len(a['output_points'])} output points, {len(a['gauge_points'])} gauges\n"
                f"  mass {float(a['mass']):.6g} kg, centre of mass {np.round(a['com'], 6).tolist()} m, "
                f"principal inertia {np.round(np.linalg.eigvalsh(a['inertia']), 9).tolist()} kg m²\n"
                f"  frequencies [Hz]: {f}{' ...' if self.n_modes > 8 else ''}")


def write_component(path, component):
    """Validate a component and write it (deterministic bytes).

    Parameters
    ----------
    path : str or path-like
        The file to write (``.fdc`` by convention).
    component : Component
        The component.

    Returns
    -------
    str or path-like
        ``path``.

    Raises
    ------
    ComponentError
        The subclass of :func:`validate` for an invalid component.
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
        The file.

    Returns
    -------
    Component

    Raises
    ------
    ComponentFormatError
        Unreadable, not a ZIP, or no or malformed ``header.json``.
    ComponentVersionError
        Another format or an unreadable major version.
    ComponentShapeError, ComponentValueError, ComponentSymmetryError, ComponentDefinitenessError
        A field missing or of the wrong shape, non-finite or inconsistent values, an
        unsymmetric or indefinite matrix (all subclasses of ComponentError).
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
        The component.
    where : str, optional
        Name of the file or object, for the messages.

    Raises
    ------
    ComponentError
        The matching subclass (ComponentVersionError, ComponentShapeError,
        ComponentValueError, ComponentSymmetryError, ComponentDefinitenessError), naming the
        field and the fix.
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
        integer = name in ("mesh_tetra", "mesh_hexahedron")
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
                                          "p output points, g gauges, n mesh nodes)")
        if not integer and not np.all(np.isfinite(v)):
            raise ComponentValueError(f"{where}: field '{name}' holds NaN or infinite values")
    if "mesh_shapes" in a and "mesh_points" not in a:
        raise ComponentShapeError(f"{where}: 'mesh_shapes' needs 'mesh_points'")
    for cells in ("mesh_tetra", "mesh_hexahedron"):
        if cells in a and a[cells].size and (a[cells].min() < 0 or a[cells].max() >= sizes.get("n", 0)):
            raise ComponentShapeError(f"{where}: '{cells}' references nodes outside 'mesh_points'")
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
    """Position of ``interface`` (name or index) among the component's interface frames.

    Parameters
    ----------
    component : Component
        The component.
    interface : str or int
        Interface name (as in the header) or index.

    Returns
    -------
    int
        Index into ``interface_origins`` and ``interface_shapes``.

    Raises
    ------
    ComponentShapeError
        No interface of that name, or an index out of range.
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
    """A component from its arrays and the descriptive parts of its header.

    Format, version, units and strain order are filled in; arrays become C-ordered float64
    (the mesh cells int64). Not validated here: :func:`write_component` validates.

    Parameters
    ----------
    name : str
        Component name.
    arrays : dict
        Field name → array_like (:data:`FIELDS`).
    reference_frame : str
        What the body frame of the arrays is (origin, axes, mean-axis or clamped modes).
    material : dict
        E [Pa], nu, rho [kg/m³] and the material model.
    mesh : dict
        Mesh name, node count and element counts by kind.
    reduction : dict
        Method, normal modes, rigid modes removed, modes, damping ratios.
    interfaces : list of dict
        Name, coupling and node count of each interface frame, in the order of
        ``interface_origins``.

    Returns
    -------
    Component
    """
    header = {"format": FORMAT, "version": VERSION, "name": name, "units": dict(UNITS),
              "reference_frame": reference_frame, "material": material, "mesh": mesh, "reduction": reduction,
              "interfaces": interfaces, "strain_order": list(STRAIN_ORDER)}
    arrays = {k: np.array(v, np.int64 if k in ("mesh_tetra", "mesh_hexahedron") else np.float64, order="C")
              for k, v in arrays.items()}
    return Component(header, arrays)
