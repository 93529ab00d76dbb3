"""SPF judged from recorded TXT answers (RFC 7208), as tables."""

from __future__ import annotations

import pytest

from exposure.spf import SpfProblem, evaluate, missing
from tests.exposure.dns_helpers import txt, txt_zone

D = "example.com"
P = SpfProblem


@pytest.mark.parametrize(
    ("zone", "qualifier", "lookups", "problems"),
    [
        ({D: ("v=spf1 -all",)}, "-", 0, ()),
        ({D: ("v=spf1 mx ~all",)}, "~", 1, ()),
        ({D: ("V=SPF1 ip4:192.0.2.0/24 -ALL",)}, "-", 0, ()),  # case-insensitive
        ({D: ("v=spf1 ?all",)}, "?", 0, (P.PERMISSIVE_ALL,)),
        ({D: ("v=spf1 +all",)}, "+", 0, (P.PERMISSIVE_ALL,)),
        ({D: ("v=spf1 all",)}, "+", 0, (P.PERMISSIVE_ALL,)),
        ({D: ("v=spf1 mx",)}, None, 1, (P.PERMISSIVE_ALL,)),  # no all: neutral by default
        ({D: ("v=spf1spam -all",)}, None, 0, (P.MISSING,)),  # not an SPF record (§4.5)
        ({D: ("google-site-verification=abc",)}, None, 0, (P.MISSING,)),
        ({D: ()}, None, 0, (P.MISSING,)),
        ({D: ("v=spf1 -all", "v=spf1 ~all")}, None, 0, (P.MULTIPLE,)),
        # include targets are walked and counted
        (
            {D: ("v=spf1 include:a.test -all",), "a.test": ("v=spf1 a mx ptr exists:x.test ~all",)},
            "-",
            5,
            (),
        ),
        # redirect without all: the target's all decides
        ({D: ("v=spf1 redirect=b.test",), "b.test": ("v=spf1 -all",)}, "-", 1, ()),
        ({D: ("v=spf1 redirect=b.test",), "b.test": ("v=spf1 ?all",)}, "?", 1, (P.PERMISSIVE_ALL,)),
        # redirect is ignored when the record has an all (§6.1), but still counted as written
        ({D: ("v=spf1 -all redirect=b.test",)}, "-", 1, ()),
        # an include target without SPF is a permanent error (§5.2)
        (
            {D: ("v=spf1 include:c.test -all",), "c.test": ("hello",)},
            "-",
            1,
            (P.INCLUDE_WITHOUT_RECORD,),
        ),
        # loops are caught, not followed forever
        (
            {D: ("v=spf1 include:l.test -all",), "l.test": (f"v=spf1 include:{D} -all",)},
            "-",
            2,
            (P.LOOP,),
        ),
        # macros name a domain at evaluation time only: counted, not followed
        ({D: ("v=spf1 exists:%{i}.spf.test -all",)}, "-", 1, ()),
    ],
)
def test_spf_table(
    zone: dict[str, tuple[str, ...]],
    qualifier: str | None,
    lookups: int,
    problems: tuple[SpfProblem, ...],
) -> None:
    result = evaluate(D, txt_zone(zone))
    assert (result.all_qualifier, result.lookups, result.problems) == (
        qualifier,
        lookups,
        tuple(sorted(problems)),
    )


def test_more_than_ten_lookups_through_nested_includes() -> None:
    zone = {D: ("v=spf1 include:i1.test include:i2.test -all",)}
    zone["i1.test"] = ("v=spf1 a mx a:x.test mx:y.test include:i3.test ~all",)
    zone["i2.test"] = ("v=spf1 a mx ~all",)
    zone["i3.test"] = ("v=spf1 a mx exists:z.test ~all",)
    result = evaluate(D, txt_zone(zone))
    assert result.lookups == 2 + 5 + 2 + 3
    assert result.problems == (SpfProblem.TOO_MANY_LOOKUPS,)
    assert result.visited == ("i1.test", "i3.test", "i2.test")


def test_exactly_ten_lookups_is_within_the_limit() -> None:
    zone = {D: ("v=spf1 " + " ".join(f"a:h{i}.test" for i in range(10)) + " -all",)}
    assert evaluate(D, txt_zone(zone)).problems == ()


def test_missing_names_the_answers_the_walk_still_needs() -> None:
    zone = txt_zone({D: ("v=spf1 include:a.test redirect=r.test",)})
    assert missing(D, zone) == ["a.test", "r.test"]
    zone |= txt_zone({"a.test": ("v=spf1 include:b.test ~all",), "r.test": ("v=spf1 -all",)})
    assert missing(D, zone) == ["b.test"]
    zone |= txt_zone({"b.test": ("v=spf1 -all",)})
    assert missing(D, zone) == []
    assert evaluate(D, zone).problems == ()


def test_unanswered_include_is_reported_unresolved() -> None:
    result = evaluate(D, txt_zone({D: ("v=spf1 include:gone.test -all",)}))
    assert SpfProblem.UNRESOLVED in result.problems


def test_nxdomain_is_no_record_and_servfail_is_unresolved() -> None:
    assert evaluate(D, {D: txt(D, status=3)}).problems == (SpfProblem.MISSING,)
    assert evaluate(D, {D: txt(D, status=2)}).problems == (SpfProblem.UNRESOLVED,)


def test_long_records_split_into_strings_are_joined() -> None:
    record = "v=spf1 " + " ".join(f"ip4:192.0.2.{i}" for i in range(40)) + " -all"
    result = evaluate(D, txt_zone({D: (record,)}))
    assert result.record == record
    assert result.all_qualifier == "-"
