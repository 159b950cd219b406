"""How the actuators realize the servo constraints, and the integrator settings that follow.

Servo-constraint inverse dynamics (Blajer & Kołodziejczyk 2004, Multibody Syst. Dyn.
11:343–364) solves M q̈ + Φ_qᵀλ − Bᵀu = Q, Φ = 0, Ψ(q, t) = 0. The decoupling matrix

    P = Ψ_q M_c⁻¹ Bᵀ   (M_c⁻¹ the inverse mass on Φ_q q̈ = γ; Blajer & Kołodziejczyk 2007)

classifies the realization (Blajer, Seifried & Kołodziejczyk 2015, Arch. Appl. Mech.
85:1191–1207): tangent (rank P = k, *collocated*: index 3, usual settings) or orthogonal /
mixed (*non-collocated*: higher index, singular start, strong numerical damping needed;
:func:`check_servo_settings` warns above ``RHO_NONCOLLOCATED``). Flexible ANCF links make
P tiny rather than zero and count as non-collocated. The threshold and its measurements:
docs/input-checks.md ("Servo constraints").
"""
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from femdyn.errors import ServoWarning, SingularMatrixError

RHO_NONCOLLOCATED = 0.2     # above it a non-collocated servo's input error grows 2–3× per 0.1 of ρ∞ (docs/input-checks.md)
SINGULAR = 1e-8             # σ_i(P) ≤ SINGULAR · ‖Ψ_q‖ ‖M_c⁻¹‖ ‖B‖ counts as zero
DENSE_LIMIT = 3000          # coordinates + joint rows up to which P is computed (dense LU)


@dataclass
class ServoRealization:
    """The decoupling matrix P = Ψ_q M_c⁻¹ Bᵀ of a servo model and what it says."""

    P: np.ndarray
    singular_values: np.ndarray
    reference: float
    rank: int

    @property
    def realization(self):
        """"tangent" (rank k), "orthogonal" (rank 0) or "mixed" (Blajer et al. 2015)."""
        if self.rank == len(self.singular_values):
            return "tangent"
        return "orthogonal" if self.rank == 0 else "mixed"

    @property
    def collocated(self):
        """Whether P is regular (tangent realization: index 3, the start is regular)."""
        return self.realization == "tangent"

    @property
    def verdict(self):
        """One sentence for messages and reports."""
        if self.collocated:
            return (f"collocated (tangent realization, P regular, σ_min/σ_ref = "
                    f"{self.singular_values[-1] / self.reference:.3g}): index 3, usual generalized-α settings")
        return (f"non-collocated ({self.realization} realization, rank P = {self.rank} of "
                f"{len(self.singular_values)}): relative degree > 2, a singular start solved in the least-squares "
                f"sense and ρ∞ ≤ {RHO_NONCOLLOCATED:g} needed")


