"""Fragment targets and same-document fragment links, as the extractor reports them."""

from __future__ import annotations

import pytest

from parse.parity import extract
from urls.fragment import fragment_key

PAGE = (
    b"<meta charset=utf-8><html><body><div ID=Intro>x</div><span/id=slash>y</span><p title='id=fake'>z</p>"
    b"<a name=named href='#Intro'>i</a><a href='#'>t</a><a href='#Intro'>again</a>"
    b"<svg><a name=svgname id=svgid></a></svg><template id=tpl><b id=inert></b></template>"
    b"<div id=''></div></div id=endtag><div id=caf\xc3\xa9>u</div>"
)


def test_targets_are_the_ids_and_html_anchor_names_in_the_tree() -> None:
    facts = extract(PAGE)
    expected = {"Intro", "slash", "named", "svgid", "tpl", "caf\u00e9"}
    assert facts.fragment_targets == tuple(sorted(fragment_key(t) for t in expected))
    assert not facts.fragment_targets_capped


@pytest.mark.parametrize("name", ["fake", "svgname", "inert", "endtag", "intro", ""])
def test_what_is_not_a_target(name: str) -> None:
    assert fragment_key(name) not in extract(PAGE).fragment_targets


def test_bare_fragment_links_are_kept_apart_from_links() -> None:
    facts = extract(PAGE, page_url="https://x.test/dir/p.html")
    assert [(r.raw, r.url) for r in facts.fragment_links] == [
        ("#Intro", "https://x.test/dir/p.html"),
        ("#", "https://x.test/dir/p.html"),
    ]
    assert facts.fragment_links_seen == 3
    assert facts.links == ()


def test_targets_past_the_cap_are_dropped_as_unusable(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("parse.builder.FRAGMENT_TARGETS_CAP", 3)
    facts = extract(b"".join(b"<p id=p%d>" % n for n in range(4)))
    assert facts.fragment_targets == ()
    assert facts.fragment_targets_capped
