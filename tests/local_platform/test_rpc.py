"""The local RPC crossing: what it refuses, what it delivers and the size it charges."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from local_platform.errors import JsException
from local_platform.rpc import (
    RPC_MAX_BYTES,
    JsDict,
    _clearly_under_cap,
    crossing,
    rpc_crossing,
    serialized_size,
)

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**60), 2**60), st.text(max_size=20), st.floats()
)
_values = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=40,
)


class _Str(str):
    """A str subclass: not one of the exact types the fast paths take."""


def _size_by_definition(value: Any) -> int:
    """serialized_size's documented estimate, one case per kind, recursively."""
    if value is None or isinstance(value, bool):
        return 1
    if isinstance(value, int | float):
        return 9
    if isinstance(value, str):
        return 5 + len(value.encode("utf-8", "surrogatepass"))
    if isinstance(value, dict):
        return 5 + sum(
            5 + len(str(k).encode("utf-8", "surrogatepass")) + _size_by_definition(v)
            for k, v in value.items()
        )
    assert isinstance(value, list)
    return 5 + sum(_size_by_definition(item) for item in value)


@settings(max_examples=50)
@given(_values)
def test_json_shaped_values_cross_unchanged_and_are_sized_by_the_definition(value: Any) -> None:
    received = crossing(value)
    assert json.dumps(received, sort_keys=True) == json.dumps(_normalised(value), sort_keys=True)
    assert serialized_size(received) == _size_by_definition(received)


def _normalised(value: Any) -> Any:
    # Whole-number floats arrive as int (js_number); everything else as sent.
    if isinstance(value, float) and value.is_integer() and abs(value) <= 2**53 - 1:
        return int(value)
    if isinstance(value, list):
        return [_normalised(v) for v in value]
    if isinstance(value, dict):
        return {k: _normalised(v) for k, v in value.items()}
    return value


@pytest.mark.parametrize(
    "value",
    [
        (1,),
        [1, (2,)],
        {"a": [{"b": ("c",)}]},
        bytearray(b"x"),
        {"a": [bytearray(b"x")]},
    ],
    ids=["tuple", "nested tuple", "deep tuple", "bytearray", "deep bytearray"],
)
def test_tuples_and_bytearrays_are_refused_anywhere(value: object) -> None:
    with pytest.raises(TypeError, match="cannot be sent over RPC"):
        crossing(value)


def test_dicts_arrive_as_js_dicts_and_subclassed_strings_as_themselves() -> None:
    received = crossing({"rows": [{"k": _Str("v")}], "n": 2.0})
    assert isinstance(received, JsDict) and isinstance(received["rows"][0], JsDict)
    assert received == {"rows": [{"k": "v"}], "n": 2}
    assert serialized_size({"é": "é"}) == 5 + 5 + 2 + 5 + 2


@settings(max_examples=50)
@given(_values)
def test_ten_times_the_compact_json_length_bounds_the_size(value: Any) -> None:
    # What lets rpc_crossing skip the walk for messages far under the cap (_clearly_under_cap).
    received = crossing(value)
    assert serialized_size(received) <= 10 * len(json.dumps(received, separators=(",", ":")))


def test_a_message_over_the_cap_is_refused() -> None:
    with pytest.raises(JsException, match="limited to 32MiB"):
        rpc_crossing(["x" * (RPC_MAX_BYTES // 4)] * 5)
    near = ["x" * (RPC_MAX_BYTES // 20)] * 3  # too near the cap for the quick bound: walked
    assert not _clearly_under_cap(near) and rpc_crossing(near) == near
