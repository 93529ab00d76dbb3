"""Issue 32's done-when: Microdata and RDFa extraction agree with extruct, per syntax, on the
vendored corpus pages and on fixtures.

The comparison, and each difference the two readings have on purpose with its reason, is
tests/structured/extruct_agreement.py; anything else that differs fails here.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from tests.structured.extruct_agreement import microdata, rdfa

CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"
PAGES = sorted(CORPUS.glob("*.html.gz"))
# Each page is read against a URL of its own, so relative links resolve somewhere distinct.
BASE = "https://corpus.example/{}/page.html"

S = "https://schema.org/"
FIXTURES = {
    "microdata-product": f"""<!doctype html><html><body>
        <div itemscope itemtype="{S}Product" itemid="#anvil" itemref="maker">
          <h1 itemprop="name">Anvil</h1><img itemprop="image" src="/img/anvil.png">
          <div itemprop="offers" itemscope itemtype="{S}Offer">
            <meta itemprop="priceCurrency" content="EUR"><span itemprop="price">10.00</span>
            <link itemprop="availability" href="{S}InStock">
            <time itemprop="priceValidUntil" datetime="2030-01-01">New year</time>
          </div>
          <div itemprop="aggregateRating" itemscope itemtype="{S}AggregateRating">
            <data itemprop="ratingValue" value="4.5">four and a half</data>
            <meter itemprop="reviewCount" value="12">12</meter>
          </div>
        </div>
        <p id="maker" itemprop="brand" itemscope itemtype="{S}Brand">
          <span itemprop="name">ACME</span></p>
        </body></html>""",
    "microdata-nested-and-multiple": f"""<!doctype html><html><body>
        <article itemscope itemtype="{S}Article {S}CreativeWork">
          <span itemprop="headline name">Hello</span>
          <span itemprop="author" itemscope itemtype="{S}Person">
            <a itemprop="url" href="../people/jo">Jo</a><span itemprop="name">Jo</span></span>
          <span itemprop="author" itemscope itemtype="{S}Person"><span itemprop="name">Al</span>
          </span>
          <object itemprop="associatedMedia" data="doc.pdf"></object>
        </article>
        <div itemscope><span itemprop="untyped">plain</span></div>
        </body></html>""",
    "rdfa-product": f"""<!doctype html><html prefix="ex: https://example.org/ns#"><head>
        <meta property="og:title" content="Anvil"><meta property="og:type" content="product">
        <meta property="ex:extra" content="x"></head>
        <body vocab="{S}"><div typeof="Product" resource="#anvil">
          <h1 property="name">Anvil</h1><img property="image" src="/img/anvil.png">
          <div property="offers" typeof="Offer">
            <span property="price" content="10.00">10 euros</span>
            <link property="availability" href="{S}InStock">
            <span property="seller" resource="#shop">the shop</span>
          </div>
        </div>
        <div typeof="Organization" resource="#shop"><span property="name">Shop</span></div>
        </body></html>""",
    "rdfa-prefixes": """<!doctype html><html><head></head><body>
        <div prefix="s: https://schema.org/" typeof="s:Event">
          <span property="s:name">Fair</span>
          <span property="s:location" typeof="s:Place"><span property="s:name">Hall</span></span>
        </div></body></html>""",
}


def _page(path: Path) -> tuple[str, str]:
    html = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
    return html, BASE.format(path.name[:12])


def test_corpus_is_complete() -> None:
    assert len(PAGES) == 128


# pyRdfa stamps its graph with datetime.utcnow(), deprecated since Python 3.12.
@pytest.mark.filterwarnings("ignore:datetime.datetime.utcnow:DeprecationWarning")
@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_fixtures_agree(name: str) -> None:
    reader = microdata if name.startswith("microdata") else rdfa
    readings = reader(FIXTURES[name], "https://shop.example/dir/page.html")
    assert readings.ours, "the fixture must read as something"
    assert readings.ours == readings.theirs


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore:datetime.datetime.utcnow:DeprecationWarning")
@pytest.mark.parametrize("syntax", ["microdata", "rdfa"])
@pytest.mark.parametrize("path", PAGES, ids=[p.name[:12] for p in PAGES])
def test_corpus_agrees(path: Path, syntax: str) -> None:
    readings = {"microdata": microdata, "rdfa": rdfa}[syntax](*_page(path))
    assert readings.ours == readings.theirs


@pytest.mark.filterwarnings("ignore:datetime.datetime.utcnow:DeprecationWarning")
def test_the_corpus_has_markup_of_both_syntaxes() -> None:
    """The agreement is not vacuous: pages with Microdata items and with RDFa statements."""
    with_microdata = sum(bool(microdata(*_page(p)).ours) for p in PAGES[::8])
    with_rdfa = sum(bool(rdfa(*_page(p)).ours) for p in PAGES[::8])
    assert with_microdata >= 3 and with_rdfa >= 8
