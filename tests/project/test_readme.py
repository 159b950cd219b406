"""The README's Python examples run as written (in a scratch folder)."""
import os
import re

import pytest
from support import ROOT

README = os.path.join(ROOT, "README.md")
BLOCKS = re.findall(r"```python\n(.*?)```", open(README, encoding="utf-8").read(), re.S)


def test_readme_has_examples():
    assert len(BLOCKS) >= 2


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_example_runs(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    namespace = {}
    for block in BLOCKS[:index + 1]:          # later blocks build on the imports of earlier ones
        exec(compile(block, f"README block {index}", "exec"), namespace)
