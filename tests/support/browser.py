"""Shared checks of report pages in a real browser: open a page offline in headless
Chromium (network disabled), collect its console messages and take a screenshot; a
page is blank when its screenshot has no spread of grey levels."""
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from matplotlib.image import imread

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="headless Chromium missing: apt-get install chromium "
                                                                "(bash .ci/setup installs it)")


def browse(page, shot, tmp_path):
    """Open ``page`` (file://) in headless Chromium with the network disabled; returns the
    console messages and the screenshot as an array."""
    flags = ["--headless", "--disable-gpu", "--no-first-run", "--disable-background-networking",
             "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--enable-logging=stderr",
             "--v=0", f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1200,3000", f"--screenshot={shot}"]
    if os.geteuid() == 0:
        flags.append("--no-sandbox")                    # Chromium refuses to run as root otherwise
    done = subprocess.run([CHROMIUM, *flags, Path(page).as_uri()], capture_output=True, text=True, timeout=120)
    assert Path(shot).exists(), done.stderr[-2000:]
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return console, imread(shot)


def spread(image):
    """Standard deviation of the grey levels (0…1): 0 for a blank page."""
    return float(np.std(image[..., :3].mean(axis=-1)))
