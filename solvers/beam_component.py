"""Components (``.fdc``) of straight ANCF beams, for floating-frame bodies that describe the
same link as a chain of ANCF elements.

The beam (:class:`~femdyn.elements.ancf_beam.ANCFBeam3D`) is linearized about its straight
reference and reduced by Craig & Bampton (1968) to a frame at each end node, coupled as an
ANCF clamp is (r, r_y, r_z follow the frame, r_x free). A thin adapter over
:func:`femdyn.solvers.reduction.craig_bampton_matrices` and :mod:`femdyn.component`.
"""
import numpy as np

from femdyn.component import modal_invariants, new_component
from femdyn.errors import ModelError
from femdyn.geometry import skew
from femdyn.model.builder import Model

from .reduction import craig_bampton_matrices


def ancf_beam_component(length, E, rho, section, n_elements=8, n_modes=None, nu=0.3, damping_ratio=0.0,
                        name="beam", frame="mean", gauges=()):
    """Reduce a straight ANCF beam along the reference x axis to a component."""
    m = Model(f"{name} (reduction)", gravity=(0.0, 0.0, 0.0))
    m.straight_beam(name, (0, 0, 0), (length, 0, 0), n_elements, E, rho, section, element="beam", nu=nu,
                    y_axis=(0, 1, 0))
    s = m.assemble()
    n = s.n
    M = s.M.toarray()
    K = s.patterns.stiffness.matrix(s.tangent_values(s.q0, np.zeros(n), 0.0)[0]).toarray()
    K = 0.5 * (K + K.T)
    X = s.q0.reshape(-1, 3)                                   # slot reference values (r, rx, ry, rz per node)
    if frame not in ("mean", "x0"):
        raise ModelError(f"beam component '{name}': frame must be 'mean' or 'x0', got {frame!r}")
    held = frame == "x0"
    T = _clamp_frames(X, n, (0, n_elements))
    try:
        r = craig_bampton_matrices(T.T @ K @ T, T.T @ M @ T, np.arange(12), n_modes, rigid=0 if held else 6,
                                   held=6 if held else 0)
    except ModelError as err:
        raise ModelError(f"beam component '{name}': {err}") from None
    modes, omega = r.modes, r.omega                           # modes in [ξ_x0; ξ_x1; w]
    shapes = T @ modes
    q = len(omega)
    zeta = np.full(omega.shape, float(damping_ratio))
    if np.any(zeta < 0):
        raise ModelError(f"beam component '{name}': damping ratio must be ≥ 0, got {damping_ratio}")
    unity = np.zeros(len(X))
    unity[::4] = 1.0                                          # the constant field: positions 1, gradients 0
    arrays = modal_invariants(X, M[::3, ::3], shapes.reshape(-1, 3, q), unity)
    r_slots = np.arange(0, len(X), 4)
    arrays.update(frequencies=omega / (2 * np.pi), modal_mass=np.eye(q), modal_stiffness=np.diag(omega ** 2),
                  modal_damping=np.diag(2 * zeta * omega), interface_origins=X[r_slots[[0, -1]]],
                  interface_shapes=modes[:12].reshape(2, 6, -1), output_points=X[r_slots],
                  output_shapes=shapes.reshape(-1, 3, q)[r_slots], gauge_points=np.zeros((0, 3)),
                  gauge_strain_modes=np.zeros((0, 6, q)))
    if gauges:                                                # ComponentGauge on the wall, beam frame
        from .stress_modes import beam_gauges
        arrays["gauge_points"], arrays["gauge_strain_modes"], entries = beam_gauges(m, s, name, shapes, gauges, nu)
    component = new_component(
        name, arrays,
        reference_frame="the beam's reference frame: axis along x from the origin, section axes y, z; " +
                        ("elastic modes M-orthogonal to the rigid motions (linear mean-axis condition)"
                         if frame == "mean" else "modes of the beam held at interface x0 (its rows are zero)"),
        material={"E": float(E), "nu": float(nu), "rho": float(rho), "model": "isotropic linear elastic"},
        mesh={"name": f"{n_elements} ANCF beam elements", "nodes": n_elements + 1, "elements": {}},
        reduction={"method": "craig-bampton (ANCF beam linearized at its reference)",
                   "normal_modes": int(len(r.omega_fixed)), "rigid_modes_removed": int(r.n_rigid), "modes": int(q),
                   "damping_ratio": zeta.tolist()},
        interfaces=[{"name": "x0", "coupling": "ancf clamp", "nodes": 1},
                    {"name": "x1", "coupling": "ancf clamp", "nodes": 1}])
    if gauges:
        component.header["gauges"] = entries
    return component


def _clamp_frames(X, n, nodes):
    """T (n × (6·frames + interior)) with u = T [ξ; w]: r, r_y, r_z of each frame node follow its frame (δr = t, δr_y = θ × r_y, δr_z = θ × r_z); the rest w is free."""
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
    return np.hstack([B, np.eye(n)[:, interior]])
