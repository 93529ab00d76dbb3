"""axe-core's rule ids, in two closed vocabularies kept apart: `RuleId`, the rules siteaudit
implements statically on every crawled page (issue 31 item 1), and `RenderedRuleId`, the other
rules of axe-core 4.14.1's WCAG 2.1 A/AA set (plus `target-size`, WCAG 2.2 AA, which issue 31
names), which only axe-core itself decides, on a rendered page (issue 31 item 2, a11y.axe).

The rendered-only list is axe-core 4.14.1's `axe.getRules()` filtered on the tags wcag2a,
wcag2aa, wcag21a and wcag21aa, minus `RuleId`, plus target-size
(tests/a11y/test_rule_ids.py checks it against node_modules/axe-core when it is installed).
Most of them need what the markup does not hold: colours and the cascade (color-contrast,
link-in-text-block, avoid-inline-spacing, css-orientation-lock), layout and size (target-size,
scrollable-region-focusable, p-as-heading, table-fake-caption), focus and script
(aria-hidden-focus, frame-focusable-content, bypass), media (audio-caption, video-caption,
no-autoplay-audio); the rest (the ARIA widget names, summary-name, frame-title-unique,
label-content-name-mismatch, td-has-header...) are left to axe-core rather than implemented
twice."""

from __future__ import annotations

from enum import StrEnum
from typing import Final


class RuleId(StrEnum):
    IMAGE_ALT = "image-alt"
    INPUT_IMAGE_ALT = "input-image-alt"
    AREA_ALT = "area-alt"
    OBJECT_ALT = "object-alt"
    SVG_IMG_ALT = "svg-img-alt"
    ROLE_IMG_ALT = "role-img-alt"
    BUTTON_NAME = "button-name"
    INPUT_BUTTON_NAME = "input-button-name"
    LINK_NAME = "link-name"
    LABEL = "label"
    SELECT_NAME = "select-name"
    FORM_FIELD_MULTIPLE_LABELS = "form-field-multiple-labels"
    FRAME_TITLE = "frame-title"
    DOCUMENT_TITLE = "document-title"
    HTML_HAS_LANG = "html-has-lang"
    HTML_LANG_VALID = "html-lang-valid"
    VALID_LANG = "valid-lang"
    HTML_XML_LANG_MISMATCH = "html-xml-lang-mismatch"
    DUPLICATE_ID_ARIA = "duplicate-id-aria"
    ARIA_VALID_ATTR = "aria-valid-attr"
    ARIA_VALID_ATTR_VALUE = "aria-valid-attr-value"
    ARIA_ROLES = "aria-roles"
    ARIA_ALLOWED_ATTR = "aria-allowed-attr"
    ARIA_REQUIRED_ATTR = "aria-required-attr"
    ARIA_REQUIRED_CHILDREN = "aria-required-children"
    ARIA_REQUIRED_PARENT = "aria-required-parent"
    ARIA_HIDDEN_BODY = "aria-hidden-body"
    PRESENTATION_ROLE_CONFLICT = "presentation-role-conflict"
    NESTED_INTERACTIVE = "nested-interactive"
    META_REFRESH = "meta-refresh"
    META_VIEWPORT = "meta-viewport"
    LIST = "list"
    LISTITEM = "listitem"
    DEFINITION_LIST = "definition-list"
    DLITEM = "dlitem"
    TD_HEADERS_ATTR = "td-headers-attr"
    TH_HAS_DATA_CELLS = "th-has-data-cells"
    SCOPE_ATTR_VALID = "scope-attr-valid"
    TABINDEX = "tabindex"
    ACCESSKEYS = "accesskeys"
    SERVER_SIDE_IMAGE_MAP = "server-side-image-map"
    MARQUEE = "marquee"
    BLINK = "blink"
    EMPTY_HEADING = "empty-heading"
    HEADING_ORDER = "heading-order"
    PAGE_HAS_HEADING_ONE = "page-has-heading-one"
    LANDMARK_ONE_MAIN = "landmark-one-main"
    AUTOCOMPLETE_VALID = "autocomplete-valid"


class RenderedRuleId(StrEnum):
    ARIA_BRAILLE_EQUIVALENT = "aria-braille-equivalent"
    ARIA_COMMAND_NAME = "aria-command-name"
    ARIA_CONDITIONAL_ATTR = "aria-conditional-attr"
    ARIA_DEPRECATED_ROLE = "aria-deprecated-role"
    ARIA_HIDDEN_FOCUS = "aria-hidden-focus"
    ARIA_INPUT_FIELD_NAME = "aria-input-field-name"
    ARIA_METER_NAME = "aria-meter-name"
    ARIA_PROGRESSBAR_NAME = "aria-progressbar-name"
    ARIA_PROHIBITED_ATTR = "aria-prohibited-attr"
    ARIA_ROLEDESCRIPTION = "aria-roledescription"
    ARIA_TAB_NAME = "aria-tab-name"
    ARIA_TOGGLE_FIELD_NAME = "aria-toggle-field-name"
    ARIA_TOOLTIP_NAME = "aria-tooltip-name"
    AUDIO_CAPTION = "audio-caption"
    AVOID_INLINE_SPACING = "avoid-inline-spacing"
    BYPASS = "bypass"
    COLOR_CONTRAST = "color-contrast"
    CSS_ORIENTATION_LOCK = "css-orientation-lock"
    FRAME_FOCUSABLE_CONTENT = "frame-focusable-content"
    FRAME_TITLE_UNIQUE = "frame-title-unique"
    LABEL_CONTENT_NAME_MISMATCH = "label-content-name-mismatch"
    LINK_IN_TEXT_BLOCK = "link-in-text-block"
    NO_AUTOPLAY_AUDIO = "no-autoplay-audio"
    P_AS_HEADING = "p-as-heading"
    SCROLLABLE_REGION_FOCUSABLE = "scrollable-region-focusable"
    SUMMARY_NAME = "summary-name"
    TABLE_FAKE_CAPTION = "table-fake-caption"
    TD_HAS_HEADER = "td-has-header"
    TARGET_SIZE = "target-size"
    VIDEO_CAPTION = "video-caption"


type AxeRuleId = RuleId | RenderedRuleId

STATIC_RULES: Final = frozenset(RuleId)
RENDERED_ONLY: Final = frozenset(RenderedRuleId)


def axe_rule_id(value: str) -> AxeRuleId | None:
    """`value` in either vocabulary, or None: an axe-core rule siteaudit does not name."""
    if value in STATIC_RULES:
        return RuleId(value)
    if value in RENDERED_ONLY:
        return RenderedRuleId(value)
    return None
