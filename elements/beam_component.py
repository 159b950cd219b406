"""Components (``.fdc``) of straight ANCF beams, for floating-frame bodies that describe the
same link as a chain of ANCF elements.

The fully parameterized ANCF beam (:class:`~femdyn.elements.ancf_beam.ANCFBeam3D`) is
linearized about its straight, stress-free reference: its constant mass matrix M and its
tangent stiffness K at the reference are those of the element code itself, so a
floating-frame body of this component and the ANCF beam are the same model for small
deformation. The beam is reduced by Craig & Bampton (1968) to a frame at each end node,
coupled to the node as an ANCF clamp is (:class:`~femdyn.model.joints.Clamp`): the
position r and the section directors r_y, r_z follow the frame (δr = t, δr_y = θ × r_y,
δr_z = θ × r_z), the slope r_x stays free. The Craig–Bampton matrices are diagonalized
and the six rigid motions dropped, as in :mod:`femdyn.solvers.reduction`, so the modes
have unit modal mass and satisfy the linear mean-axis conditions.

Inertia invariants. The position field of an ANCF element is x(ξ, y, z) = Σ_a s_a(ξ, y, z) X_a
with X_a the reference values of the node slots (r, r_x, r_y, r_z) and M = M_s ⊗ I₃; so
every invariant is an exact quadratic form in the slots (Shabana 2005, §5.5): e.g.
Cx[i, j, k] = Σ X_a,i (M_s)_ab Φ_b,jk. The constant field has slot coefficients 1 on
positions and 0 on gradients, which gives the mass, first moment and Ct.
"""
import numpy as np
import scipy.linalg as sla

from femdyn.errors import ModelError
from femdyn.formats.component import FORMAT, VERSION, Component
from femdyn.geometry import skew
from femdyn.sparse import Pattern


def ancf_beam_component(length, E, rho, section, n_elements=8, n_modes=None, nu=0.3, damping_ratio=0.0,
                        name="beam", frame="mean"):
    """Reduce a straight ANCF beam along the reference x axis to a component.

    Parameters
    ----------
    length : float
        Beam length (m), from the origin along +x; section axes y, z.
    E, rho : float
        Young's modulus (Pa) and density (kg/m³).
    section : femdyn.elements.sections.CrossSection
    n_elements : int
        ANCF beam elements (``Model.straight_beam(..., element="beam")``).
    n_modes : int, optional
        Fixed-interface normal modes kept (default all: the component then spans every
        small motion of the element set).
    nu : float
        Poisson's ratio.
    damping_ratio : float
        Modal damping ratio ζ of every elastic mode.
    name : str
    frame : {"mean", "x0"}
        Reference frame of the modes: "mean" (default) the free-free body's mean axes (the
        six rigid motions are dropped; what a floating-frame body carries best through
        large motion), "x0" the frame of the first interface (modes of the beam held at
        x0, whose interface rows are then zero: the "tangent frame" of a cantilever).

    Returns
    -------
    Component
        Interfaces "x0" (origin) and "x1" (tip); output points at the nodes on the axis;
        no gauges and no mesh (ParaView shows the output points).

    Raises
    ------
    ModelError
        For bad beam data (from the element code) or a mode count out of range.

    Example
    -------
    >>> from femdyn.elements import sections
    >>> c = ancf_beam_component(1.0, 2.1e11, 7800.0, sections.circular(0.01), 4)
    >>> c.n_modes                      # 5 nodes × 12 − 18 held at the ends + 12 frame − 6 rigid
    48
    """
    from femdyn.model.builder import Model
    m = Model(f"{name} (reduction)", gravity=(0.0, 0.0, 0.0))
    m.straight_beam(name, (0, 0, 0), (length, 0, 0), n_elements, E, rho, section, element="beam", nu=nu,
                    y_axis=(0, 1, 0))
    s = m.assemble()
    n = s.n
    M = s.M.toarray()
    K = Pattern(s.k_rows, s.k_cols, (n, n)).assemble(s.tangent_values(s.q0, np.zeros(n), 0.0)[0]).toarray()
    K = 0.5 * (K + K.T)
    X = s.q0.reshape(-1, 3)                                   # slot reference values (r, rx, ry, rz per node)
    T, interior = _clamp_frames(X, n, (0, n_elements))
    if frame not in ("mean", "x0"):
        raise ModelError(f"beam component '{name}': frame must be 'mean' or 'x0', got {frame!r}")
    modes, omega, n_interior = _craig_bampton(T.T @ K @ T, T.T @ M @ T, n_modes, held=frame == "x0")
    shapes = T @ modes
    Ms = M[::3, ::3]
    arrays = _invariants(X, Ms, shapes.reshape(-1, 3, shapes.shape[1]))
    zeta = np.full(omega.shape, float(damping_ratio))
    if np.any(zeta < 0):
        raise ModelError(f"beam component '{name}': damping ratio must be ≥ 0, got {damping_ratio}")
    r_slots = np.arange(0, len(X), 4)
    arrays.update(frequencies=omega / (2 * np.pi), modal_mass=np.eye(len(omega)), modal_stiffness=np.diag(omega ** 2),
                  modal_damping=np.diag(2 * zeta * omega), interface_origins=X[r_slots[[0, -1]]],
                  interface_shapes=modes[:12].reshape(2, 6, -1), output_points=X[r_slots],
                  output_shapes=shapes.reshape(-1, 3, len(omega))[r_slots], gauge_points=np.zeros((0, 3)),
                  gauge_strain_modes=np.zeros((0, 6, len(omega))))
    header = {
        "format": FORMAT, "version": VERSION, "name": name,
        "units": {"length": "m", "mass": "kg", "time": "s", "angle": "rad", "strain": "1", "frequency": "Hz"},
        "reference_frame": "the beam's reference frame: axis along x from the origin, section axes y, z; " +
                           ("elastic modes M-orthogonal to the rigid motions (linear mean-axis condition)"
                            if frame == "mean" else "modes of the beam held at interface x0 (its rows are zero)"),
        "material": {"E": float(E), "nu": float(nu), "rho": float(rho), "model": "isotropic linear elastic"},
        "mesh": {"name": f"{n_elements} ANCF beam elements", "nodes": n_elements + 1, "elements": {}},
        "reduction": {"method": "craig-bampton (ANCF beam linearized at its reference)",
                      "normal_modes": int(n_interior), "rigid_modes_removed": 6 if frame == "mean" else 0,
                      "modes": int(len(omega)),
                      "damping_ratio": zeta.tolist()},
        "interfaces": [{"name": "x0", "coupling": "ancf clamp", "nodes": 1},
                       {"name": "x1", "coupling": "ancf clamp", "nodes": 1}],
        "strain_order": ["exx", "eyy", "ezz", "gyz", "gxz", "gxy"],
    }
    return Component(header, {k: np.array(v, np.float64, order="C") for k, v in arrays.items()})


