"""The accessible name computation on the examples of the W3C Accessible Name and Description
Computation 1.2 (https://www.w3.org/TR/accname-1.2/, steps 2A-2I) and of HTML-AAM's native
alternatives (https://www.w3.org/TR/html-aam-1.0/#accessible-name-computations-by-html-element).
The named element is the one with id="target"."""

from __future__ import annotations

from pathlib import Path

import pytest

from a11y import accname
from a11y.accname import accessible_name, subtree_name
from a11y.aria import aria
from a11y.page import Page
from a11y.roles import CONDITIONAL_ROLES, PRESENTATIONAL, role
from a11y.tree import Element
from parse.parity import PARITY_URL, page_files, read_page
from parse.tree_builder import page_tree
from tests.a11y.html_tree import page

EXAMPLES = [
    # 2B: aria-labelledby, not followed again inside a labelledby traversal.
    (
        "labelledby",
        '<span id="l">hello</span><button id="target" aria-labelledby="l">x</button>',
        "hello",
    ),
    (
        "labelledby-chain",
        '<i id="a" aria-labelledby="c"></i><b id="target" aria-labelledby="a"></b><u id="c">hello</u>',
        "",
    ),
    (
        "labelledby-self",
        '<button id="target" aria-labelledby="target f">Delete</button><span id="f">file.txt</span>',
        "Delete file.txt",
    ),
    ("labelledby-missing-ids", '<button id="target" aria-labelledby="nope">Save</button>', "Save"),
    # 2A and 2B: a hidden referent counts, with its hidden content; hidden parts of a shown one do not.
    (
        "labelledby-hidden",
        '<div id="h" hidden>Hidden <b>label</b></div><button id="target" aria-labelledby="h">x</button>',
        "Hidden label",
    ),
    (
        "labelledby-hidden-part",
        '<div id="v">Shown <span hidden>secret</span></div><button id="target" aria-labelledby="v">x</button>',
        "Shown",
    ),
    # 2C: aria-label, unless blank.
    ("aria-label", '<button id="target" aria-label="Close">X</button>', "Close"),
    ("aria-label-blank", '<button id="target" aria-label="  ">Save</button>', "Save"),
    # 2E: native alternatives (HTML-AAM).
    ("img-alt", '<img id="target" src="t.png" alt="Tent">', "Tent"),
    ("label-for", '<label for="target">Name</label><input id="target">', "Name"),
    ("label-wrapping", "<label>Email <input id=target type=email></label>", "Email"),
    (
        "label-embedded-controls",
        "<label>Pick <select><option>A</option><option selected>B</option></select> or "
        '<input value="typed"> now <input id="target"></label>',
        "Pick B or typed now",
    ),
    (
        "label-embedded-aria-textbox",
        '<label for="target">Flash <span role="textbox">3</span> times</label><input id="target" type="checkbox">',
        "Flash 3 times",
    ),
    ("placeholder", '<input id="target" placeholder="Search the shop">', "Search the shop"),
    ("submit-default", '<input id="target" type="submit">', "Submit"),
    ("reset-default", '<input id="target" type="reset">', "Reset"),
    ("button-value", '<input id="target" type="button" value="Go">', "Go"),
    ("image-alt", '<input id="target" type="image" src="go.png" alt="Search">', "Search"),
    (
        "fieldset-legend",
        '<fieldset id="target"><legend>Shipping</legend><input></fieldset>',
        "Shipping",
    ),
    (
        "table-caption",
        '<table id="target"><caption>Prices</caption><tr><td>1</td></tr></table>',
        "Prices",
    ),
    (
        "figure-caption",
        '<figure id="target"><img src="a.png" alt=""><figcaption>Tent</figcaption></figure>',
        "Tent",
    ),
    (
        "svg-title",
        '<svg id="target"><title>Chart</title><rect width="2" height="2"/></svg>',
        "Chart",
    ),
    # 2F: name from content, recursively, hidden content left out, white space collapsed.
    ("content", '<a id="target" href="/"><img src="h.png" alt="Home"> page</a>', "Home page"),
    (
        "content-inline",
        '<a id="target" href="#"><span>Go to</span> <em>the</em> shop</a>',
        "Go to the shop",
    ),
    ("content-blocks", '<button id="target"><div>One</div><div>Two</div></button>', "One Two"),
    (
        "content-aria-hidden",
        '<a id="target" href="/">Read <span aria-hidden="true">→</span></a>',
        "Read",
    ),
    (
        "content-display-none",
        '<button id="target">Save <span style="display: none">x</span></button>',
        "Save",
    ),
    ("content-spaces", '<h2 id="target">  Two \n  words </h2>', "Two words"),
    ("heading-role", '<div id="target" role="heading" aria-level="2">Specs</div>', "Specs"),
    # 2F does not apply to roles that do not take their name from content.
    ("no-content-name", '<nav id="target"><a href="/">Home</a></nav>', ""),
    # 2I: the tooltip attribute last.
    ("title", '<input id="target" title="Quantity">', "Quantity"),
    ("title-after-content", '<a id="target" href="/" title="Tip">Text</a>', "Text"),
    ("presentational-img", '<img id="target" src="d.png" alt="">', ""),
]


