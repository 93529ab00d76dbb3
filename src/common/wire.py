"""Records to and from JSON objects: the one place where wire data meets typed dataclasses.

Everything that crosses a Workflow step, a Durable Object RPC call, a Queue message or a D1 row is
a frozen dataclass on both sides; on the wire it is a JSON object (dicts, lists, strings, numbers,
booleans, null: the runtime refuses tuples over RPC, docs/platform.md §0.2). `to_json` flattens a
record; `from_json` rebuilds one, checking every field against its annotation, so a malformed
payload fails at the boundary with a `WireError` naming the record and the field instead of
surfacing later as a confusing `TypeError`.

Conversions are the ones the platforms make necessary, and no others: SQLite and D1 hand booleans
back as 0/1, JavaScript numbers arrive as floats where an int was sent (an integral float is
accepted as an int), enums travel as their values. Unknown keys are ignored, so a reader accepts a
row with extra columns and an older reader accepts a newer writer's payload.

Columns: a field declared with `metadata=AS_COLUMNS`, a tuple of flat records (every field a JSON
scalar), crosses as one object of columns, `{field: [value, ...]}`, instead of one object per
record: a crawl batch carries thousands of link edges, and both the object per record and its
conversion field by field (each value through `_encode`, each back through its decoder) cost more
than the edges' own SQL (issue 29). A column is checked in one pass against its field's exact
types, and only a column that fails it is decoded value by value (an integral float where an int
was sent, 0/1 for a boolean), so a malformed value still names its record, field and position.
Readers also take such a field as a list of objects, as senders wrote it before.
"""

from __future__ import annotations

import dataclasses
import json
import types
from collections.abc import Callable, Mapping, Sequence
from enum import Enum
from functools import cache
from operator import attrgetter
from typing import (
    TYPE_CHECKING,
    Any,
    Self,
    TypeAliasType,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from common.fast_record import maker

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

type JsonScalar = str | int | float | bool | None
# Read-only containers inside a value, so a `list[str]` or `dict[str, int]` is a JsonValue.
type JsonValue = JsonScalar | Sequence[JsonValue] | Mapping[str, JsonValue]
type JsonObject = dict[str, JsonValue]
type JsonMapping = Mapping[str, JsonValue]  # a read-only object, e.g. a frozen record's field

__all__ = [
    "AS_COLUMNS",
    "JsonMapping",
    "JsonObject",
    "JsonRecord",
    "JsonScalar",
    "JsonValue",
    "WireError",
    "as_bool",
    "as_float",
    "as_int",
    "as_list",
    "as_object",
    "as_str",
    "from_columns",
    "from_json",
    "json_object_or_none",
    "to_columns",
    "to_json",
]

# A field's metadata: its tuple of flat records crosses as columns (module docstring, "Columns").
AS_COLUMNS: Mapping[str, object] = types.MappingProxyType({"wire": "columns"})


class WireError(ValueError):
    """A JSON payload does not fit the record it is read as."""


class JsonRecord:
    """Mixin for frozen dataclasses: `to_dict()`/`from_dict()` through `to_json`/`from_json`."""

    __slots__ = ()

    def to_dict(self: DataclassInstance) -> JsonObject:
        return to_json(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, object]) -> Self:
        return from_json(cls, data)  # type: ignore[type-var]  # subclasses are dataclasses

    def to_json_text(self: DataclassInstance) -> str:
        """The record as compact JSON text, for large records sent over RPC: a string crosses in
        one copy, where an object is converted member by member on each side (Pyodide's `to_js`
        and `to_py`, and the runtime's structured clone in between). ASCII escapes keep any
        string, lone surrogates included, exactly."""
        return json.dumps(to_json(self), separators=(",", ":"))

    @classmethod
    def from_json_text(cls, payload: object) -> Self:
        """A record from `to_json_text`'s text; an object (as an older sender sent) is read as
        `from_dict` reads it."""
        if type(payload) is not str:
            return from_json(cls, payload)  # type: ignore[type-var]  # subclasses are dataclasses
        try:
            data = json.loads(payload)
        except ValueError as exc:
            raise WireError(f"{cls.__name__}: not JSON text ({exc})") from None
        return from_json(cls, data)  # type: ignore[type-var]


