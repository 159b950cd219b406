"""Studies: complete numerical experiments (models, runs, checks, figures) as functions, and
the registry the command line reads.

A study is a module with a configuration dataclass and a run function, registered as a
:class:`Study` (:mod:`.registry`): ``femdyn study NAME [config.toml]`` runs it, ``femdyn
sweep`` runs its sweep cases for many settings (:func:`run_sweep`, on Dask with
:func:`dask_executor`) and ``femdyn fit NAME`` fits its settings (:class:`Fit`). Registered:
``parallel`` (any parallel robot, :mod:`.parallel_study`), ``rrru``, the 3-RRRU robot of Liu et al.
(2018) (the parallel-robot study on the preset ``presets/rrru.toml``, :mod:`.rrru_command`, docs/rrru.md), and
``spin_up``, a flexible beam spun up on a hub (:mod:`.flexible_beam`).
"""
from .record import Fit, Study
from .registry import get, register, studies, sweep_cases, unregister
from .sweep import dask_executor, grid_cases, random_cases, run_sweep

__all__ = ["Study", "Fit", "register", "unregister", "get", "studies", "sweep_cases", "run_sweep", "grid_cases",
           "random_cases", "dask_executor"]
