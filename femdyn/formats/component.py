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

    Build one with :func:`component_from_reduction`, store it with :func:`write_component`,
    load it with :func:`read_component`. Arrays are read-only attributes by name, e.g.
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
    >>> from femdyn.solvers.reduction import Interface, craig_bampton
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
    if A.size == 0:                       # a component without modes (a rigid body)
        return
    scale = max(np.abs(A).max(), np.finfo(float).tiny)
    if np.abs(A - A.T).max() > 1e-9 * scale:
        raise ComponentSymmetryError(f"{where}: field '{name}' is not symmetric (max |A − Aᵀ| = "
                                     f"{np.abs(A - A.T).max():.3g}); store the symmetric part")


def _definite(A, name, where, strict):
    if A.size == 0:
        return
    lam = np.linalg.eigvalsh(A)
    scale = max(np.abs(lam).max(), np.finfo(float).tiny)
    if (strict and lam.min() <= 1e-12 * scale) or (not strict and lam.min() < -1e-9 * scale):
        raise ComponentDefinitenessError(f"{where}: field '{name}' must be positive "
                                         f"{'definite' if strict else 'semi-definite'}; smallest eigenvalue "
                                         f"{lam.min():.3g}")


def component_from_reduction(reduction, output_points=(), gauge_points=(), mesh_shapes=True, name="link"):
    """Collect a :class:`~femdyn.solvers.reduction.Reduction` into a Component.

    Parameters
    ----------
    reduction : Reduction (Craig–Bampton result)
    output_points : (p, 3) points [m] in the mesh frame where mode shapes are stored
    gauge_points : (g, 3) points [m] where strain modes (6 Voigt strains) are stored
    mesh_shapes : also store the mesh corners and all nodal shapes (pictures)
    name : component name

    Returns
    -------
    Component
    """
    from femdyn.solvers.reduction import modal_invariants
    body = reduction.body
    Phi = reduction.shapes
    q = Phi.shape[1]
    arrays = modal_invariants(body, Phi)
    props = body.mass_properties()
    arrays.update(mass=np.float64(props["mass"]), com=props["com"], inertia=props["inertia"])
    arrays.update(frequencies=reduction.omega / (2 * np.pi), modal_mass=np.eye(q),
                  modal_stiffness=reduction.modal_stiffness, modal_damping=reduction.modal_damping)
    arrays["interface_origins"] = np.array([i.origin for i in reduction.interfaces], float).reshape(-1, 3)
    arrays["interface_shapes"] = reduction.frame_rows()
    P = np.asarray(output_points, float).reshape(-1, 3)
    Gp = np.asarray(gauge_points, float).reshape(-1, 3)
    arrays["output_points"] = P
    arrays["output_shapes"] = (body.interpolation(P) @ Phi).reshape(len(P), 3, q) if len(P) else np.zeros((0, 3, q))
    arrays["gauge_points"] = Gp
    arrays["gauge_strain_modes"] = ((body.strain_operator(Gp) @ Phi).reshape(len(Gp), 6, q) if len(Gp)
                                    else np.zeros((0, 6, q)))
    if mesh_shapes:
        arrays["mesh_points"] = body.mesh.points
        for etype, conn in body.mesh.blocks:
            key = "mesh_tetra" if etype.name.startswith("tet") else "mesh_hexahedron"
            cells = conn[:, etype.corners]
            arrays[key] = np.vstack([arrays[key], cells]) if key in arrays else cells
        arrays["mesh_shapes"] = Phi.reshape(-1, 3, q)
    arrays = {k: np.array(v, np.int64 if k in ("mesh_tetra", "mesh_hexahedron") else np.float64, order="C")
              for k, v in arrays.items()}
    header = {
        "format": FORMAT, "version": VERSION, "name": name,
        "units": {"length": "m", "mass": "kg", "time": "s", "angle": "rad", "strain": "1",
                  "frequency": "Hz"},
        "reference_frame": "the mesh frame (origin and axes of the mesh coordinates, in m); elastic modes are "
                           "M-orthogonal to the rigid motions (linear mean-axis condition)",
        "material": {"E": body.E, "nu": body.nu, "rho": body.rho, "model": "isotropic linear elastic"},
        "mesh": {"name": body.mesh.name, "nodes": int(body.mesh.n_nodes),
                 "elements": {e.name: int(len(c)) for e, c in body.mesh.blocks}},
        "reduction": {"method": "craig-bampton", "normal_modes": int(len(reduction.omega_fixed)),
                      "rigid_modes_removed": int(reduction.n_rigid), "modes": int(q),
                      "damping_ratio": reduction.damping_ratio.tolist()},
        "interfaces": [{"name": i.name, "coupling": i.coupling, "nodes": int(len(i.nodes))}
                       for i in reduction.interfaces],
        "strain_order": ["exx", "eyy", "ezz", "gyz", "gxz", "gxy"],
    }
    return Component(header, arrays)


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


