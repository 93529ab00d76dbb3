"""Reading an ElementTree the tests parsed (the HTML report, JUnit XML): what a test expects to
be there, or an assertion that names what is missing (where `find` and `get` would answer None)."""

from xml.etree.ElementTree import Element


def find(el: Element, path: str) -> Element:
    """The first element at `path` under `el`, which the test expects to be there."""
    found = el.find(path)
    assert found is not None, f"no {path} under <{el.tag}>"
    return found


def attr(el: Element, name: str) -> str:
    """`el`'s attribute `name`, which the test expects it to have."""
    value = el.get(name)
    assert value is not None, f"<{el.tag}> has no {name}"
    return value


def text(el: Element) -> str:
    """`el`'s own text, which the test expects it to have."""
    assert el.text is not None, f"<{el.tag}> has no text"
    return el.text
