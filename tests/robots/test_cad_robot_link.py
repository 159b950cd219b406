"""examples/cad_robot_link.py: the 3-RRRU's link 3 drawn in CAD (bores at both ends), reduced on its bores, run as
the three links 3 of the parallel-robot study, and compared clamped–free with the ANCF link it replaces."""
import json

import pytest

from femdyn.robots.parallel import ComponentSpec, parallel_robot


def test_example_cad_robot_link(example, tmp_path, capsys):
    """The study runs on the component links (exit 0, a finite sag); clamped at the elbow bore the solid link is
    within the differences the two models explain of the ANCF link:

    * ANCF (8 elements, full clamp) against Euler–Bernoulli: within 1 % (second-order convergence in the
      element length, examples/cantilever_modes.py);
    * deflection: the solid is softer by 0–4 %: clamped on a 4 mm bore's surface, not the whole section, with the
      bores' material taken out; the local compliance spans about a diameter (20 mm, 2.5 % of 815 mm);
    * first frequency 1.5–6 % lower: the eye past the Hooke bore (15 mm of rod less the bore, 10 g) on a
      cantilever of modal mass 0.243 × 0.691 kg lowers it by 2.9 % (Rayleigh), the softness by half the
      deflection's difference (0.6 %);
    * the robot's static sag under the rigid efforts 0–5 % above the catalogue robot's with ANCF links 3: the
      solid links are heavier (+2.9 %: the eyes) and softer (+1.3 % clamped).
    """
    module = example("cad_robot_link")
    rows, code, (sag, sag_ancf) = module.main(str(tmp_path), size=0.008, modes=6, duration=0.01)
    (tip_c, f_c), (tip_a, f_a), (tip_e, f_e) = (rows[k] for k in ("component (CAD)", "ANCF link", "Euler–Bernoulli"))
    assert code == 0
    assert tip_a == pytest.approx(tip_e, rel=0.01) and f_a == pytest.approx(f_e, rel=0.01)
    assert 1.0 < tip_c / tip_a < 1.04, (tip_c, tip_a)
    assert 0.94 < f_c / f_a < 0.985, (f_c, f_a)
    assert (tmp_path / "link3.fdc").stat().st_size < 300e3
    summary = json.loads((tmp_path / "study" / "summary.json").read_text())["summary"]
    assert summary["robot"] == "3rrru_cad_link"
    limbs = parallel_robot(str(tmp_path / "3rrru_cad_link.toml")).description.limbs
    assert [type(limb.links[2].flexible) for limb in limbs] == [ComponentSpec] * 3
    assert 1.0 < sag / sag_ancf < 1.05, (sag, sag_ancf)
    printed = capsys.readouterr().out
    assert "component against ANCF" in printed and "exit code 0" in printed and "static sag" in printed