def _rigid_field(t, theta, points):
    """Linearized rigid displacement t + θ × x at ``points`` (p, 3), per mode: (p, 3, q)."""
    return t[None] + np.cross(theta.T[None], points[:, None, :]).transpose(0, 2, 1)


def reference_to_interface(component, interface):
    """The same body with its reference frame moved to interface ``interface`` and clamped there.

    The reference frame is translated to the interface origin o_k (axes unchanged: the
    interface axes are the reference axes), and the linearized rigid motion of that
    interface is subtracted from every mode,

        Φ'(x') = Φ(x) − (t_k + θ_k × x'),   x' = x − o_k,

    with (t_k, θ_k) the interface rows of each mode, so interface k neither moves nor
    turns with the modal coordinates (the inner-joint frame of a recursive flexible body,
    Tian et al. 2010). Interface, output and mesh shapes are transformed alike; strain
    modes are unchanged (a rigid motion has no linear strain); the strain energy and the
    damping forces are unchanged too (same K, D in η). Every inertia invariant is
    recomputed exactly from the old ones (they are linear and quadratic moments of ρ,
    Shabana 2005, §5.5), then the modal mass Σ_a Cpp'[a,a] and the stiffness are
    diagonalized again (K Z = M' Z Λ, Zᵀ M' Z = 1): the new modes are the Ritz modes of
    the component with interface k clamped, in unit modal mass, ordered by frequency.

    Parameters
    ----------
    component : Component
    interface : str or int
        Name or index of the interface frame that becomes the reference frame.

    Returns
    -------
    Component
        Valid (passes :func:`validate`), header key ``reference_interface`` set.

    Raises
    ------
    ComponentShapeError
        Unknown interface.
    ComponentDefinitenessError
        The clamped modal mass is singular: a mode is (to round-off) a rigid motion of
        the interface, e.g. the component was already clamped elsewhere and the modes
        are not independent of interface k's motion.

    Example
    -------
    >>> inner = reference_to_interface(read_component("link.fdc"), "elbow")     # doctest: +SKIP
    >>> abs(inner.interface_shapes[0]).max() < 1e-12                            # doctest: +SKIP
    True
    """
    k = interface_index(component, interface)
    a = component.arrays
    m, o = float(a["mass"]), a["interface_origins"][k].copy()
    t, th = a["interface_shapes"][k, :3], a["interface_shapes"][k, 3:]
    eps = _levi_civita()
    fm = a["first_moment"] - m * o                                        # ∫ρ x'
    S2 = a["second_moment"] - np.outer(fm + m * o, o) - np.outer(o, fm + m * o) + m * np.outer(o, o)
    Cxo = a["Cx"] - o[:, None, None] * a["Ct"][None]                      # ∫ρ x'_d Φ_ak  (d, a, k)
    # rigid field r_k(x') = t_k + θ_k × x': its moments
    Ct_r = m * t + np.cross(th.T, fm).T                                    # ∫ρ r_k
    Cx_r = fm[:, None, None] * t[None] + np.einsum("bcd,ck,ad->abk", eps, th, S2)   # ∫ρ x'_a r_bk
    cross_PR = (a["Ct"][:, None, :, None] * t[None, :, None, :]
                + np.einsum("bcd,cl,daj->abjl", eps, th, Cxo))             # ∫ρ Φ_aj r_bl
    rr = (m * np.einsum("aj,bl->abjl", t, t) + np.einsum("aj,bcd,cl,d->abjl", t, eps, th, fm)
          + np.einsum("ace,cj,e,bl->abjl", eps, th, fm, t)
          + np.einsum("ace,cj,bdf,dl,ef->abjl", eps, th, eps, th, S2))       # ∫ρ r_aj r_bl
    Ct = a["Ct"] - Ct_r
    Cx = Cxo - Cx_r
    Cpp = a["Cpp"] - cross_PR - cross_PR.transpose(1, 0, 3, 2) + rr
    Mq = np.einsum("aakl->kl", Cpp)
    Mq = 0.5 * (Mq + Mq.T)
    K = a["modal_stiffness"]
    try:
        lam, Z = _clamped_modes(K, Mq)
    except np.linalg.LinAlgError:
        raise ComponentDefinitenessError(
            f"component '{component.header.get('name')}': with interface '{interface}' clamped the modal mass is "
            "singular (a mode is a rigid motion of that interface); reduce with that interface as a boundary "
            "frame (Craig–Bampton constraint modes) so its modes stay independent") from None
    out = dict(a)
    out.update(first_moment=fm, com=a["com"] - o, second_moment=0.5 * (S2 + S2.T))
    out["Ct"] = Ct @ Z
    out["Cx"] = Cx @ Z
    Cpp = np.einsum("abkl,kr,ls->abrs", Cpp, Z, Z)
    out["Cpp"] = 0.5 * (Cpp + Cpp.transpose(1, 0, 3, 2))
    out["Cr"] = np.einsum("abc,bck->ak", eps, out["Cx"])
    out["frequencies"] = np.sqrt(np.maximum(lam, 0.0)) / (2 * np.pi)
    out["modal_mass"] = np.eye(len(lam))
    out["modal_stiffness"] = np.diag(lam)
    D = Z.T @ a["modal_damping"] @ Z
    out["modal_damping"] = 0.5 * (D + D.T)
    origins = a["interface_origins"] - o
    itf = a["interface_shapes"].copy()
    itf[:, :3] -= _rigid_field(t, th, origins)
    itf[:, 3:] -= th[None]
    itf[k] = 0.0
    out["interface_origins"] = origins
    out["interface_shapes"] = itf @ Z
    out["output_points"] = a["output_points"] - o
    out["output_shapes"] = (a["output_shapes"] - _rigid_field(t, th, out["output_points"])) @ Z
    out["gauge_points"] = a["gauge_points"] - o
    out["gauge_strain_modes"] = a["gauge_strain_modes"] @ Z
    if "mesh_points" in a:
        out["mesh_points"] = a["mesh_points"] - o
    if "mesh_shapes" in a:
        out["mesh_shapes"] = (a["mesh_shapes"] - _rigid_field(t, th, out["mesh_points"])) @ Z
    out = {name: np.array(v, np.int64 if name in ("mesh_tetra", "mesh_hexahedron") else np.float64, order="C")
           for name, v in out.items()}
    header = json.loads(json.dumps(component.header))
    name = header.get("interfaces", [{}] * (k + 1))[k].get("name", str(k))
    header["reference_frame"] = (f"interface '{name}' (origin at its frame origin, axes of the mesh frame); modes "
                                 f"clamped there: interface '{name}' has zero rows")
    header["reference_interface"] = name
    header["reference_origin_in_mesh_frame"] = (o + np.asarray(component.header.get("reference_origin_in_mesh_frame",
                                                                                      np.zeros(3)))).tolist()
    result = Component(header, out)
    validate(result, f"component '{header.get('name')}' referenced to interface '{name}'")
    return result


