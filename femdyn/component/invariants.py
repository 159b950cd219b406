"""Mass properties and inertia invariants of a flexible body, exactly from its consistent mass."""
import numpy as np

from femdyn.geometry import LEVI_CIVITA


def modal_invariants(points, scalar_mass, shapes, unity=None):
    """Mass properties and inertia shape integrals of a body with mode shapes Φ, exact for M = M_s ⊗ I₃.

    Shabana 2005, §5.5, eqs. 5.115–5.134; Wallrapp 1994. With w = M_s u: mass = uᵀ w,
    first_moment = Xᵀ w, second_moment = Xᵀ M_s X, Ct = ∫ρ Φ, Cx = ∫ρ x Φ, Cpp = ∫ρ Φ Φ,
    Cr = ε Cx (docs/components.md). Returns a dict of these, com and inertia about com.

    Parameters
    ----------
    points : (a, 3) ndarray
        Reference slot values X, m, body frame (solid: nodes; ANCF beam: r, r_x, r_y, r_z).
    scalar_mass : (a, a) ndarray or sparse matrix
        M_s, kg.
    shapes : (a, 3, q) ndarray
        Mode shapes Φ at the slots, m per unit modal coordinate.
    unity : (a,) ndarray, optional
        Slot values of the constant field (default all 1; ANCF gradients 0).

    Examples
    --------
    >>> inv = modal_invariants(np.array([[0.0, 0, 0], [2.0, 0, 0]]), np.eye(2), np.array([[[1.0], [0], [0]]] * 2))
    >>> float(inv["mass"]), inv["com"].tolist(), inv["Ct"][:, 0].tolist()
    (2.0, [1.0, 0.0, 0.0], [2.0, 0.0, 0.0])
    """
    Ms, X, P = scalar_mass, points, shapes
    if unity is None:
        w = np.asarray(Ms.sum(axis=1)).ravel()
        mass = w.sum()
    else:
        w = Ms @ unity
        mass = unity @ w
    first, second = X.T @ w, X.T @ (Ms @ X)
    com = first / mass
    about_com = second - mass * np.outer(com, com)
    MsP = np.stack([Ms @ P[:, j] for j in range(3)], 1)            # (slot, j, mode)
    Cx = np.einsum("ni,njk->ijk", X, MsP)
    Cpp = np.einsum("nik,njl->ijkl", P, MsP)
    return {"mass": np.float64(mass), "com": com, "inertia": np.trace(about_com) * np.eye(3) - about_com,
            "first_moment": first, "second_moment": second, "Ct": np.einsum("n,njk->jk", w, P), "Cx": Cx,
            "Cpp": 0.5 * (Cpp + Cpp.transpose(1, 0, 3, 2)), "Cr": np.einsum("abc,bck->ak", LEVI_CIVITA, Cx)}
