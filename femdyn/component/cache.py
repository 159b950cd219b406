"""A cache of built components that hands each caller its own copy.

A :class:`~femdyn.component.file.Component` holds mutable arrays and a mutable header: a cache
that returned the one cached object would let one caller's edit (``keep_modes`` on a copy
it thought fresh, an array scaled in place) reach every later caller. :func:`cached_components`
keeps the built component and returns :meth:`Component.copy` of it on every call.
"""
import functools


def cached_components(maxsize=128):
    """Decorator: cache a function that builds a Component and return a fresh copy on each call.

    Parameters
    ----------
    maxsize : int or None, optional
        Number of argument tuples kept, least recently used dropped first (None: unbounded), as
        :func:`functools.lru_cache`; the arguments must be hashable.

    Returns
    -------
    decorator : callable
        Wraps a builder ``f(*args, **kwargs) -> Component``; the wrapper has ``cache_clear()`` and
        ``cache_info()`` of the underlying cache.

    Examples
    --------
    >>> import numpy as np
    >>> from femdyn.component import Component
    >>> @cached_components(maxsize=2)
    ... def build(n):
    ...     return Component({"name": "c"}, {"frequencies": np.zeros(n)})
    >>> a, b = build(3), build(3)
    >>> a is b, np.shares_memory(a.frequencies, b.frequencies), build.cache_info().hits
    (False, False, 1)
    """
    def decorate(build):
        cached = functools.lru_cache(maxsize=maxsize)(build)

        @functools.wraps(build)
        def fresh(*args, **kwargs):
            return cached(*args, **kwargs).copy()

        fresh.cache_clear, fresh.cache_info = cached.cache_clear, cached.cache_info
        return fresh
    return decorate
