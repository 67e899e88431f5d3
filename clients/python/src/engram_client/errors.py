"""The one exception of the client: what the server said went wrong, or why it could not be reached."""

from __future__ import annotations

from typing import Any, Mapping, Optional


class EngramError(Exception):
    """An error answered by the Engram server (its ``{"error": {"code", "message"}}`` body), or a
    failure to reach it.

    ``code`` is the server's machine-readable code (``INVALID_INPUT``, ``UNAUTHORIZED``,
    ``SCOPE_DENIED``, ``NOT_FOUND``, ``CONFLICT``, ``LOCKED``, ``PAYLOAD_TOO_LARGE``, ``BUSY``…), or
    ``CONNECTION_FAILED`` / ``TIMEOUT`` when no answer came (then ``status`` is None). ``message`` says
    what was wrong and how to fix it.
    """

    code: str
    message: str
    status: Optional[int]
    details: Mapping[str, Any]
    retry_after: Optional[float]

    def __init__(
        self,
        code: str,
        message: str,
        status: Optional[int] = None,
        *,
        details: Optional[Mapping[str, Any]] = None,
        retry_after: Optional[float] = None,
    ) -> None:
        super().__init__(f"{code}: {message}" if status is None else f"{code} ({status}): {message}")
        self.code = code
        self.message = message
        self.status = status
        self.details = dict(details or {})
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"EngramError(code={self.code!r}, message={self.message!r}, status={self.status!r})"
