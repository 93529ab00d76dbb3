"""DMARC, MTA-STS, CAA, DNSSEC and the DoH JSON shapes, as tables over recorded answers."""

from __future__ import annotations

import json

import pytest

from exposure.dns_records import Caa, RecordType, caa_of, parse_answer, txt_strings
from exposure.domain_checks import (
    DmarcPolicy,
    DmarcProblem,
    caa_names,
    evaluate_caa,
    evaluate_dmarc,
    evaluate_mta_sts,
)
from tests.exposure.dns_helpers import body, txt, txt_zone

P = DmarcProblem


@pytest.mark.parametrize(
    ("data", "text"),
    [
        ('"v=spf1 -all"', "v=spf1 -all"),  # Cloudflare: quoted
        ("v=spf1 -all", "v=spf1 -all"),  # Google: bare
        ('"v=spf1 ip4:192.0.2.1 " "-all"', "v=spf1 ip4:192.0.2.1 -all"),  # joined, no separator
        (r'"say \"hi\" \\ \059"', 'say "hi" \\ ;'),  # RFC 1035 escapes
    ],
)
def test_txt_strings(data: str, text: str) -> None:
    assert txt_strings(data) == text


@pytest.mark.parametrize(
    ("data", "caa"),
    [
        ('0 issue "letsencrypt.org"', Caa(0, "issue", "letsencrypt.org")),
        ('128 ISSUEWILD ";"', Caa(128, "issuewild", ";")),
        (
            "\\# 22 00 05 69 73 73 75 65 6c 65 74 73 65 6e 63 72 79 70 74 2e 6f 72 67",
            Caa(0, "issue", "letsencrypt.org"),
        ),
        ("garbage", None),
        ("\\# 1 zz", None),
    ],
)
def test_caa_data(data: str, caa: Caa | None) -> None:
    assert caa_of(data) == caa


def test_malformed_resolver_json_is_an_answer_with_an_error() -> None:
    answer = parse_answer("example.com", RecordType.TXT, b"<html>")
    assert answer.failed and answer.error is not None
    missing_status = parse_answer(
        "example.com", RecordType.TXT, json.dumps({"Answer": []}).encode()
    )
    assert missing_status.failed


@pytest.mark.parametrize(
    ("zone", "found_at", "policy", "problems"),
    [
        (
            {"_dmarc.example.com": ("v=DMARC1; p=reject; rua=mailto:d@example.com",)},
            "_dmarc.example.com",
            "reject",
            (),
        ),
        (
            {"_dmarc.example.com": ("v=DMARC1;p=quarantine;rua=mailto:a@x.test,mailto:b@x.test",)},
            "_dmarc.example.com",
            "quarantine",
            (),
        ),
        (
            {"_dmarc.example.com": ("v=DMARC1; p=none; rua=mailto:d@example.com",)},
            "_dmarc.example.com",
            "none",
            (P.POLICY_NONE,),
        ),
        (
            {"_dmarc.example.com": ("v=DMARC1; p=reject",)},
            "_dmarc.example.com",
            "reject",
            (P.NO_REPORTS,),
        ),
        (
            {"_dmarc.example.com": ("v=DMARC1; p=reject; pct=50; rua=mailto:d@x.test",)},
            "_dmarc.example.com",
            "reject",
            (P.PARTIAL,),
        ),
        ({"_dmarc.example.com": ("v=DMARC1; p=bogus",)}, "_dmarc.example.com", None, (P.INVALID,)),
        (
            {"_dmarc.example.com": ("v=DMARC1; p=reject", "v=DMARC1; p=none")},
            "_dmarc.example.com",
            None,
            (P.MULTIPLE,),
        ),
        ({"_dmarc.example.com": ("something else",)}, None, None, (P.MISSING,)),
        ({"_dmarc.example.com": ()}, None, None, (P.MISSING,)),
        ({}, None, None, (P.UNRESOLVED,)),
    ],
)
def test_dmarc_table(
    zone: dict[str, tuple[str, ...]],
    found_at: str | None,
    policy: str | None,
    problems: tuple[DmarcProblem, ...],
) -> None:
    result = evaluate_dmarc("example.com", txt_zone(zone))
    assert (result.found_at, result.policy, result.problems) == (
        found_at,
        None if policy is None else DmarcPolicy(policy),
        problems,
    )


def test_dmarc_of_a_subdomain_falls_back_to_the_parent() -> None:
    zone = txt_zone(
        {
            "_dmarc.mail.example.com": (),
            "_dmarc.example.com": ("v=DMARC1; p=reject; rua=mailto:x@example.com",),
        }
    )
    result = evaluate_dmarc("mail.example.com", zone)
    assert result.found_at == "_dmarc.example.com"
    assert result.rua == ("mailto:x@example.com",)


@pytest.mark.parametrize(
    ("texts", "present", "policy_id"),
    [
        (("v=STSv1; id=20240101T000000;",), True, "20240101T000000"),
        (("v=STSv1;",), False, None),
        (("v=STSv1; id=1", "v=STSv1; id=2"), False, None),
        ((), False, None),
    ],
)
def test_mta_sts_table(texts: tuple[str, ...], present: bool, policy_id: str | None) -> None:
    result = evaluate_mta_sts("example.com", txt_zone({"_mta-sts.example.com": texts}))
    assert (result.present, result.policy_id) == (present, policy_id)


def caa_answer(name: str, *data: str) -> object:
    return parse_answer(
        name, RecordType.CAA, json.dumps(body(name, RecordType.CAA, *data)).encode()
    )


def test_caa_names_climb_to_below_the_top_level_domain() -> None:
    assert caa_names("www.shop.example.com") == [
        "www.shop.example.com",
        "shop.example.com",
        "example.com",
    ]
    assert caa_names("localhost") == ["localhost"]


def test_caa_first_non_empty_set_wins() -> None:
    answers = {
        "www.example.com": caa_answer("www.example.com"),
        "example.com": caa_answer(
            "example.com",
            '0 issue "letsencrypt.org"',
            '0 issue "pki.goog; cansignhttpexchanges=yes"',
            '0 issuewild ";"',
            '0 iodef "mailto:sec@example.com"',
        ),
    }
    result = evaluate_caa("www.example.com", answers)  # type: ignore[arg-type]
    assert result.found_at == "example.com"
    assert result.issuers == ("letsencrypt.org", "pki.goog")
    assert result.wildcard_issuers == ("",)
    assert result.iodef == ("mailto:sec@example.com",)


def test_caa_absent_everywhere() -> None:
    answers = {name: caa_answer(name) for name in caa_names("www.example.com")}
    result = evaluate_caa("www.example.com", answers)  # type: ignore[arg-type]
    assert not result.present and not result.unresolved


def test_txt_helper_round_trips_through_the_json_shape() -> None:
    answer = txt("example.com", "v=spf1 -all")
    assert answer.data_of(RecordType.TXT) == ['"v=spf1 -all"']
    assert type(answer).from_dict(answer.to_dict()) == answer