def servo_realization(system, q, t=0.0, dense_limit=DENSE_LIMIT):
    """Classify a servo model at a state by its decoupling matrix P = Ψ_q M_c⁻¹ Bᵀ.

    P (output acceleration per unit input, joints enforced; Blajer & Kołodziejczyk 2007) decides
    whether the start's acceleration matrix is regular. Dense (one LU of the joint saddle).

    Parameters
    ----------
    system : System
        An assembled model with servo constraints and actuators.
    q : (n,) ndarray
        Coordinates (m for positions).
    t : float, optional
        Time, s.
    dense_limit : int, optional
        Largest n + (joint rows) classified; larger models return None.

    Returns
    -------
    ServoRealization or None
        None when the model has no servo rows or is larger than ``dense_limit``.

    Raises
    ------
    SingularMatrixError
        If the joint saddle itself is singular (redundant joints or a massless free
        motion: a modelling error independent of the servo constraints).

    Examples
    --------
    A rod on a motor with its tip height prescribed: the torque accelerates the tip
    directly (tangent realization, collocated).

    >>> import femdyn
    >>> m = femdyn.Model("arm")
    >>> rod = m.rigid_beam("arm", m.point("O", (0, 0, 0)), m.point("A", (1.0, 0, 0)), mass=1.0)
    >>> _ = m.revolute("pivot", "ground", rod, (0, 0, 0), (0, 1, 0))
    >>> _ = m.actuator("motor", "pivot")
    >>> _ = m.servo("tip", "arm", (1.0, 0, 0), [0.0], [(0, 0, 1)])
    >>> system = m.assemble()
    >>> r = servo_realization(system, system.q0)
    >>> r.realization, round(float(r.P[0, 0]), 6)       # tip: −3/(m L) per N·m (torque about +y lowers it)
    ('tangent', -3.0)
    """
    rows = system.input_rows
    joint_rows = np.setdiff1d(np.arange(system.m), rows)
    if not rows.size or system.n + joint_rows.size > dense_limit:
        return None
    jacobian = system.constraints.jacobian(q, t).toarray()
    Psi, B = jacobian[rows], _input_matrix(system, q)
    inverse_mass = _constrained_inverse_mass(system, q, jacobian[joint_rows], t)
    P = Psi @ inverse_mass @ B.T
    s = np.linalg.svd(P, compute_uv=False)
    reference = np.linalg.norm(Psi, 2) * np.linalg.norm(inverse_mass, 2) * np.linalg.norm(B, 2)
    return ServoRealization(P, s, reference, int(np.sum(s > SINGULAR * reference)))


def _input_matrix(system, q):
    """B (k × n, dense): row j the input direction ∂s_j/∂q of the actuator of servo row j."""
    B = np.zeros((len(system.actuators), system.n))
    for j, a in enumerate(system.actuators):
        np.add.at(B[j], a.input_pattern(), a.input_values(q))
    return B


def _constrained_inverse_mass(system, q, joints, t):
    """M_c⁻¹, the upper-left n × n block of [[M, Φ_qᵀ], [Φ_q, 0]]⁻¹ (joint rows only, dense)."""
    n, m = system.n, joints.shape[0]
    saddle = np.block([[system.mass(q).toarray(), joints.T], [joints, np.zeros((m, m))]])
    with warnings.catch_warnings():           # an exactly singular saddle is reported below, in the model's words
        warnings.simplefilter("ignore", sla.LinAlgWarning)
        lu, piv = sla.lu_factor(saddle, check_finite=False)
    pivots = np.abs(np.diag(lu))
    if not pivots.size or pivots.min() <= 1e-13 * pivots.max():
        raise SingularMatrixError(f"model '{system.name}' at t = {t:g} s: the joints and masses alone leave a "
                                  "motion without inertia or make redundant rows; see the forward model's "
                                  "diagnosis (Model.assemble().summary(), System.redundant_constraints)")
    return sla.lu_solve((lu, piv), np.vstack([np.eye(n), np.zeros((m, n))]), check_finite=False)[:n]


def check_servo_settings(system, q, rho_inf, t=0.0, enabled=True):
    """Warn (ServoWarning) when a non-collocated servo model runs with ρ∞ above ``RHO_NONCOLLOCATED``."""
    if not enabled or not system.input_rows.size:
        return None
    realization = servo_realization(system, q, t)
    if realization is not None and not realization.collocated and rho_inf > RHO_NONCOLLOCATED:
        warnings.warn(
            f"model '{system.name}': the servo constraints are {realization.verdict.split(':')[0]}: some actuator "
            "reaches its prescribed output only through other bodies or compliant elements (relative degree > 2). "
            f"Generalized-α with ρ∞ = {rho_inf:g} lets the inputs of such problems oscillate and grow from step to "
            f"step (measured on mass-spring chains: 3 % of the peak input at ρ∞ = 0.5 and divergence at 0.9 for relative "
            "degree 6, against 7e-5 at ρ∞ = 0); use Options(rho_inf=0.0) (ρ∞ ≤ {RHO_NONCOLLOCATED:g}), "
            "and prescribe a motion that starts and ends at rest with its derivatives up to the relative degree "
            "vanishing", ServoWarning, stacklevel=5)
    return realization
