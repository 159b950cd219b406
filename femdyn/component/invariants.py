"""Mass properties and inertia invariants of a flexible body, exactly from its consistent mass."""
import numpy as np

from femdyn.geometry import LEVI_CIVITA


def modal_invariants(points, scalar_mass, shapes, unity=None):
    """Mass properties and inertia shape integrals of a body with mode shapes Φ.

    The position field is x = Σ_a s_a X_a over nodal slots with reference values X_a and
    the mass matrix is M = M_s ⊗ I₃, so every integral is an exact quadratic form in the
    slots (Shabana 2005, *Dynamics of Multibody Systems*, §5.5, eqs. 5.115–5.134;
    Wallrapp 1994, SID), with w = M_s u the weights of the constant field u:

        mass = uᵀ w,  first_moment = ∫ρ x dV = Xᵀ w,  second_moment = ∫ρ x xᵀ dV = Xᵀ M_s X,
        Ct[i,k] = ∫ρ Φ_ik dV,     Cx[i,j,k] = ∫ρ x_i Φ_jk dV,
        Cpp[i,j,k,l] = ∫ρ Φ_ik Φ_jl dV,   Cr[:,k] = ∫ρ x × Φ_k dV = ε_abc Cx[b,c,k].

    Every other invariant follows linearly: the modal mass Σ_i Cpp[i,i], Shabana's
    S̄_ij = Cpp[i,j], the rotation–deformation coupling from Cx, ∫ρ Φ̃_k Φ̃_l dV from Cpp.

    Parameters
    ----------
    points : (a, 3) ndarray
        Reference values X of the slots [m] in the body frame: the mesh nodes of a solid;
        r, r_x, r_y, r_z of each node of an ANCF beam.
    scalar_mass : (a, a) ndarray or sparse matrix
        M_s [kg] with the body's mass matrix M = M_s ⊗ I₃.
    shapes : (a, 3, q) ndarray
        Mode shapes Φ [m per unit modal coordinate] at the slots, body frame.
    unity : (a,) ndarray, optional
        Slot values of the constant field (default: all 1, every slot a position; an ANCF
        beam has 1 on positions and 0 on gradients).

    Returns
    -------
    dict of ndarray
        mass [kg], com (3,) [m], inertia (3, 3) about the centre of mass [kg·m²],
        first_moment (3,) [kg·m], second_moment (3, 3) [kg·m²], Ct (3, q), Cx (3, 3, q),
        Cpp (3, 3, q, q), Cr (3, q).

    Examples
    --------
    Two point masses of 1 kg at x = 0 and x = 2 m, one mode translating both along x:

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
