"""Solid links: assembly, factorization and Craig–Bampton reduction (20 modes) of the
3-RRRU flexible link (815 mm rod, r = 10 mm, Gmsh quadratic tetrahedra) from ~10k dof
upwards, with time and peak memory per size, beside scikit-fem's assembly of the same mesh.

Each size runs in its own process so that the peak resident memory (ru_maxrss) belongs to
that size alone. Stages: 'mesh' (Gmsh, not part of the reduction), 'assembly' (K and M, the
interface coupling null space and the interior slices; p-multigrid: K, M of the renumbered copy),
'factor + Ψ' (CHOLMOD of K_ii and the 6 solved constraint modes; p-multigrid: Ψ by deflated PCG),
'normal modes' (shift-invert Lanczos, 20 modes, reusing the factor; p-multigrid: coarse space,
coarse modes, LOBPCG), 'orthonormalize' (reduced matrices and their eigenproblem),
'reduce total' (craig_bampton from the mesh in memory: the sum of the above), 'invariants'
(inertia shape integrals of the component, after the reduction; they assemble the body's mass).

Run: python benchmarks/bench_solid.py [--sizes 0.005 0.0036 0.0028 0.0018] [--modes 20] [--no-skfem]
(0.005 → 60k dof, 0.0018 → 0.93M dof Tet10); the last line gives the log–log slopes against dof.
"eigensolver" is the one craig_bampton chose by size, "BLAS" the library CHOLMOD loaded.
"""
import argparse
import json
import resource
import subprocess
import sys
import time

import numpy as np


def skfem_assembly(mesh, E, nu):
    """scikit-fem's assembly of the same stiffness (vector P1/P2 on the corner mesh) [s]."""
    import skfem
    from skfem.models.elasticity import lame_parameters, linear_elasticity
    (etype, conn), = mesh.blocks
    corners = conn[:, :4]
    used = np.unique(corners)
    renum = np.full(mesh.n_nodes, -1)
    renum[used] = np.arange(len(used))
    m = skfem.MeshTet(mesh.points[used].T.copy(), renum[corners].T.copy())
    element = skfem.ElementTetP2() if etype.name == "tet10" else skfem.ElementTetP1()
    basis = skfem.Basis(m, skfem.ElementVector(element), intorder=2)
    t = time.perf_counter()
    K = linear_elasticity(*lame_parameters(E, nu)).assemble(basis)
    return time.perf_counter() - t, K.shape[0]


def _cholmod_blas():
    """The BLAS library CHOLMOD loaded (file name), as threadpoolctl sees it."""
    from threadpoolctl import threadpool_info
    libs = [i["filepath"].split("/")[-2] + "/" + i["filepath"].split("/")[-1] for i in threadpool_info()
            if i["user_api"] == "blas" and "site-packages" not in i["filepath"]]
    return ", ".join(libs) or "reference"


def slope(x, y):
    """Exponent p of y ∝ x^p, least squares on log–log."""
    return float(np.polyfit(np.log(x), np.log(y), 1)[0])


