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


def solve_closure(chains, Z, free):
    """Z with its ``free`` columns solved so that F(Z) = 0, and a mask of the batch rows that converged.

    Gauss–Newton on the rows still unsolved; the normal equations are solved by blocks: each limb's own
    joint coordinates are eliminated first, leaving the platform's free pose coordinates (a Schur complement
    of at most 6 × 6), so the cost grows with the limbs, not with their square.
    """
    Z = np.array(Z, float)
    cols = np.flatnonzero(free)
    blocks = _blocks(chains, cols)
    done = np.zeros(len(Z), bool)
    active = np.arange(len(Z))
    for _ in range(MAX_ITERATIONS):
        F, J = closure(chains, Z[active])
        solved = np.abs(F).max(axis=1) < TOLERANCE
        done[active[solved]] = True
        keep = ~solved & np.all(np.isfinite(F), axis=1)
        active, F, J = active[keep], F[keep], J[keep]
        if not active.size:
            break
        step = _gauss_newton_step(J[:, :, cols], F, blocks)
        step *= np.minimum(1.0, MAX_STEP / (np.abs(step).max(axis=1, keepdims=True) + 1e-300))
        Z[active[:, None], cols] += step
    return Z, done & np.all(np.isfinite(Z), axis=1)


def _blocks(chains, cols):
    """Per limb its rows and its own free columns (positions in ``cols``), and the free pose columns."""
    where = {c: k for k, c in enumerate(cols)}
    limbs, row = [], 0
    for limb in chains.limbs:
        own = [where[c] for c in range(limb.first, limb.first + len(limb.kinds)) if c in where]
        limbs.append((slice(row, row + limb.rows), np.array(own, int)))
        row += limb.rows
    return limbs, np.array([where[c] for c in range(chains.n_theta, chains.n) if c in where], int)


def _regular(G):
    """G + μ1 with μ = 1e-13 of its largest diagonal entry: solvable at a singular configuration."""
    mu = 1e-13 * np.abs(np.einsum("nii->ni", G)).max(axis=1, initial=0.0) + 1e-300
    return G + mu[:, None, None] * np.eye(G.shape[1])


def _gauss_newton_step(A, F, blocks):
    """δ minimizing |F + A δ| (batch), by limb blocks and the Schur complement on the pose columns."""
    limbs, border = blocks
    N, nb = A.shape[0], border.size
    S, s, kept = np.zeros((N, nb, nb)), np.zeros((N, nb)), []
    for rows, own in limbs:
        a, b, f = A[:, rows][:, :, own], A[:, rows][:, :, border], F[:, rows]
        S += np.einsum("nki,nkj->nij", b, b)
        s += np.einsum("nki,nk->ni", b, f)
        if own.size:
            G = _regular(np.einsum("nki,nkj->nij", a, a))
            coupling = np.einsum("nki,nkj->nij", a, b)
            X = np.linalg.solve(G, np.concatenate([coupling, np.einsum("nki,nk->ni", a, f)[..., None]], axis=2))
            S -= np.einsum("nki,nkj->nij", coupling, X[:, :, :nb])
            s -= np.einsum("nki,nk->ni", coupling, X[:, :, nb])
            kept.append((own, X))
    step = np.zeros((N, A.shape[2]))
    if nb:
        step[:, border] = -np.linalg.solve(_regular(S), s[..., None])[..., 0]
    for own, X in kept:
        step[:, own] = -X[:, :, -1] - np.einsum("nij,nj->ni", X[:, :, :nb], step[:, border])
    return step


def _split(J, free, fixed):
    """The free and fixed column blocks of a batch Jacobian."""
    return J[:, :, free], J[:, :, fixed]


def _least_squares(A, b):
    """x with A x = b (batch; b (N, k) or (N, k, m); A full column rank, the system consistent)."""
    rhs = np.einsum("nki,nk...->ni...", A, b)
    x = np.linalg.solve(np.einsum("nki,nkj->nij", A, A), rhs[..., None] if b.ndim == 2 else rhs)
    return x[..., 0] if b.ndim == 2 else x


def sensitivity(chains, Z, fixed):
    """dZ/dZ_fixed (N, n, n_fixed): how every coordinate moves with the fixed ones along the closure."""
    fixed = np.asarray(fixed, bool)
    _, J = closure(chains, Z)
    A, B = _split(J, ~fixed, fixed)
    out = np.zeros((len(Z), chains.n, int(fixed.sum())))
    out[:, fixed] = np.eye(int(fixed.sum()))
    out[:, ~fixed] = _least_squares(A, -B)
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
