"""common.seen.SeenHashes: a set of strings' hashes, compact, growing as needed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from common import seen as seen_module
from common.seen import SeenHashes


@given(st.lists(st.text(max_size=8), max_size=300))
def test_add_answers_like_a_set(keys: list[str]) -> None:
    seen, reference = SeenHashes(), set[str]()
    for key in keys:
        assert seen.add(key) is (key not in reference)
        reference.add(key)
    assert len(seen) == len(reference)


def test_a_hundred_thousand_keys_stay_distinct_across_growth() -> None:
    seen = SeenHashes()
    assert all(seen.add(f"https://site.test/page-{i}") for i in range(100_000))
    assert not any(seen.add(f"https://site.test/page-{i}") for i in range(0, 100_000, 7))
    assert len(seen) == 100_000


@given(st.lists(st.text(max_size=8), max_size=300))
def test_the_32_bit_hash_variant_answers_like_a_set(keys: list[str]) -> None:
    # Pyodide's hash is 32 bits wide; the table then adds a CRC-32 as the other half.
    codes = {seen_module._code32x2(key) for key in set(keys)}
    assert len(codes) == len(set(keys))
    assert all(0 <= code < 1 << 64 for code in codes)