def one(size, modes, with_skfem, order, blas_threads=2, mesh_dir=None, eigensolver=None):
    from femdyn.elements.solid_body import SolidBody
    from femdyn.solvers.reduction import component_from_reduction
    from femdyn.mesh.generate import rod_mesh
    from femdyn.solvers.reduction import Interface, craig_bampton
    out = {"size": size}
    t = time.perf_counter()
    if mesh_dir:                                  # meshes pickled once (Gmsh takes minutes at 1M dof)
        import pickle
        with open(f"{mesh_dir}/rod_{size}.pkl", "rb") as f:
            mesh = pickle.load(f)
    else:
        mesh = rod_mesh(0.815, 0.01, size, order=order)
    out["mesh"] = time.perf_counter() - t
    out["dof"], out["elements"] = mesh.ndof, mesh.n_elements
    body = SolidBody(mesh, 6.9e10, 0.3, 2700.0)
    marks = []
    t0 = time.perf_counter()
    red = craig_bampton(body, [Interface("end0", mesh.node_set("end0")), Interface("end1", mesh.node_set("end1"))],
                        modes, progress=lambda s: marks.append((s, time.perf_counter())), blas_threads=blas_threads,
                        eigensolver=eigensolver)
    t_end = time.perf_counter()
    stamps = {s.split(":")[0]: t for s, t in marks}
    out["eigensolver"] = red.eigensolver
    first = stamps.get("factorization", stamps["normal modes"])
    out["assembly"] = first - stamps["assembly"]  # K, M (of the renumbered copy for p-multigrid) and interfaces
    if "factorization" in stamps:                 # shift-invert: factor, Ψ, then Lanczos
        out["factor + Ψ"] = stamps["normal modes"] - stamps["factorization"]
        out["normal modes"] = stamps["orthonormalization"] - stamps["normal modes"]
    else:                                         # p-multigrid: modes (coarse factor + LOBPCG), then Ψ by PCG
        out["normal modes"] = stamps["constraint modes"] - stamps["normal modes"]
        out["factor + Ψ"] = stamps["orthonormalization"] - stamps["constraint modes"]
    out["orthonormalize"] = t_end - stamps["orthonormalization"]
    t = time.perf_counter()
    component_from_reduction(red, mesh_shapes=False)
    out["invariants"] = time.perf_counter() - t
    out["reduce total"] = t_end - t0
    out["f1 [Hz]"] = red.omega[0] / (2 * np.pi)
    out["peak RSS [MB]"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    out["BLAS"] = _cholmod_blas()
    if with_skfem:
        try:
            out["skfem assembly"], out["skfem dof"] = skfem_assembly(mesh, 6.9e10, 0.3)
        except ImportError:                 # pip install .[bench]
            pass
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=float, nargs="+", default=[0.008, 0.005, 0.004, 0.003])
    ap.add_argument("--modes", type=int, default=20)
    ap.add_argument("--order", type=int, default=2, help="1: Tet4, 2: Tet10 (default)")
    ap.add_argument("--no-skfem", action="store_true")
    ap.add_argument("--blas-threads", type=int, default=2, help="BLAS threads of the factorization (CHOLMOD)")
    ap.add_argument("--mesh-dir", help="read rod_<h>.pkl (pickled SolidMesh) from here instead of meshing")
    ap.add_argument("--eigensolver", help="force one (default: craig_bampton's choice by size)")
    ap.add_argument("--one", type=float, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.one:
        print(json.dumps(one(a.one, a.modes, not a.no_skfem, a.order, a.blas_threads, a.mesh_dir, a.eigensolver)))
        return
    cols = ["dof", "elements", "mesh", "assembly", "factor + Ψ", "normal modes", "orthonormalize",
            "invariants", "reduce total", "peak RSS [MB]", "skfem assembly", "f1 [Hz]", "eigensolver", "BLAS"]
    rows = []
    print("| " + " | ".join(["h [mm]"] + cols) + " |")
    print("|" + "---|" * (len(cols) + 1))
    for size in a.sizes:
        cmd = [sys.executable, __file__, "--one", str(size), "--modes", str(a.modes), "--order", str(a.order),
               "--blas-threads", str(a.blas_threads)]
        if a.no_skfem:
            cmd.append("--no-skfem")
        cmd += ["--mesh-dir", a.mesh_dir] if a.mesh_dir else []
        cmd += ["--eigensolver", a.eigensolver] if a.eigensolver else []
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode:
            print(f"| {size * 1e3:g} | failed: {res.stderr.strip().splitlines()[-1] if res.stderr else res.returncode} |")
            continue
        r = json.loads(res.stdout.strip().splitlines()[-1])
        rows.append(r)
        cells = [f"{r[c]:.3g}" if isinstance(r.get(c), float) else str(r.get(c, "–")) for c in cols]
        print("| " + " | ".join([f"{size * 1e3:g}"] + cells) + " |", flush=True)
    if len(rows) > 1:
        dof = [r["dof"] for r in rows]
        print("\nlog–log slopes against dof: " + ", ".join(
            f"{c} {slope(dof, [r[c] for r in rows]):.2f}" for c in ("assembly", "factor + Ψ", "normal modes",
                                                                       "reduce total", "peak RSS [MB]")))


if __name__ == "__main__":
    main()
