"""Shared model builders and checks of the test suite, imported as ``support.<module>``.

``ROOT`` is the repository's top folder (examples/, docs/, benchmarks/ are read from it).
"""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