def json_object_or_none(body: bytes) -> Mapping[str, object] | None:
    """A response body as a JSON object; None for anything else (not JSON, not UTF-8, not an
    object), which a provider's reader turns into its own error."""
    try:
        value = json.loads(body)
    except ValueError:  # JSONDecodeError and UnicodeDecodeError
        return None
    return value if isinstance(value, dict) else None


def to_json(record: DataclassInstance) -> JsonObject:
    """The record as a JSON object: enums by value, nested records and tuples flattened, fields
    declared `AS_COLUMNS` as columns."""
    cls = type(record)
    columnar = _columnar(cls)
    if not columnar:
        return {name: _encode(getattr(record, name)) for name in _field_names(cls)}
    return {
        name: to_columns(getattr(record, name), columnar[name])
        if name in columnar
        else _encode(getattr(record, name))
        for name in _field_names(cls)
    }


def to_columns(rows: Sequence[DataclassInstance], cls: type[DataclassInstance]) -> JsonObject:
    """`rows`, records of the flat `cls`, as `{field: [value, ...]}` (the values are JSON
    scalars already: `_columns_of` checked the fields' types)."""
    return {name: list(map(attrgetter(name), rows)) for name, *_ in _columns_of(cls)}


def from_columns[T: DataclassInstance](cls: type[T], data: object) -> tuple[T, ...]:
    """The `cls` records `to_columns` sent: every column checked, all of one length; a column
    missing from the object is its field's default for every record (an older sender)."""
    if not isinstance(data, Mapping):
        raise WireError(f"{cls.__name__} columns: expected an object, got {_kind(data)}")
    columns: list[list[object]] = []
    lengths: set[int] = set()
    for name, kinds, decode, default in _columns_of(cls):
        if name in data:
            column = _column(cls, name, data[name], kinds, decode)
            lengths.add(len(column))
            columns.append(column)
        elif default is dataclasses.MISSING:
            raise WireError(f"{cls.__name__}: missing column {name!r}")
        else:
            columns.append([default])  # repeated below, once the length is known
    if len(lengths) > 1:
        raise WireError(f"{cls.__name__}: columns of different lengths {sorted(lengths)}")
    rows = lengths.pop() if lengths else 0
    whole = [column if len(column) == rows else column * rows for column in columns]
    return tuple(map(_row_maker(cls), *whole))


@cache
def _row_maker[T: DataclassInstance](cls: type[T]) -> Callable[..., T]:
    """The columns' records are built without the frozen `__init__` where `maker` can
    (common.fast_record: every value was checked against its field above); `cls` otherwise."""
    try:
        return maker(cls)
    except TypeError:  # not slotted, or an __init__ that does more than store its fields
        return cls


def _column(
    cls: type, name: str, sent: object, kinds: frozenset[type], decode: _Decode
) -> list[object]:
    if type(sent) is not list:
        raise WireError(f"{cls.__name__}.{name}: expected a column (list), got {_kind(sent)}")
    if set(map(type, sent)) <= kinds:
        return sent  # one pass in C: every value of an exact type the field takes
    decoded = []
    for index, value in enumerate(sent):
        try:
            decoded.append(decode(value))
        except WireError as exc:
            raise WireError(f"{cls.__name__}.{name}[{index}]: {exc}") from None
    return decoded


type _ColumnSpec = tuple[str, frozenset[type], _Decode, object]


@cache
def _columns_of(cls: type[DataclassInstance]) -> tuple[_ColumnSpec, ...]:
    """Per init field of a flat record: its name, the exact types its column may hold as sent,
    its value decoder, and its default (`MISSING` if it has none)."""
    hints = get_type_hints(cls)
    specs = []
    for field in dataclasses.fields(cls):
        kinds = _scalar_kinds(hints[field.name])
        if kinds is None or not field.init or field.default_factory is not dataclasses.MISSING:
            raise TypeError(f"wire: {cls.__name__}.{field.name} cannot cross as a column")
        specs.append((field.name, kinds, _decoder(hints[field.name]), field.default))
    return tuple(specs)


