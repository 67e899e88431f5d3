"""What the sync and async clients share: each API call as a plain request description (`Call`), the
parsing of answers and errors, the retry policy, and the NDJSON helpers. No I/O happens here."""

from __future__ import annotations

import json
import math
import os
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Dict, Generic, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Type, TypeVar, Union
from urllib.parse import quote

import httpx
from pydantic import BaseModel, ValidationError

from .errors import EngramError
from .models import (
    ConsolidationReport,
    Health,
    ImportReport,
    Memory,
    MemoryPage,
    PurgeResult,
    RecallResult,
    RememberResult,
    ScopeList,
    ScopeSummary,
    Stats,
    StructuredContext,
)

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:7077"
Scopes = Union[str, Sequence[str]]
Instant = Union[str, int, datetime, date]
Params = List[Tuple[str, str]]

#: Statuses worth retrying: rate limited, or the store busy / briefly unavailable (nothing was changed).
RETRY_STATUSES = frozenset({429, 503})


@dataclass(frozen=True)
class Call(Generic[T]):
    """One HTTP request and how to read its answer."""

    method: str
    path: str
    parse: Callable[[Any], T]
    params: Params = field(default_factory=list)
    json: Any = None


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded retries on 429 and 503 (and on failing to connect), with exponential backoff and jitter.

    A ``Retry-After`` header is honoured, capped at ``max_retry_after`` seconds so a hostile or
    mistaken header cannot stall the caller.
    """

    max_retries: int = 3
    backoff: float = 0.5
    max_backoff: float = 8.0
    max_retry_after: float = 60.0

    def delay(self, attempt: int, response: Optional[httpx.Response] = None) -> float:
        if response is not None:
            after = retry_after_seconds(response)
            if after is not None:
                return min(after, self.max_retry_after)
        ceiling = float(min(self.max_backoff, self.backoff * (2**attempt)))
        return ceiling / 2 + random.uniform(0, ceiling / 2)


def retry_after_seconds(response: httpx.Response) -> Optional[float]:
    """The ``Retry-After`` header in seconds (delta-seconds or an HTTP date), or None."""
    value = response.headers.get("retry-after")
    if value is None:
        return None
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return max(0.0, (when - datetime.now(timezone.utc)).total_seconds())


def error_from_response(response: httpx.Response, body: Optional[bytes] = None) -> EngramError:
    """The ``EngramError`` of an error answer: the server's code and message when it sent its error body,
    else ``INVALID_RESPONSE`` with the answer's status (a proxy's page, another service at the URL)."""
    raw = response.content if body is None else body
    retry_after = retry_after_seconds(response)
    try:
        error = json.loads(raw)["error"]
        code, message = error["code"], error["message"]
        if not isinstance(code, str) or not isinstance(message, str):
            raise TypeError("not the server's error shape")
        return EngramError(
            code,
            message,
            response.status_code,
            details=error.get("details") if isinstance(error.get("details"), dict) else None,
            retry_after=retry_after,
        )
    except (ValueError, KeyError, TypeError):
        text = " ".join(raw.decode("utf-8", "replace").split())[:200] if raw else ""
        return EngramError(
            "INVALID_RESPONSE",
            f"The server answered {response.status_code} {response.reason_phrase} with a body that is not an Engram error"
            f" ({text or 'empty'}): is the URL an Engram server, or is a proxy in between?",
            response.status_code,
            retry_after=retry_after,
        )


class DumpLines:
    """Checks the lines of an export as they stream: the error line a server writes when the export
    failed after its 200 raises that error, and a dump that stops before its ``end`` line raises too."""

    def __init__(self, status: int) -> None:
        self.status = status
        self.ended = False

    def check(self, line: str) -> str:
        if line.startswith('{"error"'):
            try:
                error = json.loads(line)["error"]
                code, message = str(error["code"]), str(error["message"])
                details = error.get("details") if isinstance(error.get("details"), dict) else None
            except (ValueError, KeyError, TypeError):
                code, message, details = "INVALID_RESPONSE", "The export ended with an error line this client cannot read.", None
            raise EngramError(code, message, self.status, details=details)
        if line.startswith('{"kind":"end"'):
            self.ended = True
        return line

    def finish(self) -> None:
        if not self.ended:
            raise EngramError(
                "INVALID_RESPONSE",
                "The export stopped before the dump's end line (cut off): export again; the server log may say why.",
                self.status,
            )


def transport_error(error: Exception, base_url: str) -> EngramError:
    if isinstance(error, httpx.TimeoutException):
        return EngramError("TIMEOUT", f"Engram at {base_url} did not answer in time ({type(error).__name__}): raise timeout= or check the server.")
    return EngramError("CONNECTION_FAILED", f"Could not reach Engram at {base_url} ({error}): is `engram serve` running there?")


def resolve_api_key(api_key: Optional[str]) -> Optional[str]:
    """The key given, else ``$ENGRAM_API_KEY`` (unset or empty: no key)."""
    if api_key is not None:
        return api_key
    return os.environ.get("ENGRAM_API_KEY") or None


def default_headers(api_key: Optional[str], version: str) -> Dict[str, str]:
    headers = {"accept": "application/json", "user-agent": f"engram-client-python/{version}"}
    if api_key:
        headers["authorization"] = f"Bearer {api_key}"
    return headers


class ClientBase:
    """Configuration and the transport-independent half of a request, shared by both clients."""

    def __init__(self, base_url: str, api_key: Optional[str], max_retries: int, retry: Optional[RetryPolicy], headers: Optional[Mapping[str, str]], version: str) -> None:
        self.base_url = base_url.rstrip("/")
        self._retry = retry if retry is not None else RetryPolicy(max_retries=max_retries)
        self._headers = {**default_headers(resolve_api_key(api_key), version), **dict(headers or {})}

    def _request(self, call: Call[Any], content: Any, content_type: Optional[str]) -> Dict[str, Any]:
        """The arguments of ``httpx.(Async)Client.request`` for ``call``; ``content`` makes a fresh body.
        Raises ``EngramError`` INVALID_INPUT, before anything is sent, for a value JSON or UTF-8 cannot carry."""
        headers = dict(self._headers)
        request: Dict[str, Any] = {"method": call.method, "url": self.base_url + call.path, "params": checked_params(call.params) or None, "headers": headers}
        if content is not None:
            headers["content-type"] = content_type or "application/octet-stream"
            request["content"] = content()
        elif call.json is not None:
            headers["content-type"] = "application/json"
            request["content"] = json_body(call.json)
        return request

    def _export_request(self, params: Params) -> Dict[str, Any]:
        return {"method": "GET", "url": self.base_url + "/v1/export", "params": checked_params(params), "headers": {**self._headers, "accept": NDJSON}}

    def _retry_delay(self, response: httpx.Response, attempt: int, attempts: int) -> Optional[float]:
        """Seconds to wait before retrying ``response``, or None to answer it now."""
        if response.status_code in RETRY_STATUSES and attempt < attempts:
            return self._retry.delay(attempt, response)
        return None

    def _transport_delay(self, error: httpx.TransportError, attempt: int, attempts: int) -> float:
        """Seconds to wait before trying to connect again; raises when the failure is final."""
        if isinstance(error, httpx.ConnectError) and attempt < attempts:
            return self._retry.delay(attempt)
        raise transport_error(error, self.base_url) from error

    @staticmethod
    def _answer(call: Call[T], response: httpx.Response) -> T:
        if response.status_code >= 400:
            raise error_from_response(response)
        try:
            data = response.json()
        except ValueError as error:
            raise EngramError("INVALID_RESPONSE", f"The server's answer to {call.method} {call.path} is not JSON.", response.status_code) from error
        try:
            return call.parse(data)
        except ValidationError as error:
            # field locations and kinds only: the values may quote memory text
            where = "; ".join(f"{'.'.join(str(part) for part in e['loc']) or 'the body'}: {e['msg']}" for e in error.errors()[:5])
            raise EngramError(
                "INVALID_RESPONSE",
                f"The server's answer to {call.method} {call.path} is not the shape this client reads ({where}): is the URL an Engram server of a compatible version?",
                response.status_code,
            ) from error
        except (TypeError, KeyError, AttributeError) as error:
            raise EngramError(
                "INVALID_RESPONSE",
                f"The server's answer to {call.method} {call.path} is not the shape this client reads ({type(error).__name__}): is the URL an Engram server of a compatible version?",
                response.status_code,
            ) from error


# ---------------------------------------------------------------------------------------------------
# Values


def scope_list(scopes: Scopes) -> List[str]:
    """One scope or several, as a list; a read must name at least one."""
    if isinstance(scopes, str):
        return [scopes]
    out = list(scopes)
    if not all(isinstance(s, str) for s in out):
        raise invalid_input("scopes must be a scope path or a list of them, e.g. ['acme/users/alice'].")
    return out


def instant(value: Instant) -> Union[str, int]:
    """An instant as the API takes it: ISO 8601 text or epoch milliseconds (naive datetimes are UTC)."""
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        return value.isoformat()
    if isinstance(value, date):
        return value.isoformat()
    return value


def camel(name: str) -> str:
    """``valid_from`` -> ``validFrom``; names already in camelCase are kept."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def wire_fields(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """Keyword arguments as JSON fields: camelCase names, instants as text, None dropped."""
    out: Dict[str, Any] = {}
    for name, value in fields.items():
        if value is None:
            continue
        out[camel(name)] = instant(value) if isinstance(value, (datetime, date)) else value
    return out


def nullable_fields(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """Like ``wire_fields`` but None is kept (sent as null): in an update None clears a field, and in a
    purge filter the server refuses it rather than the filter silently widening."""
    return {camel(name): (instant(value) if isinstance(value, (datetime, date)) else value) for name, value in fields.items()}


def add_params(params: Params, name: str, value: Any) -> None:
    if value is None:
        return
    if isinstance(value, (list, tuple)):
        for item in value:
            params.append((name, str(item)))
    elif isinstance(value, bool):
        params.append((name, "true" if value else "false"))
    elif isinstance(value, (datetime, date)):
        params.append((name, str(instant(value))))
    else:
        params.append((name, str(value)))


M = TypeVar("M", bound=BaseModel)


def model(cls: Type[M]) -> Callable[[Any], M]:
    return cls.model_validate


# ---------------------------------------------------------------------------------------------------
# The calls, one builder per method of the clients


def remember_call(scope: str, content: str, fields: Mapping[str, Any]) -> Call[RememberResult]:
    return Call("POST", "/v1/memories", model(RememberResult), json={"scope": scope, "content": content, **wire_fields(fields)})


def remember_many_call(memories: Iterable[Mapping[str, Any]]) -> Call[List[RememberResult]]:
    body = [wire_fields(m) for m in memories]
    return Call("POST", "/v1/memories", lambda data: [RememberResult.model_validate(item) for item in data], json=body)


def recall_call(query: str, scopes: Scopes, k: int, as_of: Optional[Instant], known_at: Optional[Instant], options: Mapping[str, Any]) -> Call[RecallResult]:
    body = {"query": query, "scopes": scope_list(scopes), "k": k, **wire_fields({"as_of": as_of, "known_at": known_at, **options})}
    return Call("POST", "/v1/recall", model(RecallResult), json=body)


def context_call(message: str, scopes: Scopes, options: Mapping[str, Any]) -> Call[StructuredContext]:
    return Call("POST", "/v1/context", model(StructuredContext), json={"scopes": scope_list(scopes), "message": message, **wire_fields(options)})


def get_call(memory_id: str, scopes: Scopes) -> Call[Memory]:
    params: Params = []
    add_params(params, "scopes", scope_list(scopes))
    return Call("GET", f"/v1/memories/{_id(memory_id)}", model(Memory), params=params)


def update_call(memory_id: str, scope: str, changes: Mapping[str, Any]) -> Call[Memory]:
    return Call("PATCH", f"/v1/memories/{_id(memory_id)}", model(Memory), json={"scope": scope, **nullable_fields(changes)})


def by_id_write_call(method: str, memory_id: str, action: str, scope: str) -> Call[Memory]:
    path = f"/v1/memories/{_id(memory_id)}" + (f"/{action}" if action else "")
    return Call(method, path, model(Memory), json={"scope": scope})


def list_call(filters: Mapping[str, Any]) -> Call[MemoryPage]:
    params: Params = []
    names = {"scopes": "scope", "layers": "layer", "statuses": "status"}
    for name, value in filters.items():
        if name in ("scopes", "scope") and isinstance(value, str):
            value = [value]
        add_params(params, names.get(name, camel(name)), value)
    return Call("GET", "/v1/memories", model(MemoryPage), params=params)


def scopes_call() -> Call[List[ScopeSummary]]:
    return Call("GET", "/v1/scopes", lambda data: ScopeList.model_validate(data).scopes)


def purge_call(scope: str, ids: Optional[Sequence[str]], filter: Optional[Mapping[str, Any]], confirm: bool) -> Call[PurgeResult]:
    body: Dict[str, Any] = {"scope": scope, "confirm": confirm}
    if ids is not None:
        body["ids"] = list(ids)
    if filter is not None:
        # None stays null, which the server refuses: dropped, {"tag": None} would become {} (the whole scope)
        body["filter"] = nullable_fields(filter)
    return Call("POST", "/v1/purge", model(PurgeResult), json=body)


def stats_call(scopes: Scopes) -> Call[Stats]:
    return Call("POST", "/v1/stats", model(Stats), json={"scopes": scope_list(scopes)})


def consolidate_call(scope: str, phases: Optional[Sequence[str]]) -> Call[ConsolidationReport]:
    body: Dict[str, Any] = {"scope": scope}
    if phases is not None:
        body["phases"] = list(phases)
    return Call("POST", "/v1/consolidate", model(ConsolidationReport), json=body)


def end_session_call(scope: str, session_id: str) -> Call[ConsolidationReport]:
    return Call("POST", "/v1/sessions/end", model(ConsolidationReport), json={"scope": scope, "sessionId": session_id})


def health_call() -> Call[Health]:
    return Call("GET", "/health", model(Health))


def export_params(scopes: Scopes, embeddings: bool) -> Params:
    params: Params = []
    add_params(params, "scope", scope_list(scopes))
    if embeddings:
        add_params(params, "embeddings", True)
    return params


def import_report(data: Any) -> ImportReport:
    return ImportReport.model_validate(data)


def _id(memory_id: str) -> str:
    """A memory id as one path segment: percent-encoded, so ``?``, ``#`` or ``/`` in it cannot reach
    another memory or another route."""
    if not isinstance(memory_id, str) or memory_id == "":
        raise invalid_input(f"a memory id must be a non-empty string, not {type(memory_id).__name__ if not isinstance(memory_id, str) else 'an empty one'}.")
    try:
        segment = quote(memory_id, safe="")
    except UnicodeEncodeError as error:
        raise invalid_input("the memory id is not valid UTF-8 text (it holds a lone surrogate).") from error
    # httpx drops "." and ".." segments (dot-segment removal), so they are sent encoded
    return segment.replace(".", "%2E") if segment.strip(".") == "" else segment


# ---------------------------------------------------------------------------------------------------
# Values the wire cannot carry: refused before sending


def invalid_input(message: str) -> EngramError:
    return EngramError("INVALID_INPUT", message)


def json_body(value: Any) -> bytes:
    """``value`` as UTF-8 JSON; a NaN or infinite number, a lone surrogate or a value JSON has no form for
    raises ``EngramError`` INVALID_INPUT naming the field (never its value: it may be memory text)."""
    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")
    except (ValueError, TypeError) as error:
        raise invalid_input(f"{json_problem(value, '') or 'the request'} cannot be sent as JSON: {_problem_kind(error)}.") from error


def _problem_kind(error: Exception) -> str:
    if isinstance(error, UnicodeEncodeError):
        return "it holds a lone surrogate, which is not valid UTF-8 text (decode the text with errors='replace' first)"
    if isinstance(error, TypeError):
        return "the value has no JSON form (give str, int, float, bool, None, lists and dicts)"
    if "ircular" in str(error):
        return "it contains itself"
    return "NaN and infinite numbers have no JSON form (give a finite number)"


def json_problem(value: Any, where: str, seen: Optional[set] = None) -> Optional[str]:
    """The path of the first value in ``value`` JSON cannot carry (``importance``, ``[2].content``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return where or "the value"
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where or "the value"
        return None
    if isinstance(value, (Mapping, list, tuple)):
        seen = set() if seen is None else seen
        if id(value) in seen:
            return where or "the value"
        seen.add(id(value))
        items = value.items() if isinstance(value, Mapping) else enumerate(value)
        for key, item in items:
            path = f"{where}[{key}]" if not isinstance(value, Mapping) else (f"{where}.{key}" if where else str(key))
            found = json_problem(item, path, seen)
            if found:
                return found
        seen.discard(id(value))
        return None
    if value is None or isinstance(value, (bool, int, float)):
        return None
    return where or "the value"


def checked_params(params: Params) -> Params:
    """Query parameters, each UTF-8 text (httpx would raise UnicodeEncodeError mid-request)."""
    for name, value in params:
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as error:
            raise invalid_input(f"{name} cannot be sent: it holds a lone surrogate, which is not valid UTF-8 text.") from error
    return params


# ---------------------------------------------------------------------------------------------------
# NDJSON


NDJSON = "application/x-ndjson"
CHUNK = 64 * 1024


def ndjson_line(item: Union[str, bytes, Mapping[str, Any]]) -> bytes:
    """One line of a dump as bytes ending in a newline: text and bytes as given, a mapping as JSON."""
    if isinstance(item, Mapping):
        data = json_body(item)
    elif isinstance(item, str):
        try:
            data = item.encode("utf-8")
        except UnicodeEncodeError as error:
            raise invalid_input("a dump line cannot be sent: it holds a lone surrogate, which is not valid UTF-8 text.") from error
    elif isinstance(item, (bytes, bytearray)):
        data = bytes(item)
    else:
        raise invalid_input(f"a dump line must be str, bytes or a dict, not {type(item).__name__}.")
    return data if data.endswith(b"\n") else data + b"\n"


def ndjson_chunks(source: Any) -> Iterator[bytes]:
    """The bytes of an NDJSON dump from a path, a file-like object (text or binary) or an iterable of lines."""
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as handle:
            while True:
                chunk = handle.read(CHUNK)
                if not chunk:
                    return
                yield chunk
    elif hasattr(source, "read"):
        while True:
            chunk = source.read(CHUNK)
            if not chunk:
                return
            yield chunk.encode("utf-8") if isinstance(chunk, str) else bytes(chunk)
    elif isinstance(source, (bytes, bytearray)):
        yield bytes(source)
    else:
        for item in source:
            yield ndjson_line(item)