@pytest.mark.parametrize(("body", "name"), [e[1:] for e in EXAMPLES], ids=[e[0] for e in EXAMPLES])
def test_accessible_name(body: str, name: str) -> None:
    built = page(f"<!DOCTYPE html><html><body>{body}</body></html>")
    target = built.document.by_id("target")
    assert target is not None
    assert accessible_name(built, target) == name


# Content an accessible name computed from, where has-visible-text (subtree_name) then reads the
# same text; and where a reference out of the link, or a name given before its content, makes the
# two differ, so subtree_name computes its own.
CONTENTS = [
    '<a id="target" href="/">Plain <b>text</b> <img src="i.png" alt="and an image"></a>',
    '<a id="target" href="/"><span aria-labelledby="target">Self</span> ref</a>',
    '<label>Outer <a id="target" href="/">Go <input id="i"></a></label>',
    '<a id="target" href="/"><input id="i"> <label for="i">Field</label></a>',
    '<a id="target" href="/" aria-labelledby="x">Named</a><span id="x">elsewhere</span>',
    '<a id="target" href="/" aria-label="Label">Content</a>',
    '<a id="target" href="/"><span hidden>hidden</span> shown</a>',
]


def _target(body: str) -> tuple[Page, Element]:
    """A fresh page of `body` and its element with id="target"."""
    built = page(f"<!DOCTYPE html><html><body>{body}</body></html>")
    target = built.document.by_id("target")
    assert target is not None
    return built, target


@pytest.mark.parametrize("body", CONTENTS)
def test_subtree_name_after_the_accessible_name_is_the_one_computed_alone(body: str) -> None:
    (first, target), (alone, same) = _target(body), _target(body)
    accessible_name(first, target)
    assert subtree_name(first, target) == subtree_name(alone, same)


