"""PageFacts round-trips losslessly through RPC-safe dicts."""

import json

from parse.facts import (
    EncodingInfo,
    EncodingSource,
    Heading,
    Hreflang,
    Image,
    JsonLd,
    Link,
    MetaTag,
    MixedContent,
    PageFacts,
    Reference,
    ReferenceKind,
    Script,
    UrlRef,
)


def _sample() -> PageFacts:
    ref = UrlRef("/a", "https://x.test/a")
    return PageFacts(
        page_url="https://x.test/",
        encoding=EncodingInfo("utf-8", EncodingSource.META_PRESCAN, "UTF-8"),
        html_bytes=10,
        truncated=False,
        titles=("t",),
        meta_descriptions=("d",),
        meta_robots=("noindex",),
        meta_googlebot=("nofollow",),
        viewports=("width=device-width",),
        refreshes=("0;url=/",),
        generators=("Hugo 0.120",),
        html_lang="en",
        base_href="/b/",
        canonicals=(ref,),
        hreflangs=(Hreflang("de", ref),),
        headings=(Heading(1, "h"),),
        headings_seen=1,
        heading_levels=(1,),
        links=(Link(ref, "a", nofollow=True),),
        links_seen=3,
        images=(Image(None, None, "1", None), Image(ref, "", None, "2")),
        images_seen=2,
        images_missing_alt=1,
        scripts=(Script(ref, "module", "sha384-x", "anonymous"),),
        scripts_seen=1,
        forms=(ref,),
        forms_seen=1,
        social=(MetaTag("og:title", "T"),),
        social_seen=1,
        mixed_content=(MixedContent("img", "http://x.test/i.png"),),
        mixed_content_seen=1,
        json_ld=JsonLd(2, 1, ("Article",), False),
        fragment_targets=(3, 2**53 - 1),
        fragment_targets_capped=False,
        fragment_links=(UrlRef("#x", "https://x.test/"),),
        fragment_links_seen=2,
        references=(
            Reference(ReferenceKind.LINK, ref, "stylesheet"),
            Reference(ReferenceKind.AREA, ref),
        ),
        references_seen=3,
        word_count=5,
        content_hash="ab" * 32,
    )


def _has_tuple(value: object) -> bool:
    if isinstance(value, tuple):
        return True
    if isinstance(value, dict):
        return any(_has_tuple(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_tuple(v) for v in value)
    return False


def test_round_trip_is_lossless_and_tuple_free() -> None:
    facts = _sample()
    plain = facts.to_dict()
    assert not _has_tuple(plain)
    assert PageFacts.from_dict(json.loads(json.dumps(plain))) == facts


def test_defaults_round_trip() -> None:
    facts = PageFacts("u", EncodingInfo("windows-1252", EncodingSource.DEFAULT), 0, False)
    assert PageFacts.from_dict(facts.to_dict()) == facts
