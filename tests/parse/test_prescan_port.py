"""parse.prescan, the port of html5lib's encoding prescan, answers as html5lib's own code does.

Byte strings are drawn from the pieces the prescan reacts to (tags, comments, the meta attributes,
quotes, spaces, case), so most of them reach its attribute and content parsers; any exception
html5lib's code raises must be raised by the port too (callers read it as "no encoding").
"""

from __future__ import annotations

from collections.abc import Callable

from html5lib import _inputstream as html5lib_stream
from hypothesis import example, given, settings
from hypothesis import strategies as st

from parse import prescan

PIECES = [
    b"<meta",
    b"<META",
    b" ",
    b"\t",
    b"\n",
    b"<",
    b">",
    b"/",
    b"=",
    b'"',
    b"'",
    b"<!--",
    b"-->",
    b"</",
    b"<!",
    b"<?",
    b"a",
    b"B",
    b"charset",
    b"CharSet",
    b"http-equiv",
    b"content-type",
    b"content",
    b"text/html;",
    b"utf-8",
    b"ISO-8859-2",
    b"windows-1251",
    b"shift_jis",
    b"utf-16",
    b"nonsense",
    b"\xff",
    b"x",
    b"<meta ",
    b"<meta charset=",
    b" charset=",
    b" http-equiv=",
    b"<meta http-equiv=content-type content=",
    b" content=",
    b"text/html; charset=",
    b'"text/html; charset=',
]
documents = st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join)


def outcome(run: Callable[[], object]) -> tuple[str, object]:
    try:
        found = run()
    except Exception as exc:
        return "raised", type(exc)
    return "answered", getattr(found, "name", found)


@settings(max_examples=3000)
@given(documents)
@example(b'<meta charset="utf-8">')
@example(b'<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-2">')
@example(b"<meta content='text/html; charset=windows-1251' http-equiv=content-type>")
@example(b"<!-- <meta charset=x> --><meta charset=shift_jis>")
def test_the_prescan_finds_what_html5libs_finds(data: bytes) -> None:
    ours = outcome(lambda: prescan.EncodingParser(data).get_encoding())
    assert ours == outcome(lambda: html5lib_stream.EncodingParser(data).getEncoding())


@settings(max_examples=2000)
@given(documents)
@example(b"text/html; charset=utf-8")
@example(b"charset = 'utf-8")
@example(b'charset="')
@example(b"charset")
def test_the_content_parser_reads_what_html5libs_reads(value: bytes) -> None:
    ours = outcome(lambda: prescan.ContentAttrParser(prescan.EncodingBytes(value)).parse())
    theirs = html5lib_stream.ContentAttrParser(html5lib_stream.EncodingBytes(value))
    assert ours == outcome(theirs.parse)


@given(st.sampled_from(PIECES) | st.binary(max_size=12) | st.text(max_size=12) | st.none())
@example("latin1")
@example(b"UTF8")
def test_labels_name_the_encodings_html5lib_names(label: bytes | str | None) -> None:
    ours = outcome(lambda: prescan.lookup_encoding(label))
    assert ours == outcome(lambda: html5lib_stream.lookupEncoding(label))