def _levi_civita():
    eps = np.zeros((3, 3, 3))
    eps[0, 1, 2] = eps[1, 2, 0] = eps[2, 0, 1] = 1.0
    eps[0, 2, 1] = eps[2, 1, 0] = eps[1, 0, 2] = -1.0
    return eps


def _clamped_modes(K, M):
    """Eigenpairs of K z = λ M z with Zᵀ M Z = 1, ascending (LinAlgError when M is not positive definite)."""
    import scipy.linalg as sla
    L = np.linalg.cholesky(M)                       # raises LinAlgError for a singular modal mass
    if np.linalg.cond(L) > 1e7:
        raise np.linalg.LinAlgError("modal mass nearly singular")
    lam, Z = sla.eigh(0.5 * (K + K.T), M)
    return lam, Z


def keep_modes(component, count):
    """The component with only its first ``count`` modes (the lowest, as stored).

    A Ritz projection onto the kept modes (every field restricted to them). For a
    component with diagonal modal mass and stiffness (every component femdyn writes, and
    the result of :func:`reference_to_interface`) the kept modes stay exact eigenmodes;
    a coupling modal damping is projected like the rest.

    Parameters
    ----------
    component : Component
    count : int, 0 ≤ count ≤ number of modes

    Returns
    -------
    Component

    Raises
    ------
    ComponentShapeError
        ``count`` out of range.

    Example
    -------
    >>> three = keep_modes(reference_to_interface(c, 0), 3)            # doctest: +SKIP
    """
    q = component.n_modes
    if not (isinstance(count, (int, np.integer)) and 0 <= count <= q):
        raise ComponentShapeError(f"component '{component.header.get('name')}': keep_modes({count!r}) needs an "
                                  f"integer between 0 and its {q} modes")
    a, out = component.arrays, {}
    for name, (shape, _, _) in FIELDS.items():
        if name not in a:
            continue
        v = a[name]
        index = tuple(slice(0, count) if s == "q" else slice(None) for s in shape)
        out[name] = np.array(v[index], order="C")
    header = json.loads(json.dumps(component.header))
    header.setdefault("reduction", {})["modes"] = int(count)
    result = Component(header, out)
    validate(result)
    return result