# `accessible_name` takes a shortcut for `<a href>` holding only text, without role, aria-label
# or aria-labelledby (accname._plain_link_name): the general steps must give the same name and
# leave the same content for has-visible-text, on every such link and on the links next to it.
# Text in plain inline and block elements (accname._PLAIN_INLINE, _PLAIN_BLOCK), images with
# only accname._PLAIN_IMG_ATTRIBUTES and hidden elements of any kind take the shortcut too ...
INLINE_SHORTCUT = [
    '<a id="target" href="/"><code class="literal">pg_dump</code> options</a>',
    '<a id="target" href="/">Read <em>the <b lang="en">manual</b></em>!</a>',
    '<a id="target" href="/" title="Tip"><span class="icon"></span></a>',
    '<a id="target" href="/"><time datetime="2026-01-01">1 Jan</time></a>',
    '<div hidden><a id="target" href="/"><span>Gone</span></a></div>',
    '<a id="target" href="/"><span style="display:none">x</span>y</a>',
    '<a id="target" href="/"><span hidden>x</span>y</a>',
    '<a id="target" href="/"><div>Block</div>text</a>',
    '<a id="target" href="/">a<div>Block</div><p> para </p>b<h3>c</h3><div></div>d</a>',
    '<a id="target" href="/"><div class="card"><h2>Title</h2><p>Some <em>text</em></p></div></a>',
    '<a id="target" href="/"><div><span>x</span></div><div> </div><div>y </div></a>',
    '<a id="target" href="/" title="Tip"><div>  </div><p></p></a>',
    '<a id="target" href="/"><i class="icon" aria-hidden="true"><svg></svg></i>Home</a>',
    '<a id="target" href="/"><img src="a.png" aria-hidden="true">Home</a>',
    '<a id="target" href="/"><noscript><img src="a.png"></noscript>x</a>',
    '<a id="target" href="/"><div aria-hidden="true">x</div><div>y</div></a>',
    '<a id="target" href="/"><div inert>x</div>y</a>',
    '<a id="target" href="/"><img src="a.png" alt="Logo"></a>',
    '<a id="target" href="/" title="t"><img src="a.png" alt=""></a>',
    '<a id="target" href="/" title="t"><img src="a.png"></a>',
    '<a id="target" href="/">x<img src="a.png" alt="y">z<img alt=" w ">v</a>',
    '<a id="target" href="/"><div><img src="a.png" alt=" Logo " width="9"> Home</div></a>',
    '<a id="target" href="/"><img class="c" src="a.png" alt="  "></a>',
    '<a id="target" href="/"><span><img src="a.png" alt="in"></span>after</a>',
    '<a id="target" href="/"><div><img src="a.png" alt="x"></div></a>',
]
# ... and anything else under a link goes the general way.
INLINE_GENERAL = [
    '<a id="target" href="/"><span title="inner"></span></a>',
    '<a id="target" href="/"><span aria-label="Label">x</span></a>',
    '<a id="target" href="/"><span role="presentation">x</span></a>',
    '<a id="target" href="/"><div role="presentation">x</div></a>',
    '<a id="target" href="/"><div title="t"></div></a>',
    '<a id="target" href="/"><p aria-label="Label">x</p></a>',
    '<a id="target" href="/"><section>x</section></a>',
    '<a id="target" href="/"><acronym>SQL</acronym> text</a>',
    '<a id="target" href="/"><svg><text>x</text></svg></a>',
    '<a id="target" href="/"><img src="a.png" alt="x" title="t"></a>',
    '<a id="target" href="/"><img src="a.png" alt="" tabindex="0"></a>',
    '<a id="target" href="/"><img src="a.png" alt="x" usemap="#m"></a>',
    '<a id="target" href="/"><img src="a.png" aria-label="x"></a>',
    '<a id="target" href="/"><img src="a.png" role="none" alt="x"></a>',
]
PLAIN_LINKS = (
    INLINE_SHORTCUT
    + INLINE_GENERAL
    + [
        '<a id="target" href="/">  Plain\n text </a>',
        '<a id="target" href="/" title=" Tip  here ">  </a>',
        '<a id="target" href="/"></a>',
        '<a id="target" href="/" title="">\u00a0</a>',
        '<a id="target" href="/" aria-hidden="true">Gone</a>',
        '<div aria-hidden="true"><a id="target" href="/">Gone</a></div>',
        '<a id="target" href="/" hidden>Hidden</a>',
        '<a id="target" href="/" style="display:none">Hidden</a>',
        '<a id="target" href="/" role="presentation">Role</a>',
        '<a id="target" href="/" role="button" title="t"></a>',
        '<a id="target" href="/" aria-label="Label">Text</a>',
        '<a id="target" href="/" aria-labelledby="l">Text</a><span id="l">Label</span>',
        '<a id="target" href="/" tabindex="-1">Text</a>',
        '<a id="target">No href</a>',
        '<svg><a id="target" href="/">In SVG</a></svg>',
        '<a id="target" href="/">A &amp; B<!-- comment --> C</a>',
    ]
)


@pytest.mark.parametrize(
    ("body", "shortcut"),
    [(b, True) for b in INLINE_SHORTCUT] + [(b, False) for b in INLINE_GENERAL],
)
def test_a_link_holding_elements_takes_the_shortcut_only_through_plain_inline_ones(
    body: str, shortcut: bool
) -> None:
    built, target = _target(body)
    assert (accname._plain_link_name(built, target) is not None) is shortcut


@pytest.mark.parametrize("tag", sorted(accname._PLAIN_INLINE))
def test_a_plain_inline_element_adds_its_text_and_nothing_else(tag: str) -> None:
    spec = aria().elements[tag]
    assert tag in accname._phrasing()  # no space around its text
    assert "namingMethods" not in spec  # no name of its own but its content
    built, target = _target(f"<{tag} id=target>x</{tag}>")
    found = role(built, target)
    assert found not in PRESENTATIONAL and found not in accname._CONTROL_VALUE_ROLES


