"""What the catalogue says about each code: specs, the fallback map and the catch-all.

Data only: the classes are :mod:`._classes`' (this module imports no class, so the base
class's runtime can read it).
"""

from __future__ import annotations

from ._generated import catalogue as _cat
from ._generated.record import CodeSpec, Recovery

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._generated.envelope import Origin

__all__ = ["CodeSpec", "Recovery", "code_for_grpc", "code_spec", "fallback_code", "refined_code"]


SPECS: dict[str, CodeSpec] = {code: CodeSpec(code, row) for code, row in _cat.SPECS.items()}
"""Every code of the catalogue with its :class:`CodeSpec`."""


class CatchAll:
    """The classification of a code the catalogue does not define (its ``unknown_code`` entry)."""

    __slots__ = ("retryable", "recovery", "side_effects", "origin")

    is_auth_failure = False
    is_cancelled = False

    def __init__(self, retryable: bool, recovery: Recovery, side_effects: str, origin: Origin) -> None:
        self.retryable = retryable
        self.recovery = recovery
        self.side_effects = side_effects
        self.origin = origin


CATCH_ALL = CatchAll(
    _cat.UNKNOWN_RETRYABLE, Recovery(**_cat.UNKNOWN_RECOVERY), _cat.UNKNOWN_SIDE_EFFECTS, _cat.UNKNOWN_ORIGIN
)
"""What an error with an unknown code reports: the catalogue's ``unknown_code`` entry."""


def classify(own: str | None) -> CodeSpec | CatchAll:
    """The classification of an error whose class stands for ``own``: that code's spec (an error of
    a finer code has its class's), else (the base class, whatever its code) the catch-all."""
    return (SPECS.get(own) if own is not None else None) or CATCH_ALL


def refined_code(chain: object) -> str | None:
    """The first code of an envelope's ``refines`` chain that the catalogue defines, else ``None``.

    Only a list is a chain, and only its first ``REFINES_MAX`` entries are read; an entry that is
    not a string naming a catalogue code is skipped. Never raises, whatever ``chain`` is.
    """
    if type(chain) is not list:
        return None
    for entry in chain[: _cat.REFINES_MAX]:
        if type(entry) is str and entry in SPECS:
            return entry
    return None


def code_spec(code: str) -> CodeSpec | None:
    """Return the catalogue's spec of ``code``, or ``None`` for a code it does not know."""
    return SPECS.get(code)


def fallback_code(status: int | None) -> str:
    """The code of a response without an envelope: exact status, then status class, then default."""
    if type(status) is int:
        code = _cat.FALLBACK_BY_STATUS.get(status)
        if code is not None:
            return code
        if 400 <= status <= 499:
            return _cat.FALLBACK_CLIENT_ERROR
        if 500 <= status <= 599:
            return _cat.FALLBACK_SERVER_ERROR
    return _cat.FALLBACK_DEFAULT


_GRPC_NAMES: dict[str | int, str] = {}


def _grpc_name(status: object) -> str | None:
    """The catalogue's name of a gRPC status given by number, decimal text, or either spelling."""
    if not _GRPC_NAMES:
        for number, (name, proto) in enumerate(
            zip(_cat.GRPC_STATUS_NAMES, _cat.GRPC_PROTO_NAMES, strict=True)
        ):
            _GRPC_NAMES.update({number: name, str(number): name, name: name, proto: name})
    # Exact types: True is no status 1, and a str subclass may compare as anything. A float
    # of integral value is that number, as it is in TypeScript (JSON reads 5.0 as one).
    if type(status) is float and status.is_integer():
        status = int(status)
    return _GRPC_NAMES.get(status) if type(status) is int or type(status) is str else None


def code_for_grpc(status: str | int, *, channel: str | None = None) -> str:
    """The code a gateway answers for a gRPC status: the catalogue's ``grpc_gateway`` map.

    Args:
        status: the status number (``5``, or ``"5"`` as the ``grpc-status`` trailer
            carries it) or its name (``"NotFound"``, or ``"NOT_FOUND"`` as the protocol
            spells it). Anything else, and a status the map does not list (``OK``
            among them), gets the map's default; it never raises.
        channel: the channel the status came over (``"mtls"``), whose own answers
            come first; ``None`` for none.

    Raises:
        ValueError: ``channel`` is not a channel the catalogue defines.
    """
    overrides: dict[str, str] = {}
    if channel is not None:
        found = _cat.GRPC_CHANNELS.get(channel) if type(channel) is str else None
        if found is None:
            known = ", ".join(sorted(_cat.GRPC_CHANNELS)) or "none"
            raise ValueError(f"unknown gRPC channel {channel!r}; the catalogue defines: {known}")
        overrides = found
    name = _grpc_name(status)
    if name is None:
        return _cat.GRPC_GATEWAY_DEFAULT
    return overrides.get(name) or _cat.GRPC_GATEWAY.get(name, _cat.GRPC_GATEWAY_DEFAULT)


def defaults_of(kind: str | None, status: int | None) -> CodeSpec:
    """The spec whose texts an error defaults to: that of ``kind`` (the catalogue code that picks its
    class), else the status's fallback's."""
    return SPECS[kind] if kind is not None else SPECS[fallback_code(status)]
