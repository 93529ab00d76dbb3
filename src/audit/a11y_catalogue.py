"""What the product says about each accessibility rule (issue 31 items 2 and 4): the catalogue's
`a11y-<axe rule id>` issue types are built from these tables (audit.catalogue), one for the
static rules and one for the rules only axe-core decides on a rendered page.

Each row gives the rule's title and, for the site's owner, who the fault shuts out and how to fix
it. Impact and WCAG success criteria are axe-core 4.14.1's (the rule's `impact` and its `wcag*`
tags, as src/a11y/data/aria.json keeps them); tests/audit/test_a11y_catalogue.py holds the two
together. They are repeated here rather than read from the data file so that importing the
catalogue, which every command does, never loads the ARIA data.

Severity from impact (`SEVERITY_OF_IMPACT`): axe-core calls *critical* what blocks a user of
assistive technology outright (an unnamed button, an image without a text alternative, a form
field without a label): the page cannot serve its purpose for them, which is the catalogue's
critical. *serious* and *moderate* make the page harder to use without blocking it (a link that
only says "click here", a skipped heading level): the catalogue's warning. *minor* is the
catalogue's info: it never lowers a score.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from a11y.findings import Impact
from a11y.rule_ids import AxeRuleId, RenderedRuleId, RuleId, axe_rule_id

__all__ = [
    "A11Y_ISSUE_PREFIX",
    "AXE_VERSION",
    "RENDERED_RULE_TEXTS",
    "RULE_TEXTS",
    "WCAG_CRITERIA",
    "Criterion",
    "RuleText",
    "issue_type_value",
    "rendered_only",
    "rule_of_issue_type",
    "rule_text",
    "severity_name",
    "understanding_url",
]

AXE_VERSION: Final = "4.14.1"
A11Y_ISSUE_PREFIX: Final = "a11y-"
# axe-core impact -> the catalogue's severity (its value; audit.catalogue.Severity), see above.
SEVERITY_OF_IMPACT: Final[Mapping[Impact, str]] = MappingProxyType(
    {
        Impact.CRITICAL: "critical",
        Impact.SERIOUS: "warning",
        Impact.MODERATE: "warning",
        Impact.MINOR: "info",
    }
)


@dataclass(frozen=True, slots=True)
class Criterion:
    """A WCAG 2.2 success criterion: its number, name, level and Understanding page's slug."""

    number: str
    name: str
    level: str
    slug: str

    @property
    def label(self) -> str:
        return f"{self.number} {self.name} ({self.level})"


# The criteria the rules cite, as W3C's "Understanding WCAG 2.2" names them
# (https://www.w3.org/WAI/WCAG22/Understanding/).
WCAG_CRITERIA: Final[Mapping[str, Criterion]] = MappingProxyType(
    {
        c.number: c
        for c in (
            Criterion("1.1.1", "Non-text Content", "A", "non-text-content"),
            Criterion(
                "1.2.1",
                "Audio-only and Video-only (Prerecorded)",
                "A",
                "audio-only-and-video-only-prerecorded",
            ),
            Criterion("1.2.2", "Captions (Prerecorded)", "A", "captions-prerecorded"),
            Criterion("1.3.1", "Info and Relationships", "A", "info-and-relationships"),
            Criterion("1.3.4", "Orientation", "AA", "orientation"),
            Criterion("1.3.5", "Identify Input Purpose", "AA", "identify-input-purpose"),
            Criterion("1.4.1", "Use of Color", "A", "use-of-color"),
            Criterion("1.4.2", "Audio Control", "A", "audio-control"),
            Criterion("1.4.3", "Contrast (Minimum)", "AA", "contrast-minimum"),
            Criterion("1.4.4", "Resize Text", "AA", "resize-text"),
            Criterion("1.4.12", "Text Spacing", "AA", "text-spacing"),
            Criterion("2.1.1", "Keyboard", "A", "keyboard"),
            Criterion("2.1.3", "Keyboard (No Exception)", "AAA", "keyboard-no-exception"),
            Criterion("2.2.1", "Timing Adjustable", "A", "timing-adjustable"),
            Criterion("2.2.2", "Pause, Stop, Hide", "A", "pause-stop-hide"),
            Criterion("2.4.1", "Bypass Blocks", "A", "bypass-blocks"),
            Criterion("2.4.2", "Page Titled", "A", "page-titled"),
            Criterion("2.4.4", "Link Purpose (In Context)", "A", "link-purpose-in-context"),
            Criterion("2.5.3", "Label in Name", "A", "label-in-name"),
            Criterion("2.5.8", "Target Size (Minimum)", "AA", "target-size-minimum"),
            Criterion("3.1.1", "Language of Page", "A", "language-of-page"),
            Criterion("3.1.2", "Language of Parts", "AA", "language-of-parts"),
            Criterion("3.3.2", "Labels or Instructions", "A", "labels-or-instructions"),
            Criterion("4.1.2", "Name, Role, Value", "A", "name-role-value"),
        )
    }
)


