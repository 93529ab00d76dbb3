"""Which of a rendered page's requests may leave: a table of URLs, resource types and settings."""

import pytest

from render.records import BlockReason, RenderBudget
from render.request_policy import page_refusal, request_refusal
from urls.private_hosts import PrivateHosts

DENY, LOOPBACK, ALLOW = PrivateHosts.DENY, PrivateHosts.LOOPBACK, PrivateHosts.ALLOW
PRIVATE, MEDIA, NOT_HTTP = (
    BlockReason.PRIVATE_ADDRESS,
    BlockReason.RESOURCE_TYPE,
    BlockReason.NOT_HTTP,
)


@pytest.mark.parametrize(
    ("url", "resource_type", "private_hosts", "expected"),
    [
        ("https://site.example/app.js", "script", DENY, None),
        ("https://site.example/api/items", "fetch", DENY, None),
        ("https://site.example/", "document", DENY, None),
        # Loopback in every spelling a browser accepts, from any kind of request.
        ("http://127.0.0.1:9/secret", "fetch", DENY, PRIVATE),
        ("http://2130706433:9/", "xhr", DENY, PRIVATE),
        ("http://0x7f.1:9/", "script", DENY, PRIVATE),
        ("http://[::1]:9/", "document", DENY, PRIVATE),
        ("http://[::ffff:7f00:1]:9/", "fetch", DENY, PRIVATE),
        ("http://localhost:9/", "stylesheet", DENY, PRIVATE),
        ("http://api.localhost/", "fetch", DENY, PRIVATE),
        # Other private ranges and cloud metadata.
        ("http://10.1.2.3/", "fetch", DENY, PRIVATE),
        ("http://192.168.0.1/", "document", DENY, PRIVATE),
        ("http://169.254.169.254/latest/meta-data/", "fetch", DENY, PRIVATE),
        ("http://metadata.google.internal/", "fetch", DENY, PRIVATE),
        # LOOPBACK lets this machine through and nothing else private; ALLOW lets all through.
        ("http://127.0.0.1:9/", "fetch", LOOPBACK, None),
        ("http://10.1.2.3/", "fetch", LOOPBACK, PRIVATE),
        ("http://10.1.2.3/", "fetch", ALLOW, None),
        # The address is judged first: a private image is an SSRF refusal.
        ("http://127.0.0.1:9/pixel.gif", "image", DENY, PRIVATE),
        # Images, media and fonts stay home unless the budget asks for them.
        ("https://site.example/hero.jpg", "image", DENY, MEDIA),
        ("https://site.example/intro.mp4", "media", DENY, MEDIA),
        ("https://site.example/font.woff2", "font", DENY, MEDIA),
        ("https://site.example/style.css", "stylesheet", DENY, None),
        # Schemes a page's load never needs from the network.
        ("ws://site.example/live", "websocket", DENY, NOT_HTTP),
        ("ftp://site.example/file", "other", DENY, NOT_HTTP),
        ("file:///etc/passwd", "document", ALLOW, NOT_HTTP),
    ],
)
def test_request_refusal(url, resource_type, private_hosts, expected) -> None:
    assert request_refusal(url, resource_type, RenderBudget(), private_hosts) == expected


def test_media_loads_when_the_budget_asks() -> None:
    budget = RenderBudget(load_media=True)
    assert request_refusal("https://site.example/a.png", "image", budget, DENY) is None
    assert request_refusal("http://127.0.0.1/a.png", "image", budget, DENY) is PRIVATE


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://site.example/", None),
        ("http://127.0.0.1/", PRIVATE),
        ("javascript:alert(1)", NOT_HTTP),
    ],
)
def test_page_refusal(url, expected) -> None:
    assert page_refusal(url, DENY) == expected
