"""The strain report end to end: the example (a real femdyn run of a flexible link and a
synthetic measurement made from it with known distortions) through
``femdyn report strain``; the page in a real browser offline, the PDF rendered to
images; bad inputs through the command line."""
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
from matplotlib.image import imread

from femdyn.cli.main import main as femdyn_cli

from support.browser import browse, needs_chromium, spread
from support.loggers import WRITERS
from support import ROOT

PDFTOPPM = shutil.which("pdftoppm")
needs_poppler = pytest.mark.skipif(PDFTOPPM is None, reason="pdftoppm missing: apt-get install poppler-utils "
                                                            "(bash .ci/setup installs it)")


@pytest.fixture(scope="module")
def example(tmp_path_factory):
    """Run examples/strain_report.py once (about 10 s); its folder."""
    out = tmp_path_factory.mktemp("strain_example")
    done = subprocess.run([sys.executable, str(ROOT / "examples" / "strain_report.py"), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_example_report_recovers_the_known_distortions(example):
    """The synthetic measurement is the simulation ×0.92, 5 ms late, with an offset
    (balanced away) and 0.2 µε noise. The report must find the lag to within one sample
    (0.5 ms) and the Sprague–Geers magnitude 1/0.92 − 1 = 0.0870 within 0.005 (noise,
    filtering and the start of the record), the phase below 0.01, the peak errors the same
    0.0870 within 0.015 (a peak is one sample: the filtered noise there and at the balance
    instant, about 0.06 µε each, is 0.5 % of the smallest peak, 11 µε)."""
    report = json.loads((example / "report" / "metrics.json").read_text())
    assert report["passed"] and report["lag_s"] == pytest.approx(0.005, abs=5e-4)
    assert any("'SG2': 1 NaN" in w for w in report["warnings"])
    for name in ("G200", "G407", "G600"):
        m = report["gauges"][name]["metrics"]
        assert m["sg_magnitude"] == pytest.approx(1 / 0.92 - 1, abs=5e-3)
        assert m["sg_phase"] < 0.01 and m["correlation"] > 0.999
        assert m["peak_pos_error"] == pytest.approx(1 / 0.92 - 1, abs=0.015)
    assert (example / "report" / "report.pdf").stat().st_size > 10_000


@needs_chromium
def test_page_opens_offline_in_chromium_without_console_errors(example, tmp_path):
    page = example / "report" / "report.html"
    text = page.read_text()
    assert not re.search(r"""(src|href)\s*=\s*['"]?(https?:)?//""", text)        # nothing to fetch
    assert text.count("src='data:image/png;base64,") == 5                            # link, peaks, 3 gauges
    console, image = browse(page, tmp_path / "shot.png", tmp_path)
    assert console == []
    assert spread(image) > 0.05


@needs_chromium
def test_browser_checks_can_fail(tmp_path):
    """The same checks flag a blank page and a page with a broken image (the report's
    own load-time image check writes to the console)."""
    from femdyn.reports.html import CHECK
    blank = tmp_path / "blank.html"
    blank.write_text("<html><body></body></html>")
    console, image = browse(blank, tmp_path / "blank.png", tmp_path)
    assert console == [] and spread(image) < 0.01
    broken = tmp_path / "broken.html"
    broken.write_text(f"<html><head><script>{CHECK}</script></head><body>"
                      "<img alt='gauge X' src='data:image/png;base64,AAAA'></body></html>")
    console, _ = browse(broken, tmp_path / "broken.png", tmp_path)
    assert any("report image failed to load: gauge X" in line for line in console)


@needs_poppler
def test_pdf_renders_to_pages(example, tmp_path):
    """Summary, link and peaks, one page per gauge, settings: 6 pages, none blank."""
    subprocess.run([PDFTOPPM, "-r", "40", "-png", str(example / "report" / "report.pdf"), str(tmp_path / "p")],
                   check=True, timeout=120)
    pages = sorted(tmp_path.glob("p-*.png"))
    assert len(pages) == 6
    assert min(spread(imread(p)) for p in pages) > 0.02


PDFINFO = shutil.which("pdfinfo")
needs_pdfinfo = pytest.mark.skipif(PDFINFO is None, reason="pdfinfo missing: apt-get install poppler-utils "
                                                           "(bash .ci/setup installs it)")


def page_sizes(pdf):
    """The (width, height) in pt of every page of a PDF, by pdfinfo."""
    done = subprocess.run([PDFINFO, "-f", "1", "-l", "999", str(pdf)], capture_output=True, text=True, check=True)
    return [tuple(round(float(x)) for x in m) for m in re.findall(r"Page +\d+ size: +([\d.]+) x ([\d.]+)", done.stdout)]


@needs_pdfinfo
def test_pdf_pages_are_a4_and_the_first_carries_verdict_and_table(example, tmp_path):
    """Every page A4 (595 × 842 pt); page 1 has the verdict and the summary table, no settings."""
    sizes = page_sizes(example / "report" / "report.pdf")
    assert len(sizes) >= 4 and set(sizes) == {(595, 842)}
    first = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(example / "report" / "report.pdf"), "-"],
                           capture_output=True, text=True, check=True).stdout
    assert "Result: all metrics within tolerance." in first and "G600" in first and "Solver settings" not in first