@pytest.mark.parametrize("tag", sorted(accname._PLAIN_BLOCK))
def test_a_plain_block_element_adds_its_text_with_spaces_and_nothing_else(tag: str) -> None:
    spec = aria().elements[tag]
    assert tag not in accname._phrasing()  # a space around its text (`_children_text`)
    assert "namingMethods" not in spec  # no name of its own but its content
    assert "embedded" not in accname._content_types(spec)
    built, target = _target(f"<{tag} id=target>x</{tag}>")
    found = role(built, target)
    assert found not in PRESENTATIONAL and found not in accname._CONTROL_VALUE_ROLES


def _general_name(built: Page, element: Element) -> str:
    return accname._text(built, element, accname._Context(start=element))


@pytest.mark.parametrize("body", PLAIN_LINKS)
def test_a_plain_link_is_named_as_the_general_steps_name_it(body: str) -> None:
    (fast, target), (general, same), (alone, again) = _target(body), _target(body), _target(body)
    assert accessible_name(fast, target) == _general_name(general, same)
    assert fast.contents.get(id(target)) == general.contents.get(id(same))
    assert subtree_name(fast, target) == subtree_name(alone, again)


CORPUS = Path(__file__).resolve().parent.parent / "data" / "corpus" / "pages"


@pytest.mark.parametrize("path", page_files(CORPUS)[::8], ids=lambda p: p.name[:12])
def test_every_link_of_a_corpus_page_is_named_as_the_general_steps_name_it(path: Path) -> None:
    root = page_tree(read_page(path), PARITY_URL)[1].root
    fast, general = Page(root), Page(root)
    links = list(fast.document.by_tag("a"))
    probe = Page(root)  # the shortcut keeps content in its page: asked on a page of its own
    plain = [link for link in links if accname._plain_link_name(probe, link) is not None]
    assert plain, "no link takes the shortcut: the test would compare the general steps alone"
    for link in links:
        assert accessible_name(fast, link) == _general_name(general, link), link.attributes


# `shows_text` decides has-visible-text at once where text is reached through plain inline
# elements, else by the whole name: the same answer as `subtree_name` in every case.
SHOWS_TEXT = [
    ('<h2 id="target">Title</h2>', True),
    ('<h2 id="target"> \n\u00a0 </h2>', False),
    ('<h3 id="target"><code>fn <a href="/x">Type</a></code></h3>', True),
    ('<h3 id="target"><code><a href="/x">Type</a></code></h3>', True),
    ('<h2 id="target"><span hidden>Gone</span></h2>', False),
    ('<h2 id="target"><span aria-hidden="true">Gone</span> </h2>', False),
    (
        '<h2 id="target"><span style="display:none">Gone</span><img src="a.png" alt="Alt"></h2>',
        True,
    ),
    ('<h2 id="target"><img src="a.png" alt=""></h2>', False),
    ('<h2 id="target"><span title="Tip"></span></h2>', True),
    ('<h2 id="target"><span aria-label="Label"></span></h2>', True),
    ('<h2 id="target" hidden>Hidden heading, its text still counted</h2>', True),
    ('<button id="target"><em>\u2003</em></button>', False),
]


@pytest.mark.parametrize(("body", "expected"), SHOWS_TEXT)
def test_shows_text_is_whether_the_subtree_name_is_empty(body: str, expected: bool) -> None:
    (built, target), (alone, same) = _target(body), _target(body)
    assert accname.shows_text(built, target) is expected
    assert bool(subtree_name(alone, same)) is expected


@pytest.mark.parametrize("path", page_files(CORPUS)[::16], ids=lambda p: p.name[:12])
def test_shows_text_agrees_with_the_subtree_name_on_every_element_of_a_corpus_page(
    path: Path,
) -> None:
    root = page_tree(read_page(path), PARITY_URL)[1].root
    built = Page(root)
    for element in built.document.order:
        assert accname.shows_text(built, element) is bool(subtree_name(built, element))