def _clamp_frames(X, n, nodes):
    """T (n × (6·frames + interior)) with u = T [ξ; w]: the r, r_y, r_z slots of each
    frame node follow its frame ξ = (t, θ) (δr = t, δr_y = θ × r_y, δr_z = θ × r_z); all
    other coordinates w are free. Returns T and the interior coordinate indices."""
    B = np.zeros((n, 6 * len(nodes)))
    bound = []
    for k, node in enumerate(nodes):
        for slot in (0, 2, 3):
            rows = 3 * (4 * node + slot) + np.arange(3)
            if slot == 0:
                B[rows, 6 * k:6 * k + 3] = np.eye(3)
            else:
                B[rows, 6 * k + 3:6 * k + 6] = -skew(X[4 * node + slot])
            bound.extend(rows)
    interior = np.setdiff1d(np.arange(n), bound)
    return np.hstack([B, np.eye(n)[:, interior]]), interior


def _craig_bampton(K, M, n_modes, held=False):
    """Craig–Bampton on [ξ; w] (the first 12 coordinates the two frames): constraint modes
    Ψ = −K_ww⁻¹K_wξ and fixed-interface modes, then the reduced pair diagonalized and
    its 6 rigid modes dropped — or, ``held``, the first frame's six constraint modes left
    out (the beam held at x0: no rigid modes). Returns the modes (in [ξ; w]), ω (rad/s)
    and the number of fixed-interface modes kept."""
    b, i = np.arange(12), np.arange(12, K.shape[0])
    count = len(i) if n_modes is None else int(n_modes)
    if not 0 <= count <= len(i):
        raise ModelError(f"beam component: n_modes must be between 0 and {len(i)}, got {n_modes}")
    Psi = -np.linalg.solve(K[np.ix_(i, i)], K[np.ix_(i, b)])
    Phi = np.zeros((len(i), 0))
    if count:
        Phi = sla.eigh(K[np.ix_(i, i)], M[np.ix_(i, i)], subset_by_index=(0, count - 1))[1]
    V = np.zeros((K.shape[0], 12 + count))
    V[b, np.arange(12)] = 1.0
    V[np.ix_(i, np.arange(12))] = Psi
    V[np.ix_(i, 12 + np.arange(count))] = Phi
    rigid = 6
    if held:
        V, rigid = V[:, 6:], 0
    K_cb, M_cb = V.T @ K @ V, V.T @ M @ V
    lam, Z = sla.eigh(0.5 * (K_cb + K_cb.T), 0.5 * (M_cb + M_cb.T))
    return V @ Z[:, rigid:], np.sqrt(np.maximum(lam[rigid:], 0.0)), count


def _invariants(X, Ms, P):
    """Mass properties and inertia invariants from the slot values X (a, 3), the scalar mass
    M_s (a, a) and the shapes P (a, 3, q) (module docstring)."""
    unity = np.zeros(len(X))
    unity[::4] = 1.0                                          # the constant field: positions 1, gradients 0
    w = Ms @ unity
    mass = unity @ w
    first, second = X.T @ w, X.T @ Ms @ X
    MsP = np.einsum("ab,bjk->ajk", Ms, P)
    Cx = np.einsum("ai,ajk->ijk", X, MsP)
    Cpp = np.einsum("aik,ajl->ijkl", P, MsP)
    eps = np.zeros((3, 3, 3))
    eps[0, 1, 2] = eps[1, 2, 0] = eps[2, 0, 1] = 1
    eps[0, 2, 1] = eps[2, 1, 0] = eps[1, 0, 2] = -1
    com = first / mass
    about_com = second - mass * np.outer(com, com)
    return {"mass": np.float64(mass), "com": com, "inertia": np.trace(about_com) * np.eye(3) - about_com,
            "first_moment": first, "second_moment": second, "Ct": np.einsum("a,ajk->jk", w, P), "Cx": Cx,
            "Cpp": 0.5 * (Cpp + Cpp.transpose(1, 0, 3, 2)), "Cr": np.einsum("abc,bck->ak", eps, Cx)}
