"""Circle metrology (femdyn.reports.metrology) against known circles: exact circles in any plane,
noisy circles (centre and radius within the noise's expected error: σ/√k for the radius, σ√(2/k)
for the centre, checked at 4 standard errors), the least-squares roundness of a three-lobed
profile (2a: the lobes are orthogonal to the fitted modes), and the tracker's target offset and noise."""
import numpy as np
import pytest

from femdyn.errors import FemdynError
from femdyn.reports.metrology import REPEATABILITY, TARGET_OFFSET, fit_circle, tracker_samples


def circle(centre, radius, normal, k, lobes=0.0, noise=0.0, seed=1):
    """k points on a circle (with a three-lobed radial profile a cos 3φ and normal noise σ per coordinate)."""
    n = np.asarray(normal, float) / np.linalg.norm(normal)
    e1 = np.cross(n, [1.0, 0, 0] if abs(n[0]) < 0.9 else [0, 1.0, 0])
    e1 /= np.linalg.norm(e1)
    e2 = np.cross(n, e1)
    phi = np.linspace(0, 2 * np.pi, k, endpoint=False)
    r = radius + lobes * np.cos(3 * phi)
    P = np.asarray(centre) + r[:, None] * (np.cos(phi)[:, None] * e1 + np.sin(phi)[:, None] * e2)
    return P + np.random.default_rng(seed).normal(0.0, noise, P.shape)


def test_exact_circle_in_a_tilted_plane():
    c = fit_circle(circle((0.1, -0.2, -0.8), 0.1, (0.2, 0.3, 1.0), 50))
    assert np.allclose(c.centre, (0.1, -0.2, -0.8), atol=1e-14)
    assert abs(c.radius - 0.1) < 1e-14 and c.roundness < 1e-14 and c.flatness < 1e-14
    assert abs(abs(c.normal @ np.array((0.2, 0.3, 1.0))) / np.linalg.norm((0.2, 0.3, 1.0)) - 1) < 1e-14


@pytest.mark.parametrize("seed", range(5))
def test_noisy_circle_within_the_expected_error(seed):
    sigma, k = 1e-5, 400
    c = fit_circle(circle((0.0, 0.0, -0.8), 0.1, (0, 0, 1), k, noise=sigma, seed=seed))
    assert abs(c.radius - 0.1) < 4 * sigma / np.sqrt(k)
    assert np.linalg.norm(c.centre[:2]) < 4 * sigma * np.sqrt(2 / k)
    assert abs(c.centre[2] + 0.8) < 4 * sigma / np.sqrt(k)
    assert c.roundness < 12 * sigma            # the range of k normal deviations: ≈ 2 × 3σ for k = 400


def test_three_lobed_profile_roundness_and_errors():
    a = 1e-4
    c = fit_circle(circle((0, 0, 0), 0.1, (0, 0, 1), 360, lobes=a))
    assert abs(c.radius - 0.1) < 1e-9 and np.linalg.norm(c.centre) < 1e-12
    assert abs(c.roundness - 2 * a) < 1e-9 and abs(c.largest_error - a) < 1e-9
    assert c.smallest_error < 1e-5          # the profile crosses the circle
    table = c.table()
    assert abs(table["diameter"] - 200.0) < 1e-6 and abs(table["roundness"] - 0.2) < 1e-6


def test_tracker_offsets_the_target_and_adds_the_stated_noise():
    P = circle((0, 0, -0.8), 0.1, (0, 0, 1), 4000)
    n = np.tile((0, 0, 1.0), (len(P), 1))
    exact = tracker_samples(P, n, repeatability=0.0)
    assert np.allclose(exact - P, (0, 0, TARGET_OFFSET), atol=1e-16)
    noisy = tracker_samples(P, 3 * n, seed=4)
    assert abs(np.std(noisy - exact) - REPEATABILITY / 2) < 0.05 * REPEATABILITY / 2


def test_bad_input():
    with pytest.raises(FemdynError, match="one line"):
        fit_circle([(0, 0, 0), (1, 0, 0), (2, 0, 0)])
    with pytest.raises(FemdynError, match="k ≥ 3"):
        fit_circle([(0, 0, 0), (1, 0, 0)])
    with pytest.raises(FemdynError, match="tracker_samples"):
        tracker_samples(np.zeros((3, 3)), np.ones((2, 3)))
