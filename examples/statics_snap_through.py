"""Snap-through traced by arc-length continuation: a two-bar truss and a published deep arch.

1. A two-bar (von Mises) truss: bars (springs of stiffness k = 10 kN/m) from (∓1, 0, 0) m meet
   at an apex 0.1 m high that moves vertically; a downward force P = s · 10 N pushes it through
   the flat position to the mirrored shape and beyond. Under load control the truss jumps at its
   limit load (P ≈ 3.83 N); ``equilibrium_path`` follows the whole curve, the unstable part
   included, and every point lies on the closed form P(z) = 2 k z (L₀/L − 1), L = √(1 + z²).
2. The deep circular arch of Da Deppo & Schmidt (1975): radius R = 1 m, opening 215°, clamped at
   one end, hinged at the other, a vertical force at the crown; 40 planar ANCF cable elements
   (steel, 10 mm square section). The published limit load is P R²/EI = 8.97 (quoted as P = 897
   for R = 100, EI = 10⁶); femdyn's path peaks within 0.2 % of it, then the crown snaps back.
3. Snap-back: the truss pushed through a soft series spring (k_s = 50 N/m, 0.5 m long, below the
   truss's steepest unstable slope): the loaded end's deflection turns back, so displacement control
   fails as well; the arc length passes through, on the closed form top(z) = z + D − P(z)/k_s.
Writes ``path.csv``/``path.png`` (truss), ``snap_back.png`` (series spring), each with its closed form,
and ``arch.csv``/``arch.png`` (arch, the published limit load beside femdyn's curve).

    python examples/statics_snap_through.py [out_folder]

The closed forms are the ``*_reference()`` functions: ``femdyn statics`` draws them in its path figure,
e.g. ``femdyn statics examples/statics_snap_through.py --function truss --path 0.002 --channels apex.rz``.
"""
import os

import numpy as np

import femdyn
from femdyn.elements import sections
from femdyn.results.plots import output_folder
from femdyn.solvers import equilibrium_path

HALF_SPAN, RISE, K, P0 = 1.0, 0.1, 1.0e4, 10.0        # m, m, N/m, N
RADIUS, OPENING, E, SIDE = 1.0, 215.0, 2.0e11, 0.01   # m, degrees, Pa, m (square section)
PUBLISHED_LIMIT = 8.97                                # P R²/EI, Da Deppo & Schmidt (1975)
SPRING, LENGTH = 50.0, 0.5                            # series spring: stiffness N/m, length m
SOURCE = "equilibrium of the apex of the von Mises (1923) truss"


def truss():
    """The truss as a model: a point mass apex, two springs to the ground, a force."""
    m = femdyn.Model("von Mises truss", gravity=(0, 0, 0))
    m.point_mass("apex", (0, 0, RISE), 1.0)
    m.spring("left", "ground", (-HALF_SPAN, 0, 0), "apex", (0, 0, RISE), stiffness=K)
    m.spring("right", "ground", (HALF_SPAN, 0, 0), "apex", (0, 0, RISE), stiffness=K)
    m.fix("apex", components=(0, 1))                     # the apex moves vertically only
    m.force("P", "apex", (0, 0, RISE), (0, 0, -P0))
    return m.assemble()


def truss_load(z):
    """Closed form P(z) = 2 k z (L₀/L − 1), L = √(a² + z²): the load (N) holding the apex at height z (m)."""
    return 2 * K * z * (np.hypot(HALF_SPAN, RISE) / np.hypot(HALF_SPAN, z) - 1)


def _closed_heights():
    """Apex heights z (m) of the closed form from the rise to the far branch's load 1.5 P0 (past the paths' ends)."""
    from scipy.optimize import brentq
    return np.linspace(RISE, brentq(lambda z: truss_load(z) - 1.5 * P0, -2 * RISE, -RISE), 2001)


def truss_reference():
    """The truss's closed form for the path figure: (label, apex height z [m], load factor P(z)/P0)."""
    z = _closed_heights()
    return f"closed form P = 2kz (L₀/L − 1), L = √(a² + z²)\n({SOURCE})", z, truss_load(z) / P0


def snap_back_truss():
    """The truss loaded through a series spring from ``end`` (0.5 m above the apex) down to the apex."""
    m = femdyn.Model("von Mises truss with a series spring", gravity=(0, 0, 0))
    m.point_mass("apex", (0, 0, RISE), 1.0)
    m.point_mass("end", (0, 0, RISE + LENGTH), 1.0)
    m.spring("left", "ground", (-HALF_SPAN, 0, 0), "apex", (0, 0, RISE), stiffness=K)
    m.spring("right", "ground", (HALF_SPAN, 0, 0), "apex", (0, 0, RISE), stiffness=K)
    m.spring("series", "apex", (0, 0, RISE), "end", (0, 0, RISE + LENGTH), stiffness=SPRING)
    m.fix("apex", components=(0, 1))
    m.fix("end", components=(0, 1))
    m.force("P", "end", (0, 0, RISE + LENGTH), (0, 0, -P0))
    return m.assemble()