def _scalar_kinds(hint: object) -> frozenset[type] | None:
    """The exact types of a JSON scalar annotation (`str`, `int | None`...), or None."""
    options = get_args(hint) if isinstance(hint, types.UnionType) else (hint,)
    if all(option in _PLAIN for option in options):
        return frozenset(option for option in options if isinstance(option, type))
    return None


@cache
def _columnar(cls: type[DataclassInstance]) -> dict[str, type[DataclassInstance]]:
    """The fields of `cls` declared `AS_COLUMNS`, each with its row record class."""
    hints = get_type_hints(cls)
    columnar = {}
    for field in dataclasses.fields(cls):
        if field.metadata.get("wire") != AS_COLUMNS["wire"]:
            continue
        hint = hints[field.name]
        row = get_args(hint)[0] if get_origin(hint) is tuple else None
        if not (isinstance(row, type) and dataclasses.is_dataclass(row)):
            raise TypeError(
                f"wire: {cls.__name__}.{field.name} as columns must be tuple[Record, ...]"
            )
        _columns_of(row)  # its fields are checked now, where the record is first sent
        columnar[field.name] = row
    return columnar


@cache
def _field_names(cls: type[DataclassInstance]) -> tuple[str, ...]:
    # dataclasses.fields() rebuilds its tuple on every call; records are encoded per link edge.
    return tuple(field.name for field in dataclasses.fields(cls))


_PLAIN = frozenset({str, int, float, bool, type(None)})


