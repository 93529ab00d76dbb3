"""Text alternatives (WCAG 1.1.1, 2.4.4, 4.1.2): image-alt, input-image-alt, area-alt,
object-alt, svg-img-alt, role-img-alt, frame-title, server-side-image-map, marquee, blink."""

from __future__ import annotations

from collections.abc import Iterator

from a11y import checks
from a11y.findings import Outcome
from a11y.page import Page
from a11y.roles import PRESENTATIONAL, input_type, parse_tabindex, role
from a11y.rule_base import any_passes, in_svg, no_explicit_name_required, verdicts, visible
from a11y.rule_ids import RuleId
from a11y.tree import Element, text_content


def _alt(page: Page, element: Element) -> bool:
    return element.has("alt")


def _non_empty_alt(page: Page, element: Element) -> bool:
    return checks.non_empty(element, "alt")


def _alt_only_space(page: Page, element: Element) -> bool:
    alt = element.get("alt")
    return role(page, element) not in PRESENTATIONAL and alt is not None and alt.isspace()


def image_alt(page: Page) -> Iterator[Outcome]:
    images = (i for i in visible(page, page.document.by_tag("img")))
    return verdicts(
        RuleId.IMAGE_ALT,
        ((img, _image_alt(page, img)) for img in images if no_explicit_name_required(page, img)),
    )


def _image_alt(page: Page, img: Element) -> bool | None:
    if _alt_only_space(page, img):
        return False
    return any_passes(
        page,
        img,
        _alt,
        checks.aria_label,
        checks.aria_labelledby,
        checks.title,
        checks.presentational,
    )


def input_image_alt(page: Page) -> Iterator[Outcome]:
    inputs = visible(page, page.document.by_tag("input"))
    decided = (
        (
            element,
            any_passes(
                page,
                element,
                _non_empty_alt,
                checks.aria_label,
                checks.aria_labelledby,
                checks.title,
                checks.implicit_label,
                checks.explicit_label,
            ),
        )
        for element in inputs
        if input_type(element) == "image" and no_explicit_name_required(page, element)
    )
    return verdicts(RuleId.INPUT_IMAGE_ALT, decided)


def area_alt(page: Page) -> Iterator[Outcome]:
    """Every `map area[href]`, hidden or not (axe-core checks areas regardless)."""
    areas = (
        area
        for area in page.document.by_tag("area")
        if area.has("href") and any(a.tag == "map" for a in page.document.ancestors(area))
    )
    decided = (
        (
            area,
            any_passes(
                page, area, _non_empty_alt, checks.aria_label, checks.aria_labelledby, checks.title
            ),
        )
        for area in areas
    )
    return verdicts(RuleId.AREA_ALT, decided)


def object_alt(page: Page) -> Iterator[Outcome]:
    """`object[data]` that shows no fallback content. Whether the fallback renders depends on
    the resource loading, so an object with fallback content is undecided."""
    objects = visible(page, page.document.by_tag("object"))
    decided = (
        (
            obj,
            any_passes(
                page,
                obj,
                checks.aria_label,
                checks.aria_labelledby,
                checks.title,
                checks.presentational,
            )
            if _no_fallback(obj)
            else None,
        )
        for obj in objects
        if obj.has("data") and no_explicit_name_required(page, obj)
    )
    return verdicts(RuleId.OBJECT_ALT, decided)


def _no_fallback(obj: Element) -> bool:
    return not any(True for _ in obj.elements) and not text_content(obj).strip()


def _svg_title(page: Page, element: Element) -> bool:
    title = next((c for c in element.elements if c.tag == "title"), None)
    return title is not None and bool(text_content(title).strip())


def svg_img_alt(page: Page) -> Iterator[Outcome]:
    graphics = (
        element
        for element in visible(page, page.document.order)
        if _svg_graphic(element) and in_svg(page, element)
    )
    decided = (
        (
            element,
            any_passes(
                page,
                element,
                _svg_title,
                checks.aria_label,
                checks.aria_labelledby,
                checks.title,
            ),
        )
        for element in graphics
    )
    return verdicts(RuleId.SVG_IMG_ALT, decided)


def _svg_graphic(element: Element) -> bool:
    found = element.get("role")
    if found in ("img", "image", "graphics-symbol"):
        return True
    return element.tag == "svg" and found == "graphics-document"


def role_img_alt(page: Page) -> Iterator[Outcome]:
    images = (
        element
        for element in visible(page, page.document.order)
        if element.get("role") in ("img", "image")
        and element.tag not in ("img", "area", "input", "object")
        and not in_svg(page, element)
    )
    decided = (
        (e, any_passes(page, e, checks.aria_label, checks.aria_labelledby, checks.title))
        for e in images
    )
    return verdicts(RuleId.ROLE_IMG_ALT, decided)


def frame_title(page: Page) -> Iterator[Outcome]:
    frames = visible(page, page.document.by_tag("iframe", "frame"))
    decided = (
        (
            frame,
            any_passes(
                page,
                frame,
                checks.title,
                checks.aria_label,
                checks.aria_labelledby,
                checks.presentational,
            ),
        )
        for frame in frames
        if (parse_tabindex(frame.get("tabindex")) or 0) >= 0
    )
    return verdicts(RuleId.FRAME_TITLE, decided)


def server_side_image_map(page: Page) -> Iterator[Outcome]:
    """Every visible `img[ismap]` fails: a server-side map cannot be used from the keyboard.
    axe-core asks for a review of each (incomplete) rather than failing it."""
    maps = visible(page, page.document.by_tag("img"))
    return verdicts(RuleId.SERVER_SIDE_IMAGE_MAP, ((m, False) for m in maps if m.has("ismap")))


def marquee(page: Page) -> Iterator[Outcome]:
    return _moving(page, "marquee", RuleId.MARQUEE)


def blink(page: Page) -> Iterator[Outcome]:
    return _moving(page, "blink", RuleId.BLINK)


def _moving(page: Page, tag: str, rule: RuleId) -> Iterator[Outcome]:
    """Fails when shown on screen. Hidden by the markup passes; off-screen positioning, zero
    size or clipping would need layout, so a shown element is taken as on screen."""
    found = page.document.by_tag(tag)
    return verdicts(rule, ((e, page.hidden.to_everyone(e)) for e in found))
