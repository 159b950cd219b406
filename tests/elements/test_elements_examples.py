"""Worked examples of femdyn.elements, femdyn.robots and the root helpers (geometry, sparse,
linalg), run as doctests: shape functions, quadrature rules, solid-element kernels,
natural-coordinate inertia, rotations, sparse and rank-revealing linear algebra, robot
models. Each was an Examples section of a docstring; each runs in its module's namespace.
"""
import doctest
import importlib

import pytest

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE

EXAMPLES = {
    ("femdyn.elements.ancf_beam", "patch_recovery"): """
        >>> import numpy as np
        >>> mid = np.array([[1.0], [2.0]])                   # a field linear in arc length
        >>> patch_recovery(mid, np.ones(2), np.array([-1, 0]), np.array([1, -1]), 1.0)
        array([[1.5],
               [2.5]])
    """,
    ("femdyn.elements.ancf_beam_quadratic", "lagrange2"): """
        >>> N, dN = lagrange2([0.0, 0.5, 0.25])
        >>> N[2]
        array([ 0.375,  0.75 , -0.125])
        >>> N.sum(axis=1)                     # partition of unity
        array([1., 1., 1.])
    """,
    ("femdyn.elements.ancf_cable", "ANCFCable.axial_strain"): """
        >>> from femdyn.elements import sections
        >>> cable = ANCFCable2D([[0, 0, 1, 0, 1, 0, 1, 0]], 2.1e11, 7850, sections.circular(0.01))
        >>> stretched = [[0, 0, 1.01, 0, 1.01, 0, 1.01, 0]]          # uniform 1 % stretch
        >>> cable.axial_strain(stretched, 0.3).round(12)
        array([0.01])
    """,
    ("femdyn.elements.ancf_element", "hermite"): """
        >>> N, dN, ddN = hermite([0.0, 0.5, 1.0])
        >>> N[1]
        array([ 0.5  ,  0.125,  0.5  , -0.125])
        >>> N.sum(axis=1)[[0, 2]]
        array([1., 1.])
    """,
    ("femdyn.elements.ancf_element", "reference_arc_length"): """
        >>> import numpy as np
        >>> p1, p2 = np.array([[0.0, 0.0]]), np.array([[1.0, 1.0]])
        >>> t1, t2 = np.array([[1.0, 0.0]]), np.array([[0.0, 1.0]])
        >>> reference_arc_length(p1, t1, p2, t2).round(4)    # cubic near a quarter circle (π/2)
        array([1.5568])
        >>> reference_arc_length(p1, t1, np.array([[2.0, 0.0]]), t1)    # straight: the chord
        array([2.])
    """,
    ("femdyn.elements.ancf_element", "ANCFElement"): """
        >>> from femdyn.elements.ancf_cable import ANCFCable2D
        >>> from femdyn.elements import sections
        >>> cable = ANCFCable2D([[0, 0, 1, 0, 1, 0, 1, 0]], 2.1e11, 7850, sections.circular(0.01))
        >>> cable.strain_energy(cable.q_ref)
        array([0.])
    """,
    ("femdyn.elements.ancf_element", "ANCFElement.shape"): """
        >>> from femdyn.elements.ancf_cable import ANCFCable2D
        >>> from femdyn.elements import sections
        >>> cable = ANCFCable2D([[0, 0, 1, 0, 2, 0, 1, 0]], 2.1e11, 7850, sections.circular(0.01))
        >>> cable.shape(0.5) @ cable.q_ref[0]        # the midpoint of the 2 m element
        array([[1., 0.]])
    """,
    ("femdyn.elements.ancf_element", "ANCFElement.mass"): """
        >>> from femdyn.elements.ancf_cable import ANCFCable2D
        >>> from femdyn.elements import sections
        >>> import numpy as np
        >>> cable = ANCFCable2D([[0, 0, 1, 0, 2, 0, 1, 0]], 2.1e11, 7850, sections.circular(0.01))
        >>> M = cable.mass()[0]
        >>> bool(np.isclose(M[0::4, 0::4].sum(), 7850 * np.pi * 1e-4 * 2))   # total mass, translation
        True
    """,
    ("femdyn.elements.ncf", "second_moment"): """
        >>> import numpy as np
        >>> second_moment(2.0, [0.5, 0, 0], np.diag([0.0, 1.0, 1.0]))[0, 0].item()   # 2·0.25 + 1
        1.5
    """,
    ("femdyn.elements.ncf", "basis_mass_matrix"): """
        >>> import numpy as np
        >>> g, I = slender_rod(3.0, 2.0)
        >>> Z, first = basis_mass_matrix(3.0, g, I, np.array([[2.0], [0], [0]]), [True])
        >>> Z * 6 / 3.0          # the classic m/6 [[2, 1], [1, 2]] of a bar
        array([[2., 1.],
               [1., 2.]])
    """,
    ("femdyn.elements.ncf", "equilateral_plate"): """
        >>> m, I = equilateral_plate(0.1, 0.0, mass=2.0)
        >>> m, round(float(I[2, 2]), 12)
        (2.0, 0.005)
    """,
    ("femdyn.elements.quadrature", "gauss_legendre"): """
        >>> xi, w = gauss_legendre(2)
        >>> round(float(w @ xi**3), 15)       # ∫₀¹ ξ³ dξ = 1/4, exact
        0.25
    """,
    ("femdyn.elements.sections", "rectangle_torsion_constant"): """
        >>> round(float(rectangle_torsion_constant(1.0, 1.0)), 5)     # square: 0.1406 a⁴
        0.14058
    """,
    ("femdyn.elements.solid", "tetrahedron_rule"): """
        >>> p, w = tetrahedron_rule(2); round(float(w.sum()) * 6, 12)
        1.0
    """,
    ("femdyn.elements.solid", "hexahedron_rule"): """
        >>> p, w = hexahedron_rule(2); p.shape, float(w.sum())
        ((8, 3), 8.0)
    """,
    ("femdyn.elements.solid", "lame"): """
        >>> lame(2.5, 0.25)
        (1.0, 1.0)
    """,
    ("femdyn.elements.solid", "elasticity_matrix"): """
        >>> elasticity_matrix(2.5, 0.25)[0, :4].tolist()
        [3.0, 1.0, 1.0, 0.0]
    """,
    ("femdyn.elements.solid", "jacobian"): """
        >>> jacobian(TET4, 2.0 * TET4.reference[None], [[0.1, 0.1, 0.1]])[0, 0].tolist()
        [[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]]
    """,
    ("femdyn.elements.solid", "shape_gradients"): """
        >>> G, det = shape_gradients(TET4, 2.0 * TET4.reference[None], [[0.25, 0.25, 0.25]])
        >>> G[0, 0, 1].tolist(), round(float(det[0, 0]), 12)
        ([0.5, 0.0, 0.0], 8.0)
    """,
    ("femdyn.elements.solid", "scalar_mass_matrices"): """
        >>> round(float(scalar_mass_matrices(TET4, TET4.reference[None], 6.0).sum()), 12)   # ρ V = 6 · 1/6
        1.0
    """,
    ("femdyn.elements.solid", "strains"): """
        >>> X = TET4.reference[None]; U = 1e-3 * X            # uniform stretch 1e-3
        >>> np.round(strains(TET4, X, U, [[0.2, 0.2, 0.2]])[0, 0], 12).tolist()
        [0.001, 0.001, 0.001, 0.0, 0.0, 0.0]
    """,
    ("femdyn.elements.solid", "strains_at"): """
        >>> X = TET4.reference[None]
        >>> strains_at(TET4, X, 1e-3 * X, [[0.1, 0.2, 0.3]])[0, :3].round(12).tolist()
        [0.001, 0.001, 0.001]
    """,
    ("femdyn.elements.solid", "gradients_at"): """
        >>> gradients_at(TET4, TET4.reference[None], [[0.2, 0.2, 0.2]])[0, 1].tolist()
        [1.0, 0.0, 0.0]
    """,
    ("femdyn.elements.solid", "stresses"): """
        >>> stresses(np.array([1e-3, 0, 0, 0, 0, 0]), 2.5e9, 0.25)[:2].tolist()
        [3000000.0, 1000000.0]
    """,
    ("femdyn.elements.solid", "inverse_map"): """
        >>> inverse_map(TET4, 2.0 * TET4.reference[None], [[0.2, 0.4, 0.6]]).round(12).tolist()
        [[0.1, 0.2, 0.3]]
    """,
    ("femdyn.geometry", "skew"): """
        >>> skew(np.array([0.0, 0.0, 1.0])) @ np.array([1.0, 0.0, 0.0])
        array([0., 1., 0.])
    """,
    ("femdyn.geometry", "rotation_about"): """
        >>> (rotation_about([0, 0, 1], np.pi / 2) @ [1, 0, 0]).round(12).tolist()
        [0.0, 1.0, 0.0]
    """,
    ("femdyn.geometry", "rotated_vector"): """
        >>> f, _, _ = rotated_vector(np.array([[0, 0, np.pi / 2]]), np.array([1.0, 0, 0]))
        >>> np.round(f, 12)
        array([[0., 1., 0.]])
    """,
    ("femdyn.geometry", "rotation_matrix"): """
        >>> rotation_matrix([0, 0, np.pi / 2]).round(12).tolist()[0]
        [0.0, -1.0, 0.0]
    """,
    ("femdyn.geometry", "transported"): """
        >>> transported([1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]).tolist()      # z is the axis: unchanged
        [0.0, 0.0, 1.0]
    """,
    ("femdyn.linalg", "pivoted_qr"): """
        >>> _, _, order, rank = pivoted_qr([[1.0, 2.0, 0.0], [3.0, 6.0, 0.0]], 1e-9)
        >>> rank, sorted(order[:rank].tolist())
        (1, [1])
    """,
    ("femdyn.linalg", "independent_rows"): """
        >>> A = [[1.0, 0.0], [2.0, 0.0], [0.0, 1.0]]
        >>> independent_rows(A).tolist(), independent_rows(A, ordered=True).tolist()
        ([1, 2], [0, 2])
    """,
    ("femdyn.robots.rrru", "ActuatedAngle"): """
        >>> from femdyn.motion import LinePath, PathMotion, SCurve
        >>> line = LinePath((0, 0, -0.8), (0.05, 0, -0.8))
        >>> f = ActuatedAngle(RRRUGeometry(), 0, PathMotion(line, SCurve(0.05, 0.5, 2.5, 50.0)))
        >>> round(math.degrees(f.value(0.0)), 2)
        1.94
    """,
    ("femdyn.sparse", "Pattern"): """
        >>> p = Pattern([0, 1, 0], [0, 1, 0], (2, 2))
        >>> p.nnz, p.matrix(np.array([1.0, 2.0, 3.0])).toarray().tolist()
        (2, [[4.0, 0.0], [0.0, 2.0]])
    """,
    ("femdyn.sparse", "product"): """
        >>> import scipy.sparse as sp
        >>> A = sp.csr_matrix(np.array([[1.0, 0.0], [2.0, 3.0]]))
        >>> product(A, np.array([1.0, 1.0])).tolist()
        [1.0, 5.0]
    """,
    ("femdyn.robots.rssr", "rssr_model"): """
        >>> rssr_model().assemble().degrees_of_freedom()      # driven: no free motion
        0
    """,
    ("femdyn.robots.serial", "puma560"): """
        >>> model = puma560()
        >>> model.nv, round(float(model.mass.sum()), 2)
        (6, 24.45)
    """,
    ("femdyn.robots.rrru", "inverse_kinematics"): """
        >>> np.degrees(inverse_kinematics((0.0, 0.0, -0.8)).angles).round(2).tolist()
        [1.94, 1.94, 1.94]
    """,
}


@pytest.mark.parametrize("key", sorted(EXAMPLES), ids=lambda key: f"{key[0]}.{key[1]}")
def test_helper_example(key):
    module = importlib.import_module(key[0])
    test = doctest.DocTestParser().get_doctest(EXAMPLES[key], dict(vars(module)), ".".join(key), key[0], 0)
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0
