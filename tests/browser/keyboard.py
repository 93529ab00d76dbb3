"""The keyboard's view of a page: which element has the focus (inside the report's frame too),
whether a reader can see it, and the elements Tab should stop at, in order.

Tab order per HTML's "sequential focus navigation" (WHATWG HTML, 6.6.3): elements with
tabindex 0 or a focusable default (links with href, enabled form controls, summary, ...) in tree
order; a frame's own stops take the place of the frame. The pages tested use no positive
tabindex, so tree order is the order expected.
"""

from __future__ import annotations

from typing import Any, TypedDict

from playwright.sync_api import Frame, Page

SETTLE_MS, SETTLE_STEP_MS = 500, 25  # how long a focus may take to land (see `focused`)

# A stop's key: its frame's index in the page (0: the page itself) and a number the test stamps on
# the element, so that the same element is recognised wherever the focus comes back to it.
_KEYED = """
window.__kbKey = (el) => {
  if (!el.dataset.kbKey) el.dataset.kbKey = String(window.__kbNext = (window.__kbNext || 0) + 1);
  return el.dataset.kbKey;
};
"""

_STOPS = (
    "() => {"
    + _KEYED
    + """
  const focusable = 'a[href], button, input, select, textarea, summary, iframe, [tabindex]';
  const stops = [];
  for (const el of document.querySelectorAll(focusable)) {
    if (el.disabled || el.tabIndex < 0 || el.getClientRects().length === 0) continue;
    if (el.closest('[hidden], [inert]') || getComputedStyle(el).visibility === 'hidden') continue;
    if (el.type === 'radio' && el.name && !el.checked) continue;  // a group is one stop
    if (el.closest('details:not([open])') && el.tagName !== 'SUMMARY') continue;
    stops.push(el.tagName === 'IFRAME' ? 'frame' : window.__kbKey(el));
  }
  return stops;
}"""
)

_FOCUSED = (
    "() => {"
    + _KEYED
    + """
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  if (el.tagName === 'IFRAME') return { frame: true };
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  return {
    frame: false, key: window.__kbKey(el), visible: outline || style.boxShadow !== 'none',
    name: (el.getAttribute('aria-label') || el.labels?.[0]?.textContent || el.textContent ||
      el.id || el.tagName).trim()
      .replace(/\\s+/g, ' ').slice(0, 60),
    tag: el.tagName.toLowerCase(),
  };
}"""
)


# The same, asked of the report's frame alone: null unless its document has the focus (an element
# keeps being its document's activeElement after the focus has left the frame).
_FOCUSED_IN_FRAME = _FOCUSED.replace(
    "() => {", "() => {\n  if (!document.hasFocus()) return null;", 1
)


class Focused(TypedDict):
    key: str  # "F:N": frame index F (0 the page), the element's stamp N
    visible: bool  # an outline or a box-shadow shows where the focus is
    name: str
    tag: str


def stops(page: Page) -> list[str]:
    """Every element Tab should reach, in order, the report frame's inside its iframe's place."""
    found: list[str] = []
    for key in page.main_frame.evaluate(_STOPS):
        if key == "frame":
            inner = page.locator("#report-frame").element_handle().content_frame()
            assert inner is not None
            found += [f"1:{k}" for k in inner.evaluate(_STOPS) if k != "frame"]
        else:
            found.append(f"0:{key}")
    return found


def report_frame(page: Page) -> Frame | None:
    handle = page.query_selector("#report-frame")
    return None if handle is None else handle.content_frame()


def focused(page: Page, inner: Frame | None = None) -> Focused | None:
    """The element with the focus, looking through the report's frame (`inner`, when the caller
    has it at hand); None: the document, once it has kept the focus for `SETTLE_MS`.

    Tab into or out of the frame moves the focus across the frame boundary after the key press
    has returned: for a moment no element has it. Read then, and Tab pressed again at once, the
    frame's first stop looked skipped (the next one was reached in its place), so the focus is
    read again until an element has it."""
    for _ in range(SETTLE_MS // SETTLE_STEP_MS):
        here = _read(page, inner)
        if here is not None:
            return here
        page.wait_for_timeout(SETTLE_STEP_MS)
    return None


def _read(page: Page, inner: Frame | None) -> Focused | None:
    if inner is not None:
        # Most stops of a report's walk are inside its frame: asked first, the frame answers
        # alone, one call to the browser where the page and then the frame took two (a walk of
        # hundreds of stops was most of the keyboard tests' time).
        here = inner.evaluate(_FOCUSED_IN_FRAME)
        if here is not None and not here["frame"]:
            return _as_focused(here, 1)
    here = page.main_frame.evaluate(_FOCUSED)
    index = 0
    if here is not None and here["frame"]:
        inner = inner or report_frame(page)
        assert inner is not None
        here, index = inner.evaluate(_FOCUSED), 1
    return None if here is None else _as_focused(here, index)


def _as_focused(here: dict[str, Any], frame_index: int) -> Focused:
    return Focused(key=f"{frame_index}:{here['key']}", visible=here["visible"], name=here["name"],
                   tag=here["tag"])  # fmt: skip


def press(page: Page, key: str, inner: Frame | None = None) -> Focused | None:
    page.keyboard.press(key)
    return focused(page, inner)
