"""Every name of mitos-run's ``mitos._envelope``, backed by mitos_errors' parsing.

``from mitos_errors.compat.envelope import *`` gives the same names. Errors
are built by the one parser of mitos_errors (bounded reads, sanitized text,
the catalogue's fallback map); the status tables are the catalogue's.
"""

from __future__ import annotations

from typing import Optional

import httpx

from .. import (
    AgentRunError,
    error_for_code,
    error_from_body,
    error_from_response,
    raise_for_status,
    sanitize_text,
)
from .._generated.catalogue import FALLBACK_BY_STATUS

__all__ = [
    "_STATUS_CODE",
    "_STATUS_REMEDIATION",
    "AgentRunError",
    "Optional",
    "_redact",
    "_status_code",
    "_status_remediation",
    "error_for_code",
    "error_from_response",
    "httpx",
    "raise_for_status",
    "raise_for_status_stream",
]


def _redact(text: str, token: Optional[str]) -> str:  # noqa: UP045  (mitos-run's signature)
    """``text`` sanitized: the token in every form and secret-like strings redacted, length capped."""
    return sanitize_text(text, token=token or None)


def _status_code(status: int) -> str:
    """The catalogue's fallback code of a status (exact, else its class, else the default)."""
    return error_from_body(b"", status=status).code


def _status_remediation(status: int) -> str:
    """The remediation of the fallback code of a status."""
    return error_from_body(b"", status=status).remediation


_STATUS_CODE: dict[int, str] = {int(status): _status_code(int(status)) for status in FALLBACK_BY_STATUS}
_STATUS_REMEDIATION: dict[int, str] = {status: _status_remediation(status) for status in _STATUS_CODE}


def raise_for_status_stream(resp: httpx.Response, token: Optional[str] = None) -> None:  # noqa: UP045
    """:func:`raise_for_status` for a streamed response (a failed one is read up to the cap, then closed)."""
    raise_for_status(resp, token)