def snap_back_truss_reference():
    """Its closed form: (label, loaded end's height z + D − P(z)/k_s [m], load factor P(z)/P0)."""
    z = _closed_heights()
    return (f"closed form: end height z + D − P/k_s, P = 2kz (L₀/L − 1)\n({SOURCE}, in series with the spring)",
            z + LENGTH - truss_load(z) / SPRING, truss_load(z) / P0)


def arch_stiffness():
    """EI of the arch's section in its plane, N·m²."""
    return E * SIDE ** 4 / 12


def arch(n_elements=40):
    """The 215° clamped–hinged arch in the x–y plane, crown node ``arch.<n/2>`` loaded by 10 EI/R² at s = 1."""
    angle = np.radians(np.linspace(-OPENING / 2, OPENING / 2, n_elements + 1))
    points = RADIUS * np.column_stack([np.sin(angle), np.cos(angle), 0 * angle])
    m = femdyn.Model("deep circular arch", gravity=(0, 0, 0))
    m.beam_through_points("arch", points, E=E, rho=7800, section=sections.rectangular(SIDE, SIDE))
    m.clamp("clamp", "arch.0")
    m.fix(f"arch.{n_elements}", components=(0, 1))      # the hinge: position held, slope free
    crown = n_elements // 2
    m.force("P", f"arch.{crown}", points[crown], (0, -10 * arch_stiffness() / RADIUS ** 2, 0))
    return m.assemble()


def arch_limit(path, crown):
    """The limit load P R²/EI of a traced arch path: a parabola through the highest sample and its neighbours."""
    s, drop = 10 * path.load_factors, RADIUS - path.channel(f"arch.{crown}.ry")
    k = int(np.argmax(s))
    c = np.polyfit(drop[k - 1:k + 2], s[k - 1:k + 2], 2)
    return c[2] - c[1] ** 2 / (4 * c[0]), drop[k]


def main(folder):
    """Trace both paths, compare them with the closed form and the published limit load, write CSVs and figures."""
    path = equilibrium_path(truss(), 0.002, max_points=500)
    z = path.channel("apex.rz")
    print(f"truss: {len(path)} points, limit load {P0 * path.load_factors[z > 0].max():.4f} N on the way up "
          f"(closed form 3.8299 N), largest deviation from the closed form "
          f"{np.abs(P0 * path.load_factors - truss_load(z)).max():.1e} N")
    path.to_csv(os.path.join(folder, "path.csv"), ["apex.rz"])
    print("wrote", path.plot("apex.rz", os.path.join(folder, "path.png"), load=P0, load_label="P [N]",
                             title="von Mises truss: load against apex height", reference=truss_reference()))
    back = equilibrium_path(snap_back_truss(), 0.002, max_points=800)
    z, top = back.channel("apex.rz"), back.channel("end.rz")
    print(f"snap-back: {len(back)} points, largest deviation of the loaded end from the closed form "
          f"{np.abs(top - (z + LENGTH - P0 * back.load_factors / SPRING)).max():.1e} m")
    print("wrote", back.plot("end.rz", os.path.join(folder, "snap_back.png"), load=P0, load_label="P [N]",
                             title="truss through a series spring: snap-back of the loaded end",
                             reference=snap_back_truss_reference()))
    n = 40
    arch_path = equilibrium_path(arch(n), 0.01, max_points=700, load_max=1.0)
    limit, at = arch_limit(arch_path, n // 2)
    print(f"arch: {len(arch_path)} points, limit load P R²/EI = {limit:.3f} at crown drop {at:.3f} R "
          f"(Da Deppo & Schmidt 1975: {PUBLISHED_LIMIT}; {100 * (limit / PUBLISHED_LIMIT - 1):+.2f} %)")
    arch_path.to_csv(os.path.join(folder, "arch.csv"), [f"arch.{n // 2}.rx", f"arch.{n // 2}.ry"])
    print("wrote", _arch_figure(arch_path, n // 2, limit, os.path.join(folder, "arch.png")))


def _arch_figure(path, crown, limit, file):
    """P R²/EI against the crown's drop and sway, the published limit load beside."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    load = 10 * path.load_factors
    fig, ax = plt.subplots(figsize=(6.5, 4.8))
    ax.plot((RADIUS - path.channel(f"arch.{crown}.ry")) / RADIUS, load, ".-", ms=2, label="femdyn: crown drop v/R")
    ax.plot(path.channel(f"arch.{crown}.rx") / RADIUS, load, ".-", ms=2, label="femdyn: crown sway u/R (+x: to the hinge)")
    ax.axhline(PUBLISHED_LIMIT, color="k", ls="--", lw=0.9,
               label=f"Da Deppo & Schmidt (1975): limit P R²/EI = {PUBLISHED_LIMIT}")
    ax.axhline(0.0, color="0.6", lw=0.6)
    ax.set_xlabel("crown displacement / R [-]")
    ax.set_ylabel("P R²/EI [-]")
    ax.set_title(f"215° clamped–hinged arch, 40 ANCF cable elements: limit {limit:.3f}")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, frameon=False)
    fig.tight_layout()
    fig.savefig(file, dpi=110)
    plt.close(fig)
    return file


if __name__ == "__main__":
    main(output_folder("Snap-through traced by arc-length continuation: a two-bar truss and a deep arch"))
