"""Structured-field Items (RFC 8941 / RFC 9651): a table of Items and of failures, then the
property that any text parses or raises StructuredFieldError, never another exception. The rows
follow the RFC 9651 §4.2 parsing steps named in security/structured_field.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from security.structured_field import (
    ByteSequence,
    Date,
    DisplayString,
    Item,
    StructuredFieldError,
    Token,
    parse_item,
    token_of,
)


@pytest.mark.parametrize(
    ("text", "item"),
    [
        ("require-corp", Item(Token("require-corp"))),
        ("  same-origin  ", Item(Token("same-origin"))),  # leading and trailing SP are discarded
        ("*foo:/bar!#$%&'*+-.^_`|~1", Item(Token("*foo:/bar!#$%&'*+-.^_`|~1"))),
        ("Same-Origin", Item(Token("Same-Origin"))),  # tokens keep their case
        ('"require-corp"', Item("require-corp")),  # a String, not a Token
        ('"a \\"b\\" \\\\c"', Item('a "b" \\c')),
        ('require-corp; report-to="coep-endpoint"', Item(Token("require-corp"), {"report-to": "coep-endpoint"})),
        ("require-corp; report-to", Item(Token("require-corp"), {"report-to": True})),
        ("t;a=1;b=?0;c=tok;*d=-1.5", Item(Token("t"), {"a": 1, "b": False, "c": Token("tok"), "*d": -1.5})),
        ("t;a=1;a=2", Item(Token("t"), {"a": 2})),  # a repeated key overwrites
        ("t; a=:aGVsbG8=:", Item(Token("t"), {"a": ByteSequence("aGVsbG8=")})),
        ("t;d=@1659578233", Item(Token("t"), {"d": Date(1659578233)})),
        ('t;s=%"f%c3%bc%c3%bc"', Item(Token("t"), {"s": DisplayString("füü")})),
        ("42", Item(42)),
        ("-999999999999999", Item(-999999999999999)),
        ("123456789012.123", Item(123456789012.123)),
        ("?1", Item(True)),
    ],
)  # fmt: skip
def test_items_parse(text: str, item: Item) -> None:
    assert parse_item(text) == item


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "require-corp; report-to=coep endpoint",  # an unquoted value with a space (issue 26)
        "require-corp ;report-to",  # no whitespace before ";" (RFC 9651 §4.2.3.2)
        "require-corp;Report-To",  # keys are lower case
        "require-corp;",  # a key must follow ";"
        "require-corp, unsafe-none",  # a List, not an Item
        "(require-corp)",  # an Inner List is not an Item
        "\trequire-corp",  # only SP is discarded, not HTAB
        "require-corp\t",
        '"unterminated',
        '"bad \\n escape"',
        '"tab\tinside"',
        "é",  # not ASCII
        "t;a=é",
        "1234567890123456",  # 16 integer digits
        "1234567890123.1",  # 13 digits before the point
        "1.1234",  # 4 after it
        "1.",
        "-",
        "?2",
        ":aGVsbG8=",  # unterminated Byte Sequence
        ":aGV$bG8=:",
        "@1.5",  # a Date is an integer
        '%"F%C3%BC"',  # percent-escapes are lower-case hex
        '%"%ff"',  # not UTF-8
        "%x",
    ],
)
def test_malformed_items_fail(text: str) -> None:
    with pytest.raises(StructuredFieldError):
        parse_item(text)
    assert token_of(text) is None


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("same-origin", "same-origin"),
        ("same-origin; report-to", "same-origin"),
        ('"same-origin"', None),
        ("42", None),
        ("same-origin; report-to=coop endpoint", None),
    ],
)
def test_token_of(text: str, token: str | None) -> None:
    assert token_of(text) == token


_PIECES = [*' ;=,"\\:?@%*-.()\t', "a", "Z", "1", "tok", "key", "%c3", "é"]


@given(st.text() | st.lists(st.sampled_from(_PIECES), max_size=20).map("".join))
def test_any_text_parses_or_fails_cleanly(text: str) -> None:
    try:
        item = parse_item(text)
    except StructuredFieldError:
        return
    assert isinstance(item, Item)
    assert token_of(text) == (item.value.value if isinstance(item.value, Token) else None)
