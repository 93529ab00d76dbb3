"""PageSpeed Insights v5, sans-IO: the request it builds and every answer it can get."""

from __future__ import annotations

import json
from urllib.parse import parse_qs, urlsplit

import pytest

from common.deployment import DeploymentVars
from common.ports import FetchResult
from lighthouse.provider import LighthouseProvider
from lighthouse.providers import configured_provider
from lighthouse.psi import PageSpeedInsights
from lighthouse.records import FieldData, FieldMetric, FieldScope, LighthouseRun, Strategy
from tests.support.psi_double import (
    INTERNAL,
    QUOTA,
    UNREACHABLE,
    Behaviour,
    Field,
    Lab,
    error_body,
    psi_response,
)

PSI = PageSpeedInsights(endpoint="http://127.0.0.1:9/pagespeedonline/v5/runPagespeed", api_key="k1")
URL = "https://shop.test/products/42?b=2&a=1"


def answer(status: int, body: bytes, error: str | None = None) -> FetchResult:
    return FetchResult(URL, status, {}, body, False, 10.0, error)


def test_it_is_a_provider() -> None:
    provider: LighthouseProvider = PSI
    assert provider.name == "pagespeed-insights"


@pytest.mark.parametrize("strategy", list(Strategy))
def test_the_request_asks_for_four_categories_and_the_strategy(strategy: Strategy) -> None:
    request = PSI.request(URL, strategy, 42.0)
    parts = urlsplit(request.url)
    assert f"{parts.scheme}://{parts.netloc}{parts.path}" == PSI.endpoint
    assert parse_qs(parts.query) == {
        "url": [URL],
        "strategy": [str(strategy)],
        "category": ["PERFORMANCE", "ACCESSIBILITY", "BEST_PRACTICES", "SEO"],
        "key": ["k1"],
    }
    assert (request.method, request.timeout_s) == ("GET", 42.0)


def test_a_full_answer_keeps_lab_scores_metrics_field_data_and_the_payload() -> None:
    behaviour = Behaviour(
        lab=Lab(performance=0.42, lcp_ms=5120.5, cls=0.31, ttfb_ms=900.0, inp_ms=650.0),
        field_url=Field(lcp_ms=4300, inp_ms=520, cls=0.27, ttfb_ms=1900),
        field_origin=Field(),
    )
    body = json.dumps(psi_response(URL, "mobile", behaviour)).encode()
    parsed = PSI.parse(Strategy.MOBILE, answer(200, body))
    assert parsed.payload == body
    assert parsed.run == LighthouseRun(
        Strategy.MOBILE,
        performance_score=42,
        accessibility_score=88,
        best_practices_score=100,
        seo_score=91,
        lcp_ms=5120.5,
        cls=0.31,
        inp_ms=650.0,
        ttfb_ms=900.0,
        field_url=FieldData(
            FieldScope.URL,
            "SLOW",
            lcp_ms=FieldMetric(4300, "SLOW"),
            inp_ms=FieldMetric(520, "SLOW"),
            cls=FieldMetric(0.27, "SLOW"),
            ttfb_ms=FieldMetric(1900, "SLOW"),
        ),
        field_origin=FieldData(
            FieldScope.ORIGIN,
            "FAST",
            lcp_ms=FieldMetric(2100, "FAST"),
            inp_ms=FieldMetric(150, "FAST"),
            cls=FieldMetric(0.05, "FAST"),
            ttfb_ms=FieldMetric(600, "FAST"),
        ),
    )
    assert LighthouseRun.from_dict(json.loads(json.dumps(parsed.run.to_dict()))) == parsed.run


def test_no_field_data_and_origin_fallback_leave_the_field_empty() -> None:
    document = psi_response(URL, "desktop", Behaviour(field_url=Field()))
    document["loadingExperience"]["origin_fallback"] = True
    run = PSI.parse(Strategy.DESKTOP, answer(200, json.dumps(document).encode())).run
    assert (run.field_url, run.field_origin, run.inp_ms) == (None, None, None)
    assert run.performance_score == 93 and run.ok


@pytest.mark.parametrize(
    ("status", "body", "error", "message"),
    [
        (400, error_body(400, UNREACHABLE, "INVALID_ARGUMENT"), None, f"HTTP 400: {UNREACHABLE}"),
        (429, error_body(429, QUOTA, "RESOURCE_EXHAUSTED"), None, f"HTTP 429: {QUOTA}"),
        (500, error_body(500, INTERNAL, "INTERNAL"), None, f"HTTP 500: {INTERNAL}"),
        (502, b"<html>Bad Gateway</html>", None, "HTTP 502: <html>Bad Gateway</html>"),
        (200, b"not json", None, "HTTP 200: not json"),
        (0, b"", "timed out after 60s", "timed out after 60s"),
    ],
)
def test_errors_become_error_runs_without_payload(
    status: int, body: bytes, error: str | None, message: str
) -> None:
    parsed = PSI.parse(Strategy.MOBILE, answer(status, body, error))
    assert parsed.run == LighthouseRun.failed(Strategy.MOBILE, message)
    assert parsed.payload is None and not parsed.run.ok


def test_a_runtime_error_is_an_error_run_that_keeps_its_payload() -> None:
    body = json.dumps(psi_response(URL, "mobile", Behaviour(kind="runtime_error"))).encode()
    parsed = PSI.parse(Strategy.MOBILE, answer(200, body))
    assert parsed.run.error_message == "NO_FCP: The page did not paint any content."
    assert parsed.run.performance_score is None and parsed.payload == body


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, None),
        ({"PSI_API_KEY": "  "}, None),
        ({"PSI_API_KEY": "k"}, ("k", "https://www.googleapis.com/pagespeedonline/v5/runPagespeed")),
        (
            {"PSI_API_KEY": "k", "PSI_ENDPOINT": "http://127.0.0.1:1/x"},
            ("k", "http://127.0.0.1:1/x"),
        ),
    ],
)
def test_the_configured_provider_needs_a_key(
    env: dict[str, str], expected: tuple[str, str] | None
) -> None:
    class Env:
        pass

    holder = Env()
    for name, value in env.items():
        setattr(holder, name, value)
    provider = configured_provider(DeploymentVars.from_env(holder))  # type: ignore[arg-type]
    if expected is None:
        assert provider is None
    else:
        assert isinstance(provider, PageSpeedInsights)
        assert (provider.api_key, provider.endpoint) == expected