@needs_pdfinfo
def test_letter_pages_by_option(example, tmp_path):
    done = subprocess.run([sys.executable, "-m", "femdyn", "report", "strain", str(example / "run"),
                           str(example / "measured.csv"), "--map", str(example / "gauges.toml"), "-o",
                           str(tmp_path / "report"), "--paper", "Letter"], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr
    assert set(page_sizes(tmp_path / "report" / "report.pdf")) == {(612, 792)}


def test_settings_print_rounded(example):
    """No float noise such as 0.0005000000000000004 on the page (the PDF is printed from it)."""
    page = (example / "report" / "report.html").read_text()
    assert "<td>step_s</td><td class='text'>0.0005</td>" in page
    assert not re.search(r"\d\.\d*0000000000\d", page)


def test_tolerances_of_100_percent_give_no_verdict(example, tmp_path, capsys):
    """A map that cannot fail (every tolerance 100 %) shows its numbers without a green verdict."""
    text = (example / "gauges.toml").read_text()
    text = re.sub(r"\[tolerances\][^[]*", "[tolerances]\npeak_pos_error = 1.0\npeak_neg_error = 1.0\n\n", text)
    path = tmp_path / "loose.toml"
    path.write_text(text)
    assert run_cli(example, tmp_path, gauge_map=path) == 0
    assert "shown without a verdict" in capsys.readouterr().out
    page = (tmp_path / "report" / "report.html").read_text()
    assert "all metrics within tolerance" not in page
    assert "<p class='headline muted'>Result: no meaningful tolerance" in page
    assert ">pass<" not in page and ">no verdict<" in page


@pytest.mark.parametrize("suffix", [".tdms", ".mf4", ".uff", ".h5"])
def test_logger_files_give_the_report_of_the_csv(example, tmp_path, suffix):
    """The example's measurement written as a data logger would (same numbers, units in the file's
    metadata): the command gives the CSV's metrics (UFF's ASCII cells keep 12 digits, the CSV 9)."""
    header = (example / "measured.csv").read_text().splitlines()[0].split(",")       # t [s],SG1 [mV/V],...
    data = np.genfromtxt(example / "measured.csv", delimiter=",", skip_header=1)
    channels = [(h.split()[0], "mV/V", data[:, k]) for k, h in enumerate(header) if k]
    WRITERS[suffix](tmp_path / f"measured{suffix}", channels, data[:, 0])
    assert run_cli(example, tmp_path, csv=tmp_path / f"measured{suffix}") == 0
    got = json.loads((tmp_path / "report" / "metrics.json").read_text())
    want = json.loads((example / "report" / "metrics.json").read_text())
    for name, gauge in want["gauges"].items():
        assert got["gauges"][name]["metrics"] == pytest.approx(gauge["metrics"], rel=1e-9, abs=1e-12)


def test_missing_chromium_is_a_clear_error(example, tmp_path):
    """Without Chromium on the PATH: exit 2, the package to install named, nothing written."""
    env = {k: v for k, v in os.environ.items() if k != "FEMDYN_CHROMIUM"}
    env.update(PATH=str(tmp_path / "empty"), PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-m", "femdyn", "report", "strain", str(example / "run"),
                           str(example / "measured.csv"), "--map", str(example / "gauges.toml"), "-o",
                           str(tmp_path / "report")], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 2 and "apt-get install chromium" in done.stderr
    assert not (tmp_path / "report").exists()


def run_cli(example, tmp_path, csv=None, gauge_map=None):
    csv = csv or example / "measured.csv"
    gauge_map = gauge_map or example / "gauges.toml"
    return femdyn_cli(["report", "strain", str(example / "run"), str(csv), "--map", str(gauge_map),
                       "-o", str(tmp_path / "report")])


def edited(example, tmp_path, name, old, new):
    text = (example / name).read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return path


@pytest.mark.parametrize("name, old, new, message", [
    ("gauges.toml", 'channel = "SG2"', 'channel = "SG9"', "channel 'SG9' is not in"),
    ("gauges.toml", "distance = 0.6", "distance = 0.813", "gauge 'G600' is off the link: 0.813 m from 'link.0'"),
    ("gauges.toml", "max_lag", "maxlag", "unknown key comparison.maxlag"),
    ("measured.csv", "SG1 [mV/V]", "SG1 [µε]", "channel 'SG1': units do not match"),
    ("gauges.toml", "window = [0.0, 0.6]", "window = [2.0, 3.0]", "time ranges do not overlap"),
])
def test_bad_input_is_a_clear_error(example, tmp_path, capsys, name, old, new, message):
    path = edited(example, tmp_path, name, old, new)
    code = run_cli(example, tmp_path, **({"gauge_map": path} if name == "gauges.toml" else {"csv": path}))
    assert code == 2
    assert re.search(message, capsys.readouterr().err)


def test_measurement_times_that_miss_the_run_are_an_error(example, tmp_path, capsys):
    data = np.genfromtxt(example / "measured.csv", delimiter=",", skip_header=1)
    data[:, 0] += 10.0
    path = tmp_path / "late.csv"
    np.savetxt(path, data, delimiter=",", header="t [s],SG1 [mV/V],SG2 [mV/V],SG3 [mV/V]", comments="")
    assert run_cli(example, tmp_path, csv=path) == 2
    assert "do not overlap (0…0.6 s, 0…0.6 s, 0…0.6 s, 9.95" in capsys.readouterr().err


def test_tight_tolerance_fails_with_exit_code_one_and_still_writes(example, tmp_path, capsys):
    path = edited(example, tmp_path, "gauges.toml", "sg_combined = 0.15", "sg_combined = 0.01")
    assert run_cli(example, tmp_path, gauge_map=path) == 1
    assert "FAIL sg_combined" in capsys.readouterr().out
    assert not json.loads((tmp_path / "report" / "metrics.json").read_text())["passed"]


def test_peaks_only_measurement(example, tmp_path):
    """Peaks-only data (as a paper gives them): peak metrics per gauge, the page and PDF."""
    peaks = tmp_path / "peaks.csv"
    peaks.write_text("channel,positive,negative,unit\nSG1,41.5,-14.9,µε\nSG2,24.9,-7.6,µε\nSG3,10.9,-2.5,µε\n")
    path = edited(example, tmp_path, "gauges.toml", 'unit = "mV/V"', 'unit = "µε"')
    assert run_cli(example, tmp_path, csv=peaks, gauge_map=path) == 0
    report = json.loads((tmp_path / "report" / "metrics.json").read_text())
    m = report["gauges"]["G200"]["metrics"]
    assert report["peaks_only"] and set(report["gauges"]["G200"]["verdicts"]) == {"peak_pos_error", "peak_neg_error"}
    assert m["peak_pos_meas"] == pytest.approx(41.5e-6) and m["peak_pos_error"] == pytest.approx(
        m["peak_pos_sim"] / 41.5e-6 - 1)
    assert (tmp_path / "report" / "report.pdf").exists()


def test_the_page_templates_are_package_data():
    """Every template of the report pages is matched by the package data of pyproject.toml
    (so an installed femdyn finds them) and the page module finds them at run time."""
    import fnmatch

    from femdyn.schema import tomllib
    from femdyn.reports.pages import render_page
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["femdyn.reports"]
    templates = sorted(p.relative_to(ROOT / "femdyn" / "reports").as_posix()
                       for p in (ROOT / "femdyn" / "reports" / "templates").iterdir())
    assert {"templates/base.html", "templates/strain.html", "templates/parallel.html"} <= set(templates)
    assert [t for t in templates if not any(fnmatch.fnmatch(t, pattern) for pattern in data)] == []
    assert "@media print" in render_page("base.html", title="x")
