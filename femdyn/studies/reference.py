"""Published values beside a study's figures: bands and one verdict rule, for any study.

A published value becomes a :class:`Band` (±``tolerance`` around a reported value, 0 to a reported
bound); :func:`verdict` says where femdyn's figure lies: within the band, within a factor of 2, or
outside by a factor. A study's configuration may carry them as ``[[reference]]`` tables
(:func:`reference_rows`): the 3-RRRU study's paper table is one such set (docs/rrru.md).
"""
import math
from dataclasses import dataclass

from ..errors import SchemaError
from ..schema import Key, check_table

REFERENCE_TOLERANCE = 0.1
WITHIN, FACTOR_2, NOT_REPORTED, NOT_RUN = ("within the paper's band", "within a factor of 2",
                                           "not reported by the paper", "not run")


@dataclass(frozen=True)
class Band:
    """The paper's value of a figure as an interval [low, high] in the summary's units (SI, angles in degrees)."""

    low: float
    high: float
    text: str

    @classmethod
    def about(cls, value, text, tolerance=REFERENCE_TOLERANCE):
        """A value the paper reports, as the band ±``tolerance`` around it."""
        half = tolerance * abs(value)
        return cls(round(value - half, 12), round(value + half, 12), text)

    @classmethod
    def below(cls, bound, text):
        """A bound the paper gives ("below", "<"), as the band from 0 to it."""
        return cls(0.0, bound, text)

    def factor(self, value):
        """How far a value lies from the band: 1 inside, else the ratio of its magnitude to
        the nearer edge's (≥ 1); infinite for the opposite sign or zero."""
        if self.low <= value <= self.high:
            return 1.0
        if (self.low > 0 and value <= 0) or (self.high < 0 and value >= 0):
            return math.inf
        near, far = sorted((abs(self.low), abs(self.high))) if self.low * self.high > 0 else (0.0, max(
            abs(self.low), abs(self.high)))
        size = abs(value)
        return size / far if size > far else near / size


def verdict(value, band):
    """The verdict on femdyn's value beside the paper's band (the one rule of the summary)."""
    if value is None:
        return NOT_RUN, None
    if band is None:
        return NOT_REPORTED, None
    k = band.factor(value)
    if k <= 1.0:
        return WITHIN, 1.0
    if k <= 2.0:
        return FACTOR_2, k
    return f"outside (×{_times(k)})", k


def _times(k):
    """A factor ≥ 2 in a few digits: 2.1, 34, 140, 1.2e+05, ∞."""
    return "∞" if math.isinf(k) else f"{k:.2g}" if k < 10 else f"{k:.0f}" if k < 1e4 else f"{k:.1e}"


def verdict_class(label):
    """The report pages' CSS class of a verdict: "pass", "warn", "fail" or "muted" (not reported, not run).

    Parameters
    ----------
    label : str
        A verdict of :func:`verdict`.

    Returns
    -------
    str

    Example
    -------
    >>> verdict_class(WITHIN), verdict_class("outside (×3.1)")
    ('pass', 'fail')
    """
    return {WITHIN: "pass", FACTOR_2: "warn"}.get(label, "fail" if label.startswith("outside") else "muted")


_REFERENCE = {"quantity": Key(str, required=True, hint="a key of the study's summary"), "value": float,
              "below": Key(float, above=0), "tolerance": Key(float, above=0), "scale": Key(float, above=0),
              "unit": str, "text": str, "source": str, "label": str, "reason": str, "docs": str}


def reference_rows(summary, tables, where="reference"):
    """femdyn's figures beside published values, each with its verdict.

    Parameters
    ----------
    summary : dict
        A study's summary (SI units).
    tables : list of dict
        Each ``quantity`` (a summary key), ``value`` (reported, SI) with ``tolerance`` (relative, default
        0.1) or ``below`` (a reported bound, SI); ``scale`` and ``unit`` to show it (1e3, "mm"); ``text``
        (how the source states it) and ``source``; optionally ``label`` (what the row shows instead of the
        key), ``reason`` (why femdyn's value may lie outside the band, shown only when it does) and ``docs``
        (where that is explained).
    where : str
        The configuration's name for messages.

    Returns
    -------
    list of dict
        ``quantity``, ``label``, ``femdyn`` (shown), ``published``, ``verdict``, ``factor``, ``source``,
        ``reason`` and ``docs`` (both empty inside the band) per table.

    Raises
    ------
    SchemaError
        A table without ``value`` or ``below``, or with an unknown key.

    Examples
    --------
    >>> rows = reference_rows({"peak": -10.5}, [{"quantity": "peak", "value": -11.1, "unit": "N·m"}])
    >>> rows[0]["verdict"], rows[0]["femdyn"]
    ("within the paper's band", '-10.5 N·m')
    """
    rows = []
    for k, table in enumerate(tables):
        t = check_table(table, _REFERENCE, where, f"reference[{k}].")
        if ("value" in t) == ("below" in t):
            raise SchemaError(f"{where}: reference[{k}] ({t['quantity']}) needs value = … (with tolerance) or "
                              "below = … (a bound), not both")
        scale, unit = t.get("scale", 1.0), t.get("unit", "")
        band = (Band.about(t["value"], "", t.get("tolerance", REFERENCE_TOLERANCE)) if "value" in t
                else Band.below(t["below"], ""))
        shown = t.get("text") or (f"{t['value'] * scale:.4g} {unit}" if "value" in t else
                                  f"below {t['below'] * scale:.4g} {unit}")
        value = summary.get(t["quantity"])
        label, factor = verdict(None if value is None else float(value), band)
        found = "–" if value is None else f"{value * scale:.4g} {unit}".strip()
        outside = factor is not None and factor > 1.0
        rows.append({"quantity": t["quantity"], "label": t.get("label", t["quantity"]), "femdyn": found,
                     "published": shown.strip(), "verdict": label, "factor": factor, "source": t.get("source", ""),
                     "reason": t.get("reason", "") if outside else "", "docs": t.get("docs", "") if outside else ""})
    return rows