def _encode(value: object) -> JsonValue:
    # Cheapest checks first (exact types), then enums, records, and only then the ABCs, whose
    # isinstance checks are slow: records are encoded per link edge and per discovered URL.
    kind = type(value)
    if kind in _PLAIN:
        return value  # type: ignore[return-value]  # exactly a JSON scalar type, checked above
    if kind is list or kind is tuple:
        return [_encode(item) for item in value]  # type: ignore[attr-defined]
    if kind is dict:
        return {str(key): _encode(item) for key, item in value.items()}  # type: ignore[attr-defined]
    if isinstance(value, Enum):
        return _encode(value.value)
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        encoded: JsonValue = to_dict()
        return encoded
    if isinstance(value, str | int | float):
        return value  # a subclass of a scalar type that is not an enum
    if isinstance(value, list | tuple):
        return [_encode(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _encode(item) for key, item in value.items()}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return to_json(value)
    raise WireError(f"{type(value).__name__} cannot be sent as JSON")


def from_json[T: DataclassInstance](cls: type[T], data: object) -> T:
    """Rebuild a `cls` record from a JSON object, validating each field against its annotation."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise WireError(f"{cls.__name__}: expected an object, got {_kind(data)}")
    values: dict[str, object] = {}
    for name, decode, required in _decoders(cls):
        if name in data:
            try:
                values[name] = decode(data[name])
            except WireError as exc:
                raise WireError(f"{cls.__name__}.{name}: {exc}") from None
        elif required:
            raise WireError(f"{cls.__name__}: missing field {name!r}")
    # Every value was checked against its field's annotation just above.
    checked: dict[str, Any] = values
    return cls(**checked)


type _Decode = Callable[[object], object]


@cache
def _decoders(cls: type[DataclassInstance]) -> tuple[tuple[str, _Decode, bool], ...]:
    hints = get_type_hints(cls)
    columnar = _columnar(cls)
    return tuple(
        (
            field.name,
            _columns_decoder(columnar[field.name], _decoder(hints[field.name]))
            if field.name in columnar
            else _decoder(hints[field.name]),
            _required(field),
        )
        for field in dataclasses.fields(cls)
        if field.init
    )


def _columns_decoder(row: type[DataclassInstance], rows: _Decode) -> _Decode:
    """Columns, or (as senders wrote it before) a list of objects read by `rows`."""

    def decode(value: object) -> object:
        return rows(value) if isinstance(value, list | tuple) else from_columns(row, value)

    return decode


def _required(field: dataclasses.Field[object]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _decoder(hint: object) -> _Decode:
    if isinstance(hint, TypeAliasType):
        return _decoder(hint.__value__) if hint.__name__ not in _OPAQUE else _json
    origin = get_origin(hint)
    if origin is Union or isinstance(hint, types.UnionType):
        return _union([_decoder(arg) for arg in get_args(hint)], hint)
    if origin in (list, tuple, Sequence):
        return _sequence(_decoder(get_args(hint)[0]), origin)
    if origin in (dict, Mapping):
        return _mapping(_decoder(get_args(hint)[1]))
    if isinstance(hint, type):
        return _class_decoder(hint)
    if hint is object or hint is Any:  # Any here names annotations we pass through as JSON
        return _json
    raise TypeError(f"wire: no decoder for annotation {hint!r}")


# Aliases whose values pass through as JSON (already JSON by definition).
_OPAQUE = frozenset({"JsonValue", "JsonObject", "JsonScalar"})


def _class_decoder(cls: type) -> _Decode:
    if cls is type(None):
        return _none
    if issubclass(cls, Enum):
        return _enum(cls)
    if cls in _SCALARS:
        return _SCALARS[cls]
    from_dict = getattr(cls, "from_dict", None)
    if callable(from_dict):
        return lambda value: from_dict(_mapping_of(value))
    if dataclasses.is_dataclass(cls):
        return lambda value: from_json(cls, value)
    if cls is dict:
        return _object
    if cls is list:
        return _list
    raise TypeError(f"wire: no decoder for {cls.__name__}")


def _kind(value: object) -> str:
    return "null" if value is None else type(value).__name__


def _none(value: object) -> None:
    if value is not None:
        raise WireError(f"expected null, got {_kind(value)}")


def _json(value: object) -> object:
    return value


def _mapping_of(value: object) -> Mapping[str, object]:
    """A nested record's object, read in place (no copy: the record takes its fields out)."""
    if type(value) is dict or isinstance(value, Mapping):
        return value
    raise WireError(f"expected an object, got {_kind(value)}")


def _object(value: object) -> dict[str, object]:
    if not isinstance(value, Mapping):
        raise WireError(f"expected an object, got {_kind(value)}")
    return dict(value)


def _list(value: object) -> list[object]:
    if not isinstance(value, list | tuple):
        raise WireError(f"expected a list, got {_kind(value)}")
    return list(value)


def _str(value: object) -> str:
    if not isinstance(value, str):
        raise WireError(f"expected a string, got {_kind(value)}")
    return value


def _int(value: object) -> int:
    if isinstance(value, bool):
        raise WireError(f"expected an integer, got bool {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)  # a JavaScript number that crossed as a float
    raise WireError(f"expected an integer, got {_kind(value)} {value!r}")


def _float(value: object) -> float:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    raise WireError(f"expected a number, got {_kind(value)}")


def _bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float) and value in (0, 1):
        return bool(value)  # SQLite and D1 store booleans as 0/1
    raise WireError(f"expected a boolean, got {_kind(value)} {value!r}")


_SCALARS: dict[type, _Decode] = {str: _str, int: _int, float: _float, bool: _bool}

# One JSON value read as a scalar, for single columns (`COUNT(*) AS n`) where a record would be
# ceremony. They raise `WireError` like `from_json`.
as_str = _str
as_int = _int
as_float = _float
as_bool = _bool
as_object = _object
as_list = _list


def _enum(cls: type[Enum]) -> _Decode:
    def decode(value: object) -> Enum:
        try:
            return cls(value)
        except ValueError:
            raise WireError(f"{value!r} is not a {cls.__name__}") from None

    return decode


def _union(options: list[_Decode], hint: object) -> _Decode:
    if len(options) == 2 and _none in options:
        inner = options[0] if options[1] is _none else options[1]
        return lambda value: None if value is None else inner(value)

    def decode(value: object) -> object:
        for option in options:
            try:
                return option(value)
            except WireError:
                continue
        raise WireError(f"{_kind(value)} {value!r} fits none of {hint}")

    return decode


def _sequence(item: _Decode, origin: type) -> _Decode:
    def decode(value: object) -> object:
        items = [item(element) for element in _list(value)]
        return tuple(items) if origin is tuple else items

    return decode


def _mapping(item: _Decode) -> _Decode:
    return lambda value: {_str(key): item(element) for key, element in _object(value).items()}
