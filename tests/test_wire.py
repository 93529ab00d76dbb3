"""wire: records survive a JSON round trip, and a malformed payload names its record and field."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.wire import JsonRecord, JsonValue, WireError, from_json, to_json


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Inner:
    n: int
    label: str | None = None


@dataclass(frozen=True, slots=True)
class Outer:
    name: str
    count: int
    ratio: float
    flag: bool
    colour: Colour
    inners: list[Inner]
    tags: dict[str, int] = field(default_factory=dict)
    maybe: Inner | None = None
    pair: tuple[str, ...] = ()
    extra: JsonValue = None


inners = st.builds(Inner, st.integers(-(2**53) + 1, 2**53 - 1), st.none() | st.text())
outers = st.builds(
    Outer,
    name=st.text(),
    count=st.integers(-(2**53) + 1, 2**53 - 1),
    ratio=st.floats(allow_nan=False, allow_infinity=False),
    flag=st.booleans(),
    colour=st.sampled_from(Colour),
    inners=st.lists(inners, max_size=3),
    tags=st.dictionaries(st.text(), st.integers(0, 100), max_size=3),
    maybe=st.none() | inners,
    pair=st.lists(st.text(), max_size=3).map(tuple),
    extra=st.none() | st.integers() | st.lists(st.text(), max_size=2),
)


@given(outers)
def test_round_trip_through_json_text(record: Outer) -> None:
    wire_form = json.loads(json.dumps(to_json(record)))
    assert from_json(Outer, wire_form) == record


def test_platform_spellings_are_accepted() -> None:
    # D1 and SQLite give booleans as 0/1; JS numbers may arrive as integral floats.
    data = {"name": "a", "count": 3.0, "ratio": 1, "flag": 1, "colour": "red", "inners": []}
    record = from_json(Outer, data)
    assert (record.count, record.ratio, record.flag) == (3, 1.0, True)
    assert type(record.count) is int and type(record.ratio) is float


def test_unknown_keys_are_ignored() -> None:
    assert from_json(Inner, {"n": 1, "new_column": "x"}) == Inner(1)


BASE = {"name": "a", "count": 1, "ratio": 0.5, "flag": False, "colour": "red", "inners": []}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"count": "1"}, "Outer.count: expected an integer, got str '1'"),
        ({"count": 1.5}, "Outer.count: expected an integer, got float 1.5"),
        ({"flag": 2}, "Outer.flag: expected a boolean, got int 2"),
        ({"colour": "green"}, "Outer.colour: 'green' is not a Colour"),
        ({"inners": {}}, "Outer.inners: expected a list, got dict"),
        ({"inners": [{"label": "x"}]}, "Outer.inners: Inner: missing field 'n'"),
        ({"name": None}, "Outer.name: expected a string, got null"),
        ({"tags": {"a": "b"}}, "Outer.tags: expected an integer, got str 'b'"),
    ],
)
def test_malformed_payloads_name_record_and_field(change: dict[str, object], message: str) -> None:
    with pytest.raises(WireError) as caught:
        from_json(Outer, {**BASE, **change})
    assert str(caught.value) == message


def test_missing_required_field_and_non_object() -> None:
    with pytest.raises(WireError, match=r"Outer: missing field 'name'"):
        from_json(Outer, {k: v for k, v in BASE.items() if k != "name"})
    with pytest.raises(WireError, match=r"Outer: expected an object, got list"):
        from_json(Outer, [])


def test_tuples_never_reach_the_wire() -> None:
    # The runtime refuses tuples over RPC and out of steps (docs/platform.md §0.2).
    record = Outer("a", 1, 0.5, True, Colour.BLUE, [], pair=("x", "y"))
    assert to_json(record)["pair"] == ["x", "y"]
    assert to_json(record)["colour"] == "blue"


@dataclass(frozen=True, slots=True)
class Sent(JsonRecord):
    url: str
    inners: tuple[Inner, ...] = ()


sents = st.builds(Sent, st.text(), st.lists(inners, max_size=3).map(tuple))


@given(sents)
def test_a_record_sent_as_json_text_comes_back_equal(record: Sent) -> None:
    text = record.to_json_text()
    assert text.isascii()  # escapes keep every string, lone surrogates included
    assert Sent.from_json_text(text) == record
    assert Sent.from_json_text(record.to_dict()) == record  # an object, as older senders sent


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ('{"url": ', r"Sent: not JSON text"),
        ("[1, 2]", r"Sent: expected an object, got list"),
        ('{"inners": []}', r"Sent: missing field 'url'"),
        (7, r"Sent: expected an object, got int"),
    ],
)
def test_bad_json_text_names_the_record(payload: object, message: str) -> None:
    with pytest.raises(WireError, match=message):
        Sent.from_json_text(payload)
