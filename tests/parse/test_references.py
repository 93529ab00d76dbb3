"""Every URL a page names, with its kind (facts.py, "References")."""

from __future__ import annotations

from parse.facts import ReferenceKind as K
from parse.parity import extract

from .cases import cases

PAGES = {name: data for name, data, _ in cases()}


def refs(name: str) -> list[tuple[K, str, str | None]]:
    return [(r.kind, r.href.raw, r.rel) for r in extract(PAGES[name]).references]


def test_every_kind_but_a_in_source_order_once_each() -> None:
    assert refs("references") == [
        (K.REFRESH, "/refreshed", None),
        (K.LINK, "/s.css", "stylesheet preload"),
        (K.LINK, "/favicon.ico", "icon"),
        (K.LINK, "page2", "next"),
        (K.SCRIPT, "/app.js", None),
        (K.AREA, "/area", None),
        (K.IMG, "/i.png", None),
        (K.SRCSET, "/i-1x.png", None),
        (K.SRCSET, "/i-2x.png", None),
        (K.SRCSET, "/i,3x.png", None),
        (K.SRCSET, "/p.webp", None),
        (K.SRCSET, "/p2.webp", None),
        (K.IMG, "/p.png", None),
        (K.IFRAME, "/frame.html", None),
        (K.MEDIA, "/v.mp4", None),
        (K.POSTER, "/poster.jpg", None),
        (K.MEDIA, "/v.webm", None),
        (K.MEDIA, "/a.mp3", None),
        (K.EMBED, "/e.swf", None),
        (K.OBJECT, "/o.pdf", None),
        (K.FORM, "/submit", None),
    ]
    facts = extract(PAGES["references"])
    assert facts.references_seen == 22  # the repeated script counted, kept once
    assert [link.href.raw for link in facts.links] == ["/a"]  # <a href> stays in links


def test_frames_count_only_inside_a_frameset() -> None:
    assert refs("frameset") == [(K.FRAME, "/left.html", None), (K.FRAME, "/right.html", None)]
    assert all(kind is not K.FRAME for kind, _, _ in refs("references"))


def test_references_resolve_against_the_base() -> None:
    page = b"<base href='https://cdn.test/x/'><img src='i.png' srcset='j.png 2x'>"
    facts = extract(page)
    assert [r.href.url for r in facts.references] == [
        "https://cdn.test/x/i.png",
        "https://cdn.test/x/j.png",
    ]
