"""Version disclosure in headers and generator tags, as tables."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exposure.disclosure import (
    DisclosureSource,
    generator_disclosures,
    header_disclosures,
    meta_generators,
)

S = DisclosureSource


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"server": "nginx"}, [(S.SERVER, "nginx", None)]),
        ({"server": "nginx/1.18.0 (Ubuntu)"}, [(S.SERVER, "nginx", "1.18.0")]),
        (
            {"server": "Apache/2.4.41 (Ubuntu) OpenSSL/1.1.1f PHP/7.4.3"},
            [
                (S.SERVER, "Apache", "2.4.41"),
                (S.SERVER, "OpenSSL", "1.1.1f"),
                (S.SERVER, "PHP", "7.4.3"),
            ],
        ),
        ({"server": "Microsoft-IIS/10.0"}, [(S.SERVER, "Microsoft-IIS", "10.0")]),
        ({"server": "cloudflare"}, [(S.SERVER, "cloudflare", None)]),
        ({"server": "Apache/2"}, [(S.SERVER, "Apache", "2")]),
        ({"server": "gws/"}, [(S.SERVER, "gws", None)]),
        ({"x-powered-by": "PHP/8.1.2"}, [(S.X_POWERED_BY, "PHP", "8.1.2")]),
        ({"x-powered-by": "Express"}, [(S.X_POWERED_BY, "Express", None)]),
        ({"x-powered-by": "ASP.NET"}, [(S.X_POWERED_BY, "ASP.NET", None)]),
        (
            {"x-powered-by": "PHP/7.4.33, PleskLin"},
            [(S.X_POWERED_BY, "PHP", "7.4.33"), (S.X_POWERED_BY, "PleskLin", None)],
        ),
        ({"x-aspnet-version": "4.0.30319"}, [(S.X_ASPNET_VERSION, "ASP.NET", "4.0.30319")]),
        ({"x-aspnetmvc-version": "5.2"}, [(S.X_ASPNETMVC_VERSION, "ASP.NET MVC", "5.2")]),
        ({"x-generator": "Drupal 10 (https://www.drupal.org)"}, [(S.X_GENERATOR, "Drupal", "10")]),
        (
            {"x-generator": "Wix.com Website Builder"},
            [(S.X_GENERATOR, "Wix.com Website Builder", None)],
        ),
        ({"content-type": "text/html", "server": " "}, []),
        (
            {"x-generator": "Hugo 0.120.4", "server": "Caddy"},
            [(S.SERVER, "Caddy", None), (S.X_GENERATOR, "Hugo", "0.120.4")],
        ),
    ],
)
def test_headers(headers: dict[str, str], expected: list[tuple[S, str | None, str | None]]) -> None:
    found = header_disclosures(headers)
    assert [(d.source, d.product, d.version) for d in found] == expected
    assert all(d.discloses_version is (d.version is not None) for d in found)


@pytest.mark.parametrize(
    ("generator", "product", "version"),
    [
        ("WordPress 6.4.2", "WordPress", "6.4.2"),
        ("WooCommerce 8.2.1", "WooCommerce", "8.2.1"),
        ("Site Kit by Google 1.115.0", "Site Kit by Google", "1.115.0"),
        ("Elementor 3.17.3; features: e_dom_optimization", "Elementor", "3.17.3"),
        (
            "Joomla! - Open Source Content Management",
            "Joomla! - Open Source Content Management",
            None,
        ),
        ("Jekyll v4.3.2", "Jekyll", "4.3.2"),
        ("MediaWiki 1.41.0-rc.0", "MediaWiki", "1.41.0-rc.0"),
        ("Gatsby 5.12.4", "Gatsby", "5.12.4"),
        ("Microsoft FrontPage 4.0", "Microsoft FrontPage", "4.0"),
        ("Squarespace", "Squarespace", None),
    ],
)
def test_generator_text(generator: str, product: str | None, version: str | None) -> None:
    [found] = generator_disclosures([generator])
    assert (found.source, found.product, found.version) == (S.META_GENERATOR, product, version)


def test_meta_generators_are_read_from_the_markup() -> None:
    html = (
        '<html><head><META NAME="Generator" content=" WordPress 6.4.2 ">'
        '<meta name="description" content="x"><meta name=generator content="Site Kit by Google 1.115.0">'
        "</head><body><meta name=generator></body></html>"
    )
    assert meta_generators(html) == ["WordPress 6.4.2", "Site Kit by Google 1.115.0"]


@given(st.dictionaries(st.sampled_from([s.value for s in S]), st.text(max_size=300)))
def test_any_header_values_give_records_never_errors(headers: dict[str, str]) -> None:
    for found in header_disclosures(headers):
        assert len(found.value) <= 200
        assert type(found).from_dict(found.to_dict()) == found


@given(st.text(max_size=500))
def test_any_markup_gives_a_list(html: str) -> None:
    assert isinstance(meta_generators(html), list)
