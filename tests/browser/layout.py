"""Text that does not fit its box, measured in the browser.

Four ways text gets cut or spills, each a `kind`:

- `clipped`: a box that hides its overflow (overflow hidden or clip, or text-overflow: ellipsis)
  holds more than it shows (scrollWidth > clientWidth, or the same vertically): CSSOM View's
  scrollWidth is the width of the content, clientWidth that of the box's padding box.
- `spills`: an element's own text runs outside the element's border box (a word too long to wrap).
- `chart-label`: an SVG <text> whose box reaches outside its <svg> (the svg clips it).
- `page-width`: the page is wider than the viewport, so the reader scrolls sideways; the culprit
  is the deepest element reaching past the right edge.

Boxes hidden on purpose (the `.visually-hidden` pattern, a skip link parked off screen) and
scroll containers (overflow auto or scroll: the reader can scroll to the rest) are not overflow.
"""

from __future__ import annotations

from typing import TypedDict

from playwright.sync_api import Frame

TOLERANCE_PX = 1  # sub-pixel rounding between layout and the CSSOM's integer scroll sizes

_MEASURE = """(tolerance) => {
  const found = [];
  const onPurpose = (el) => el.closest('.visually-hidden, .skip-link');
  const name = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && parts.length < 4; e = e.parentElement) {
      let part = e.tagName.toLowerCase();
      if (e.id) { parts.unshift(part + '#' + e.id); break; }
      if (e.classList.length) part += '.' + [...e.classList].join('.');
      parts.unshift(part);
    }
    return parts.join(' > ');
  };
  const words = (el) => (el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 80);
  const chart = (el) => el.closest('figure')?.querySelector('figcaption')?.textContent.trim() ?? '';
  const note = (kind, el, detail) =>
    found.push({ kind, where: name(el), text: words(el), chart: chart(el), detail });
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';

  for (const el of document.body.querySelectorAll('*')) {
    if (!shown(el) || onPurpose(el) || el instanceof SVGElement) continue;
    const style = getComputedStyle(el);
    const hides = (v) => v === 'hidden' || v === 'clip';
    const ellipsis = style.textOverflow === 'ellipsis';
    if ((hides(style.overflowX) || ellipsis) && el.scrollWidth > el.clientWidth + tolerance) {
      note('clipped', el, `scrollWidth ${el.scrollWidth} > clientWidth ${el.clientWidth}`);
    } else if (hides(style.overflowY) && el.scrollHeight > el.clientHeight + tolerance) {
      note('clipped', el, `scrollHeight ${el.scrollHeight} > clientHeight ${el.clientHeight}`);
    }
    const box = el.getBoundingClientRect();
    for (const node of el.childNodes) {
      if (node.nodeType !== 3 || !node.textContent.trim()) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const t = range.getBoundingClientRect();
      if (t.width === 0) continue;
      if (t.right > box.right + tolerance || t.left < box.left - tolerance) {
        note('spills', el, `text ${Math.round(t.left)}..${Math.round(t.right)} outside ` +
          `box ${Math.round(box.left)}..${Math.round(box.right)}`);
        break;
      }
    }
  }
  for (const text of document.querySelectorAll('svg text')) {
    if (!shown(text)) continue;
    const svg = text.ownerSVGElement.getBoundingClientRect();
    const t = text.getBoundingClientRect();
    if (t.left < svg.left - tolerance || t.right > svg.right + tolerance ||
        t.top < svg.top - tolerance || t.bottom > svg.bottom + tolerance) {
      note('chart-label', text, `label ${Math.round(t.left)}..${Math.round(t.right)} outside ` +
        `chart ${Math.round(svg.left)}..${Math.round(svg.right)}`);
    }
  }
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width + tolerance) {
    // The deepest elements past the right edge, outside any scroll container, are the culprits.
    const past = [...document.body.querySelectorAll('*')].filter((el) => {
      if (!shown(el) || onPurpose(el) || el.getBoundingClientRect().right <= width + tolerance) return false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return false;
      }
      return ![...el.children].some((c) => c.getBoundingClientRect().right > width + tolerance);
    });
    for (const el of past.slice(0, 5)) {
      note('page-width', el, `page ${document.documentElement.scrollWidth} px wide in a ` +
        `${width} px viewport; this ends at ${Math.round(el.getBoundingClientRect().right)}`);
    }
  }
  return found;
}"""


class Overflow(TypedDict):
    kind: str
    where: str  # a short selector path
    text: str
    chart: str  # the caption of the figure it is in, or ""
    detail: str


def overflows(frame: Frame) -> list[Overflow]:
    found: list[Overflow] = frame.evaluate(_MEASURE, TOLERANCE_PX)
    return found


def readable(found: list[Overflow]) -> str:
    return "\n".join(f"{o['kind']}: {o['where']} {o['text']!r} ({o['detail']})" for o in found)
