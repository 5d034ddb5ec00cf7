"""The behaviour of the catalogue's records (``Recovery``, ``CodeSpec``), which are generated.

A record is its ``__slots__``: read-only once built, shown by ``repr``,
compared and hashed by value, pickled by value, and turned into a JSON-ready
dict. The generated classes (``_generated/record.py``) only declare their
fields.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, ClassVar, TypeVar

    R = TypeVar("R", bound="Record")


def _rebuild(cls: type[R], values: tuple[object, ...]) -> R:
    """The record of ``cls`` with ``values`` in slot order (how a record unpickles)."""
    record = object.__new__(cls)
    names: tuple[str, ...] = cls.__slots__
    for name, value in zip(names, values, strict=True):
        object.__setattr__(record, name, value)
    return record


class Record:
    """A read-only value of the catalogue, with one slot per field."""

    __slots__: tuple[str, ...] = ()
    _repr: ClassVar[tuple[str, ...]] = ()
    """The fields ``repr`` shows; all of them when empty."""

    def _values(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only; cannot delete {name!r}")

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._repr or self.__slots__)
        return f"{type(self).__name__}({shown})"

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (type(self), self._values()))

    def _as_dict(self) -> dict[str, Any]:
        """The fields as a JSON-ready dict: a nested record as its dict, a tuple as a list."""
        out: dict[str, Any] = {}
        for name in self.__slots__:
            value = getattr(self, name)
            if isinstance(value, Record):
                value = value._as_dict()
            elif isinstance(value, tuple):
                value = list(value)
            out[name] = value
        return out
