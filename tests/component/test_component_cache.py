"""The component cache hands out copies: an edit by one caller never reaches the next."""
import numpy as np

from femdyn.component import Component, cached_components


def test_each_call_gets_its_own_copy_of_the_one_build():
    builds = []

    @cached_components(maxsize=None)
    def build(n):
        """A component of n zero frequencies, counted."""
        builds.append(n)
        return Component({"name": "c", "gauges": [{"name": "g"}]}, {"frequencies": np.zeros(n)})

    first = build(3)
    first.arrays["frequencies"][:] = 7.0              # a caller edits its component in place
    first.header["gauges"][0]["name"] = "edited"
    first.header["name"] = "edited"
    second = build(3)
    assert builds == [3] and build.cache_info().hits == 1        # built once
    assert np.array_equal(second.frequencies, np.zeros(3))
    assert second.header == {"name": "c", "gauges": [{"name": "g"}]}
    assert build(4).n_modes == 4 and builds == [3, 4]
    build.cache_clear()
    build(3)
    assert builds == [3, 4, 3]
