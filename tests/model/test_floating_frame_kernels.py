"""The compiled floating-frame body and attachment rows (femdyn.model.floating_frame_kernels)
equal the numpy forms they replaced (tests/support/ffr_reference.py) to round-off on random
states for 0, 1, 4 and 10 modes, and the attachment Hessian matches finite differences of
its gradient on both branches of Rodrigues' coefficients (|θ|² below and above 4)."""
import numpy as np
import pytest

import femdyn
from support.ffr_models import bar, rotation
from support.ffr_reference import ReferenceAttachment, ReferenceBody

ROUNDOFF = 1e-12       # relative to the largest entry: sums of ≤ 10² terms in another order


def close(a, b):
    return np.abs(a - b).max() <= ROUNDOFF * max(np.abs(b).max(), 1.0)


def body_with(modes):
    _, _, comp = bar(E=2.1e9, damping_ratio=0.02)
    m = femdyn.Model("general", gravity=(0.3, -1.0, -9.81))
    m.flexible_body("bar", comp, (0.1, 0.2, 0.3), rotation((1, 2, 3), 0.7), modes=modes)
    s = m.assemble()
    return s, s.bodies["bar"]


@pytest.mark.parametrize("modes", [0, 1, 4, 10])
def test_body_evaluations_equal_the_numpy_reference(modes):
    """M(q), ∂(M a)/∂q, Q(q, v), K and C at five random (q, v, a) off the constraint manifold."""
    s, link = body_with(modes)
    ref = ReferenceBody(link)
    rng = np.random.default_rng(modes)
    for _ in range(5):
        q, v, a = s.q0 + 0.3 * rng.standard_normal(s.n), rng.standard_normal(s.n), rng.standard_normal(s.n)
        assert close(link.mass_values(q), ref.mass_values(q))
        assert close(link.mass_derivative(q, a), ref.mass_derivative(q, a))
        assert close(link.force(q, v, 0.0)[link.dofs], ref._local_force(q[link.dofs], v[link.dofs]))
        for new, old in zip(link.tangent_values(q, v, 0.0), ref.tangent_values(q, v, 0.0)):
            assert close(new, old)
    assert close(link.mass_coo()[2], ref.mass_values(s.q0))


def attachment_batch(modes, scale, rng):
    """The attachment kind of the bar with ``modes`` modes, the reference kind, and a random
    batch X (every interface × point and axis rows) with η of size ``scale``."""
    _, link = body_with(modes)
    kind = link.attachment
    ref = ReferenceAttachment(kind.origins, kind.Phi, kind.Psi)
    params = np.array([[k, kind_, i] for k in range(len(kind.origins)) for kind_ in (0, 1) for i in range(3)])
    X = rng.standard_normal((len(params), kind.arity, 3))
    X[:, 5:] *= scale
    return kind, ref, X, params


@pytest.mark.parametrize("modes, scale", [(1, 1e-3), (4, 1e-3), (10, 1e-2), (10, 0.1)])
def test_attachment_rows_equal_the_numpy_reference(modes, scale):
    """φ, ∂φ/∂X, ∂²φ/∂X² (inside the kind's mask) and the time terms of a random batch; η of 1e-3 keeps every |θ|² below 4 (series),
    1e-2 puts rows on both sides, 0.1 all above (closed forms; the bar's Ψ reaches ~10² rad per unit η)."""
    rng = np.random.default_rng(modes)
    kind, ref, X, params = attachment_batch(modes, scale, rng)
    target = rng.standard_normal(len(X))
    for new, old in zip(kind.evaluate(X, params, target), ref.evaluate(X, params, target)):
        assert close(new, old)
    assert close(kind.hessian(X, params), ref.hessian(X, params))
    assert not np.any(ref.hessian(X, params)[:, ~kind.mask])      # the kind's Hessian pattern holds every nonzero
    d1, d2 = rng.standard_normal(len(X)), rng.standard_normal(len(X))
    for new, old in zip(kind.time_terms(X, params, d1, d2), ref.time_terms(X, params, d1, d2)):
        assert close(new, old)


@pytest.mark.parametrize("scale", [1e-3, 1e-2])
def test_attachment_hessian_matches_finite_differences(scale):
    """∂²φ/∂X² against central differences of ∂φ/∂X (h = 1e-6: truncation ~h² and round-off
    ε/h ≈ 1e-10 relative; tolerance 1e-8)."""
    kind, _, X, params = attachment_batch(10, scale, np.random.default_rng(7))
    target = np.zeros(len(X))
    theta = np.einsum("mak,mk->ma", kind.Psi[params[:, 0]], X[:, 5:].reshape(len(X), -1)[:, :10])
    assert (np.sum(theta ** 2, 1).max() > 4.0) == (scale > 1e-3)
    H = kind.hessian(X, params)
    flat = X.reshape(len(X), -1)
    h = 1e-6
    for j in range(flat.shape[1]):
        plus, minus = flat.copy(), flat.copy()
        plus[:, j] += h
        minus[:, j] -= h
        fd = (kind.evaluate(plus.reshape(X.shape), params, target)[1]
              - kind.evaluate(minus.reshape(X.shape), params, target)[1]) / (2 * h)
        assert np.abs(H[:, :, j] - fd).max() < 1e-8 * max(np.abs(H).max(), 1.0)
