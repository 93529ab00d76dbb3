"""Alerts: the decision table, the payload, and Standard Webhooks signatures."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from local_platform.runtime import LocalPlatform
from service.alerts import (
    ALERT_TYPE,
    AlertDecision,
    AlertIssue,
    AlertPayload,
    AlertReason,
    AlertThresholds,
    InvalidSignature,
    RunScore,
    SignatureProblem,
    alert_payload,
    count_new_critical,
    delivery_id,
    grade_dropped,
    new_secret,
    should_alert,
    sign,
    signed_headers,
    verify,
)
from service.compare import compare_audits
from tests.service.test_compare import AFTER, BEFORE, ORIGIN, seed

DROP, CRITICAL = AlertReason.SCORE_DROP, AlertReason.NEW_CRITICAL_ISSUES
GRADE = AlertReason.GRADE_DROP


def run(
    score: float | None, new_critical: int = 0, run_id: str = "r2", grade: str | None = None
) -> RunScore:
    return RunScore(run_id, f"audit-{run_id}", score, new_critical, grade)


@pytest.mark.parametrize(
    ("previous", "current", "thresholds", "reasons"),
    [
        # No previous run: nothing to get worse than, whatever happened.
        (None, run(10.0, 5), AlertThresholds(), []),
        # The score: a drop of at least the threshold alerts, a smaller one or a rise does not.
        (run(90.0, run_id="r1"), run(80.0), AlertThresholds(score_drop=10), [DROP]),
        (run(90.0, run_id="r1"), run(80.1), AlertThresholds(score_drop=10), []),
        (
            run(80.0, run_id="r1"),
            run(70.1),
            AlertThresholds(score_drop=9.9),
            [DROP],
        ),  # no float noise
        (run(70.0, run_id="r1"), run(95.0), AlertThresholds(score_drop=1), []),
        (run(90.0, run_id="r1"), run(0.0), AlertThresholds(score_drop=None), []),
        # A run without a score (an audit that failed before scoring) never alerts on the score.
        (run(None, run_id="r1"), run(10.0), AlertThresholds(score_drop=1), []),
        (run(90.0, run_id="r1"), run(None), AlertThresholds(score_drop=1), []),
        # New critical issues alert unless the monitor turned that off.
        (run(90.0, run_id="r1"), run(90.0, 1), AlertThresholds(), [CRITICAL]),
        (run(90.0, run_id="r1"), run(90.0, 1), AlertThresholds(new_critical_issues=False), []),
        (run(90.0, run_id="r1"), run(60.0, 3), AlertThresholds(score_drop=5), [DROP, CRITICAL]),
        # The security grade: a lower letter alerts unless the monitor turned that off.
        (run(90.0, run_id="r1", grade="A"), run(90.0, grade="A-"), AlertThresholds(), [GRADE]),
        (run(90.0, run_id="r1", grade="A+"), run(90.0, grade="F"), AlertThresholds(), [GRADE]),
        (run(90.0, run_id="r1", grade="B"), run(90.0, grade="B"), AlertThresholds(), []),
        (run(90.0, run_id="r1", grade="C"), run(90.0, grade="B-"), AlertThresholds(), []),
        (
            run(90.0, run_id="r1", grade="A"),
            run(90.0, grade="F"),
            AlertThresholds(grade_drop=False),
            [],
        ),
        # A run not graded on either side never alerts on the grade.
        (run(90.0, run_id="r1", grade=None), run(90.0, grade="F"), AlertThresholds(), []),
        (run(90.0, run_id="r1", grade="A"), run(90.0, grade=None), AlertThresholds(), []),
        (
            run(90.0, run_id="r1", grade="A"),
            run(70.0, 2, grade="D"),
            AlertThresholds(score_drop=5),
            [DROP, CRITICAL, GRADE],
        ),
    ],
)
def test_should_alert(
    previous: RunScore | None,
    current: RunScore,
    thresholds: AlertThresholds,
    reasons: list[AlertReason],
) -> None:
    assert should_alert(previous, current, thresholds) == reasons


@pytest.mark.parametrize(
    ("before", "after", "dropped"),
    [
        ("A+", "A", True),
        ("A", "A-", True),
        ("B+", "B", True),
        ("D-", "F", True),
        ("F", "D-", False),
        ("A", "A+", False),
        ("C", "C", False),
        (None, "F", False),
        ("A", None, False),
        ("A", "Z", False),  # not a grade: never a drop
    ],
)
def test_grade_dropped_follows_the_letter_order(
    before: str | None, after: str | None, dropped: bool
) -> None:
    assert grade_dropped(before, after) is dropped


@pytest.mark.parametrize("score_drop", [0, -5.0])
def test_a_score_drop_threshold_must_be_positive(score_drop: float) -> None:
    with pytest.raises(ValueError, match="score_drop must be positive"):
        AlertThresholds(score_drop=score_drop)


# -- the payload -------------------------------------------------------------------------------


async def test_the_payload_names_the_new_critical_issues_of_the_comparison(
    platform: LocalPlatform,
) -> None:
    env = platform.env
    await seed(env, "before", BEFORE, 80.0)
    await seed(env, "after", AFTER, 65.5)
    comparison = await compare_audits(env, "alpha", "before", "after")
    previous = RunScore("run-1", "before", 80.0)
    current = RunScore("run-2", "after", 65.5, count_new_critical(comparison))

    decision = AlertDecision([DROP, CRITICAL])

    payload = alert_payload("mon-1", f"{ORIGIN}/", previous, current, decision, comparison)

    assert current.new_critical_issues == payload.new_critical_total == 1
    assert payload.new_critical_issues == [
        AlertIssue("broken-internal-link", f"{ORIGIN}/", f"{ORIGIN}/z")
    ]
    assert (payload.site, payload.comparison) == (f"{ORIGIN}/", "/api/audits/before/compare/after")
    assert (payload.score_before, payload.score_after) == (80.0, 65.5)
    assert payload.delivery_id == delivery_id("mon-1", "run-2")
    assert AlertPayload.from_dict(json.loads(payload.body())) == payload
    assert json.loads(payload.body())["type"] == ALERT_TYPE
    assert payload.summary == (
        "The health score fell from 80 to 65.5. 1 new critical issue since the previous run."
    )
    assert (payload.blame, payload.failure, payload.outage) == (None, None, None)


def test_a_delivery_id_is_the_same_for_every_retry_of_a_run_and_differs_between_runs() -> None:
    assert delivery_id("m1", "r1") == delivery_id("m1", "r1")
    assert len({delivery_id("m1", "r1"), delivery_id("m1", "r2"), delivery_id("m2", "r1")}) == 3
    assert re.fullmatch(r"alert_[0-9a-f]{32}", delivery_id("m1", "r1"))


# -- signatures --------------------------------------------------------------------------------

# The Standard Webhooks specification's published test vector (the reference libraries' tests).
VECTOR_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
VECTOR_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
VECTOR_TIMESTAMP = 1614265330
VECTOR_BODY = b'{"test": 2432232314}'
VECTOR_SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def test_signatures_match_the_specifications_test_vector() -> None:
    assert sign(VECTOR_SECRET, VECTOR_ID, VECTOR_TIMESTAMP, VECTOR_BODY) == VECTOR_SIGNATURE


def vector_headers(**changes: str) -> dict[str, str]:
    headers = {
        "webhook-id": VECTOR_ID,
        "webhook-timestamp": str(VECTOR_TIMESTAMP),
        "webhook-signature": VECTOR_SIGNATURE,
    }
    return {**headers, **changes}


OTHER_SECRET = "whsec_" + base64.b64encode(b"another endpoint's secret!!!!!!!").decode()


@pytest.mark.parametrize(
    ("secret", "headers", "body", "now", "problem"),
    [
        (VECTOR_SECRET, vector_headers(), VECTOR_BODY, VECTOR_TIMESTAMP, None),
        (VECTOR_SECRET, vector_headers(), VECTOR_BODY, VECTOR_TIMESTAMP + 300, None),
        (VECTOR_SECRET, vector_headers(), VECTOR_BODY, VECTOR_TIMESTAMP - 300, None),
        # During a secret rotation the sender offers several signatures; one match is enough.
        (
            VECTOR_SECRET,
            vector_headers(**{"webhook-signature": f"v1,bm90IGl0 {VECTOR_SIGNATURE}"}),
            VECTOR_BODY,
            VECTOR_TIMESTAMP,
            None,
        ),
        (VECTOR_SECRET, {k.upper(): v for k, v in vector_headers().items()}, VECTOR_BODY,
         VECTOR_TIMESTAMP, None),
        (VECTOR_SECRET, vector_headers(), b'{"test": 2432232315}', VECTOR_TIMESTAMP,
         SignatureProblem.NO_MATCH),
        (OTHER_SECRET, vector_headers(), VECTOR_BODY, VECTOR_TIMESTAMP, SignatureProblem.NO_MATCH),
        (VECTOR_SECRET, vector_headers(**{"webhook-id": "msg_other"}), VECTOR_BODY,
         VECTOR_TIMESTAMP, SignatureProblem.NO_MATCH),
        (VECTOR_SECRET, vector_headers(), VECTOR_BODY, VECTOR_TIMESTAMP + 301,
         SignatureProblem.TOO_OLD),
        (VECTOR_SECRET, vector_headers(), VECTOR_BODY, VECTOR_TIMESTAMP - 301,
         SignatureProblem.TOO_NEW),
        (VECTOR_SECRET, vector_headers(**{"webhook-timestamp": "16142653.30"}), VECTOR_BODY,
         VECTOR_TIMESTAMP, SignatureProblem.BAD_TIMESTAMP),
        (VECTOR_SECRET, {"webhook-id": VECTOR_ID, "webhook-signature": VECTOR_SIGNATURE},
         VECTOR_BODY, VECTOR_TIMESTAMP, SignatureProblem.MISSING_HEADER),
    ],
)  # fmt: skip
def test_verify(
    secret: str,
    headers: dict[str, str],
    body: bytes,
    now: int,
    problem: SignatureProblem | None,
) -> None:
    if problem is None:
        verify(secret, headers, body, now)
        return
    with pytest.raises(InvalidSignature) as refused:
        verify(secret, headers, body, now)
    assert refused.value.problem is problem


@given(st.binary(max_size=300), st.text(min_size=1, max_size=40).filter(lambda s: " " not in s))
def test_what_is_signed_verifies_and_any_changed_byte_does_not(body: bytes, msg_id: str) -> None:
    secret = new_secret()
    headers = signed_headers(secret, msg_id, 1_800_000_000, body)
    verify(secret, headers, body, now=1_800_000_000)

    for tampered in (body + b" ", bytes([body[0] ^ 1]) + body[1:] if body else b"x"):
        with pytest.raises(InvalidSignature):
            verify(secret, headers, tampered, now=1_800_000_000)


def test_new_secrets_are_32_random_bytes_behind_the_prefix() -> None:
    secrets = {new_secret() for _ in range(20)}

    assert len(secrets) == 20
    for secret in secrets:
        assert secret.startswith("whsec_")
        assert len(base64.b64decode(secret.removeprefix("whsec_"))) == 32


def test_a_malformed_secret_is_refused() -> None:
    with pytest.raises(ValueError, match="whsec_ followed by base64"):
        sign("whsec_not base64!", "m", 1, b"")


def test_the_receiver_in_docs_alerts_md_accepts_a_signed_delivery_and_refuses_a_forged_one() -> (
    None
):
    doc = (Path(__file__).resolve().parents[2] / "docs" / "alerts.md").read_text()
    code = re.search(r"```python\n# receiver\n(.*?)```", doc, re.S)
    assert code is not None, "docs/alerts.md lost its receiver example"
    namespace: dict[str, Any] = {}
    exec(code.group(1), namespace)  # the documented code, as a reader would paste it
    secret, body = new_secret(), b'{"type":"monitor.alert"}'
    now = 1_800_000_000
    headers = signed_headers(secret, "alert_1", now, body)

    assert namespace["is_authentic"](secret, headers, body, now=now) is True
    assert namespace["is_authentic"](secret, headers, body + b" ", now=now) is False
    assert namespace["is_authentic"](secret, headers, body, now=now + 301) is False
