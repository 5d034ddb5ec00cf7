"""Typed errors of the Mitos sandbox API, generated from its error catalogue.

Every error the API can return is an exception class, one per catalogue
code, under one base: ``except AgentRunError`` catches them all, and a caller
branches on the class (``except RateLimitedError``), never on message text::

    import httpx
    import mitos_errors

    with httpx.Client(
        headers={"Authorization": f"Bearer {key}"},  # on the client, not in each call's frame
        event_hooks={"response": [mitos_errors.ErrorHook(token=key)]},
    ) as client:
        try:
            client.post(url, json=payload)
        except mitos_errors.RateLimitedError as err:
            wait(err.retry_after_ms)

Building an error never raises and never leaks: bodies are read up to a cap,
every text is sanitized, and the caller's token is redacted in every form.

``import mitos_errors`` loads this module, ``_generated`` and the base class's
module ``_base`` only; the rest of the runtime is imported on first use
(``python-sdk/tests/test_sdk_imports.py``).
"""

from . import _generated
from ._generated import *  # noqa: F403  (the base class and one class per code; names in __all__)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ._fields import ContextValue as ContextValue
    from ._generated.version import __version__ as __version__

# The names of the runtime beside the classes, each with the module that
# defines it (``module:attribute`` where the name differs): the one list of
# them. ``__all__`` is read from it, ``__getattr__`` imports each name on first
# use (PEP 562; httpx loads only for a name of ``_http`` or ``_transport``), and
# the block under it, which tells type checkers the same, is written from it by
# ``python -m testkit.exports_block`` (test_sdk_imports fails when stale).
# The helpers that exist only when the catalogue declares their ``sdk`` group
# (``validate_timeout``, ``error_for_exit``...) are not in it: the generated
# ``_generated.HELPERS`` lists those this catalogue enables, and tells type checkers.
_EXPORTS = {
    "CONTRACT_VERSION": "._generated.catalogue",
    "DEFAULT_EXEC_TIMEOUT_S": "._generated.catalogue",
    "DEFAULT_RUN_CODE_TIMEOUT_S": "._generated.catalogue",
    "MAX_EXEC_TIMEOUT_S": "._generated.catalogue",
    "AsyncErrorHook": "._http",
    "AsyncErrorTransport": "._transport",
    "Code": "._generated.envelope",
    "CodeSpec": "._generated.record",
    "EnvelopeBytes": "._emit",
    "ErrorBody": "._generated.envelope:ErrorObject",
    "ErrorEnvelope": "._generated.envelope",
    "ErrorHook": "._http",
    "ErrorTransport": "._transport",
    "Origin": "._generated.envelope",
    "Recovery": "._generated.record",
    "aerror_from_response": "._http",
    "araise_for_status": "._http",
    "code_for_grpc": "._spec",
    "code_spec": "._spec",
    "envelope_bytes": "._emit",
    "error_for_code": "._local",
    "error_from_body": "._parse",
    "error_from_exception": "._transport",
    "error_from_response": "._http",
    "install_error_hook": "._http",
    "lookup": "._classes",
    "raise_for_status": "._http",
    "sanitize_text": "._sanitize",
}

if TYPE_CHECKING:
    from ._emit import EnvelopeBytes, envelope_bytes
    from ._generated.catalogue import (
        CONTRACT_VERSION,
        DEFAULT_EXEC_TIMEOUT_S,
        DEFAULT_RUN_CODE_TIMEOUT_S,
        MAX_EXEC_TIMEOUT_S,
    )
    from ._generated.envelope import Code, ErrorEnvelope, Origin
    from ._generated.envelope import ErrorObject as ErrorBody
    from ._generated.overloads import error_for_code, lookup
    from ._generated.record import CodeSpec, Recovery
    from ._http import (
        AsyncErrorHook,
        ErrorHook,
        aerror_from_response,
        araise_for_status,
        error_from_response,
        install_error_hook,
        raise_for_status,
    )
    from ._parse import error_from_body
    from ._sanitize import sanitize_text
    from ._spec import code_for_grpc, code_spec
    from ._transport import AsyncErrorTransport, ErrorTransport, error_from_exception

    __all__ = [
        "CONTRACT_VERSION",
        "DEFAULT_EXEC_TIMEOUT_S",
        "DEFAULT_RUN_CODE_TIMEOUT_S",
        "MAX_EXEC_TIMEOUT_S",
        "AsyncErrorHook",
        "AsyncErrorTransport",
        "Code",
        "CodeSpec",
        "EnvelopeBytes",
        "ErrorBody",
        "ErrorEnvelope",
        "ErrorHook",
        "ErrorTransport",
        "Origin",
        "Recovery",
        "aerror_from_response",
        "araise_for_status",
        "code_for_grpc",
        "code_spec",
        "envelope_bytes",
        "error_for_code",
        "error_from_body",
        "error_from_exception",
        "error_from_response",
        "install_error_hook",
        "lookup",
        "raise_for_status",
        "sanitize_text",
    ]
else:
    __all__ = list(_EXPORTS)
if not TYPE_CHECKING:  # type checkers read them from _generated's own __all__
    __all__ += list(_generated.HELPERS)
__all__ += _generated.__all__


def __getattr__(name: str) -> object:
    from importlib import import_module

    if name == "__version__":  # the generated version.py, which the build reads too
        version: str = import_module("._generated.version", __name__).__version__
        globals()[name] = version
        return version
    where = _EXPORTS.get(name) or _generated.HELPERS.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, attribute = where.partition(":")
    value = getattr(import_module(module, __name__), attribute or name)
    globals()[name] = value
    return value


def __dir__() -> "list[str]":
    return sorted(set(globals()) | set(__all__) | {"__version__"})
