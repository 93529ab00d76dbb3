"""Hand-made tricky pages for the parity tests: (id, bytes, content type or None)."""

from __future__ import annotations

_CASES: dict[str, str | bytes] = {
    "full": (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title> A &amp; B </title>'
        '<meta name="description" content="D &copy 2024"><meta name=robots content="noindex">'
        '<meta name="googlebot" content="nofollow"><meta name=viewport content="width=device-width">'
        '<meta http-equiv="refresh" content="5; url=/next"><meta property="og:title" content="OG">'
        '<meta name="twitter:card" content="summary"><link rel="canonical" href="/canon#x">'
        '<link rel="alternate" hreflang="de" href="/de/"><link rel=stylesheet href="http://x.test/s.css">'
        '<script src="http://x.test/a.js" integrity="sha384-abc" crossorigin="anonymous"></script>'
        '<script type="application/ld+json">{"@type": ["Article", "NewsArticle"], "a": {"@type": "Person"}}</script>'
        '<script type="application/ld+json">{broken</script></head><body>'
        '<h1>Hello <b>world</b></h1><p>Text with <a href="/a" rel="NoFollow UGC">a link</a>, '
        '<a href="mailto:x@y">mail</a> <a href="#top">top</a> <a href="javascript:void(0)">js</a> '
        '<a href="tel:1">tel</a><a href="https://other.test/x?y=1#f" rel=sponsored><img src="i.png" alt=""></a>'
        '<img src="http://x.test/m.png" width=10 height="20"><img alt="no src"><img src="/nalt.png">'
        '<form action="/search"><input name=q></form><form></form><iframe src="http://x.test/f"></iframe>'
        '<svg><title>svg title</title><a href="/svg-link">svg</a><text>svg text</text></svg>'
        "<h2>Sub</h2><h4>Skip</h4></p></body></html>"
    ),
    "fragment": "<p>Just a <em>fragment</em> without head, body or title",
    "empty": "",
    "head_only": "<html><head><title>T</title><meta name=description content=x></head></html>",
    # Generator tags: in head and body, name spelled loosely, no content, empty, inert, foreign.
    "generators": (
        "<head><meta name=generator content=' WordPress 6.4.2 '><meta name=GENERATOR>"
        "<meta name=' generator ' content=''><meta content='Site Kit 1.1' name=generator></head>"
        "<body><p><meta name=generator content='Body &amp; 2'><template><meta name=generator "
        "content=inert></template><svg><meta name=generator content=svg></svg>"
        "<math><meta name=generator content=math></math>"
    ),
    # References in a title that starts after the 1,024-byte encoding prescan: fed byte by byte,
    # each reaches the held-back end-tag tail and must wait there for the rest of its name.
    "title_entity_after_prescan": (
        "<!--"
        + "p" * 1100
        + "--><title>"
        + "x" * 30
        + " &amp; &eacute &#x41; "
        + "y" * 30
        + "</title>"
    ),
    "duplicates": (
        "<title>One</title><title>Two</title><meta name=description content=a>"
        "<meta name=description content=b><link rel=canonical href=/a><link rel=canonical href=/b>"
        "<base href='/base/'><base href='/other/'><a href='rel'>r</a>"
    ),
    "unclosed_misnested": (
        "<div><p>one<b>bold<i>both</b>italic</i><p>two<a href=/1>first<a href=/2>second</a>"
        "<div><h2>Open heading<div>inside</div></div>after<p><a href=/3>para link</p>continues"
        "<table><tr><td><a href=/4>cell</td><td>next cell</td></tr></table>tail"
    ),
    # Image links: the first image with an alt names the link (facts.Link.image_alt), an empty
    # alt included; an image without one, an image in svg or template, or one after the link
    # closed does not.
    "image_links": (
        "<a href=/i1><img src=a.png alt=' First  alt '><img alt=second></a>"
        "<a href=/i2><img src=no-alt.png><img alt=''></a><a href=/i3>text <img alt=both></a>"
        "<a href=/i4><svg><image href=s.png></image></svg><template><img alt=inert></template></a>"
        "<a href=/i5><span><b><img alt='deep &amp; decoded'></b></span></a><img alt=outside>"
        "<a href=/i6><img alt=one><a href=/i7><img alt=two></a><a href=#f><img alt=frag></a>"
        "<table><tr><td><a href=/i8>cell<img alt=in-cell></td><td><img alt=next></td></tr></table>"
        "<a href=/i9><svg><img alt=breakout></svg></a>"
    ),
    "nested_anchors_blocks": "<a href=/x>outer<div>block <a href=/y>inner</a> rest</div>end</a>",
    "title_in_body": "<html><head></head><body><p>text<title>Body title</title> more</p></body>",
    "comments": (
        "<!-- a --><p>x<!-->y<!--->z<!-- -- > still --><!--x--!>w<!-- <a href=/no>no</a> -->"
        "<?php echo 1 ?>v</ x>u</>t<!bogus>s<!---->r"
    ),
    "cdata": "<p>a<![CDATA[ <a href=/c>c</a> ]]>b<svg><![CDATA[ x<a> ]]></svg>c</p>",
    "entities": (
        "<p title='&amp;x&notit;'>&lt;tag&gt; &amp &ampx &notit; &notin; &#65;&#x42;&#0;&#128;"
        "&#xD800;&#99999999; &unknown; &Aacute&AElig</p><a href='/q?a=1&copy=2&amp;b=&lt'>e</a>"
        "<img src=x alt='&copy=&copy;'>"
    ),
    "template": (
        "<template><title>T</title><a href=/t>t</a><p>hidden text</p></template>"
        "<p>shown</p><template><template><img src=/x></template><h1>h</h1></template><h2>after</h2>"
    ),
    "noscript": (
        "<head><noscript><link rel=canonical href=/ns></noscript></head>"
        "<body><noscript><img src=/ns.png><a href=/ns>ns</a>no script text</noscript>visible</body>"
    ),
    "broken_quoting": (
        '<a href="/a"" class="x">one</a><a href=/b title=\'t>two</a>three\'>'
        '<img src=/c.png alt="a "b">d<a href="/e>f</a>g">h</a><meta name=description content="x>'
    ),
    "uppercase": (
        '<HTML LANG=FR><HEAD><TITLE>Up</TITLE><META NAME="Description" CONTENT="C">'
        '<LINK REL="Canonical" HREF="/C"></HEAD><BODY><H1>Big</H1><A HREF="/X" REL="NOFOLLOW">X</A>'
        '<IMG SRC="/i.png" ALT="A"><SCRIPT>var a = "<p>";</SCRIPT><StYlE>p{}</sTyLe>tail</BODY>'
    ),
    "duplicate_heads": (
        "<html><head><title>A</title></head><head><title>B</title><meta name=robots content=x>"
        "</head><body>text</body><head><link rel=canonical href=/late></head></html>"
    ),
    "after_html": "<html><body><p>in</p></body></html><p>after</p><a href=/after>late</a><title>L</title>",
    "nul_bytes": "<p>a\0b</p><title>t\0t</title><a href='/x\0y'>l\0k</a><img alt='\0'><h1>h\0</h1>",
    "script_escapes": (
        "<script><!-- document.write('<script>x</script>'); --></script>after1"
        "<script><!--></script>after2<script>a</script  >after3<script>x</scriptx></script>after4"
        '<script type=application/ld+json>{"@type": "Thing"}</SCRIPT >after5'
    ),
    "raw_text_elements": (
        "<textarea><a href=/ta>no</a></textarea><xmp><b>x</b></xmp><iframe><a href=/if>i</a></iframe>"
        "<noembed><img src=/ne></noembed><noframes><img src=/nf></noframes><style><a href=/s></style>end"
    ),
    "plaintext": "<p>before</p><plaintext><a href=/p>not a link</a></plaintext>",
    "duplicate_attributes": '<a href="/first" href="/second" REL=nofollow rel=ugc>d</a><img src=1 src=2 alt=a alt=b>',
    "headings_implied": (
        "<h1>one<h2>two</h2><h3>three<p>para<h4>four</h4><h5><span>five<h6>six</h6>x</span></h5>"
        "<div><h2>closed by div</div>outside<section><h3>sec</section>after"
    ),
    "foreign_breakout": (
        "<svg><g><p>breaks out</p></g></svg><math><mi><a href=/mi>mi</a></mi></math>"
        "<svg><foreignObject><p>fo text</p><style>x{}</style></foreignObject><title>st</title></svg>"
        "<svg><font color=red>f</font></svg><svg/><p>after self-closing svg</p>"
    ),
    "mixed_content_base": (
        "<base href='http://insecure.test/'><img src=rel.png><script src=//cdn.test/a.js></script>"
        "<video src=https://ok.test/v></video><object data=obj></object><embed src=e>"
    ),
    "whitespace_words": "<p>  many\n\n spaces\t\there&nbsp;and&#160;nbsp </p><p>joined</p><p>words</p>",
    "tables_foster": "<table>foster <a href=/f>parented</a><tr><td>cell</td></tr>text</table>after",
    "unclosed_at_eof": "<p>text<a href=/x>unclosed anchor<h1>heading",
    "eof_in_tag": '<p>kept<a href="/x" title="unterminated',
    "eof_in_comment": "<p>kept<!-- never closed <a href=/x>",
    "eof_in_title": "<title>unterminated title &amp; more",
    "jsonld_nested": (
        '<script type="application/ld+json">{"@graph": [{"@type": "A", "x": [[{"@type": "B"}]]}]}</script>'
        '<script type="application/ld+json; charset=utf-8">[{"@type": "C"}]</script>'
        '<script type="text/plain">{"@type": "No"}</script>'
    ),
    "lang_merging": "<html><head></head><html lang=de><body><html lang=fr>x</body>",
    "select_option": "<select><option>one<option>two</select>after",
    "pre_listing": "<p>word</p><pre>\nfirst</pre><listing>\nlisted</listing>",
    "charset_late_meta": (
        "<html><head>"
        + "<!-- padding -->" * 100
        + '<meta charset="utf-8"><title>caf\u00e9 \u2019</title>'
        "</head><body>na\u00efve</body></html>"
    ).encode("utf-8"),
    "charset_prescan_latin1": '<meta charset="iso-8859-1"><title>caf\xe9</title>'.encode("latin-1"),
    "charset_bom_utf8": b"\xef\xbb\xbf<title>caf\xc3\xa9</title><p>\xe2\x80\x99</p>",
    "charset_bom_utf16": "\ufeff<title>utf16 \u00e9</title><p>x</p>".encode("utf-16-le"),
    "charset_default": b"<title>caf\xe9 \x80 \x81</title>",
    "charset_http_equiv": (
        b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
        b"<title>\xf0\xf2</title>"
    ),
    "invalid_utf8": b"<meta charset=utf-8><p>bad \xff\xfe bytes \xe2\x82 cut \xf0\x9f\x98</p>",
    "multibyte_split": ("<meta charset=utf-8><p>" + "\u00e9\u4e2d\U0001f600" * 50 + "</p>").encode(
        "utf-8"
    ),
}
# Fragment targets: ids on any element (boring ones too, any attribute case, after a slash),
# <a name> in HTML only, ids in svg/math, nothing inside <template>, end-tag ids ignored,
# duplicates, empty ids, references in values, and same-document links.
_CASES["fragment_targets"] = (
    '<html id=root><body><div ID="Intro">x</div><span/id=slash>y</span><p title="id=fake">z</p>'
    '<section id="a&amp;b" id=second></section><i id="">empty</i></div id=endtag>'
    '<a name=named href="#Intro">to intro</a><a name="" id="both">b</a><a href="#missing">m</a>'
    '<a href="#intro">case</a><a href="#">top</a><a href=" #spaced">sp</a><a href="#a%26b">pc</a>'
    "<svg id=pic><a name=svgname id=svgid></a><foreignObject><a name=fo>fo</a></foreignObject>"
    "</svg><math id=m><mi id=mi>x</mi></math><template id=tpl><div id=inert>t</div></template>"
    "<h2 id=sec-2>Heading <span id=in-heading>x</span></h2><table><tr><td id=cell>c</td></tr>"
    "</table><div id=r\u00e9sum\u00e9>u</div><div id=Intro>dup</div>"
)
# Every reference kind: a/area, link with rel, img src/srcset, picture sources, script, iframe,
# video/audio/source with poster, embed, object, meta refresh, form action; empty values, repeats,
# srcset commas, and references inside template and svg (not reported).
_CASES["references"] = (
    '<head><meta http-equiv="refresh" content="30; URL=\'/refreshed\'">'
    '<link rel="Stylesheet  preload" href="/s.css"><link rel=icon href="/favicon.ico">'
    '<link rel=next href="page2"><link rel=prev href=" ">'
    '<script src="/app.js"></script><script src=""></script><script src=/app.js></script>'
    "</head><body>"
    '<a href="/a">a</a><a href="/a">again</a><a href="mailto:x@y">m</a><a href="#f">f</a>'
    '<map name=m><area href="/area" alt=x><area nohref alt=y></map>'
    '<img src="/i.png" srcset="/i-1x.png 1x, /i-2x.png 2x,/i,3x.png 3x">'
    '<picture><source srcset="/p.webp 1x, /p2.webp 2x" type=image/webp><img src=/p.png></picture>'
    '<iframe src="/frame.html"></iframe><frame src="/old-frame.html">'
    '<video src="/v.mp4" poster="/poster.jpg"><source src="/v.webm"><track src=/t.vtt></video>'
    '<audio src="/a.mp3"></audio><embed src="/e.swf"><object data="/o.pdf"></object>'
    '<form action="/submit"><input name=q></form><form action=""></form>'
    '<template><img src="/inert.png"></template><svg><image href="/svg.png"/>'
    '<a href="/svg-a">s</a></svg></body>'
)
_CASES["frameset"] = (
    '<html><head><title>Frames</title></head><frameset cols="50%,50%">'
    '<frame src="/left.html"><frame src="/right.html"></frameset></html>'
)
# Link and heading texts far beyond their caps (ANCHOR_TEXT_CAP, TEXT_CAP): compacted while they
# grow, and cut at the cap once they are closed.
_LONG = " ".join(f"w{i} <b>&amp;</b>" for i in range(1500))
_CASES["long_texts"] = (
    f'<title>t</title><a href="/long">{_LONG}</a><p>after</p><h2>{_LONG}</h2>'
    f'<a href="/next">next</a><h3><a href="/in">{_LONG}</a> tail</h3>'
)
CONTENT_TYPE_CASES: dict[str, tuple[bytes, str]] = {
    "transport_overrides_meta": (
        '<meta charset="iso-8859-1"><title>caf\u00e9</title>'.encode("utf-8"),
        "text/html; charset=UTF-8",
    ),
    "transport_unknown_label": (b"<title>x\xe9</title>", "text/html; charset=bogus"),
}


def cases() -> list[tuple[str, bytes, str | None]]:
    out: list[tuple[str, bytes, str | None]] = []
    for name, page in _CASES.items():
        out.append((name, page if isinstance(page, bytes) else page.encode("utf-8"), None))
    for name, (data, content_type) in CONTENT_TYPE_CASES.items():
        out.append((name, data, content_type))
    return out
