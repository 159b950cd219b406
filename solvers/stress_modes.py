"""Strain modes of a reduced solid for its component: nodal strains at a node set or the whole
surface, recovered by averaging the element strains at each node over the elements sharing it
(exact for a constant strain field), and strain gauges placed on the meshed surface and read
from the element holding each grid point. Fields and header: docs/components.md, "Stresses and
strain gauges".
"""
import numpy as np

from femdyn.component import Component, validate
from femdyn.component.stress import boundary_faces, gauge_header, place_gauge
from femdyn.elements import solid
from femdyn.errors import ModelError
from femdyn.mesh.solid import select


def surface_nodes(mesh):
    """Sorted indices of the nodes on the mesh's boundary faces (faces that belong to one element only)."""
    return np.unique(np.concatenate([f.ravel() for f in boundary_faces([conn for _, conn in mesh.blocks])]))


def stress_node_set(mesh, choice):
    """Node indices of a stress choice: 'surface', 'all', or a mesh selector (group:, box:, …)."""
    if choice == "surface":
        return surface_nodes(mesh)
    if choice == "all":
        return np.arange(mesh.n_nodes)
    return np.unique(select(mesh, choice))


def nodal_strain_modes(body, shapes, nodes):
    """(len(nodes), 6, q) strain modes at mesh nodes: element strains at the node averaged over its elements."""
    q = shapes.shape[1]
    U = shapes.reshape(-1, 3, q)
    total = np.zeros((body.mesh.n_nodes, 6, q))
    count = np.zeros(body.mesh.n_nodes)
    wanted = np.zeros(body.mesh.n_nodes, bool)
    wanted[nodes] = True
    for etype, conn in body.mesh.blocks:
        touching = wanted[conn].any(1)
        cells = conn[touching]
        X, Ue = body.mesh.points[cells], U[cells]                      # (e, n, 3), (e, n, 3, q)
        for a in range(etype.n_nodes):
            keep = wanted[cells[:, a]]
            if not keep.any():
                continue
            G = solid.gradients_at(etype, X[keep], np.broadcast_to(etype.reference[a], (int(keep.sum()), 3)))
            H = np.einsum("ebiq,ebj->eijq", Ue[keep], G)                # ∂u_i/∂x_j per mode
            eps = np.stack([H[:, i, j] + H[:, j, i] if i != j else H[:, i, i] for i, j in solid.VOIGT], axis=1)
            np.add.at(total, cells[keep, a], eps)
            np.add.at(count, cells[keep, a], 1.0)
    return total[nodes] / count[nodes, None, None]


def with_strains(component, reduction, stress=None, gauges=()):
    """The component of ``reduction`` with stress nodes (``stress``: 'surface', 'all', a selector) and strain gauges."""
    body, shapes = reduction.body, reduction.shapes
    arrays, header = dict(component.arrays), dict(component.header)
    if stress is not None:
        if "mesh_points" not in arrays:
            raise ModelError(f"component '{header.get('name')}': stress nodes need the mesh in the component; "
                             "reduce with mesh_shapes=True")
        nodes = stress_node_set(body.mesh, stress)
        arrays["stress_nodes"] = nodes.astype(np.int64)
        arrays["stress_strain_modes"] = nodal_strain_modes(body, shapes, nodes)
        header["stress"] = {"nodes": stress, "count": int(len(nodes)),
                            "recovery": "element strains at the node averaged over the elements sharing it"}
    if gauges:
        names = [g.name for g in gauges] + [g["name"] for g in header.get("gauges", [])]
        if len(set(names)) != len(names):
            raise ModelError(f"component '{header.get('name')}': gauge names {names} repeat; name each gauge once")
        entries, points = list(header.get("gauges", [])), [arrays["gauge_points"]]
        start = len(arrays["gauge_points"])
        cells = [conn for _, conn in body.mesh.blocks]
        faces = boundary_faces(cells)
        for g in gauges:
            grid, _, _, centre = place_gauge(g, body.mesh.points, cells, faces)
            entries.append(gauge_header(g, start, centre))
            points.append(grid)
            start += len(grid)
        new = np.vstack(points[1:])
        modes = (body.strain_operator(new) @ shapes).reshape(len(new), 6, -1)
        arrays["gauge_points"] = np.vstack(points)
        arrays["gauge_strain_modes"] = np.concatenate([arrays["gauge_strain_modes"], modes])
        header["gauges"] = entries
    result = Component(header, arrays)
    validate(result, f"component '{header.get('name')}'")
    return result


def beam_gauges(model, system, beam, shapes, gauges, nu):
    """(gauge_points, gauge_strain_modes, header entries) of gauges on an ANCF beam's wall (docs/components.md)."""
    from femdyn.model.sensors import BeamSensor
    elements = model.element_set(beam)
    lengths = np.broadcast_to(np.asarray(elements.kernel.length, float), (elements.count,))
    ends = np.concatenate([[0.0], np.cumsum(lengths)])
    full = "twist" in elements.kernel.sensor_quantities
    entries, points = [], []
    for g in gauges:
        entries.append(gauge_header(g, len(points)))
        points.extend(g.places()[0])
    points = np.array(points).reshape(-1, 3)
    step = 1e-7 / max(np.abs(shapes).max(), 1e-300)
    modes = np.zeros((len(points), 6, shapes.shape[1]))
    for p, (x, y, z) in enumerate(points):
        e = int(min(np.searchsorted(ends, x, side="right") - 1, elements.count - 1))
        xi = float(np.clip((x - ends[e]) / lengths[e], 0.0, 1.0))
        rho = np.hypot(y, z)
        s = np.array([-z, y]) / rho if rho > 0 else np.zeros(2)
        sensors = [BeamSensor("gauge", elements, e, xi, "strain", y, z)]
        sensors += [BeamSensor("gauge", elements, e, xi, k) for k in ("twist", "shear")] if full else []
        for sensor in sensors:
            sensor.bind(system)

        def read(q):
            """Voigt strains at the point for coordinates q."""
            exx = float(sensors[0].measure(q, None, None, None, 0.0)[0])
            gamma = (float(sensors[1].measure(q, None, None, None, 0.0)[0]) * rho
                     + sensors[2].measure(q, None, None, None, 0.0) @ s) if full else 0.0
            return np.array([exx, -nu * exx, -nu * exx, 0.0, gamma * s[1], gamma * s[0]])
        for k in range(shapes.shape[1]):
            modes[p, :, k] = (read(system.q0 + step * shapes[:, k]) - read(system.q0 - step * shapes[:, k])) / (2 * step)
    return points, modes, entries
