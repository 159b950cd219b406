"""Position, velocity and acceleration kinematics of a parallel robot from its closure equations.

Inverse kinematics fixes the task coordinates and solves the closure F(Z) = 0 of :mod:`.chain` for the
joint coordinates and the coordinates the mechanism sets (a translational robot's orientation, a lower-
mobility robot's parasitic motions); forward kinematics fixes the actuated joints and solves for the
rest. Both are Gauss–Newton iterations on the batch, steps limited to 0.5 rad (or m) per coordinate,
started from the home configuration unless a guess is given: they return the assembly branch connected
to it. Rates follow by differentiating F(Z(t)) = 0 once and twice: F_Z Ż = 0 and
F_Z Z̈ + D²F[Ż, Ż] = 0, the second term by the complex step (:func:`.chain.curvature`).
"""
import numpy as np

from ...errors import ConvergenceError
from .chain import closure, curvature

TOLERANCE = 1e-12        # closure residual accepted as solved (m, or dimensionless for axis rows)
MAX_ITERATIONS = 40
MAX_STEP = 0.5           # largest change of one coordinate per iteration (rad or m)


def solve_closure(chains, Z, free, what="closure"):
    """Z with its ``free`` columns solved so that F(Z) = 0, and a mask of the batch rows that converged."""
    Z = np.array(Z, float)
    cols = np.flatnonzero(free)
    done = np.zeros(len(Z), bool)
    for _ in range(MAX_ITERATIONS):
        F, J = closure(chains, Z)
        size = np.abs(F).max(axis=1)
        done = size < TOLERANCE
        if done.all():
            break
        A = J[:, :, cols]
        normal = np.einsum("nki,nkj->nij", A, A)
        scale = np.sqrt(np.einsum("nii->ni", normal)) + 1e-300
        normal /= scale[:, :, None] * scale[:, None, :]
        try:
            step = -np.linalg.solve(normal, np.einsum("nki,nk->ni", A, F)[..., None] / scale[..., None])[..., 0]
        except np.linalg.LinAlgError:
            step = -np.einsum("nij,nj->ni", np.linalg.pinv(normal), np.einsum("nki,nk->ni", A, F) / scale)
        step /= scale
        step *= np.minimum(1.0, MAX_STEP / (np.abs(step).max(axis=1, keepdims=True) + 1e-300))
        step[done] = 0.0
        Z[:, cols] += step
    done &= np.all(np.isfinite(Z), axis=1)
    return Z, done


def _split(J, free, fixed):
    """The free and fixed column blocks of a batch Jacobian."""
    return J[:, :, free], J[:, :, fixed]


def _least_squares(A, b):
    """x with A x = b (batch; A full column rank, the system consistent)."""
    return np.linalg.solve(np.einsum("nki,nkj->nij", A, A), np.einsum("nki,nk->ni", A, b)[..., None])[..., 0]


def sensitivity(chains, Z, fixed):
    """dZ/dZ_fixed (N, n, n_fixed): how every coordinate moves with the fixed ones along the closure."""
    fixed = np.asarray(fixed, bool)
    _, J = closure(chains, Z)
    A, B = _split(J, ~fixed, fixed)
    out = np.zeros((len(Z), chains.n, int(fixed.sum())))
    out[:, fixed] = np.eye(int(fixed.sum()))
    gram = np.einsum("nki,nkj->nij", A, A)
    out[:, ~fixed] = -np.linalg.solve(gram, np.einsum("nki,nkj->nij", A, B))
    return out


def rates(chains, Z, fixed, velocity, acceleration):
    """Ż and Z̈ (N, n) of solved states Z for given rates of the ``fixed`` coordinates."""
    fixed = np.asarray(fixed, bool)
    _, J = closure(chains, Z)
    A, B = _split(J, ~fixed, fixed)
    Zd = np.zeros_like(Z)
    Zd[:, fixed] = velocity
    Zd[:, ~fixed] = _least_squares(A, -np.einsum("nij,nj->ni", B, velocity))
    c = curvature(lambda z: closure(chains, z)[1], Z, Zd)
    Zdd = np.zeros_like(Z)
    Zdd[:, fixed] = acceleration
    Zdd[:, ~fixed] = _least_squares(A, -np.einsum("nij,nj->ni", B, acceleration) - c)
    return Zd, Zdd


def require(done, what, values):
    """ConvergenceError naming the first batch row that did not solve."""
    if not done.all():
        k = int(np.flatnonzero(~done)[0])
        raise ConvergenceError(f"{what}: no assembly found for {np.round(values[k], 6).tolist()} (row {k}); it is "
                               "outside the workspace, at a singularity, or on another assembly branch than home's "
                               "(give a guess nearer the solution)")
