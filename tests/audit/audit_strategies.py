"""Hypothesis strategies for any PageObservation the fetcher and extractor could produce."""

from hypothesis import strategies as st

from audit.page import PageObservation
from common.fetch_class import FetchClass
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
    Script,
    UrlRef,
)

text = st.text(max_size=80)
maybe_text = st.none() | text
urls = (
    st.sampled_from(
        [
            "https://example.com/",
            "https://example.com/a?b=1&a=2",
            "http://www.example.com/x",
            "https://other.org/",
            "/relative",
            "//example.com/p",
            "mailto:x@y",
            "http://[bad",
            "",
        ]
    )
    | text
)
url_refs = st.builds(UrlRef, urls, st.none() | urls)
small = st.integers(min_value=0, max_value=10**7)


def few(strategy):
    return st.lists(strategy, max_size=4).map(tuple)


page_facts = st.builds(
    PageFacts,
    page_url=urls,
    encoding=st.builds(EncodingInfo, text, st.sampled_from(EncodingSource), maybe_text),
    html_bytes=small,
    truncated=st.booleans(),
    titles=few(text),
    meta_descriptions=few(text),
    meta_robots=few(st.sampled_from(["noindex", "NOINDEX,follow", "index", ""]) | text),
    meta_googlebot=few(text),
    viewports=few(text),
    refreshes=few(text),
    html_lang=maybe_text,
    base_href=maybe_text,
    canonicals=few(url_refs),
    hreflangs=few(st.builds(Hreflang, text, url_refs)),
    headings=few(st.builds(Heading, st.integers(1, 6), text)),
    links=few(st.builds(Link, url_refs, text, st.booleans(), st.booleans(), st.booleans())),
    links_seen=small,
    images=few(st.builds(Image, st.none() | url_refs, maybe_text, maybe_text, maybe_text)),
    images_seen=small,
    scripts=few(st.builds(Script, st.none() | url_refs, maybe_text, maybe_text, maybe_text)),
    scripts_seen=small,
    forms=few(url_refs),
    forms_seen=small,
    social=few(st.builds(MetaTag, text, text)),
    social_seen=small,
    mixed_content=few(st.builds(MixedContent, text, text)),
    mixed_content_seen=small,
    json_ld=st.builds(JsonLd, small, small, few(text), st.booleans()),
    word_count=small,
    content_hash=maybe_text,
)

observations = st.builds(
    PageObservation,
    url=urls,
    final_url=urls,
    status_code=st.sampled_from([0, 200, 204, 299, 301, 399, 400, 404, 429, 500, 503, 999]),
    fetch_class=st.sampled_from(FetchClass),
    response_time_ms=st.none() | small,
    content_type=maybe_text,
    is_html=st.booleans(),
    html_bytes=small,
    x_robots_tag=maybe_text,
    header_canonical=st.none() | urls,
    strict_transport_security=st.none() | st.sampled_from(["max-age=1", "max-age=x"]) | text,
    content_security_policy=maybe_text,
    x_content_type_options=maybe_text,
    x_frame_options=maybe_text,
    referrer_policy=maybe_text,
    redirect_url=st.none() | urls,
    crawl_depth=st.none() | st.integers(0, 50),
    in_sitemap=st.booleans(),
    site_is_https=st.booleans(),
    facts=st.none() | page_facts,
)
