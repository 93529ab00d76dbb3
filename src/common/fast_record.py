"""Building frozen, slotted records in hot loops without their generated `__init__`.

A frozen dataclass's `__init__` sets each field through `object.__setattr__` (its own
`__setattr__` refuses), a global lookup, a method lookup and a generic attribute store per
field. Where a record is built for every link of every page (parse.builder's `Link`,
parse.url_refs' `UrlRef`), that costs more than the work the record describes. `maker(cls)`
returns a positional constructor that creates the instance with `object.__new__` and stores
each value straight into its slot (the member descriptor's `__set__`, CPython's own slot
store), which is what the generated `__init__` ends up doing. The object is the same, field for
field: equal, hashing alike, `to_dict`-ing alike (tested against the class's own constructor).

Only for classes where that is all `__init__` does: a slotted dataclass with no
`__post_init__`, no `InitVar` and no field left out of `__init__`; `maker` refuses any other.
Every field is passed, defaults included, in declaration order.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

__all__ = ["maker"]


def maker[R](cls: type[R]) -> Callable[..., R]:
    """A positional constructor of `cls` (see the module docstring) that fills its slots."""
    if not dataclasses.is_dataclass(cls) or "__slots__" not in cls.__dict__:
        raise TypeError(f"{cls.__name__}: not a slotted dataclass")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: has a __post_init__, which maker would skip")
    fields = dataclasses.fields(cls)
    if len(fields) != len(cls.__dataclass_fields__) or not all(f.init for f in fields):
        raise TypeError(f"{cls.__name__}: has fields its __init__ does not take plainly")
    names = [f.name for f in fields]
    # Generated like dataclasses generates `__init__` (straight-line code, no loop over the
    # fields): one local name per slot store.
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for name in names:
        namespace[f"_set_{name}"] = cls.__dict__[name].__set__
    params = ", ".join(names)
    stores = "".join(f"    _set_{name}(record, {name})\n" for name in names)
    source = f"def make({params}):\n    record = _new(_cls)\n{stores}    return record\n"
    exec(source, namespace)  # the text is built above from the class's field names only
    make: Callable[..., R] = namespace["make"]
    make.__qualname__ = f"maker({cls.__qualname__})"
    return make
