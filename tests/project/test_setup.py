"""``.ci/setup`` installs only what femdyn needs: the missing Debian packages without their
recommendations and without upgrading anything, then femdyn; and the README names every
package it may install. The script runs against stand-ins for apt-get and pip that record
their arguments, on a machine where "everything is missing"."""
import os
import re
import subprocess

from support import ROOT

SETUP = ROOT / ".ci" / "setup"


def run_setup(tmp_path):
    """Run .ci/setup with apt-get, sudo, ldconfig, gcc, chromium and python3 replaced: the recorded calls."""
    bin_ = tmp_path / "bin"
    bin_.mkdir()
    log = tmp_path / "calls"
    record = f'#!/bin/sh\necho "$(basename "$0") $*" >> {log}\n'
    stubs = {"apt-get": record, "sudo": record + '"$@"\n', "ldconfig": "#!/bin/sh\n",   # no shared library found
             "python3": record + "case \"$*\" in *sysconfig*|*'pip --version'*) exit 1;; esac\n"}
    for name, text in stubs.items():
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    # gcc, chromium and pdftoppm are looked up with `command -v`: hide them by a PATH without them
    hidden = tmp_path / "usrbin"
    hidden.mkdir()
    for tool in ("bash", "sh", "dirname", "basename", "id", "grep", "cat", "env"):
        src = subprocess.run(["which", tool], capture_output=True, text=True).stdout.strip()
        if src:
            os.symlink(src, hidden / tool)
    done = subprocess.run([str(hidden / "bash"), str(SETUP)], capture_output=True, text=True,
                          env={"PATH": f"{bin_}:{hidden}", "HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    return log.read_text().splitlines()


def test_setup_installs_missing_packages_without_recommendations_or_upgrades(tmp_path):
    calls = run_setup(tmp_path)
    installs = [c for c in calls if c.startswith("apt-get install")]
    assert len(installs) == 1 and "--no-install-recommends" in installs[0] and "--no-upgrade" in installs[0]
    upgrades = [c for c in calls if re.search(r"\b(upgrade|dist-upgrade|full-upgrade)\b", c.replace("--no-upgrade", ""))]
    assert upgrades == []
    assert not [c for c in calls if re.search(r"pip install .*(-U\b|--upgrade)", c)]
    assert any(re.search(r"python3 -m pip install .*-e \.\[test\]", c) for c in calls)


def test_readme_names_every_package_the_setup_may_install(tmp_path):
    packages = re.findall(r"missing\+=\(([\w.+-]+)\)", SETUP.read_text())
    assert len(packages) == 13 and set(packages) >= set(next(c for c in run_setup(tmp_path)
                                                            if c.startswith("apt-get install")).split()[2:]) - {
        "-y", "-qq", "--no-install-recommends", "--no-upgrade"}
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Install and run"):readme.index("```bash")]
    assert [p for p in packages if f"`{p}`" not in section] == []
    assert "--no-install-recommends" in section
