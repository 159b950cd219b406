"""Every package folder of the library is installed: pyproject.toml lists it, mapped to its folder.

An editable install finds a sub-package that is not listed (through its parent's folder), so the
tests pass; a wheel leaves it out. This test reads the setuptools table instead."""
import sys

from support import ROOT

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

TOP = {"femdyn": "femdyn", "femdyn.elements": "elements", "femdyn.mesh": "mesh", "femdyn.solvers": "solvers"}


def _folders():
    """Dotted name → folder of every package (a folder with __init__.py) of the library."""
    out = {}
    for name, folder in TOP.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT / folder).parts
            if "__pycache__" not in parts and not any(p.startswith(".") for p in parts):
                out[".".join((name, *parts))] = init.parent
    return out


def test_every_package_folder_is_listed_and_mapped():
    table = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    listed, mapping = set(table["packages"]), table["package-dir"]
    folders = _folders()
    assert sorted(set(folders) - listed) == [], "add these packages to [tool.setuptools] packages"
    assert sorted(listed - set(folders)) == [], "these listed packages have no folder"
    for name, folder in folders.items():
        mapped = next(((k, v) for k, v in sorted(mapping.items(), key=lambda kv: -len(kv[0]))
                       if name == k or name.startswith(k + ".")), None)
        assert mapped is not None, f"{name} is under no package-dir entry"
        k, v = mapped
        expected = ROOT / v / name[len(k):].lstrip(".").replace(".", "/")
        assert expected.resolve() == folder.resolve(), f"{name} maps to {expected}, its folder is {folder}"
