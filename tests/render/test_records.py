"""The render records cross Workflow steps: each survives the trip to JSON and back."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from render.records import (
    BlockedRequest,
    BlockReason,
    RenderBudget,
    RenderedPage,
    RenderFailure,
)
from render.renderer import NotConfigured

_text = st.text(max_size=40)
_blocked = st.builds(
    BlockedRequest, url=_text, reason=st.sampled_from(BlockReason), resource_type=_text
)
_pages = st.builds(
    RenderedPage,
    url=_text,
    renderer=_text,
    final_url=_text,
    status=st.none() | st.integers(0, 599),
    html=st.text(max_size=200),
    console_errors=st.lists(_text, max_size=3),
    exceptions=st.lists(_text, max_size=3),
    blocked=st.lists(_blocked, max_size=3),
    elapsed_ms=st.floats(0, 1e6),
    browser_ms=st.none() | st.floats(0, 1e6),
    bytes_loaded=st.integers(0, 2**40),
    failure=st.none() | st.sampled_from(RenderFailure),
    error=st.none() | _text,
)


@given(_pages)
def test_a_rendered_page_survives_json(page: RenderedPage) -> None:
    assert RenderedPage.from_dict(json.loads(json.dumps(page.to_dict()))) == page


@given(st.floats(0.001, 600), st.integers(1, 2**40), st.booleans())
def test_a_budget_survives_json(time_s: float, max_bytes: int, load_media: bool) -> None:
    budget = RenderBudget(time_s, max_bytes, load_media)
    assert RenderBudget.from_dict(json.loads(json.dumps(budget.to_dict()))) == budget


@pytest.mark.parametrize(("time_s", "max_bytes"), [(0, 1), (-1, 1), (1, 0), (1, -5)])
def test_a_budget_is_positive(time_s: float, max_bytes: int) -> None:
    with pytest.raises(ValueError, match="positive"):
        RenderBudget(time_s, max_bytes)


def test_a_page_carries_no_tuples_across_steps() -> None:
    page = RenderedPage("u", "r", blocked=[BlockedRequest("x", BlockReason.RESOURCE_TYPE)])
    encoded = page.to_dict()
    assert isinstance(encoded["blocked"], list)
    assert encoded["blocked"] == [{"url": "x", "reason": "resource-type", "resource_type": "other"}]


async def test_no_renderer_says_why_for_every_page() -> None:
    renderer = NotConfigured("no BROWSER_RENDERING_API_TOKEN secret")
    assert renderer.unavailable == "no BROWSER_RENDERING_API_TOKEN secret"
    page = await renderer.render("https://a.example/", RenderBudget())
    assert not page.ok
    assert page.failure is RenderFailure.NOT_CONFIGURED
    assert page.error == "no BROWSER_RENDERING_API_TOKEN secret"
    assert (page.url, page.html) == ("https://a.example/", "")
