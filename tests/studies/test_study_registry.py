"""The study registry: a new study is one module and one registration, and the command line
(``femdyn study``, ``femdyn sweep``, ``femdyn fit``) builds its choices from the registry."""
import json
import os
from dataclasses import dataclass

import pytest

from femdyn.cli import main
from femdyn.errors import ModelError
from femdyn.studies import registry
from femdyn.studies.record import Study


@dataclass
class Power:
    x: float = 2.0
    power: int = 2


def run_power(config, output, progress):
    summary = {"value": config.x ** config.power}
    os.makedirs(output, exist_ok=True)
    with open(os.path.join(output, "value.json"), "w") as f:
        json.dump(summary, f)
    return {"summary": summary}


def power_case(config, output):
    return {"value": config["x"] ** config.get("power", 2)}


@pytest.fixture
def power():
    study = registry.register(Study("power", "x to a power", Power, run_power, sweeps={"power": (Power, power_case)}))
    yield study
    registry.unregister("power")


def test_a_registered_study_runs_from_the_command_line(power, tmp_path, capsys):
    config = tmp_path / "power.toml"
    config.write_text("x = 3.0\n")
    out = tmp_path / "out"
    assert main(["study", "power", str(config), "-o", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "value = 9.0" in printed and f"output written to {out}: value.json" in printed
    assert json.loads((out / "value.json").read_text()) == {"value": 9.0}
    assert "power" in registry.sweep_cases() and next(iter(registry.sweep_cases())) == "rrru"


def test_the_help_lists_the_registered_studies(power, capsys):
    with pytest.raises(SystemExit) as done:
        main(["study", "--help"])
    printed = capsys.readouterr().out
    assert done.value.code == 0
    assert all(f"{name} " in printed for name in ("rrru", "spin_up", "power")) and "x to a power" in printed


@pytest.mark.parametrize("argv, message", [
    (["study", "puma"], "unknown study 'puma'; known studies: ['parallel', 'power', 'rrru', 'rrru-tracking', 'spin_up', 'workspace']"),
    (["fit", "puma"], "unknown study 'puma'"),
    (["fit", "power"], "the study 'power' has no fit"),
    (["study", "power", "--elements", "2"], "--elements is an option of the study 'rrru', not of 'power'"),
    (["study", "power", "--formulation", "stabilized"], "--formulation is an option of the study 'rrru'"),
])
def test_an_unknown_study_or_a_foreign_option_is_a_femdyn_error(power, tmp_path, capsys, argv, message):
    assert main(argv + ["-o", str(tmp_path / "x")]) == 2
    assert f"femdyn: error: {message}" in capsys.readouterr().err


def test_a_name_is_registered_once(power):
    with pytest.raises(ModelError, match="'power' is registered already"):
        registry.register(Study("power", "another", Power, run_power))
    with pytest.raises(ModelError, match=r"sweep names \['rrru'\] are registered already"):
        registry.register(Study("other", "another", Power, run_power, sweeps={"rrru": (Power, power_case)}))
    assert registry.get("power") is power and "other" not in registry.studies()