def understanding_url(criterion: str) -> str:
    """The W3C Understanding page of a WCAG success criterion."""
    return f"https://www.w3.org/WAI/WCAG22/Understanding/{WCAG_CRITERIA[criterion].slug}"


@dataclass(frozen=True, slots=True)
class RuleText:
    title: str
    impact: Impact
    wcag: tuple[str, ...]  # success criteria; empty for axe-core's best practices
    explanation: str  # who the fault shuts out, for the site's owner
    how_to_fix: str

    @property
    def severity(self) -> str:
        return SEVERITY_OF_IMPACT[self.impact]


_CRIT, _SER, _MOD, _MIN = Impact.CRITICAL, Impact.SERIOUS, Impact.MODERATE, Impact.MINOR
_R = RuleText
_SCREEN_READER = "A screen reader announces it with no words"

RULE_TEXTS: Final[Mapping[RuleId, RuleText]] = MappingProxyType(
    {
        RuleId.IMAGE_ALT: _R(
            "Images without a text alternative",
            _CRIT,
            ("1.1.1",),
            "Blind visitors hear nothing, or the file name, where the image is: what it shows "
            "or links to is lost to them.",
            'Give each image an alt text saying what it shows or does; alt="" for a purely '
            "decorative image.",
        ),
        RuleId.INPUT_IMAGE_ALT: _R(
            "Image buttons without a text alternative",
            _CRIT,
            ("1.1.1", "4.1.2"),
            f"{_SCREEN_READER}: a visitor who cannot see the image cannot tell what the button "
            "does.",
            'Add an alt text saying what the button does (alt="Search") to each '
            '<input type="image">.',
        ),
        RuleId.AREA_ALT: _R(
            "Image map areas without a text alternative",
            _CRIT,
            ("2.4.4", "4.1.2"),
            "The clickable regions of an image map have no name, so a screen reader user cannot "
            "tell where each leads.",
            "Give each <area href> an alt text naming its destination.",
        ),
        RuleId.OBJECT_ALT: _R(
            "Embedded objects without a text alternative",
            _SER,
            ("1.1.1",),
            "An <object> with no text alternative is announced as nothing: its content is lost "
            "to screen reader users.",
            "Add aria-label, aria-labelledby or title to the <object>, describing its content.",
        ),
        RuleId.SVG_IMG_ALT: _R(
            "SVG images without a text alternative",
            _SER,
            ("1.1.1",),
            'An <svg role="img"> without a name is an image a screen reader cannot describe.',
            "Add a <title> as the SVG's first child, or aria-label / aria-labelledby.",
        ),
        RuleId.ROLE_IMG_ALT: _R(
            'Elements with role="img" without a text alternative',
            _SER,
            ("1.1.1",),
            'An element marked role="img" (an icon, a CSS image) has no name, so its meaning is '
            "lost to screen reader users.",
            "Add aria-label or aria-labelledby saying what the image shows.",
        ),
        RuleId.BUTTON_NAME: _R(
            "Buttons without a name",
            _CRIT,
            ("4.1.2",),
            f'{_SCREEN_READER} (often just "button"): its visitors cannot tell what it does, '
            "typically an icon-only button.",
            "Put text in the button, or add aria-label (or a visually hidden text) saying what "
            "it does.",
        ),
        RuleId.INPUT_BUTTON_NAME: _R(
            "Input buttons without a name",
            _CRIT,
            ("4.1.2",),
            f'{_SCREEN_READER}: an <input type="button|submit|reset"> with an empty value says '
            "nothing of what it does.",
            "Give the input a value (the button's text), or aria-label.",
        ),
        RuleId.LINK_NAME: _R(
            "Links without a name",
            _SER,
            ("2.4.4", "4.1.2"),
            'A link with no text (an icon or an image without alt) is announced as "link": '
            "screen reader users cannot tell where it goes.",
            "Put text in the link, give its image an alt text, or add aria-label naming the "
            "destination.",
        ),
        RuleId.LABEL: _R(
            "Form fields without a label",
            _CRIT,
            ("4.1.2",),
            'A field without a label is announced as "edit text": screen reader users do not '
            "know what to type, and clicking the text beside it does not focus it.",
            'Associate a <label for="id"> with each field (or wrap the field in its label); '
            "aria-label where no visible label fits.",
        ),
        RuleId.SELECT_NAME: _R(
            "Drop-down lists without a label",
            _CRIT,
            ("4.1.2",),
            "A <select> without a label leaves screen reader users guessing what they choose.",
            'Associate a <label for="id"> with the <select>, or add aria-label.',
        ),
        RuleId.FORM_FIELD_MULTIPLE_LABELS: _R(
            "Form fields with several labels",
            _MOD,
            ("3.3.2",),
            "Screen readers read one of the labels, or all of them, differently from one to the "
            "next: visitors may hear the wrong instructions.",
            "Keep one <label> per field; put extra instructions in aria-describedby.",
        ),
        RuleId.FRAME_TITLE: _R(
            "Frames without a title",
            _SER,
            ("4.1.2",),
            "A screen reader lists the page's frames by their names; an unnamed <iframe> gives "
            "no clue of what is in it.",
            'Add a title to each <iframe> and <frame> saying what it holds (title="Map").',
        ),
        RuleId.DOCUMENT_TITLE: _R(
            "Page without a title (accessibility)",
            _SER,
            ("2.4.2",),
            "The title is the first thing a screen reader announces and what every tab and "
            "history entry shows: without one, visitors cannot tell pages apart.",
            "Give the page a non-empty <title> describing it.",
        ),
        RuleId.HTML_HAS_LANG: _R(
            "Page language not declared",
            _SER,
            ("3.1.1",),
            "Screen readers pick their voice and pronunciation from the page's language: "
            "without it they read the text with the user's default language's rules.",
            'Add the page\'s language to the <html> element (<html lang="en">).',
        ),
        RuleId.HTML_LANG_VALID: _R(
            "Page language not valid",
            _SER,
            ("3.1.1",),
            "The <html lang> value is not a language tag screen readers recognise, so they "
            "fall back to a default voice and mispronounce the text.",
            'Use a BCP 47 language tag (lang="en", "en-GB", "fr").',
        ),
        RuleId.VALID_LANG: _R(
            "Language of a part not valid",
            _SER,
            ("3.1.2",),
            "A lang attribute inside the page names no known language, so that passage is read "
            "with the wrong pronunciation.",
            "Correct the lang attribute to a BCP 47 language tag, or remove it.",
        ),
        RuleId.HTML_XML_LANG_MISMATCH: _R(
            "lang and xml:lang disagree",
            _MOD,
            ("3.1.1",),
            "The <html> element declares two different languages; assistive technology may pick "
            "either.",
            "Make lang and xml:lang name the same language, or drop xml:lang.",
        ),
        RuleId.DUPLICATE_ID_ARIA: _R(
            "Duplicate ids used by labels or ARIA",
            _CRIT,
            ("4.1.2",),
            "A label or ARIA reference points at an id several elements share, so a field or "
            "control may get the wrong name or description.",
            "Make each id that a label's for, aria-labelledby or aria-describedby names unique.",
        ),
        RuleId.ARIA_VALID_ATTR: _R(
            "Misspelt ARIA attributes",
            _CRIT,
            ("4.1.2",),
            "An aria-* attribute that does not exist (aria-lable) is ignored: the name, state or "
            "property it was meant to give never reaches assistive technology.",
            "Correct the attribute's name to a WAI-ARIA 1.2 attribute.",
        ),
        RuleId.ARIA_VALID_ATTR_VALUE: _R(
            "ARIA attributes with invalid values",
            _CRIT,
            ("4.1.2",),
            'An ARIA attribute with a value it does not allow (aria-expanded="yes") is ignored '
            "or misread: the control's state is announced wrongly.",
            "Use one of the attribute's allowed values, or an id that exists for a reference.",
        ),
        RuleId.ARIA_ROLES: _R(
            "Invalid ARIA roles",
            _CRIT,
            ("4.1.2",),
            "A role that does not exist, or is abstract, is ignored: the element is announced as "
            "what it is without it, not as the control it looks like.",
            "Correct the role to a WAI-ARIA 1.2 role, or use the native element (<button>).",
        ),
        RuleId.ARIA_ALLOWED_ATTR: _R(
            "ARIA attributes not allowed on their element",
            _CRIT,
            ("4.1.2",),
            "An ARIA attribute the element's role does not support is ignored or contradicts "
            "what assistive technology announces.",
            "Remove the attribute, or give the element a role that supports it.",
        ),
        RuleId.ARIA_REQUIRED_ATTR: _R(
            "ARIA roles missing required attributes",
            _CRIT,
            ("4.1.2",),
            'A role that needs a state to make sense (role="checkbox" without aria-checked) '
            "leaves screen reader users without it.",
            "Add the attributes the role requires (the details name the element).",
        ),
        RuleId.ARIA_REQUIRED_CHILDREN: _R(
            "ARIA roles missing required children",
            _CRIT,
            ("1.3.1",),
            'A composite role (role="list", "menu", "tablist") without the children it needs is '
            "announced as an empty or broken widget.",
            "Give the element the child roles it requires, or remove its role.",
        ),
        RuleId.ARIA_REQUIRED_PARENT: _R(
            "ARIA roles outside their required parent",
            _CRIT,
            ("1.3.1",),
            'An item role (role="listitem", "menuitem", "tab") outside its container is announced '
            "without the structure it belongs to.",
            "Place the element inside a parent with the required role, or remove its role.",
        ),
        RuleId.ARIA_HIDDEN_BODY: _R(
            'aria-hidden="true" on the body',
            _CRIT,
            ("1.3.1", "4.1.2"),
            "The whole page is hidden from assistive technology: screen reader users find "
            "nothing on it.",
            'Remove aria-hidden="true" from <body>.',
        ),
        RuleId.PRESENTATION_ROLE_CONFLICT: _R(
            "Presentational elements that are still exposed",
            _MIN,
            (),
            'An element marked role="none" or "presentation" is focusable or has global ARIA '
            "attributes, so browsers expose it anyway.",
            "Remove the presentational role, or the tabindex and global ARIA attributes.",
        ),
        RuleId.NESTED_INTERACTIVE: _R(
            "Interactive controls nested in others",
            _SER,
            ("4.1.2",),
            "A link or button inside another control is not announced, or not reachable by "
            "keyboard, as its own control.",
            "Move the inner control out of the outer one.",
        ),
        RuleId.META_REFRESH: _R(
            "Timed refresh (accessibility)",
            _CRIT,
            ("2.2.1",),
            "A page that reloads or moves on by itself after a delay interrupts visitors who "
            "read or type slowly, and they cannot stop it.",
            "Use a server-side redirect, or let the visitor choose when to move on.",
        ),
        RuleId.META_VIEWPORT: _R(
            "Zoom disabled",
            _MOD,
            ("1.4.4",),
            "The viewport tag forbids zooming (user-scalable=no or maximum-scale below 2): "
            "visitors with low vision cannot enlarge the text on phones.",
            "Remove user-scalable=no and any maximum-scale below 2 from the viewport meta.",
        ),
        RuleId.LIST: _R(
            "Lists with invalid children",
            _SER,
            ("1.3.1",),
            "A <ul> or <ol> with children other than <li> is announced with the wrong number of "
            "items, or as no list at all.",
            "Put only <li> elements (and script or template) directly inside <ul> and <ol>.",
        ),
        RuleId.LISTITEM: _R(
            "List items outside a list",
            _SER,
            ("1.3.1",),
            "An <li> outside <ul> or <ol> is not announced as part of a list.",
            "Wrap the items in a <ul> or <ol>.",
        ),
        RuleId.DEFINITION_LIST: _R(
            "Definition lists with invalid children",
            _SER,
            ("1.3.1",),
            "A <dl> that holds other things than <dt>/<dd> groups is announced wrongly.",
            "Put only <dt> and <dd> groups (optionally in <div>) inside <dl>.",
        ),
        RuleId.DLITEM: _R(
            "Definition terms outside a definition list",
            _SER,
            ("1.3.1",),
            "A <dt> or <dd> outside <dl> loses the term-definition pairing screen readers "
            "announce.",
            "Wrap the terms and definitions in a <dl>.",
        ),
        RuleId.TD_HEADERS_ATTR: _R(
            "Table cells naming missing headers",
            _SER,
            ("1.3.1",),
            "A cell's headers attribute names cells outside its table: screen readers announce "
            "the cell without its column and row headers.",
            "Make each id in headers name a <th> of the same table.",
        ),
        RuleId.TH_HAS_DATA_CELLS: _R(
            "Table headers without data cells",
            _SER,
            ("1.3.1",),
            "A header that labels no cell confuses how screen readers relate headers to data.",
            'Remove empty header columns or rows, or mark layout tables role="presentation".',
        ),
        RuleId.SCOPE_ATTR_VALID: _R(
            "Invalid scope attributes",
            _MOD,
            (),
            "A scope attribute on a <td>, or with a value other than row, col, rowgroup or "
            "colgroup, gives screen readers wrong table headers.",
            'Use scope only on <th>, with "row", "col", "rowgroup" or "colgroup".',
        ),
        RuleId.TABINDEX: _R(
            "Positive tabindex",
            _SER,
            (),
            "A tabindex above 0 moves the element ahead of the page's order: keyboard users jump "
            "around the page in an order that does not follow what they see.",
            'Use tabindex="0" (or -1) and order the content in the source instead.',
        ),
        RuleId.ACCESSKEYS: _R(
            "Duplicate access keys",
            _SER,
            (),
            "Two elements share an accesskey: the shortcut reaches only one of them.",
            "Give each accesskey a unique value, or remove them.",
        ),
        RuleId.SERVER_SIDE_IMAGE_MAP: _R(
            "Server-side image maps",
            _MIN,
            ("2.1.1",),
            "An <img ismap> acts on mouse coordinates: keyboard users cannot choose a region.",
            "Use a client-side image map (<map> with <area href alt>) or plain links.",
        ),
        RuleId.MARQUEE: _R(
            "Scrolling <marquee> text",
            _SER,
            ("2.2.2",),
            "Moving text visitors cannot pause is hard or impossible to read, and distracts "
            "people with attention disorders.",
            "Replace <marquee> with static text.",
        ),
        RuleId.BLINK: _R(
            "Blinking <blink> text",
            _SER,
            ("2.2.2",),
            "Blinking text visitors cannot stop is hard to read and distracting.",
            "Replace <blink> with static text (emphasise it with CSS instead).",
        ),
        RuleId.EMPTY_HEADING: _R(
            "Empty headings",
            _MIN,
            (),
            "Screen reader users jump between headings to skim a page; an empty heading is a "
            "stop with nothing to read.",
            "Put text in the heading, or remove it.",
        ),
        RuleId.HEADING_ORDER: _R(
            "Heading levels skipped (accessibility)",
            _MOD,
            (),
            "A heading more than one level below the one before it (h2 then h4) suggests a "
            "missing section to visitors who navigate by headings.",
            "Use heading levels in order; style headings with CSS instead of picking a level "
            "for its look.",
        ),
        RuleId.PAGE_HAS_HEADING_ONE: _R(
            "Page without a level-one heading",
            _MOD,
            (),
            "Screen reader users jump to the first-level heading to find the main content; "
            "without one they start from the top.",
            "Give the page one <h1> with its main subject.",
        ),
        RuleId.LANDMARK_ONE_MAIN: _R(
            "Page without a main landmark",
            _MOD,
            (),
            "Assistive technology offers to skip to the main landmark; without <main> visitors "
            "go through the header and menus on every page.",
            "Wrap the page's main content in one <main> element.",
        ),
        RuleId.AUTOCOMPLETE_VALID: _R(
            "Invalid autocomplete values",
            _SER,
            ("1.3.5",),
            "An autocomplete token browsers do not know stops them filling the field in, which "
            "people with motor or memory impairments rely on.",
            'Use the HTML autocomplete tokens ("email", "given-name", "postal-code"...).',
        ),
    }
)


