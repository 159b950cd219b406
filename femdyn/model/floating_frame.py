"""Floating-frame-of-reference (FFR) bodies built from component files (``.fdc``).

r(x) = r_ref + A (x + Φ(x) η), A = [u v w] in natural coordinates (Shabana 2005, §5.1–5.5;
García de Jalón & Bayo 1994, ch. 2); M(q), quadratic-velocity forces and tangents are exact.
Each interface is a massless frame (:class:`InterfaceFrame`) tied by :class:`Attachment` rows.
Formulation: docs/floating-frame.md; invariants: docs/components.md.
"""
import numpy as np

from ..errors import ModelError
from ..geometry import rotated_vector
from ..input_checks import count, plural, vector3
from . import floating_frame_kernels as kernels
from .bodies import Frame
from .constraints import Equation
from .nodes import KINDS, register_node_kind
from .protocol import EMPTY, EMPTY_INT, Body
from .vectorfunctions import Dot, Linear

I3 = np.eye(3)
ORIENTATION_ROWS = ((0, 1), (0, 2), (1, 2), (1, 0), (2, 0), (2, 1))   # (i, j): a_i · A R e_j = 0


def _modal_node_kind(n_modes):
    """The node kind holding ``n_modes`` modal coordinates in ⌈n/3⌉ slots ``eta3k`` (registered on first use)."""
    slots = -(-n_modes // 3)
    name = f"modal{slots}"
    if name not in KINDS:
        register_node_kind(name, tuple(f"eta{3 * k}" for k in range(slots)))
    return name


def truncated(component, modes, what):
    """The component with only its first ``modes`` modes (every mode axis sliced)."""
    from femdyn.component import FIELDS, Component
    if modes > component.n_modes:
        raise ModelError(f"{what}: modes = {modes}, but the component has {component.n_modes}")
    arrays = {}
    for key, value in component.arrays.items():
        shape = FIELDS.get(key, ((),))[0]
        index = tuple(slice(0, modes) if s == "q" else slice(None) for s in shape)
        arrays[key] = value[index] if index else value
    return Component(component.header, arrays)


class Attachment:
    """Constraint kind of the interface frames of one FFR body (kind protocol: :mod:`femdyn.model.vectorfunctions`)."""

    def __init__(self, origins, translations, rotations):
        self.origins, self.Phi, self.Psi = (np.ascontiguousarray(x, float) for x in (origins, translations, rotations))
        self.n_modes = translations.shape[2]
        self.slots = -(-self.n_modes // 3)
        self.arity = 5 + self.slots
        k3, eta = 3 * self.arity, slice(15, 15 + self.n_modes)     # the padding of the last η slot stays out
        mask = np.zeros((k3, k3), bool)
        for a, b in ((slice(0, 3), eta), (slice(6, 15), eta), (eta, eta)):
            mask[a, b] = mask[b, a] = True
        for c in range(3):                                            # x₀ with a_c: f_c on the diagonal only
            mask[range(3), range(6 + 3 * c, 9 + 3 * c)] = mask[range(6 + 3 * c, 9 + 3 * c), range(3)] = True
        self.mask = mask

    def evaluate(self, X, params, target):
        """Attachment residuals φ and their exact gradients for a batch of rows (one compiled call)."""
        return kernels.attachment_evaluate(X, params, target, self.origins, self.Phi, self.Psi, kernels.SERIES)

    def hessian(self, X, params):
        """Exact ∂²φ/∂X² of the attachment rows (symmetric; one compiled call)."""
        return kernels.attachment_hessian(X, params, self.origins, self.Phi, self.Psi, kernels.SERIES)

    def time_terms(self, X, params, target_d1, target_d2):
        """Partial time derivatives: φ_t = −target', ∂φ_t/∂X = 0, φ_tt = −target''."""
        return -target_d1, np.zeros((len(X), 3 * self.arity)), -target_d2


class InterfaceFrame(Frame, Body):
    """The massless frame (point + three unit vectors) of one interface of an FFR body, held by :class:`Attachment`."""

    mass = 0.0

    def __init__(self, name, body, index, point, axes):
        self.name, self.body, self.index = name, body, index
        self.points, self.vectors = [point], list(axes)
        self.nodes = self.points + self.vectors
        self.origin, self.origin0 = point.expr, point.initial.copy()
        self.basis = [a.expr for a in axes]
        self.B0 = np.column_stack([a.initial for a in axes])

    def outline(self, q):
        return self.origin(q)[None, :]

    def equations(self):
        b, k = self.body, self.index
        args = b.attachment_arguments()
        rows = [Equation(b.attachment, (self.origin,) + args, np.array([k, 0, i]), 0.0, None,
                         f"{self.name}: attachment {'xyz'[i]}") for i in range(3)]
        rows += [Equation(b.attachment, (self.basis[i],) + args, np.array([k, 1, j]), 0.0, None,
                          f"{self.name}: attachment axis {'xyz'[i]}·{'xyz'[j]}") for i, j in ORIENTATION_ROWS]
        return rows

    def __repr__(self):
        return f"InterfaceFrame({self.name!r})"


class FloatingFrameBody(Body):
    """A flexible body in floating-frame-of-reference form built from a component."""

    constant_mass = False

    def __init__(self, name, component, origin, axes, modal):
        self.name, self.component = name, component
        c = component
        self.n_modes = c.n_modes
        self.mass = float(c.mass)
        self.first, self.second, self.Ct, self.Cx, self.Cpp, self.K_eta, self.D_eta = (
            np.ascontiguousarray(x, float) for x in (c.first_moment, c.second_moment, c.Ct, c.Cx, c.Cpp,
                                                     c.modal_stiffness, c.modal_damping))
        self.CppT = np.ascontiguousarray(self.Cpp.transpose(0, 1, 3, 2))     # unit-stride sums in the kernels
        self.origin_node, self.axes, self.modal = origin, list(axes), modal
        eta_dofs = modal.dofs[:self.n_modes] if modal is not None else np.zeros(0, int)
        self.dofs = np.concatenate([origin.dofs] + [a.dofs for a in axes] + [eta_dofs])
        self.padding = modal.dofs[self.n_modes:] if modal is not None else np.zeros(0, int)
        shapes = c.interface_shapes
        self.attachment = Attachment(c.interface_origins, shapes[:, :3], shapes[:, 3:])
        self.interfaces = []
        self.g = np.zeros(3)
        N = self.dofs.size
        self._rows, self._cols = np.repeat(self.dofs, N), np.tile(self.dofs, N)
        self._initial = np.concatenate([n.initial for n in [origin] + self.axes] +
                                       ([modal.initial[:self.n_modes]] if modal is not None else []))

    # --- frames and points ---------------------------------------------------------
    @property
    def points(self):
        """Point nodes moving with the body (frame origin, interface points)."""
        return [self.origin_node] + [f.points[0] for f in self.interfaces]

    @property
    def vectors(self):
        """Unit-vector nodes moving with the body (frame axes, interface axes)."""
        return self.axes + [a for f in self.interfaces for a in f.vectors]

    @property
    def nodes(self):
        return self.points + self.vectors + ([self.modal] if self.modal is not None else [])

    def interface(self, name):
        """The :class:`InterfaceFrame` of one interface of the component."""
        for f in self.interfaces:
            if f.name == f"{self.name}.{name}":
                return f
        raise ModelError(f"flexible body '{self.name}': no interface '{name}'; it has "
                         f"{[f.name.split('.', 1)[1] for f in self.interfaces]}")

    def attachment_arguments(self):
        """Exprs (r_ref, u, v, w, η slots) shared by the attachment rows."""
        slots = [self.modal.slot(s) for s in self.modal.slots] if self.modal is not None else []
        return tuple([self.origin_node.expr] + [a.expr for a in self.axes] + slots)

    def material_point(self, x):   # refused: joints, loads and rigid sensors attach to the interface frames
        raise ModelError(f"flexible body '{self.name}': joints and loads attach to its interface frames "
                         f"{[f.name for f in self.interfaces]} (Model.body('<body>.<interface>')), not to the body")

    material_vector = material_point

    def locate_output_point(self, x):
        """Index of the component's output point at ``x``."""
        P = self.component.output_points
        x = np.asarray(x, float)
        if len(P):
            k = int(np.argmin(np.linalg.norm(P - x, axis=1)))
            if np.linalg.norm(P[k] - x) <= 1e-9 * max(1.0, np.linalg.norm(x)):
                return k
        raise ModelError(f"flexible body '{self.name}': {x.tolist()} is not an output point of its component; "
                         f"choose one of {np.round(P, 9).tolist()} (m, reference frame), or reduce the "
                         "component again with this point among its output points")

    def point_state(self, q, v, x, shape):
        """Position and velocity of a material point of the body."""
        r, A, eta = self._unpack(q[self.dofs])
        vr, Adot, eta_dot = self._unpack(v[self.dofs])
        y = x + shape @ eta
        return r + A @ y, vr + Adot @ y + A @ (shape @ eta_dot)

    def deformed(self, q, points, shapes):
        """Deformed positions of material points: r = r_ref + A(x + Φ(x)η)."""
        r, A, eta = self._unpack(q[self.dofs])
        return r + (points + shapes @ eta) @ A.T

    def outline(self, q):
        c = self.component
        pts = self.deformed(q, c.interface_origins, c.interface_shapes[:, :3])
        return pts if len(pts) > 1 else np.vstack([q[self.origin_node.dofs], pts])

    def mesh_cells(self, q):
        """The deformed component mesh at ``q``, for pictures (ParaView output)."""
        c = self.component
        if "mesh_shapes" in c.arrays:
            cells = [(kind, c.arrays[key]) for kind, key in (("tetra", "mesh_tetra"), ("hexahedron", "mesh_hexahedron"))
                     if key in c.arrays]
            return self.deformed(q, c.mesh_points, c.mesh_shapes), cells
        vertices = np.arange(len(c.output_points))[:, None]
        return self.deformed(q, c.output_points, c.output_shapes), [("vertex", vertices)]

    def mesh_stress(self, q):
        """Strains and stresses (n_mesh, 10) at the mesh nodes (NaN off the stress nodes), or None without them."""
        from femdyn.component.stress import mesh_stress
        return mesh_stress(self.component, self.modal_coordinates(q)) if "mesh_shapes" in self.component.arrays else None

    def modal_coordinates(self, q):
        """The modal coordinates η of the body."""
        return q[self.dofs[12:]]

    @staticmethod
    def _unpack(R):
        return R[:3], R[3:12].reshape(3, 3).T, R[12:]

    # --- mass, forces and tangents: one compiled call each (floating_frame_kernels) ----------
    def mass_coo(self):
        return self._rows, self._cols, self._mass_matrix(self._initial).ravel()

    def _mass_matrix(self, R):
        return kernels.mass_matrix(R, self.mass, self.first, self.second, self.Ct, self.Cx, self.Cpp, self.CppT)

    def mass_values(self, q):
        return self._mass_matrix(q[self.dofs]).ravel()

    def mass_derivative_pattern(self):
        return self._rows, self._cols

    def mass_derivative(self, q, a):
        return kernels.mass_derivative(q[self.dofs], a[self.dofs], self.Ct, self.Cx, self.Cpp, self.CppT).ravel()

    def gravity(self, g):
        self.g = np.asarray(g, float)
        return EMPTY_INT, EMPTY

    def force(self, q, v, t):
        Q = np.zeros(self.n)
        Q[self.dofs] = kernels.force(q[self.dofs], v[self.dofs], self.g, self.mass, self.first, self.Ct, self.Cx,
                                     self.Cpp, self.CppT, self.K_eta, self.D_eta)
        return Q

    def tangent_pattern(self):
        return self._rows, self._cols, self._rows, self._cols

    def tangent_values(self, q, v, t):
        K, C = kernels.tangents(q[self.dofs], v[self.dofs], self.g, self.Ct, self.Cx, self.Cpp, self.CppT,
                                self.K_eta, self.D_eta)
        return K.ravel(), C.ravel()

    # --- constraints and energy ------------------------------------------------------------
    def equations(self):
        (u, v, w) = (a.expr for a in self.axes)
        rows = [Equation(Dot, (a, b), None, 0.0, None, f"{self.name}: axes {la}·{lb}")
                for (a, la), (b, lb) in (((u, "x"), (v, "y")), ((u, "x"), (w, "z")), ((v, "y"), (w, "z")))]
        for k, dof in enumerate(self.padding):
            slot = (dof - self.modal.start) // 3
            rows.append(Equation(Linear, (self.modal.slot(self.modal.slots[slot]),), I3[(dof - self.modal.start) % 3],
                                 0.0, None, f"{self.name}: unused modal coordinate {self.n_modes + k}"))
        return rows

    def strain_energy(self, q):
        eta = q[self.dofs[12:]]
        return 0.5 * eta @ self.K_eta @ eta

    def potential_energy(self, q):
        r, A, eta = self._unpack(q[self.dofs])
        return self.strain_energy(q) - self.g @ (self.mass * r + A @ (self.first + self.Ct @ eta))

    def __repr__(self):
        return f"FloatingFrameBody({self.name!r}, {plural(self.n_modes, 'mode')}, {plural(len(self.interfaces), 'interface')})"


def _interface_placements(component, position, R, eta):
    """(name, origin m, axes (3, 3)) of each interface frame: r_ref + R(o_k + Φ_k η), R R_k(η)."""
    names = [i.get("name", f"interface{k}") for k, i in enumerate(component.header.get("interfaces", []))]
    names += [f"interface{k}" for k in range(len(names), len(component.interface_origins))]
    placed = []
    for iname, o, shape in zip(names, component.interface_origins, component.interface_shapes):
        rot = rotated_vector(np.tile(shape[3:] @ eta, (3, 1)), np.eye(3), second=False)[0].T   # columns R_k e_j
        placed.append((iname, position + R @ (o + shape[:3] @ eta), R @ rot))
    return placed


class FloatingFrameBuilder:
    """The floating-frame constructor of :class:`~femdyn.model.Model` (``m.flexible_body``)."""

    def flexible_body(self, name, component, position=(0.0, 0.0, 0.0), axes=None, modes=None, eta=None):
        """Add a floating-frame body from a component file; its interface frames are bodies ``"<name>.<interface>"``.

        Parameters
        ----------
        name : str
        component : str, path or Component
            A ``.fdc`` file or a loaded :class:`~femdyn.component.Component`.
        position : array_like (3,)
            Position of the component's reference-frame origin at t = 0, m.
        axes : array_like (3, 3), optional
            Rotation matrix whose columns are the reference axes (default the global axes).
        modes : int, optional
            Keep only the first ``modes`` modes (default all; 0 gives a rigid body).
        eta : array_like, optional
            Initial modal coordinates (unit modal mass; default zero).
        """
        from femdyn.component import Component, read_component
        what = f"flexible body '{name}'"
        comp = component if isinstance(component, Component) else read_component(component)
        if modes is not None and not (isinstance(modes, (int, np.integer)) and modes == 0):
            modes = count(modes, f"{what}: modes")
        comp = truncated(comp, comp.n_modes if modes is None else int(modes), what)
        R = np.eye(3) if axes is None else np.asarray(axes, float)
        if R.shape != (3, 3) or not np.allclose(R.T @ R, np.eye(3), atol=1e-9) or np.linalg.det(R) < 0:
            raise ModelError(f"{what}: axes must be a 3×3 rotation matrix (orthonormal columns, det +1), got {R!r}")
        n_modes = comp.n_modes
        eta = np.zeros(n_modes) if eta is None else np.asarray(eta, float).ravel()
        if eta.shape != (n_modes,) or not np.all(np.isfinite(eta)):
            raise ModelError(f"{what}: eta must hold {n_modes} finite modal coordinates, got {eta!r}")
        position = vector3(position, f"{what}: position (m)")
        origin = self.point(f"{name}.origin", position)
        frame_axes = [self.vector(f"{name}.{c}", R[:, k]) for k, c in enumerate("xyz")]
        modal = None
        if n_modes:
            kind = _modal_node_kind(n_modes)
            modal = self.add_node(f"{name}.eta", kind, np.concatenate([eta, np.zeros(-n_modes % 3)]))
        body = self._add_body(FloatingFrameBody(name, comp, origin, frame_axes, modal))
        for k, (iname, at, axes) in enumerate(_interface_placements(comp, position, R, eta)):
            point = self.point(f"{name}.{iname}", at)
            vecs = [self.vector(f"{name}.{iname}.{c}", axes[:, j]) for j, c in enumerate("xyz")]
            body.interfaces.append(self._add_body(InterfaceFrame(f"{name}.{iname}", body, k, point, vecs)))
        return body
