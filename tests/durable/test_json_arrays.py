"""How a batch of rows becomes the JSON arrays bound to one statement each."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from common.wire import JsonValue
from durable.json_batches import json_arrays

_rows = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.integers(),
        st.dictionaries(st.sampled_from(["url", "anchor"]), st.text(max_size=30)),
    ),
    max_size=40,
)


@given(_rows, st.integers(min_value=1, max_value=400))
def test_arrays_hold_every_item_in_order_each_within_the_bound(
    items: list[JsonValue], max_bytes: int
) -> None:
    arrays = list(json_arrays(items, max_bytes))
    assert [item for array in arrays for item in json.loads(array)] == items
    assert all(array.isascii() and json.loads(array) for array in arrays)  # never empty
    longest_item = max((len(json.dumps(item)) for item in items), default=0)
    # "About": the brackets count, so an array may pass the bound by one byte.
    assert all(len(array) <= max(max_bytes + 1, longest_item + 2) for array in arrays)
