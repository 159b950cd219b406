"""The report as a PDF printed from its HTML page by headless Chromium (print-to-PDF), so the
page and the PDF never diverge and the layout is written once, in the print stylesheet of
``templates/report.css`` (``@page`` size, page breaks, figures fitted to the page width)."""
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from ..errors import FemdynError

PAPERS = ("A4", "Letter")
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser():
    """The headless Chromium executable, or a FemdynError naming what to install."""
    for name in (os.environ.get("FEMDYN_CHROMIUM"), *BROWSERS):
        found = name and shutil.which(name)
        if found:
            return found
    raise FemdynError("the report PDF is printed by headless Chromium, which is not installed: apt-get install "
                      "chromium (or set FEMDYN_CHROMIUM to a Chromium or Chrome executable)")


def print_pdf(html_path, pdf_path):
    """Print an HTML page (its ``@page`` size and margins) to a PDF with headless Chromium."""
    exe = browser()
    pdf_path = Path(pdf_path).resolve()
    with tempfile.TemporaryDirectory(prefix="femdyn-chromium-") as profile:
        flags = ["--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={profile}",
                 "--no-pdf-header-footer", f"--print-to-pdf={pdf_path}"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            flags.append("--no-sandbox")                # Chromium refuses to run as root otherwise
        if pdf_path.exists():
            pdf_path.unlink()
        try:
            done = subprocess.run([exe, *flags, Path(html_path).resolve().as_uri()], capture_output=True, text=True,
                                  timeout=300)
        except subprocess.TimeoutExpired:
            raise FemdynError(f"headless Chromium ({exe}) did not print the report within 300 s") from None
    if not pdf_path.exists():
        tail = done.stderr.strip().splitlines()[-1:] or ["no message"]
        raise FemdynError(f"headless Chromium ({exe}) could not print the report PDF: {tail[0]}")
    return str(pdf_path)
