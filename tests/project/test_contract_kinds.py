"""Kinds asked through the contracts, kept by a test: at most five ``hasattr`` calls in the library,
each with its reason.

A body's kind and capabilities are in its contract (:class:`femdyn.model.protocol.Body`:
``component``, ``locate_output_point``, ``turning_vectors``, ``mesh_cells``, ``mesh_stress``), an
element kernel's in :class:`femdyn.elements.ancf_element.ANCFElement`, a recursive model's in its
class; asking an object whether it happens to have an attribute hides which contract is meant.
The calls left are listed in :data:`REASONS` by file and attribute with why each stays; the
test reads every ``hasattr(obj, "name")`` call of femdyn/, elements/, mesh/ and solvers/ from
the source.
"""
import ast

from support import ROOT
from test_layers import modules, package_dirs

MOST = 5
REASONS = {   # (file, attribute asked): why it is asked by name
    ("femdyn/reports/pdf.py", "geteuid"): "os.geteuid exists on POSIX only: the platform, not a femdyn contract",
    ("femdyn/motion/poses.py", "state"): "a pose or vector motion is anything with state(t) -> (value, rate, "
                                         "acceleration): trajectories, a robot's task, user objects",
}


def hasattr_calls(files):
    """(file, attribute, line) of every ``hasattr`` call in the files ({name: path}); attribute None when not a literal."""
    found = []
    for name, path in sorted(files.items()):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "hasattr":
                arg = node.args[1] if len(node.args) > 1 else None
                attribute = arg.value if isinstance(arg, ast.Constant) else None
                found.append((name, attribute, node.lineno))
    return found


def problems(calls, reasons, most=MOST):
    """What breaks the rule: too many calls, calls without a listed reason, reasons left without a call."""
    found = [f"{len(calls)} hasattr calls in the library, at most {most}"] if len(calls) > most else []
    found += [f"{name}:{line} hasattr(…, {attribute!r}) without a reason: ask the kind through its contract"
              for name, attribute, line in calls if (name, attribute) not in reasons]
    asked = {(name, attribute) for name, attribute, _ in calls}
    found += [f"{name}: no hasattr(…, {attribute!r}) any more: take it off REASONS" for name, attribute in reasons
              if (name, attribute) not in asked]
    return found


def library_files():
    """Path relative to the repository (posix) → file, of every library module."""
    return {path.resolve().relative_to(ROOT.resolve()).as_posix(): path
            for path in modules(package_dirs(ROOT)).values()}


def test_kinds_are_asked_through_the_contracts():
    assert problems(hasattr_calls(library_files()), REASONS) == []


def test_the_rule_catches_what_it_must(tmp_path):
    source = tmp_path / "kinds.py"
    source.write_text("def f(body, name):\n    return hasattr(body, 'kernel') or hasattr(body, name)\n"
                      "x = [hasattr(o, 'a') for o in ()] + [hasattr(o, 'b') for o in ()]\n")
    calls = hasattr_calls({"kinds.py": source})
    assert calls == [("kinds.py", "kernel", 2), ("kinds.py", None, 2), ("kinds.py", "a", 3), ("kinds.py", "b", 3)]
    reasons = {("kinds.py", "kernel"): "r", ("kinds.py", None): "r", ("kinds.py", "a"): "r", ("kinds.py", "b"): "r"}
    assert problems(calls, reasons) == []
    assert problems(calls, reasons, most=3) == ["4 hasattr calls in the library, at most 3"]
    assert problems(calls[:1], {("kinds.py", "kernel"): "r", ("gone.py", "x"): "r"}) == [
        "gone.py: no hasattr(…, 'x') any more: take it off REASONS"]
    assert problems(calls[2:3], {}) == ["kinds.py:3 hasattr(…, 'a') without a reason: ask the kind through its contract"]
