"""wire: records survive a JSON round trip, and a malformed payload names its record and field."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import StrEnum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from common.wire import (
    AS_COLUMNS,
    JsonRecord,
    JsonValue,
    WireError,
    from_columns,
    from_json,
    to_columns,
    to_json,
)


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


# -- columns (issue 29) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Edge:
    source: str
    target: str
    flag: bool = False
    depth: int | None = None
    weight: float = 0.0


@dataclass(frozen=True, slots=True)
class Edges(JsonRecord):
    page: str
    edges: tuple[Edge, ...] = field(default=(), metadata=AS_COLUMNS)


edge_lists = st.lists(
    st.builds(
        Edge,
        st.text(),
        st.text(),
        st.booleans(),
        st.none() | st.integers(-(2**53) + 1, 2**53 - 1),
        st.floats(allow_nan=False, allow_infinity=False),
    ),
    max_size=5,
).map(tuple)


@given(st.text(), edge_lists)
def test_records_sent_as_columns_come_back_equal(page: str, edges: tuple[Edge, ...]) -> None:
    record = Edges(page, edges)
    wire_form = json.loads(record.to_json_text())
    assert wire_form["edges"] == {
        "source": [e.source for e in edges],
        "target": [e.target for e in edges],
        "flag": [e.flag for e in edges],
        "depth": [e.depth for e in edges],
        "weight": [e.weight for e in edges],
    }
    assert Edges.from_json_text(record.to_json_text()) == record
    assert Edges.from_dict(record.to_dict()) == record


def test_columns_are_read_as_objects_too_as_senders_wrote_them_before() -> None:
    rows = [{"source": "a", "target": "b", "flag": 1}, {"source": "c", "target": "d"}]
    assert Edges.from_dict({"page": "p", "edges": rows}).edges == (
        Edge("a", "b", True),
        Edge("c", "d"),
    )


def test_a_column_an_older_sender_did_not_send_is_its_default() -> None:
    sent = {"page": "p", "edges": {"source": ["a", "c"], "target": ["b", "d"]}}
    assert Edges.from_dict(sent).edges == (Edge("a", "b"), Edge("c", "d"))


def test_platform_spellings_in_a_column_are_read_as_values_are() -> None:
    sent = {"source": ["a"], "target": ["b"], "flag": [1], "depth": [2.0], "weight": [3]}
    edge = from_columns(Edge, sent)[0]
    assert edge == Edge("a", "b", True, 2, 3.0)
    assert type(edge.depth) is int and type(edge.weight) is float


@pytest.mark.parametrize(
    ("columns", "message"),
    [
        ({"target": ["b"]}, "Edge: missing column 'source'"),
        ({"source": ["a", "c"], "target": ["b"]}, r"Edge: columns of different lengths \[1, 2\]"),
        ({"source": "a", "target": ["b"]}, r"Edge.source: expected a column \(list\), got str"),
        ({"source": ["a", 7], "target": ["b", "d"]}, r"Edge.source\[1\]: expected a string"),
        ({"source": ["a"], "target": ["b"], "flag": [2]}, r"Edge.flag\[0\]: expected a boolean"),
        ([["a", "b"]], "Edge columns: expected an object, got list"),
    ],
)
def test_a_malformed_column_names_its_record_field_and_position(
    columns: object, message: str
) -> None:
    with pytest.raises(WireError, match=message):
        from_columns(Edge, columns)
    if isinstance(columns, dict):  # and through the record that carries them
        with pytest.raises(WireError, match="Edges.edges: " + message):
            Edges.from_dict({"page": "p", "edges": columns})


def test_only_tuples_of_flat_records_cross_as_columns() -> None:
    @dataclass(frozen=True, slots=True)
    class Nested(JsonRecord):
        items: tuple[Outer, ...] = field(default=(), metadata=AS_COLUMNS)

    with pytest.raises(TypeError, match="cannot cross as a column"):
        Nested().to_dict()
    assert to_columns([], Edge) == {
        "source": [],
        "target": [],
        "flag": [],
        "depth": [],
        "weight": [],
    }