# `link_named_at_once` says True only where a link's name and its content's text are both
# non-empty, False only where both are empty (link-name then decides the link without either
# computed); None leaves them to the full steps.
LINK_NAMED_AT_ONCE = [
    ('<a id="target" href="/x">Text</a>', True),
    ('<a id="target" href="/x"> \u00a0 </a>', False),
    ('<a id="target" href="/x" title="Tip"> </a>', None),
    ('<a id="target" href="/x" aria-label="Label"></a>', None),
    ('<a id="target" href="/x"><div><span class="c" data-x="1">Deep</span></div></a>', True),
    ('<a id="target" href="/x"><i class="icon"></i> Home</a>', True),
    ('<a id="target" href="/x"><i class="icon"></i></a>', False),
    ('<a id="target" href="/x"><i class="icon" title="Home"></i></a>', None),
    ('<a id="target" href="/x"><span aria-label="Home"></span></a>', None),
    ('<a id="target" href="/x"><span aria-hidden="true">Gone</span></a>', False),
    ('<a id="target" href="/x"><img src="a.png" class="c" alt="Logo"></a>', True),
    ('<a id="target" href="/x"><img src="a.png" alt=" "></a>', False),
    ('<a id="target" href="/x"><img src="a.png"></a>', False),
    ('<a id="target" href="/x"><img src="a.png" title="Logo"></a>', None),
    ('<a id="target" href="/x"><img src="a.png" alt="">Text</a>', True),
    ('<a id="target" href="/x"><img src="a.png" role="none" alt="Logo"></a>', None),
    ('<a id="target" href="/x" aria-labelledby="e">Text</a><i id="e"></i>', None),
    ('<a id="target" href="/x"><span aria-labelledby="e">Text</span></a><i id="e"></i>', None),
    ('<a id="target" href="/x" role="menuitem">Text</a>', True),
    ('<a id="target" href="/x" role="menuitem"></a>', None),
    ('<a id="target" href="/x" role="textbox">Text</a>', None),
    ('<a id="target" href="/x" role="navigation">Text</a>', None),
    ('<a id="target" href="/x"><span role="slider">5</span></a>', None),
    ('<a id="target" href="/x"><svg><title>t</title></svg>Text</a>', None),
    ('<a id="target" href="/x"><table><tr><td>Cell</td></tr></table></a>', None),
    ('<a id="target" href="/x"><input value="v"></a>', None),
    ('<a id="target">Text</a>', None),
]


@pytest.mark.parametrize(("body", "expected"), LINK_NAMED_AT_ONCE)
def test_a_link_named_at_once_has_a_name_and_shows_text_or_neither(
    body: str, expected: bool | None
) -> None:
    (built, target), (alone, same), (content, again) = _target(body), _target(body), _target(body)
    assert accname.link_named_at_once(built, target) is expected
    if expected is not None:
        assert bool(accessible_name(alone, same)) is expected
        assert bool(subtree_name(content, again)) is expected


@pytest.mark.parametrize("tag", sorted(accname._name_transparent()))
def test_a_name_transparent_element_adds_its_content_and_marks_nothing(tag: str) -> None:
    """Read into by `link_named_at_once`: no naming method but its content, no embedded content, no
    implicit role taking a control's value, so its part is its content's text or some other
    non-empty text."""
    spec = aria().elements[tag]
    variants = spec.get("variant")
    for each in [spec, *(variants.values() if isinstance(variants, dict) else ())]:
        assert set(each.get("namingMethods") or []) <= {"subtreeText"}
        assert "embedded" not in accname._content_types(each)
    implicit = aria().implicit_roles.get(tag)
    roles = CONDITIONAL_ROLES[tag] if isinstance(implicit, dict) else {implicit}
    assert not roles & accname._CONTROL_VALUE_ROLES


@pytest.mark.parametrize("path", page_files(CORPUS)[::8], ids=lambda p: p.name[:12])
def test_every_link_named_at_once_on_a_corpus_page_is_as_the_full_steps_name_it(
    path: Path,
) -> None:
    root = page_tree(read_page(path), PARITY_URL)[1].root
    probe, names, contents = Page(root), Page(root), Page(root)
    shown = [a for a in probe.document.by_tag("a") if not probe.hidden.to_assistive_tech(a)]
    decided = [(link, accname.link_named_at_once(probe, link)) for link in shown]
    assert any(verdict for _, verdict in decided)
    for link, verdict in decided:
        if verdict is not None:
            assert bool(accessible_name(names, link)) is verdict
            assert bool(subtree_name(contents, link)) is verdict
