"""The meta prescan's fast path answers exactly as html5lib's EncodingParser, or leaves it to it."""

from __future__ import annotations

from pathlib import Path

import pytest
from html5lib._inputstream import EncodingParser
from hypothesis import given, settings
from hypothesis import strategies as st

from parse.decoding import PRESCAN_BYTES, _plain_meta_charset, prescan
from parse.parity import page_files, read_page

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"


def html5lib_prescan(head: bytes) -> str | None:
    try:
        found = EncodingParser(head[:PRESCAN_BYTES]).getEncoding()
    except Exception:
        return None
    return None if found is None else found.name


def fast(head: bytes) -> str | None:
    found = _plain_meta_charset(head[:PRESCAN_BYTES].lower())
    return None if found is None else found.name


@pytest.mark.parametrize(
    "head",
    [
        b'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">',
        b"<!doctype html><html><head><meta charset=UTF-8><title>x</title>",
        b"<!-- a comment with <meta charset=koi8-r> --><meta charset='iso-8859-2'>",
        b'<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><meta charset="sjis">',
        b'<html class="no-js" data-x=""><head/><!--[if IE]><![endif]--><meta  charset = "gbk" >',
        b"<title>T</title></head><meta charset=euc-kr\n>",
        b'<br/><img/src="x"><meta charset="windows-1251"/>',
        b'<html title="<meta charset=koi8-r>"><meta charset=utf-8>',  # a value's text is skipped
        b"<HTML><META CHARSET=KOI8-R><meta charset=utf-8>",  # html5lib reads it lowercased
        b'<meta name="viewport" content="x"><meta data-rh="true" charset="utf-8">',
        b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">',
        b'<meta content="text/html;charset=koi8-r" http-equiv="content-type"><meta charset=utf-8>',
        b'<meta charset="bogus" charset="koi8-r">',  # an unknown label: the next attribute
        b'<meta http-equiv="content-type" content="text/html"><meta charset="koi8-r">',
        b"<html lang=en-gb class=a/b><meta name=x content=y><meta charset=koi8-r>",
        b"<a b=c><meta charset=utf-8>",
    ],
)
def test_plain_heads_take_the_fast_path(head: bytes) -> None:
    assert fast(head) is not None
    assert fast(head) == html5lib_prescan(head)


@pytest.mark.parametrize(
    "head",
    [
        b"<metadata><meta charset=koi8-r>",  # <meta + non-space: html5lib reads on inside
        b"<<meta charset=koi8-r>",  # a lone < makes html5lib step over the next byte
        b'<a b="x"c><meta charset=koi8-r>',  # an attribute right after a quote
        b"<a b=c<d><meta charset=koi8-r>",  # html5lib ends the value at <, then reads on oddly
        b'<meta charset="no-such-label"><meta charset=utf-8>',  # unknown: html5lib reads on
        b'<meta charset="utf-8',  # cut short
        b"<meta charset=utf-8",  # EOF in an unquoted value
        b'<meta charset="koi8-r"',  # html5lib steps past the closing quote into EOF: no answer
        b'<meta content="text/html; charset=koi8-r"><meta charset="utf-8">',  # no pragma: reads on
    ],
)
def test_other_heads_are_left_to_html5lib(head: bytes) -> None:
    assert fast(head) is None
    found = prescan(head)
    assert (None if found is None else found.name) == html5lib_prescan(head)


def test_the_corpus_mostly_takes_the_fast_path() -> None:
    heads = [read_page(path)[:PRESCAN_BYTES] for path in page_files(CORPUS)]
    fast_answers = [fast(head) for head in heads]
    for head, answer in zip(heads, fast_answers, strict=True):
        if answer is not None:
            assert answer == html5lib_prescan(head)
    # Pages whose first 1 KiB holds a plain <meta charset> (most declare it first in <head>).
    assert sum(answer is not None for answer in fast_answers) >= len(heads) // 3


_PIECES = st.sampled_from(
    [
        b"<",
        b">",
        b"/",
        b"=",
        b'"',
        b"'",
        b" ",
        b"\n",
        b"-",
        b"!",
        b"?",
        b"<!--",
        b"-->",
        b"<meta",
        b"<META",
        b" charset",
        b"charset",
        b"=utf-8",
        b'="koi8-r"',
        b"='iso-8859-5'",
        b"gbk",
        b"<html",
        b"</a",
        b"<br",
        b" lang",
        b'="en"',
        b"x",
        b"Y",
        b"1",
        b"content",
        b"http-equiv",
        b' http-equiv="content-type"',
        b' content="text/html; charset=koi8-r"',
        b" content=charset=gbk",
        b"=en",
        b" a=b",
        b"<!DOCTYPE html>",
    ]
)


@settings(max_examples=800, deadline=None)
@given(st.lists(_PIECES, max_size=30))
def test_generated_heads_agree_with_html5lib(pieces: list[bytes]) -> None:
    head = b"".join(pieces)
    answer = fast(head)
    if answer is not None:
        assert answer == html5lib_prescan(head)
    found = prescan(head)
    expected = html5lib_prescan(head)
    utf16 = expected in ("utf-16le", "utf-16be")  # prescan() takes these as UTF-8
    assert (None if found is None else found.name) == ("utf-8" if utf16 else expected)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=12), st.lists(_PIECES, max_size=12))
def test_generated_prefixes_before_a_plain_charset(before: list[bytes], after: list[bytes]) -> None:
    # Bias towards heads the fast path does answer: markup, then a plain charset meta.
    head = b"".join(before) + b'<meta charset="koi8-r">' + b"".join(after)
    answer = fast(head)
    if answer is not None:
        assert answer == html5lib_prescan(head)
