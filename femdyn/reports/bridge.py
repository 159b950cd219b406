"""Wheatstone-bridge output to strain (Hoffmann 1989, *An Introduction to Measurements using
Strain Gages*, ch. 7; Vishay Tech Note TN-507-1).

The bridge ratio V_r = V_out/V_ex of a bridge balanced at zero strain: ``quarter``
ε = 4V_r / (k (1 − 2V_r)) (exact, non-linear), ``half`` ε = 2V_r/k, ``full`` ε = V_r/k.
Configurations and signs: docs/strain-reports.md.
"""
import numpy as np

from ..errors import FemdynError

BRIDGES = ("quarter", "half", "full")
UNITS = {"strain": 1.0, "µε": 1e-6, "ue": 1e-6, "microstrain": 1e-6, "mV/V": None, "V/V": None}


def bridge_to_strain(ratio, gauge_factor, bridge):
    """Strain (dimensionless, positive in tension) from a bridge ratio.

    Parameters
    ----------
    ratio : array_like
        V_out/V_ex, dimensionless (divide mV/V by 1000).
    gauge_factor : float
        k = (ΔR/R)/ε of the gauges (about 2 for metal foil).
    bridge : {"quarter", "half", "full"}
        Number of active gauges.

    Example
    -------
    >>> round(float(bridge_to_strain(0.5e-3, 2.0, "full")), 9)
    0.00025
    """
    if bridge not in BRIDGES:
        raise FemdynError(f"bridge type {bridge!r} is not known; choose one of {list(BRIDGES)}")
    if not (np.isfinite(gauge_factor) and gauge_factor > 0):
        raise FemdynError(f"gauge factor {gauge_factor!r} must be a positive number (about 2 for foil gauges)")
    r = np.asarray(ratio, float)
    if bridge == "quarter":
        return 4.0 * r / (gauge_factor * (1.0 - 2.0 * r))
    return (2.0 if bridge == "half" else 1.0) * r / gauge_factor


def to_strain(values, unit, what, gauge_factor=None, bridge=None):
    """Convert a measured channel to strain.

    Parameters
    ----------
    values : array_like
        The channel's samples in ``unit``.
    unit : str
        "strain", "µε" (also "ue", "microstrain"), "mV/V" or "V/V".
    what : str
        The channel's name, for messages.
    gauge_factor, bridge : float, str, optional
        Needed for bridge units (see :func:`bridge_to_strain`).
    """
    if unit not in UNITS:
        raise FemdynError(f"channel '{what}': unit {unit!r} is not known; use one of {list(UNITS)}")
    scale = UNITS[unit]
    if scale is not None:
        return np.asarray(values, float) * scale
    if gauge_factor is None or bridge is None:
        raise FemdynError(f"channel '{what}' is in {unit}: give gauge_factor and bridge (one of {list(BRIDGES)}) "
                          "for its gauge in the gauge map")
    ratio = np.asarray(values, float) * (1e-3 if unit == "mV/V" else 1.0)
    return bridge_to_strain(ratio, gauge_factor, bridge)
