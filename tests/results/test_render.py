"""Off-screen pictures: the deflection from the chord against a parabola, the picture
against the drawn shape (the magnified bow must move the link's pixels)."""
import numpy as np
import pytest

import femdyn
from femdyn.elements import sections
from femdyn.results.render import deflection_from_chord, largest_deflection, render_configuration

L, A = 1.0, 0.02      # beam length (m), parabola y = A x (L − x) / L² (mid-span deflection A/4)


def bent_beam():
    """A 4-element ANCF cable along x with its nodes set on the parabola z = A x(L − x)/L²:
    the cubic Hermite shape functions reproduce a parabola exactly, so the centreline's
    largest distance from the chord is A/4 at mid-span."""
    m = femdyn.Model("bent", gravity=(0, 0, 0))
    m.straight_beam("beam", (0, 0, 0), (L, 0, 0), 4, E=2.1e11, rho=7800, section=sections.circular(0.01),
                    element="cable")
    system = m.assemble()
    q = system.q0.copy()
    for k in range(5):
        x, start = k * L / 4, system.nodes[f"beam.{k}"].start
        q[start:start + 6] = [x, 0, A * x * (L - x) / L**2, 1, 0, A * (L - 2 * x) / L**2]
    return system, q


def test_deflection_from_the_chord_of_a_parabola():
    system, q = bent_beam()
    assert largest_deflection(system, np.vstack([system.q0, q])) == pytest.approx([0.0, A / 4], abs=1e-15)
    # a rigid motion (rotation about y, shift) leaves the deflection unchanged
    line = system.elements[0].centreline(q)
    c, s = np.cos(0.7), np.sin(0.7)
    moved = line @ np.array([[c, 0, -s], [0, 1, 0], [s, 0, c]]).T + (0.3, -0.2, 1.0)
    assert np.linalg.norm(deflection_from_chord(moved), axis=1).max() == pytest.approx(A / 4, rel=1e-12)


def test_the_picture_shows_the_magnified_bow(tmp_path):
    """Rendered at × 1 and × 20, the same bent beam: the magnified picture differs where
    the bow moved; the straight beam's pictures at × 1 and × 20 are the same."""
    import matplotlib.image as mpimg
    system, q = bent_beam()
    paths = {}
    for name, qq, magnify in (("flat1", system.q0, 1), ("flat20", system.q0, 20), ("bent1", q, 1), ("bent20", q, 20)):
        paths[name] = mpimg.imread(render_configuration(system, qq, str(tmp_path / f"{name}.png"), magnify=magnify,
                                                        title="beam", size=(400, 300)))
    assert paths["flat1"].shape == (300, 400, 3) or paths["flat1"].shape == (300, 400, 4)
    flat_change = np.abs(paths["flat1"] - paths["flat20"]).max(axis=-1) > 0.1
    bent_change = np.abs(paths["bent1"] - paths["bent20"]).max(axis=-1) > 0.1
    text_rows = slice(0, 60)                     # the title line quotes the factor
    flat_change[text_rows], bent_change[text_rows] = False, False
    assert flat_change.sum() < 10 and bent_change.sum() > 500
