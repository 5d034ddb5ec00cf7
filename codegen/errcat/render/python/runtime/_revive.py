"""The way back from :meth:`AgentRunError.to_dict` to the same typed error.

An error crosses a process boundary (a queue, a worker's result, a log
shipped as JSON, the TypeScript SDK's ``toJSON()``) as its dict; this module
rebuilds the error of the same class with the same fields from it.
"""

from __future__ import annotations

from ._base import CLASSES, AgentRunError
from ._generated.catalogue import CLASS_NAMES_ELSEWHERE
from ._sanitize import sanitize_text

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["error_from_dict"]


def _class_of(code: str, type_name: object) -> type[AgentRunError]:
    """The class a dict's error is: its code's; for a finer code, the class ``type`` names
    (in this SDK or, through ``CLASS_NAMES_ELSEWHERE``, in another); else the base."""
    cls = CLASSES.get(code)
    if cls is not None:
        return cls
    if code and type(type_name) is str:
        for known in CLASSES.values():
            if known.__name__ == type_name:
                return known
        return CLASSES.get(CLASS_NAMES_ELSEWHERE.get(type_name, ""), AgentRunError)
    return AgentRunError


def _text(data: dict[Any, Any], key: str) -> str:
    value = data.get(key)
    return value if type(value) is str else ""


def _rebuilt(data: dict[Any, Any], *, base: bool = False) -> AgentRunError:
    code = sanitize_text(_text(data, "code"))
    cls = AgentRunError if base else _class_of(code, data.get("type"))
    status = data.get("status")
    delay = data.get("retry_after_ms")
    request_id = data.get("request_id")
    context = data.get("context")
    return cls(
        _text(data, "message"),
        code,
        cause=_text(data, "cause"),
        remediation=_text(data, "remediation"),
        status=status if type(status) is int else None,
        context=context if type(context) is dict else None,
        request_id=request_id if type(request_id) is str else None,
        retry_after_ms=delay if type(delay) is int and delay >= 0 else None,
    )


def error_from_dict(data: object) -> AgentRunError:
    """The error whose :meth:`~AgentRunError.to_dict` (or TypeScript's ``toJSON()``) is ``data``.

    Never raises.

    The class is the code's (a refined class for a finer code: the class
    ``type`` names, when it is one of this package's); a code the catalogue
    does not define gives the base class. The texts, context, status, request
    id and retry delay are the dict's, sanitized again as a constructor does
    (a sanitized text is left as it is), so ``error_from_dict(err.to_dict())``
    has the class and every field of ``err``; the classification
    (``retryable``, ``recovery``...) comes from the class, never from the dict.
    A member of the wrong type is ignored, and anything but a ``dict`` gives
    the base class with an empty code.

    Args:
        data: the dict, as :meth:`~AgentRunError.to_dict` wrote it or as
            ``json.loads`` read it back.

    Returns:
        The typed error, ready to raise.
    """
    if type(data) is dict:
        try:
            return _rebuilt(data)
        except Exception:  # a hostile member the constructor refuses: the base class keeps the rest
            try:
                return _rebuilt(data, base=True)
            except Exception:
                pass
    return AgentRunError("", "")
