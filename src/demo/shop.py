"""The demo site: Ridgeline Outfitters, a small outdoor-gear shop with problems planted on purpose.

`siteaudit demo` serves it on 127.0.0.1 and audits it, so a newcomer's first report is about a
plausible site (three product categories, a journal, the usual service pages) rather than a
directory listing.

Theory of operation
-------------------
* Every page is a `ShopPage`: the shop's chrome (a nav of the three categories, the journal and
  the cart; a footer of the service pages) around its own main text. Its defaults make a page that
  no per-page rule reports except the shop-wide header faults below; a page changes exactly the
  fields of the defect it plants, and says so in `plants`.
* `plants` lists the issue types an audit reports *on that page's URL*, so `PLANTED` (every type,
  and the paths it lands on) is read from the same data that serves the site. Cross-page issues
  land on the page that can fix them: a broken link on the linking page, a redirect chain on the
  page that links its head, a sitemap fault on the listed URL (docs/issues.md).
* Shop-wide faults sit in `SHOP_HEADERS` and the home page: no Content-Security-Policy, no
  X-Frame-Options, an `X-Powered-By` that names a PHP version, a jQuery that retire.js knows as
  vulnerable. They are what the security grade and the exposure checks report for the site.
* Links to "another site" use `localhost` at the shop's own port (another host to the audit's
  same-site rule, resolved by the hosts file, never by DNS), so the external-link checks have a
  partner that is broken and one that redirects, without leaving the machine.
* Depth: every page's nav links `/journal`, whose "older posts" run `/journal/page/2` ...
  `/journal/page/5`, the fifth click (deep-page). A page the sitemap lists may be given no click
  depth (the crawl seeds it before any link reaches it), so neither the journal's index nor its
  archive pages are listed.
* Nothing here reads a file or the clock: the routes are built from data when the server starts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from html import escape
from types import MappingProxyType
from urllib.parse import urljoin

from audit.catalogue import IssueType
from demo.server import Reply, Route, SiteRequest

__all__ = [
    "PAGES",
    "PLANTED",
    "SHOP_HEADERS",
    "SHOP_WIDE",
    "ShopPage",
    "head_tags",
    "open_graph_tags",
    "routes",
]

T = IssueType
HTML_TYPE = "text/html; charset=utf-8"

# What every page of the shop answers with: a content type, nosniff and a referrer policy, but no
# Content-Security-Policy or X-Frame-Options (csp-missing, frame-protection-missing on every page;
# the grade's CSP and X-Frame-Options tests), and a PHP version in X-Powered-By.
SHOP_HEADERS: Mapping[str, str] = MappingProxyType(
    {
        "content-type": HTML_TYPE,
        "x-content-type-options": "nosniff",
        "referrer-policy": "strict-origin-when-cross-origin",
        "x-powered-by": "PHP/7.4.3",
    }
)

# Shared by every product page: enough ordinary words that no page is thin unless it means to be.
_SERVICE = (
    "Every Ridgeline product is tested on our own weekend trips before it reaches the shop, and "
    "we write each description after using the gear in wind, rain and the occasional heat wave. "
    "Orders placed before two in the afternoon leave the warehouse the same day, shipping is free "
    "above fifty euros, and you can return anything unused within thirty days. If something "
    "breaks on the trail, our repair bench fixes seams, zips and buckles for the life of the "
    "product, and we will tell you honestly when a repair costs more than it is worth. We are a "
    "team of eleven, most of us former mountain guides, and we answer the phone ourselves: ask "
    "us which tent suits a windy coast, which pack fits a short back or whether a boot will "
    "take a crampon, and you will get an answer from someone who has carried it. Our prices "
    "include taxes, and we donate one percent of every sale to the volunteers who keep the "
    "mountain paths open."
)

_NAV = (
    '<header><nav aria-label="Shop"><a href="/">Ridgeline Outfitters</a> · '
    '<a href="/tents">Tents</a> · <a href="/backpacks">Backpacks</a> · '
    '<a href="/boots">Boots</a> · <a href="/journal">Journal</a> · '
    '<a href="/cart">Cart</a> · <a href="/account">My account</a></nav></header>'
)
_FOOTER = (
    '<footer><p><a href="/about">About us</a> · <a href="/shipping">Shipping</a> · '
    '<a href="/returns">Returns</a> · <a href="/faq">FAQ</a> · <a href="/privacy">Privacy</a>'
    "</p><p>Ridgeline Outfitters, gear for the trail since 2009.</p></footer>"
)


@dataclass(frozen=True, slots=True)
class ShopPage:
    """One HTML page of the shop. `None` leaves an element out; "{origin}" in `body`, `head` or
    `canonical` is the shop's origin as the client addressed it, "{partner}" another site's."""

    path: str
    title: str | None
    description: str | None
    h1: str | None
    body: str  # the main text after the H1
    plants: tuple[IssueType, ...] = ()  # the issue types an audit reports on this URL
    head: str = ""
    lang: str | None = "en"
    viewport: bool = True
    canonical: str | None = None
    service: bool = True  # the shared service paragraph
    in_sitemap: bool = True
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)

    def render(self, origin: str) -> bytes:
        return _document(self, origin).encode()

    def __call__(self, request: SiteRequest) -> Reply:
        origin = f"http://{request.headers.get('host', '127.0.0.1')}"
        return Reply(self.status, self.render(origin), {**SHOP_HEADERS, **self.headers})


def _substitute(text: str, origin: str) -> str:
    partner = origin.replace("127.0.0.1", "localhost", 1)
    return text.replace("{origin}", origin).replace("{partner}", partner)


def head_tags(
    title: str | None, description: str | None, viewport: bool, canonical: str | None
) -> list[str]:
    """The head's SEO elements in the order the shop and tests/badseo/pages.py write them; `None`
    (or `viewport=False`) leaves one out, which is how a page plants its absence."""
    parts = ['<meta charset="utf-8">']
    if title is not None:
        parts.append(f"<title>{escape(title)}</title>")
    if description is not None:
        parts.append(f'<meta name="description" content="{escape(description)}">')
    if viewport:
        parts.append('<meta name="viewport" content="width=device-width, initial-scale=1">')
    if canonical is not None:
        parts.append(f'<link rel="canonical" href="{escape(canonical)}">')
    return parts


def open_graph_tags(title: str, description: str, url: str, image: str) -> list[str]:
    """The Open Graph tags a page shares itself with: ogp.me's basic metadata (title, type,
    image, URL, all absolute) and its description, as the shop and tests/badseo/pages.py write
    them (audit.rules_social)."""
    tags = {
        "og:title": title,
        "og:type": "website",
        "og:image": image,
        "og:url": url,
        "og:description": description,
    }
    return [f'<meta property="{key}" content="{escape(value)}">' for key, value in tags.items()]


def _head(page: ShopPage, origin: str) -> str:
    canonical = None if page.canonical is None else _substitute(page.canonical, origin)
    parts = head_tags(page.title, page.description, page.viewport, canonical)
    # Shared as its canonical (og:url agrees with it), with the shop's photo.
    shared_as = urljoin(f"{origin}{page.path}", canonical or page.path)
    title = page.title or "Ridgeline Outfitters"
    description = page.description or "Outdoor gear tested on the trail."
    parts += open_graph_tags(title, description, shared_as, f"{origin}/img/home.jpg")
    parts.append('<link rel="stylesheet" href="/css/shop.css">')
    parts.append(_substitute(page.head, origin))
    return "".join(parts)


def _document(page: ShopPage, origin: str) -> str:
    lang = "" if page.lang is None else f' lang="{page.lang}"'
    h1 = "" if page.h1 is None else f"<h1>{escape(page.h1)}</h1>"
    service = f"<p>{_SERVICE}</p>" if page.service else ""
    main = f"<main>{h1}{_substitute(page.body, origin)}{service}</main>"
    return (
        f"<!doctype html><html{lang}><head>{_head(page, origin)}</head>"
        f"<body>{_NAV}{main}{_FOOTER}</body></html>"
    )


def _img(src: str, alt: str | None = "", size: bool = True) -> str:
    alt_attr = "" if alt is None else f' alt="{escape(alt)}"'
    size_attr = ' width="640" height="420"' if size else ""
    return f'<img src="{src}"{alt_attr}{size_attr}>'


@dataclass(frozen=True, slots=True)
class _Product:
    path: str
    name: str
    price: str
    blurb: str  # two or three sentences only this product has

    def body(self, extra: str = "") -> str:
        image = f"/img{self.path}.jpg"
        return (
            f"{_img(image, f'The {self.name} on the trail')}"
            f"<p>{escape(self.blurb)}</p><p>Price: {self.price}. In stock.</p>{extra}"
            '<p><a href="/cart">Add to cart</a></p>'
        )


def _product(p: _Product, **changes: object) -> ShopPage:
    """A clean product page for `p`; `changes` replace its fields (title, body, plants, ...)."""
    fields: dict[str, object] = {
        "path": p.path,
        "title": f"{p.name} | Ridgeline Outfitters",
        "description": f"{p.name} from Ridgeline Outfitters: {p.price}, free shipping over €50 "
        "and repairs for life.",
        "h1": p.name,
        "body": p.body(),
    }
    fields.update(changes)
    return ShopPage(**fields)  # type: ignore[arg-type]


_TENTS = (
    _Product(
        "/tents/summit-2",
        "Summit 2 tent",
        "€349",
        "A two-person mountain tent that pitches fly first, so the inner stays dry in a storm. "
        "Two doors, two porches and a ridge vent that keeps condensation off your sleeping bag.",
    ),
    _Product(
        "/tents/ridge-3",
        "Ridge 3 tent",
        "€429",
        "Three people, one long ridge pole and a porch big enough to cook under when the rain "
        "sets in. It packs into a bag the size of a loaf of bread.",
    ),
    _Product(
        "/tents/trail-1",
        "Trail 1 tent",
        "€259",
        "Our lightest shelter: a single-wall tent that uses your trekking poles instead of its own "
        "and weighs less than a litre of water.",
    ),
    _Product(
        "/tents/family-6",
        "Family 6 tent",
        "€599",
        "Standing room for six, two bedrooms and a living area with big mesh windows for the "
        "summer campsites where the kids want to see the stars.",
    ),
    _Product(
        "/tents/basecamp-4",
        "Basecamp 4 tent",
        "€519",
        "A four-season dome for expedition base camps: snow valances, a vestibule for boots and "
        "guy lines rated for wind that flattens lesser tents.",
    ),
)
_PACKS = (
    _Product(
        "/backpacks/trail-30",
        "Trail 30 backpack",
        "€119",
        "Thirty litres, a ventilated back panel and hip-belt pockets you can reach while walking. "
        "The day hiker's pack we carry ourselves.",
    ),
    _Product(
        "/backpacks/alpine-45",
        "Alpine 45 backpack",
        "€189",
        "A climbing pack that strips down to a bare sack for the summit push: removable lid, "
        "frame sheet and hip belt, and two tool loops for axes.",
    ),
    _Product(
        "/backpacks/daypack-20",
        "Daypack 20",
        "€69",
        "Twenty litres for the commute and the short walk, with a laptop sleeve that doubles as a "
        "hydration pocket when the weekend comes.",
    ),
    _Product(
        "/backpacks/summit-55",
        "Summit 55 backpack",
        "€239",
        "A multi-day pack with an adjustable back length, a sleeping-bag compartment and a lid "
        "that turns into a small day bag for the side trips.",
    ),
)
_BOOTS = (
    _Product(
        "/boots/granite",
        "Granite boots",
        "€189",
        "Full-grain leather, a stiff sole for scree and crampon-compatible heels. Break them in "
        "over two weeks and they last a decade.",
    ),
    _Product(
        "/boots/scree",
        "Scree boots",
        "€149",
        "A light mid boot with a waterproof membrane and a lugged sole that grips wet rock and "
        "packed snow alike.",
    ),
    _Product(
        "/boots/tundra",
        "Tundra boots",
        "€229",
        "Insulated winter boots with a removable felt liner that dries overnight by the stove, "
        "comfortable down to minus thirty.",
    ),
)


def _listing(intro: str, products: tuple[_Product, ...]) -> str:
    items = "".join(
        f'<li><a href="{p.path}">{escape(p.name)}</a>, {p.price}: {escape(p.blurb.split(".")[0])}.'
        "</li>"
        for p in products
    )
    return f"<p>{escape(intro)}</p><ul>{items}</ul>"


def _category(path: str, name: str, intro: str, products: tuple[_Product, ...]) -> ShopPage:
    return ShopPage(
        path,
        f"{name} | Ridgeline Outfitters",
        f"{name} from Ridgeline Outfitters, chosen and tested on our own trips. {intro[:60]}",
        name,
        _listing(intro, products) + _img(f"/img{path}.jpg", f"{name} at a campsite"),
    )


_POSTS = (
    (
        "/journal/pitching-in-the-wind",
        "Pitching a tent in the wind",
        "Pitch with the narrow end into the wind, peg the windward corners first and keep the fly "
        "bagged until the poles are in. Then tension every guy line evenly, and walk around the "
        "tent once more before dark.",
    ),
    (
        "/journal/packing-list-three-days",
        "A packing list for three days",
        "Three days on the trail need less than most people carry. Shelter, sleep system, stove, "
        "two litres of water capacity, a warm layer and a shell; food you like eating cold.",
    ),
    (
        "/journal/waterproofing-boots",
        "Waterproofing leather boots",
        "Clean them, let them dry away from the fire, then work the wax in with your fingers. Do "
        "it again after every wet trip and the leather will outlive the soles.",
    ),
    (
        "/journal/trail-partners",
        "Huts and map shops we recommend",
        "We do not walk alone: these are the huts that feed us and the map shops that know the "
        "paths better than any app.",
    ),
    (
        "/journal/draft-gear-review",
        "Draft: the gear we reviewed this spring",
        "Notes for a review that is not finished yet: three stoves, two water filters and a "
        "headlamp that survived a week in a wet pocket.",
    ),
)
# The archive's pages, each listing older posts: every page's nav links `/journal` (depth 1), so
# page 2 is at depth 2 and page 5 at depth 5, the first deep page.
_ARCHIVE = tuple(f"/journal/page/{n}" for n in range(2, 6))
_ARCHIVE_TOPICS = (
    "ridge walks in the autumn fog",
    "cooking on a single burner",
    "river crossings and when to turn back",
    "our first night out, in 2009",
)


def _post(path: str, title: str, lead: str, **changes: object) -> ShopPage:
    fields: dict[str, object] = {
        "path": path,
        "title": f"{title} | Ridgeline Journal",
        "description": f"{title}: notes from the Ridgeline Outfitters journal, with the gear we "
        "used and what we learned.",
        "h1": title,
        "body": f"<p>{escape(lead)}</p>",
    }
    fields.update(changes)
    return ShopPage(**fields)  # type: ignore[arg-type]


def _archive_page(index: int, path: str) -> ShopPage:
    number = index + 2
    older = _ARCHIVE[index + 1] if index + 1 < len(_ARCHIVE) else None
    more = f'<p><a href="{older}">Older posts</a></p>' if older else "<p>The first posts.</p>"
    topic = _ARCHIVE_TOPICS[index]
    return ShopPage(
        path,
        f"Journal archive, page {number} | Ridgeline Outfitters",
        f"Older stories from the Ridgeline journal, page {number}: {topic} and more.",
        f"Journal archive, page {number}",
        f"<p>Older stories, about {escape(topic)}, from the years before the shop had a "
        f"website worth the name.</p>{more}",
        plants=(T.DEEP_PAGE,) if number == len(_ARCHIVE) + 1 else (),
        in_sitemap=False,  # a page seeded from the sitemap has no click depth
    )


def _pages() -> tuple[ShopPage, ...]:
    summit, ridge, trail, family, basecamp = _TENTS
    trail30, alpine, daypack, summit55 = _PACKS
    granite, scree, tundra = _BOOTS
    posts = {path: (title, lead) for path, title, lead in _POSTS}
    return (
        ShopPage(
            "/",
            "Ridgeline Outfitters: tents, packs and boots for the trail",
            "Outdoor gear tested on our own trips: tents, backpacks and boots, shipped the same "
            "day and repaired for life by Ridgeline Outfitters.",
            "Gear for the trail",
            _img("/img/home.jpg", "A tent on a ridge at dawn")
            + "<p>We are a small shop run by people who spend their weekends outside. Browse the "
            '<a href="/tents">tents</a>, <a href="/backpacks">backpacks</a> and '
            '<a href="/boots">boots</a>, or read the <a href="/journal">journal</a>.</p>'
            '<p>This week: <a href="/sale">the summer sale</a> and '
            '<a href="/gift-guide">our gift guide</a>.</p>'
            '<script src="/js/jquery-1.8.1.min.js"></script>',
            plants=(
                T.LINK_TO_REDIRECT,  # to /sale, the head of a redirect chain
                # The security grade of the start URL (docs/security.md): plain http, no CSP,
                # no X-Frame-Options.
                T.SECURITY_CSP,
                T.SECURITY_HSTS,
                T.SECURITY_REDIRECTION,
                T.SECURITY_FRAME_OPTIONS,
                T.EXPOSURE_VULNERABLE_JS_LIBRARY,
                T.EXPOSURE_VERSION_DISCLOSED,
            ),
        ),
        _category(
            "/tents",
            "Tents",
            "Shelters for one to six people, from ultralight to four-season.",
            (summit, ridge, trail, family),  # the Basecamp 4 is left out: an orphan
        ),
        _product(summit, title=None, plants=(T.MISSING_TITLE, T.A11Y_DOCUMENT_TITLE)),
        _product(
            ridge,
            title="Ridge 3 tent: the three-person backpacking tent with a porch for cooking "
            "in the rain | Ridgeline Outfitters",
            plants=(T.TITLE_TOO_LONG,),
        ),
        _product(trail),
        _product(
            family,
            body=family.body(
                "<p>Gallery: "
                + "".join(_img(f"/img/tents/family-6-{n}.jpg", None, size=False) for n in (1, 2, 3))
                + "</p>"
            ),
            plants=(T.IMAGES_MISSING_ALT, T.IMAGES_MISSING_DIMENSIONS, T.A11Y_IMAGE_ALT),
        ),
        _product(basecamp, plants=(T.ORPHAN_PAGE,)),
        _category(
            "/backpacks",
            "Backpacks",
            "Day packs, climbing packs and packs for a week away.",
            (*_PACKS, _Product("/backpacks/trail-30-green", "Trail 30 (green)", "€119", ".")),
        ),
        _product(
            trail30, plants=(T.DUPLICATE_CONTENT, T.DUPLICATE_TITLE, T.DUPLICATE_META_DESCRIPTION)
        ),
        # The green variant is the same page under another URL, with no canonical to say so.
        _product(
            trail30,
            path="/backpacks/trail-30-green",
            plants=(T.DUPLICATE_CONTENT, T.DUPLICATE_TITLE, T.DUPLICATE_META_DESCRIPTION),
        ),
        _product(
            alpine,
            head='<script type="application/ld+json">{"@context": "https://schema.org", '
            '"@type": "Product", "name": "Alpine 45 backpack", </script>',
            plants=(T.INVALID_STRUCTURED_DATA,),
        ),
        _product(
            daypack,
            canonical="{origin}/backpacks/daypack",
            plants=(T.CANONICALIZED_PAGE, T.CANONICAL_TO_BROKEN),
        ),
        _product(
            summit55,
            body=summit55.body("<h1>Summit 55: in the box</h1><p>Rain cover, repair kit.</p>"),
            plants=(T.MULTIPLE_H1,),
        ),
        _category("/boots", "Boots", "Boots for scree, bog and snow.", _BOOTS),
        _product(granite, description=None, plants=(T.MISSING_META_DESCRIPTION,)),
        _product(scree, description="Scree boots.", plants=(T.META_DESCRIPTION_TOO_SHORT,)),
        _product(tundra, h1=None, plants=(T.MISSING_H1, T.A11Y_PAGE_HAS_HEADING_ONE)),
        ShopPage(
            "/boots/size-guide",
            "Boot size guide | Ridgeline Outfitters",
            "How to measure your feet for hiking boots, and how our sizes compare with European, "
            "British and American sizes.",
            "Boot size guide",
            "<p>Measure both feet in the evening, when they are largest, standing on a sheet of "
            "paper. Add a thumb's width for the toes and pick the larger foot.</p>"
            '<p>Back to the <a href="/boots">boots</a>.</p>',
            lang=None,
            viewport=False,
            plants=(T.MISSING_HTML_LANG, T.MISSING_VIEWPORT, T.A11Y_HTML_HAS_LANG),
        ),
        ShopPage(
            "/journal",
            "The Ridgeline Journal | Ridgeline Outfitters",
            "Stories, packing lists and gear care from the people behind Ridgeline Outfitters.",
            "The Ridgeline Journal",
            "<ul>"
            + "".join(f'<li><a href="{path}">{escape(title)}</a></li>' for path, title, _ in _POSTS)
            + '</ul><p><a href="/journal/page/2">Older posts</a></p>'
            '<p>Looking for sizes? See the <a href="/boots/size-guide">boot size guide</a>.</p>',
            in_sitemap=False,  # the archive below it must have click depths (see the top)
        ),
        *(_archive_page(index, path) for index, path in enumerate(_ARCHIVE)),
        _post("/journal/pitching-in-the-wind", *posts["/journal/pitching-in-the-wind"]),
        _post(
            "/journal/packing-list-three-days",
            *posts["/journal/packing-list-three-days"],
            body=f"<p>{escape(posts['/journal/packing-list-three-days'][1])}</p>"
            '<p>We used to recommend the <a href="/backpacks/trail-22">Trail 22</a>; see the '
            '<a href="/faq#warranty">warranty notes</a> before you buy a used one.</p>'
            + _img("/img/journal/three-day-map.png", "The route on a map"),
            plants=(T.BROKEN_INTERNAL_LINK, T.BROKEN_FRAGMENT, T.BROKEN_RESOURCE),
        ),
        _post(
            "/journal/waterproofing-boots",
            *posts["/journal/waterproofing-boots"],
            description="How to clean, dry and wax full-grain leather hiking boots so that they "
            "stay waterproof for years: which wax to choose, how much to use, how long to let it "
            "soak in, and the three mistakes that crack the leather.",
            plants=(T.META_DESCRIPTION_TOO_LONG,),
        ),
        _post(
            "/journal/trail-partners",
            *posts["/journal/trail-partners"],
            body=f"<p>{escape(posts['/journal/trail-partners'][1])}</p><ul>"
            '<li><a href="{partner}/partners/hut-guide">The hut guide</a></li>'
            '<li><a href="{partner}/partners/map-shop">The map shop</a></li></ul>',
            plants=(T.BROKEN_EXTERNAL_LINK, T.EXTERNAL_REDIRECT),
        ),
        _post(
            "/journal/draft-gear-review",
            *posts["/journal/draft-gear-review"],
            head='<meta name="robots" content="noindex">',
            plants=(T.NOINDEX_PAGE, T.SITEMAP_URL_NOINDEX),
        ),
        ShopPage(
            "/about",
            "About Ridgeline Outfitters",
            "Who we are: a small outdoor shop founded in 2009 by three friends who kept breaking "
            "their gear and started repairing it.",
            "About us",
            "<p>Ridgeline began in a garage in 2009, when three friends who kept breaking their "
            "gear started repairing other people's too. We still run the repair bench.</p>"
            '<p>Visit us: <a href="/stores">find a store</a>. Nostalgic? Browse '
            '<a href="/old-catalogue">our old catalogue</a>.</p>',
            plants=(T.BROKEN_INTERNAL_LINK,),
        ),
        ShopPage(
            "/shipping",
            "Shipping and delivery | Ridgeline Outfitters",
            "Same-day dispatch before 2 pm, free shipping above fifty euros, and delivery times "
            "for every country we ship to.",
            "Shipping",
            "<p>We ship to every country in the European Union and to the United Kingdom, "
            "Norway and Switzerland. Parcels travel with a tracked carrier.</p>"
            '<p>Changed your mind? Read about <a href="/returns" rel="nofollow">returns</a>.</p>',
            plants=(T.INTERNAL_NOFOLLOW_LINKS,),
        ),
        ShopPage(
            "/returns",
            "Returns | Ridgeline Outfitters",
            "Return unused gear within thirty days for a full refund; how to send it back and "
            "when the money reaches you.",
            "Returns",
            "<p>Thirty days, unused, full refund.</p>",
            service=False,
            plants=(T.THIN_CONTENT,),
        ),
        ShopPage(
            "/faq",
            "FAQ",
            "Answers to the questions we hear most: sizes, repairs, warranty, shipping times and "
            "how to care for your gear.",
            "Frequently asked questions",
            "<h2>Orders</h2><p>Orders placed before two in the afternoon leave the same day.</p>"
            "<h4>Can I change an order?</h4><p>Yes, until it has left the warehouse.</p>"
            '<p>Shopping for a present? See <a href="/gift-guide">the gift guide</a>.</p>',
            plants=(T.TITLE_TOO_SHORT, T.HEADING_ORDER_SKIP, T.A11Y_HEADING_ORDER),
        ),
        ShopPage(
            "/privacy",
            "Privacy policy | Ridgeline Outfitters",
            "What we store about you when you order, why we store it, how long we keep it and how "
            "to ask us to delete it.",
            "Privacy",
            "<p>We keep your name, address and order history to deliver your orders and honour "
            "the lifetime repairs. We never sell them. Write to us to see or delete them.</p>",
        ),
        ShopPage(
            "/cart",
            "Your cart | Ridgeline Outfitters",
            "The gear in your cart at Ridgeline Outfitters, with shipping costs and the delivery "
            "date before you check out.",
            "Your cart",
            "<p>Your cart is empty. Free shipping above fifty euros.</p>",
            head='<meta name="robots" content="noindex">',
            in_sitemap=False,
            headers={"set-cookie": "cart=empty; Path=/"},
            plants=(T.NOINDEX_PAGE, T.SECURITY_COOKIES),
        ),
        ShopPage(
            "/offers/summer",
            "The summer sale | Ridgeline Outfitters",
            "Up to thirty percent off last season's tents, packs and boots while stocks last, "
            "with the usual free repairs for life.",
            "The summer sale",
            "<p>Last season's colours, this season's prices: the Ridge 3, the Alpine 45 and the "
            "Scree boots are all reduced until the end of August.</p>",
            canonical="summer",  # right, but relative
            in_sitemap=False,
            plants=(T.RELATIVE_CANONICAL,),
        ),
        ShopPage(
            "/gift-guide",
            "Gift guide: presents for hikers | Ridgeline Outfitters",
            "Presents for the hiker who has everything: small, useful gear under fifty euros that "
            "we would be glad to unwrap ourselves.",
            "Gift guide",
            "<p>A headlamp, a repair kit, a pair of merino socks, a map of their favourite "
            "valley: gifts that get used every weekend.</p>",
            plants=(T.SLOW_RESPONSE,),
        ),
        ShopPage(
            "/old-catalogue",
            "The old catalogue | Ridgeline Outfitters",
            "The catalogue we printed until 2015, kept for the nostalgic; it now sends you on to "
            "the tents of this season.",
            "The old catalogue",
            "<p>Our printed catalogue has retired. You are being sent to the current tents.</p>",
            head='<meta http-equiv="refresh" content="0; url=/tents">',
            in_sitemap=False,
            plants=(T.META_REFRESH,),
        ),
    )


PAGES: tuple[ShopPage, ...] = _pages()

# The page that answers slowly (slow-response) and for how long: past the catalogue's 1.5 s both
# when crawled and when measured again after the crawl (docs/timing.md).
SLOW_PATH = "/gift-guide"
SLOW_DELAY_S = 1.7

# Paths that are not pages of the shop, and what an audit reports on each: sitemap entries whose
# listing is the fault, error answers, the redirect chain's head, and the 404s that the faulty
# links and canonicals point at (each a broken page of its own).
_ANSWERS: Mapping[str, tuple[IssueType, ...]] = MappingProxyType(
    {
        "/gift-cards": (T.SITEMAP_URL_BROKEN, T.BROKEN_PAGE),  # listed, but a 404
        "/sale": (T.SITEMAP_URL_REDIRECT, T.REDIRECT_CHAIN),  # /sale -> /offers -> /offers/summer
        "/checkout": (T.SITEMAP_URL_BLOCKED,),  # listed, but disallowed by robots.txt
        "/stores": (T.SERVER_ERROR,),  # the store locator answers 500
        "/account": (T.BLOCKED_PAGE,),  # 403 without a session
        "/backpacks/trail-22": (T.BROKEN_PAGE,),  # discontinued, still linked from the journal
        "/backpacks/daypack": (T.BROKEN_PAGE,),  # the Daypack 20's canonical
    }
)
_SITEMAP_FAULTS = ("/gift-cards", "/sale", "/checkout")

# Reported on every page the shop serves, from SHOP_HEADERS.
SHOP_WIDE: tuple[IssueType, ...] = (T.CSP_MISSING, T.FRAME_PROTECTION_MISSING)


def _planted() -> Mapping[IssueType, tuple[str, ...]]:
    found: dict[IssueType, list[str]] = {}
    sources = [(p.path, (*p.plants, *SHOP_WIDE)) for p in PAGES]
    sources += list(_ANSWERS.items())
    for path, types in sources:
        for issue_type in types:
            found.setdefault(issue_type, []).append(path)
    return MappingProxyType({t: tuple(paths) for t, paths in found.items()})


# Every issue type the demo plants, with the paths of the pages an audit reports it on.
PLANTED: Mapping[IssueType, tuple[str, ...]] = _planted()


def _robots(request: SiteRequest) -> Reply:
    origin = f"http://{request.headers.get('host', '127.0.0.1')}"
    body = f"User-agent: *\nDisallow: /checkout\n\nSitemap: {origin}/sitemap.xml\n"
    return Reply(200, body.encode(), {"content-type": "text/plain; charset=utf-8"})


def _sitemap(request: SiteRequest) -> Reply:
    origin = f"http://{request.headers.get('host', '127.0.0.1')}"
    paths = [p.path for p in PAGES if p.in_sitemap] + list(_SITEMAP_FAULTS)
    urls = "".join(f"<url><loc>{escape(origin + path)}</loc></url>" for path in paths)
    body = (
        '<?xml version="1.0" encoding="UTF-8"?>'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{urls}</urlset>'
    )
    return Reply(200, body.encode(), {"content-type": "application/xml"})


def _slow(page: ShopPage) -> Route:
    import time

    def answer(request: SiteRequest) -> Reply:
        time.sleep(SLOW_DELAY_S)
        return page(request)

    return answer


def _redirect(location: str) -> Reply:
    return Reply(301, b"", {"location": location, "content-type": HTML_TYPE})


def _error(status: int, title: str) -> Reply:
    body = f"<!doctype html><html lang=en><title>{title}</title><h1>{title}</h1></html>"
    return Reply(status, body.encode(), {**SHOP_HEADERS})


# A tiny JPEG stand-in: the audit checks resources by status, never decodes them.
_IMAGE = Reply(200, b"\xff\xd8\xff\xe0" + b"\0" * 60 + b"\xff\xd9", {"content-type": "image/jpeg"})
_CSS = b"body{font-family:system-ui,sans-serif;max-width:48rem;margin:auto;padding:1rem}"
# The first line of jQuery 1.8.1's distribution file: the exposure checks know the version from
# the file name (retire.js's `filename` extractor) and would from this banner too.
_JQUERY = b"/*! jQuery v1.8.1 jquery.com | jquery.org/license */\n"


def routes() -> dict[str, Route]:
    """Every path the shop answers; anything else is the server's 404."""
    served: dict[str, Route] = {p.path: p for p in PAGES}
    slow_page = next(p for p in PAGES if p.path == SLOW_PATH)
    served[SLOW_PATH] = _slow(slow_page)
    images = [f"/img{p.path}.jpg" for p in (*_TENTS, *_PACKS, *_BOOTS)]
    images += ["/img/home.jpg", "/img/tents.jpg", "/img/backpacks.jpg", "/img/boots.jpg"]
    images += [f"/img/tents/family-6-{n}.jpg" for n in (1, 2, 3)]
    served.update(dict.fromkeys(images, _IMAGE))
    served.update(
        {
            "/robots.txt": _robots,
            "/sitemap.xml": _sitemap,
            "/css/shop.css": Reply(200, _CSS, {"content-type": "text/css"}),
            "/js/jquery-1.8.1.min.js": Reply(200, _JQUERY, {"content-type": "text/javascript"}),
            "/sale": _redirect("/offers"),
            "/offers": _redirect("/offers/summer"),
            "/stores": _error(500, "The store locator is down"),
            "/account": _error(403, "Please sign in"),
            "/checkout": _error(403, "Please sign in"),
            # The partner sites, reached as http://localhost:<port>/partners/...
            "/partners/map-shop": _redirect("/partners/map-shop/"),
            "/partners/map-shop/": Reply(200, b"<!doctype html><title>Maps</title>"),
        }
    )
    return served
