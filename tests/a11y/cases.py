"""Documents for each static rule, with the verdict expected on each judged element written on
it as `data-expect="pass"` or `data-expect="fail"` (data attributes are not ARIA: no rule reads
them). tests/a11y/test_rules.py checks the static rules against the marks, and the agreement
harness (tests/browser/test_a11y_agreement.py) runs real axe-core on the same documents."""

from __future__ import annotations

from dataclasses import dataclass

from a11y.rule_ids import RuleId as R


@dataclass(frozen=True)
class Case:
    rule: R
    name: str
    html: str

    @property
    def id(self) -> str:
        return f"{self.rule}-{self.name}"


def doc(body: str, *, head: str = "<title>Case</title>", html: str = 'lang="en"') -> str:
    return f"<!DOCTYPE html><html {html}><head>{head}</head><body>{body}</body></html>"


P = 'data-expect="pass"'
F = 'data-expect="fail"'

CASES = [
    Case(
        R.IMAGE_ALT, "alt", doc(f'<img {P} src="a.png" alt="A tent"><img {P} src="b.png" alt="">')
    ),
    Case(R.IMAGE_ALT, "missing", doc(f'<img {F} src="a.png"><img {F} src="b.png" alt=" ">')),
    Case(
        R.IMAGE_ALT,
        "other-names",
        doc(
            f'<img {P} src="a.png" aria-label="Tent"><img {P} src="a.png" title="Tent">'
            f'<span id="l">Tent</span><img {P} src="a.png" aria-labelledby="l">'
            f'<img {P} src="a.png" role="presentation"><img {F} src="a.png" aria-labelledby="none">'
        ),
    ),
    Case(
        R.IMAGE_ALT,
        "hidden",
        doc('<img src="a.png" hidden><div aria-hidden="true"><img src="b.png"></div>'),
    ),
    Case(
        R.INPUT_IMAGE_ALT,
        "both",
        doc(
            f'<form><input {P} type="image" src="go.png" alt="Search">'
            f'<input {F} type="image" src="go.png">'
            f'<input {F} type="image" src="go.png" alt=" "><input type="IMAGE" src="go.png">'
            f'<label>Go <input {P} type="image" src="go.png"></label></form>'
        ),
    ),
    Case(
        R.AREA_ALT,
        "both",
        doc(
            '<img src="m.png" usemap="#m" alt="Map"><map name="m">'
            f'<area {P} href="/a" alt="North" shape="rect" coords="0,0,5,5">'
            f'<area {F} href="/b" shape="rect" coords="5,5,9,9">'
            f'<area {P} href="/c" aria-label="South" shape="rect" coords="1,1,2,2"></map>'
        ),
    ),
    Case(
        R.OBJECT_ALT,
        "both",
        doc(
            f'<object {F} data="a.svg" type="image/svg+xml"></object>'
            f'<object {P} data="b.svg" type="image/svg+xml" title="Chart"></object>'
            f'<object {P} data="c.svg" type="image/svg+xml" aria-label="Chart"></object>'
        ),
    ),
    Case(
        R.SVG_IMG_ALT,
        "both",
        doc(
            f'<svg {P} role="img" width="10" height="10"><title>Logo</title>'
            f'<rect width="5" height="5"/></svg>'
            f'<svg {F} role="img" width="10" height="10"><rect width="5" height="5"/></svg>'
            f'<svg {P} role="img" aria-label="Logo" width="10" height="10"></svg>'
            f'<svg {F} role="img" width="10" height="10"><title> </title></svg>'
        ),
    ),
    Case(
        R.ROLE_IMG_ALT,
        "both",
        doc(
            f'<div {P} role="img" aria-label="Stars">*****</div>'
            f'<span {F} role="img">*****</span><div {P} role="img" title="Rating">*</div>'
        ),
    ),
    Case(
        R.BUTTON_NAME,
        "both",
        doc(
            f"<button {P}>Buy</button><button {F}></button>"
            f'<button {P} aria-label="Close">x</button>'
            f'<button {F}><img src="x.png" alt=""></button><button {P}>'
            f'<img src="x.png" alt="Close"></button>'
            f'<button {P} title="More">…</button><button {F}><span aria-hidden="true">x</span>'
            f"</button>"
        ),
    ),
    Case(
        R.INPUT_BUTTON_NAME,
        "both",
        doc(
            f'<form><input {P} type="submit"><input {P} type="reset"><input {F} type="button">'
            f'<input {P} type="button" value="Go"><input {F} type="submit" value="">'
            f'<input {F} type="button" value=" "></form>'
        ),
    ),
    Case(
        R.LINK_NAME,
        "both",
        doc(
            f'<a {P} href="/a">Tents</a><a {F} href="/b"></a><a {P} href="/c">'
            f'<img src="c.png" alt="Boots"></a>'
            f'<a {F} href="/d"><img src="d.png" alt=""></a><a {P} href="/e" aria-label="Home"></a>'
            f'<a href="#top">Top</a><a name="x">no href</a>'
            f'<a {F} href="/f"> <span hidden>hidden</span></a>'
        ),
    ),
    Case(
        R.LABEL,
        "both",
        doc(
            f'<form><label for="n">Name</label><input {P} id="n"><input {F} id="m">'
            f'<label>Email <input {P} type="email"></label><input {P} aria-label="Phone">'
            f'<input {P} placeholder="Search"><textarea {F}></textarea>'
            f'<input type="hidden" name="t">'
            f'<input type="submit"><label for="x" hidden>Hidden</label><input {F} id="x"></form>'
        ),
    ),
    Case(
        R.SELECT_NAME,
        "both",
        doc(
            f'<label for="s">Size</label><select {P} id="s"><option>S</option></select>'
            f'<select {F}><option>M</option></select><select {P} title="Colour">'
            f"<option>Red</option></select>"
        ),
    ),
    Case(
        R.FORM_FIELD_MULTIPLE_LABELS,
        "one",
        doc(f'<label for="a">A</label><input {P} id="a"><input {P} aria-label="b">'),
    ),
    Case(
        R.FRAME_TITLE,
        "both",
        doc(
            f'<iframe {P} src="about:blank" title="Map"></iframe><iframe {F} src="about:blank">'
            f"</iframe>"
            f'<iframe {F} src="about:blank" title=" "></iframe>'
            f'<iframe src="about:blank" tabindex="-1"></iframe>'
        ),
    ),
    Case(R.DOCUMENT_TITLE, "present", doc("<p>x</p>", html=f'lang="en" {P}')),
    Case(R.DOCUMENT_TITLE, "missing", doc("<p>x</p>", head="", html=f'lang="en" {F}')),
    Case(
        R.DOCUMENT_TITLE, "blank", doc("<p>x</p>", head="<title> </title>", html=f'lang="en" {F}')
    ),
    Case(R.HTML_HAS_LANG, "present", doc("<p>x</p>", html=f'lang="en" {P}')),
    Case(R.HTML_HAS_LANG, "missing", doc("<p>x</p>", html=F)),
    Case(R.HTML_HAS_LANG, "xml-lang-only", doc("<p>x</p>", html=f'xml:lang="en" {F}')),
    Case(R.HTML_LANG_VALID, "valid", doc("<p>x</p>", html=f'lang="en-GB" {P}')),
    Case(R.HTML_LANG_VALID, "invalid", doc("<p>x</p>", html=f'lang="english" {F}')),
    Case(
        R.VALID_LANG,
        "both",
        doc(f'<p {P} lang="fr">Bonjour</p><p {F} lang="xx-yy">Text</p><p {P} lang="zz"></p>'),
    ),
    Case(R.HTML_XML_LANG_MISMATCH, "same", doc("<p>x</p>", html=f'lang="en" xml:lang="en-US" {P}')),
    Case(
        R.HTML_XML_LANG_MISMATCH, "different", doc("<p>x</p>", html=f'lang="en" xml:lang="fr" {F}')
    ),
    Case(
        R.DUPLICATE_ID_ARIA,
        "both",
        doc(
            f'<span {P} id="a">A</span><span {F} id="b">B1</span><span id="b">B2</span>'
            '<input aria-labelledby="a b"><span id="c">not referenced</span>'
            '<span id="c">twice</span>'
        ),
    ),
    Case(
        R.ARIA_VALID_ATTR,
        "both",
        doc(f'<div {P} aria-live="polite">x</div><div {F} aria-lable="x">y</div>'),
    ),
    Case(
        R.ARIA_VALID_ATTR_VALUE,
        "both",
        doc(
            f'<div {P} aria-live="polite">x</div><div {F} aria-live="loud">y</div>'
            f'<button {F} aria-pressed="yes">b</button><h2 {P} aria-level="2">h</h2>'
            f'<div {F} role="checkbox" aria-checked="maybe" tabindex="0">c</div>'
        ),
    ),
    Case(
        R.ARIA_ROLES,
        "both",
        doc(
            f'<div {P} role="navigation">n</div><div {F} role="navigator">n</div>'
            f'<div {F} role="widget">w</div>'
        ),
    ),
    Case(
        R.ARIA_ALLOWED_ATTR,
        "both",
        doc(
            f'<button {P} aria-pressed="true">b</button>'
            f'<div {F} role="link" aria-checked="true" tabindex="0">l</div>'
            f'<a {P} href="/x" aria-current="page">x</a>'
            f'<input {F} type="checkbox" aria-selected="true" aria-label="c">'
        ),
    ),
    Case(
        R.ARIA_REQUIRED_ATTR,
        "both",
        doc(
            f'<div {P} role="checkbox" aria-checked="false" tabindex="0">c</div>'
            f'<div {F} role="checkbox" tabindex="0">c</div>'
            f'<div {F} role="slider" tabindex="0">s</div>'
            f'<div {P} role="heading" aria-level="2">h</div>'
        ),
    ),
    Case(
        R.ARIA_REQUIRED_CHILDREN,
        "both",
        doc(
            f'<ul {P} role="menu"><li role="menuitem">a</li></ul>'
            f'<div {F} role="tablist"><span role="button">x</span></div>'
            f'<div {P} role="list"><div role="listitem">a</div></div>'
        ),
    ),
    Case(
        R.ARIA_REQUIRED_PARENT,
        "both",
        doc(
            f'<div role="list"><div {P} role="listitem">a</div></div>'
            f'<div {F} role="listitem">b</div>'
            f'<div {F} role="tab">t</div><div role="tablist"><div {P} role="tab">t</div></div>'
        ),
    ),
    Case(R.ARIA_HIDDEN_BODY, "absent", doc("<p>x</p>").replace("<body>", f"<body {P}>")),
    Case(
        R.ARIA_HIDDEN_BODY,
        "hidden",
        doc("<p>x</p>").replace("<body>", f'<body aria-hidden="true" {F}>'),
    ),
    Case(
        R.PRESENTATION_ROLE_CONFLICT,
        "both",
        doc(
            f'<ul {P} role="presentation"><li>a</li></ul>'
            f'<button {F} role="none" aria-label="x">b</button>'
            f'<img {F} src="a.png" alt="" aria-describedby="d"><span id="d">D</span>'
            f'<h2 {F} role="none" tabindex="0">x</h2>'
        ),
    ),
    Case(
        R.NESTED_INTERACTIVE,
        "both",
        doc(
            f'<button {P}>ok</button><button {F}><a href="/x">link</a></button>'
            f'<div {F} role="button" tabindex="0"><input aria-label="x"></div>'
        ),
    ),
    Case(
        R.META_REFRESH,
        "delayed",
        doc("", head=f'<title>t</title><meta {F} http-equiv="refresh" content="40; url=/next">'),
    ),
    Case(
        R.META_REFRESH,
        "immediate",
        doc("", head=f'<title>t</title><meta {P} http-equiv="refresh" content="0; url=/next">'),
    ),
    Case(
        R.META_VIEWPORT,
        "zoomable",
        doc(
            "",
            head=f"<title>t</title>"
            f'<meta {P} name="viewport" content="width=device-width, initial-scale=1">',
        ),
    ),
    Case(
        R.META_VIEWPORT,
        "no-zoom",
        doc(
            "",
            head=f"<title>t</title>"
            f'<meta {F} name="viewport" content="width=device-width, user-scalable=no">',
        ),
    ),
    Case(
        R.META_VIEWPORT,
        "max-scale",
        doc("", head=f'<title>t</title><meta {F} name="viewport" content="maximum-scale=1.5">'),
    ),
    Case(
        R.LIST,
        "both",
        doc(
            f"<ul {P}><li>a</li><li>b</li></ul><ol {F}><div>x</div></ol><ul {F}>text<li>a</li></ul>"
            f"<ul {P}><li>a</li><script></script><template><p>t</p></template></ul>"
        ),
    ),
    Case(
        R.LISTITEM,
        "both",
        doc(
            f'<ul><li {P}>a</li></ul><div><li {F}>b</li></div><ul role="presentation">'
            f'<li {P}>c</li></ul><div role="list"><li {P}>d</li></div>'
        ),
    ),
    Case(
        R.DEFINITION_LIST,
        "both",
        doc(
            f"<dl {P}><dt>T</dt><dd>D</dd><div><dt>T2</dt><dd>D2</dd></div></dl><dl {F}>"
            f"<p>x</p></dl><dl {F}><dd>D</dd><dt>T</dt></dl>"
        ),
    ),
    Case(
        R.DLITEM,
        "both",
        doc(f"<dl><dt {P}>T</dt><dd {P}>D</dd></dl><div><dt {F}>T</dt><dd {F}>D</dd></div>"),
    ),
    Case(
        R.TD_HEADERS_ATTR,
        "both",
        doc(
            f'<table {P}><tr><th id="h1">H</th></tr><tr><td headers="h1">1</td></tr></table>'
            f'<table {F}><tr><th>H</th></tr><tr><td headers="nope">1</td></tr></table>'
            f'<table {F}><tr><td id="c1">A</td><td headers="c1">B</td></tr></table>'
        ),
    ),
    Case(
        R.TH_HAS_DATA_CELLS,
        "pass",
        doc(
            f"<table {P}><tr><th>Name</th><th>Size</th></tr><tr><td>Tent</td><td>2</td></tr>"
            f"</table>"
        ),
    ),
    Case(
        R.SCOPE_ATTR_VALID,
        "both",
        doc(
            f'<table><tr><th {P} scope="col">A</th><th {F} scope="column">B</th></tr>'
            f'<tr><td {F} scope="row">1</td><td>2</td></tr></table>'
        ),
    ),
    Case(
        R.TABINDEX,
        "both",
        doc(
            f'<div {P} tabindex="0">a</div><div {P} tabindex="-1">b</div>'
            f'<div {F} tabindex="3">c</div>'
        ),
    ),
    Case(
        R.ACCESSKEYS,
        "both",
        doc(
            f'<a {P} href="/a" accesskey="a">A</a><a {F} href="/b" accesskey="B">B</a>'
            f'<a href="/c" accesskey="b">C</a>'
        ),
    ),
    Case(
        R.SERVER_SIDE_IMAGE_MAP,
        "ismap",
        doc(f'<a href="/map"><img {F} src="m.png" alt="Map" ismap></a><img src="n.png" alt="N">'),
    ),
    Case(
        R.MARQUEE,
        "shown",
        doc(f'<marquee {F}>News</marquee><marquee {P} style="display: none">Old</marquee>'),
    ),
    Case(
        R.BLINK, "shown", doc(f'<blink {F}>Sale</blink><blink {P} style="display:none">x</blink>')
    ),
    Case(
        R.EMPTY_HEADING,
        "both",
        doc(
            f'<h1 {P}>Title</h1><h2 {F}></h2><h3 {P} aria-label="Third">  </h3>'
            f'<div {F} role="heading" aria-level="4"><span hidden>x</span></div>'
        ),
    ),
    Case(
        R.HEADING_ORDER,
        "both",
        doc(
            f"<h1 {P}>A</h1><h2 {P}>B</h2><h4 {F}>C</h4><h2 {P}>D</h2>"
            f'<div role="heading" aria-level="5" {F}>E</div>'
        ),
    ),
    Case(R.PAGE_HAS_HEADING_ONE, "present", doc("<h1>Title</h1>", html=f'lang="en" {P}')),
    Case(R.PAGE_HAS_HEADING_ONE, "missing", doc("<h2>Title</h2>", html=f'lang="en" {F}')),
    Case(R.PAGE_HAS_HEADING_ONE, "hidden", doc("<h1 hidden>Title</h1>", html=f'lang="en" {F}')),
    Case(R.LANDMARK_ONE_MAIN, "present", doc("<main><p>x</p></main>", html=f'lang="en" {P}')),
    Case(
        R.LANDMARK_ONE_MAIN, "role", doc('<div role="main"><p>x</p></div>', html=f'lang="en" {P}')
    ),
    Case(R.LANDMARK_ONE_MAIN, "missing", doc("<div><p>x</p></div>", html=f'lang="en" {F}')),
    # A closed dialog is not drawn (the user-agent style sheet), so no modal is open: the page
    # fails (UNDECIDED has the dialog that may be drawn).
    Case(
        R.LANDMARK_ONE_MAIN,
        "closed-dialog",
        doc("<dialog><p>Sign up</p></dialog><div><p>x</p></div>", html=f'lang="en" {F}'),
    ),
    Case(
        R.LINK_NAME,
        "closed-dialog-and-popover",
        doc(
            '<dialog><a href="/a"></a></dialog><div popover><a href="/b"></a></div>'
            f'<a {F} href="/c"></a>'
        ),
    ),
    Case(
        R.AUTOCOMPLETE_VALID,
        "both",
        doc(
            f'<input {P} autocomplete="email" aria-label="e">'
            f'<input {P} autocomplete="shipping tel" aria-label="t">'
            f'<input {F} autocomplete="mail" aria-label="m">'
            f'<input {F} autocomplete="work name" aria-label="n">'
            f'<input {P} autocomplete="off" aria-label="o">'
            f'<input autocomplete="bogus" disabled aria-label="d">'
        ),
    ),
]

# Documents where axe-core's verdict needs what the markup does not say (layout, the cascade), so
# a static rule must leave the element undecided: no outcome at all. The agreement harness does
# not run these (axe-core is definite on them, by what it sees drawn).
UNDECIDED = [
    # A dialog marked aria-hidden is still drawn unless a style sheet hides it (axe-core's
    # isVisibleOnScreen reads what is drawn), and axe-core passes a page with a modal open.
    Case(
        R.LANDMARK_ONE_MAIN,
        "hidden-dialog",
        doc('<div role="dialog" aria-hidden="true"><p>Share</p></div><div><p>x</p></div>'),
    ),
    Case(
        R.PAGE_HAS_HEADING_ONE,
        "open-dialog",
        doc("<dialog open><p>Cookies?</p></dialog><h2>News</h2>"),
    ),
]
