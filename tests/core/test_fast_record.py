"""fast_record.maker: the record it builds is the one the class's own constructor builds."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pytest

from common.fast_record import maker
from parse.facts import Link, Reference, ReferenceKind, UrlRef


def test_link_as_the_class_builds_it() -> None:
    href = UrlRef("/a#x", "http://h/a")
    values = (href, "text", True, False, True, "alt")
    made, built = maker(Link)(*values), Link(*values)
    assert type(made) is Link
    assert made == built
    assert hash(made) == hash(built)
    assert made.to_dict() == built.to_dict()
    assert Link.from_dict(made.to_dict()) == built


def test_every_field_is_stored_in_its_own_slot() -> None:
    made = maker(Reference)(ReferenceKind.LINK, UrlRef("s.css", None), "stylesheet")
    assert [getattr(made, f.name) for f in dataclasses.fields(Reference)] == [
        ReferenceKind.LINK,
        UrlRef("s.css", None),
        "stylesheet",
    ]


def test_the_record_stays_frozen() -> None:
    made = maker(UrlRef)("a", "b")
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.raw = "c"  # type: ignore[misc]


def test_every_field_is_required() -> None:
    with pytest.raises(TypeError):
        maker(Link)(UrlRef("a", None), "text")


@dataclass(frozen=True)
class _Unslotted:
    x: int


@dataclass(frozen=True, slots=True)
class _Checked:
    x: int

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("negative")


@dataclass(frozen=True, slots=True)
class _Derived:
    x: int
    y: int = field(init=False, default=0)


@pytest.mark.parametrize("cls", [_Unslotted, _Checked, _Derived, str])
def test_classes_whose_init_does_more_are_refused(cls: type) -> None:
    with pytest.raises(TypeError):
        maker(cls)