# The rules only axe-core decides, on a page a browser rendered (a11y.rule_ids.RenderedRuleId:
# colours after the cascade, sizes and layout, focus, what script did, and the ones left to
# axe-core rather than implemented twice). Same columns; their catalogue types say that a page
# the browser did not render was not checked for them (audit.catalogue, docs/accessibility.md).
_UNNAMED = "A screen reader announces it by its role alone"
RENDERED_RULE_TEXTS: Final[Mapping[RenderedRuleId, RuleText]] = MappingProxyType(
    {
        RenderedRuleId.ARIA_BRAILLE_EQUIVALENT: _R(
            "Braille labels without a spoken equivalent",
            _SER,
            ("4.1.2",),
            "An element has aria-braillelabel or aria-brailleroledescription but no spoken name "
            "or role description: screen readers that speak have nothing to say.",
            "Give the element an accessible name (or aria-roledescription) besides its braille "
            "one.",
        ),
        RenderedRuleId.ARIA_COMMAND_NAME: _R(
            "ARIA buttons, links and menu items without a name",
            _SER,
            ("4.1.2",),
            f'{_UNNAMED} ("button", "link", "menu item"): visitors cannot tell what an element '
            'given role="button", "link" or "menuitem" does.',
            "Put text in the element, or add aria-label or aria-labelledby saying what it does.",
        ),
        RenderedRuleId.ARIA_CONDITIONAL_ATTR: _R(
            "ARIA attributes used against their role's rules",
            _SER,
            ("4.1.2",),
            "An ARIA attribute is used where the element's role only allows it under conditions "
            "(aria-checked on a native checkbox, aria-posinset outside a tree or grid row): "
            "assistive technology announces a state that contradicts the element.",
            "Remove the attribute, or use it as the role's specification says (the details "
            "name the element).",
        ),
        RenderedRuleId.ARIA_DEPRECATED_ROLE: _R(
            "Deprecated ARIA roles",
            _MIN,
            ("4.1.2",),
            "A role WAI-ARIA has deprecated (such as directory) may not be announced by current "
            "screen readers.",
            "Replace the role with its current equivalent (list for directory), or remove it.",
        ),
        RenderedRuleId.ARIA_HIDDEN_FOCUS: _R(
            "Hidden content that keyboard users can still reach",
            _SER,
            ("4.1.2",),
            'Keyboard focus lands on a control inside aria-hidden="true": screen reader users '
            "reach something that is announced as nothing.",
            'Take the controls out of the tab order (tabindex="-1", inert or disabled) or remove '
            "aria-hidden.",
        ),
        RenderedRuleId.ARIA_INPUT_FIELD_NAME: _R(
            "ARIA input fields without a name",
            _SER,
            ("4.1.2",),
            f'{_UNNAMED}: an element given role="textbox", "combobox", "listbox", "searchbox" '
            'or "spinbutton" does not say what to enter.',
            "Add aria-label or aria-labelledby naming the field.",
        ),
        RenderedRuleId.ARIA_METER_NAME: _R(
            "ARIA meters without a name",
            _SER,
            ("1.1.1",),
            f'{_UNNAMED}: a role="meter" does not say what it measures.',
            "Add aria-label or aria-labelledby naming what the meter measures.",
        ),
        RenderedRuleId.ARIA_PROGRESSBAR_NAME: _R(
            "ARIA progress bars without a name",
            _SER,
            ("1.1.1",),
            f'{_UNNAMED}: a role="progressbar" does not say what is progressing.',
            "Add aria-label or aria-labelledby naming what the progress bar shows.",
        ),
        RenderedRuleId.ARIA_PROHIBITED_ATTR: _R(
            "ARIA attributes prohibited on their element",
            _SER,
            ("4.1.2",),
            "An aria-label or aria-labelledby on an element whose role cannot be named (a plain "
            "<div> or <span>) is ignored by many screen readers: the text never reaches them.",
            "Give the element a role that takes a name, or put the text in the element itself.",
        ),
        RenderedRuleId.ARIA_ROLEDESCRIPTION: _R(
            "aria-roledescription on an element without a role",
            _SER,
            ("4.1.2",),
            "A role description on an element without a semantic role is ignored: the custom "
            "name of the control is never announced.",
            "Give the element an explicit or implicit role, or remove aria-roledescription.",
        ),
        RenderedRuleId.ARIA_TAB_NAME: _R(
            "ARIA tabs without a name",
            _SER,
            ("4.1.2",),
            f'{_UNNAMED} ("tab"): visitors cannot tell which panel each tab opens.',
            "Put text in each tab, or add aria-label or aria-labelledby.",
        ),
        RenderedRuleId.ARIA_TOGGLE_FIELD_NAME: _R(
            "ARIA toggles without a name",
            _SER,
            ("4.1.2",),
            f'{_UNNAMED}: an element given role="checkbox", "switch", "radio" or a checkable '
            "menu item does not say what it turns on or off.",
            "Put text in the element, or add aria-label or aria-labelledby.",
        ),
        RenderedRuleId.ARIA_TOOLTIP_NAME: _R(
            "ARIA tooltips without a name",
            _SER,
            ("4.1.2",),
            f'{_UNNAMED}: a role="tooltip" is empty for screen reader users.',
            "Put the tooltip's text in the element, or add aria-label or aria-labelledby.",
        ),
        RenderedRuleId.AUDIO_CAPTION: _R(
            "Audio without captions or a transcript",
            _CRIT,
            ("1.2.1",),
            "Deaf and hard-of-hearing visitors get nothing of an <audio> element's content.",
            'Add a captions <track kind="captions"> or a transcript beside the audio.',
        ),
        RenderedRuleId.AVOID_INLINE_SPACING: _R(
            "Text spacing locked by inline styles",
            _SER,
            ("1.4.12",),
            "An inline style with !important fixes the letter, word or line spacing, so visitors "
            "with dyslexia or low vision cannot widen it with their own style sheet.",
            "Drop !important from inline letter-spacing, word-spacing and line-height, or move "
            "them to the style sheet.",
        ),
        RenderedRuleId.BYPASS: _R(
            "No way to skip to the main content",
            _SER,
            ("2.4.1",),
            "Keyboard and screen reader users go through the header and menus on every page: "
            "there is no skip link, main landmark or heading to jump to.",
            'Wrap the main content in <main>, or add a "Skip to content" link as the first link.',
        ),
        RenderedRuleId.COLOR_CONTRAST: _R(
            "Text with too little colour contrast",
            _SER,
            ("1.4.3",),
            "Text too close in colour to its background is hard or impossible to read for "
            "visitors with low vision or colour blindness, and for anyone on a phone in sunlight.",
            "Darken the text or lighten its background until the contrast ratio is at least "
            "4.5:1 (3:1 for large text); the details name the elements.",
        ),
        RenderedRuleId.CSS_ORIENTATION_LOCK: _R(
            "Display locked to one orientation",
            _SER,
            ("1.3.4",),
            "The style sheet forces portrait or landscape: visitors with a device mounted on a "
            "wheelchair, or who cannot turn it, get the content sideways.",
            "Remove the orientation media query's rotation; let the layout follow the device.",
        ),
        RenderedRuleId.FRAME_FOCUSABLE_CONTENT: _R(
            "Frames whose controls keyboard users cannot reach",
            _SER,
            ("2.1.1",),
            'An <iframe tabindex="-1"> holds links or controls that the keyboard never reaches.',
            'Remove tabindex="-1" from frames with interactive content.',
        ),
        RenderedRuleId.FRAME_TITLE_UNIQUE: _R(
            "Frames sharing one title",
            _SER,
            ("4.1.2",),
            "Screen reader users choose a frame by its title; frames with the same title cannot "
            "be told apart.",
            "Give each <iframe> a title saying what it holds, different from the others.",
        ),
        RenderedRuleId.LABEL_CONTENT_NAME_MISMATCH: _R(
            "Controls whose name does not contain their visible text",
            _SER,
            ("2.5.3",),
            'Voice-control users say what they see ("click Send"); a control whose aria-label '
            "does not contain its visible text does not answer to it.",
            "Make the accessible name start with, or at least contain, the visible text.",
        ),
        RenderedRuleId.LINK_IN_TEXT_BLOCK: _R(
            "Links told apart from text by colour alone",
            _SER,
            ("1.4.1",),
            "Links inside a paragraph that differ from the text only by colour are invisible to "
            "colour-blind visitors.",
            "Underline links in running text (or give them a 3:1 contrast with the text and a "
            "non-colour cue on hover and focus).",
        ),
        RenderedRuleId.NO_AUTOPLAY_AUDIO: _R(
            "Audio that plays by itself",
            _MOD,
            ("1.4.2",),
            "Sound that starts on its own for more than 3 seconds drowns the screen reader's "
            "voice, and visitors may not find how to stop it.",
            "Do not autoplay sound, or give the player visible controls and keep it under 3 "
            "seconds.",
        ),
        RenderedRuleId.P_AS_HEADING: _R(
            "Paragraphs styled to look like headings",
            _SER,
            ("1.3.1",),
            "Bold or large <p> text that looks like a heading is not one for screen reader users "
            "who jump from heading to heading: the section is invisible to them.",
            "Use <h2>-<h6> for headings and style them with CSS.",
        ),
        RenderedRuleId.SCROLLABLE_REGION_FOCUSABLE: _R(
            "Scrolling areas keyboard users cannot scroll",
            _SER,
            ("2.1.1", "2.1.3"),
            "A box that scrolls its content but cannot take focus and holds nothing focusable "
            "cannot be scrolled with the keyboard: its hidden part is out of reach.",
            'Add tabindex="0" (and a name) to the scrolling element, or put a focusable element '
            "inside it.",
        ),
        RenderedRuleId.SUMMARY_NAME: _R(
            "Disclosure summaries without text",
            _SER,
            ("4.1.2",),
            f"{_UNNAMED}: a <details> element's <summary> is empty, so visitors do not know "
            "what it opens.",
            "Put text in the <summary>, or add aria-label.",
        ),
        RenderedRuleId.TABLE_FAKE_CAPTION: _R(
            "Table captions made of cells",
            _SER,
            ("1.3.1",),
            "A first row spanning the table used as its title is read as a data cell: screen "
            "readers neither announce it as the caption nor skip it in the data.",
            "Move the title into a <caption> element.",
        ),
        RenderedRuleId.TD_HAS_HEADER: _R(
            "Large tables whose cells have no headers",
            _CRIT,
            ("1.3.1",),
            "In a table of more than 3 by 3, a data cell without a header is read as a bare "
            "value: screen reader users cannot tell what it means.",
            'Mark the header row and column with <th> (scope="col", scope="row").',
        ),
        RenderedRuleId.TARGET_SIZE: _R(
            "Touch targets too small or too close",
            _SER,
            ("2.5.8",),
            "Links and buttons smaller than 24 by 24 pixels, with too little space around them, "
            "are hard to hit for visitors with tremors or on a phone: they press the wrong one.",
            "Make each target at least 24 by 24 CSS pixels, or leave that much space around it.",
        ),
        RenderedRuleId.VIDEO_CAPTION: _R(
            "Videos without captions",
            _CRIT,
            ("1.2.2",),
            "Deaf and hard-of-hearing visitors miss everything a <video> says.",
            'Add a captions <track kind="captions"> to the video.',
        ),
    }
)


def issue_type_value(rule: AxeRuleId) -> str:
    """The catalogue issue type of a rule: `a11y-` and axe-core's rule id."""
    return f"{A11Y_ISSUE_PREFIX}{rule.value}"


def rule_of_issue_type(issue_type: str) -> AxeRuleId | None:
    """The rule of an `a11y-*` issue type (static or rendered-only); None for any other type."""
    if not issue_type.startswith(A11Y_ISSUE_PREFIX):
        return None
    return axe_rule_id(issue_type.removeprefix(A11Y_ISSUE_PREFIX))


def rule_text(rule: AxeRuleId) -> RuleText:
    """A rule's row, from the static or the rendered-only table."""
    if isinstance(rule, RuleId):
        return RULE_TEXTS[rule]
    return RENDERED_RULE_TEXTS[rule]


def rendered_only(issue_type: str) -> bool:
    """Whether an issue type is one only axe-core decides, on a rendered page."""
    return isinstance(rule_of_issue_type(issue_type), RenderedRuleId)


def severity_name(rule: AxeRuleId) -> str:
    return rule_text(rule).severity
