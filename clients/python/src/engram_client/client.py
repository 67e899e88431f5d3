"""The synchronous client."""

from __future__ import annotations

import io
import itertools
import os
import time
from pathlib import Path
from typing import IO, Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Union, overload

import httpx

from . import _core
from ._core import DEFAULT_BASE_URL, Call, Instant, RetryPolicy, Scopes, T
from ._version import __version__
from .models import ConsolidationReport, Health, ImportReport, Memory, MemoryPage, PurgeResult, RecallResult, RememberResult, ScopeSummary, Stats, StructuredContext

#: A dump to import: a path, a file opened for reading (text or binary), bytes, or an iterable of lines.
DumpSource = Union[str, Path, IO[str], IO[bytes], bytes, Iterable[Union[str, bytes, Mapping[str, Any]]]]


class EngramClient(_core.ClientBase):
    """A client of the Engram HTTP API (``engram serve``).

    >>> from engram_client import EngramClient
    >>> with EngramClient(api_key="ek_...") as engram:  # doctest: +SKIP
    ...     engram.remember("acme/users/alice", "Alice prefers concise answers.", layer="semantic")
    ...     hits = engram.recall("How does Alice like answers?", scopes=["acme/users/alice"]).hits

    ``api_key`` defaults to ``$ENGRAM_API_KEY``; it is sent as ``Authorization: Bearer <key>``.
    Answers 429 and 503 (and failures to connect) are retried up to ``max_retries`` times with
    backoff, honouring ``Retry-After``. Every other error raises :class:`EngramError`.
    """

    def __init__(
        self,
        base_url: str = DEFAULT_BASE_URL,
        api_key: Optional[str] = None,
        timeout: float = 30,
        *,
        max_retries: int = 3,
        retry: Optional[RetryPolicy] = None,
        headers: Optional[Mapping[str, str]] = None,
        http_client: Optional[httpx.Client] = None,
    ) -> None:
        super().__init__(base_url, api_key, max_retries, retry, headers, __version__)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client(timeout=timeout)

    # -- lifecycle -------------------------------------------------------------------------------

    def close(self) -> None:
        """Closes the connection pool (only when this client created it)."""
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> "EngramClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- memories ----------------------------------------------------------------------------------

    def remember(self, scope: str, content: str, **fields: Any) -> RememberResult:
        """Stores one memory in ``scope``; ``fields`` are any other input fields (``layer``, ``tags``,
        ``importance``, ``valid_from``…, snake_case or camelCase). Returns what happened: created,
        merged, superseded or unchanged."""
        return self._send(_core.remember_call(scope, content, fields))

    def remember_many(self, memories: Iterable[Mapping[str, Any]]) -> List[RememberResult]:
        """Stores a batch atomically (each a dict with ``scope``, ``content`` and other fields)."""
        return self._send(_core.remember_many_call(memories))

    def recall(self, query: str, *, scopes: Scopes, k: int = 10, as_of: Optional[Instant] = None, known_at: Optional[Instant] = None, **options: Any) -> RecallResult:
        """The memories most relevant to ``query`` in ``scopes``, best first; each hit says ``why``.
        ``as_of``: what was true then; ``known_at``: what was believed then. Other options: ``layers``,
        ``include_superseded``, ``weights``, ``reference_time``, ``track_access``."""
        return self._send(_core.recall_call(query, scopes, k, as_of, known_at, options))

    def context(self, message: str, *, scopes: Scopes, **options: Any) -> StructuredContext:
        """The context of a turn within a time and token budget (``budget_ms``, ``max_tokens``,
        ``episodes``, ``percept``); ``.markdown`` is ready for a prompt."""
        return self._send(_core.context_call(message, scopes, options))

    def get(self, id: str, *, scopes: Scopes) -> Memory:
        """One memory by id (any status), if it lives in one of ``scopes``."""
        return self._send(_core.get_call(id, scopes))

    def update(self, id: str, *, scope: str, **changes: Any) -> Memory:
        """Changes fields in place (``content``, ``importance``, ``tags``, ``pinned``, ``valid_to``…;
        None clears a nullable field)."""
        return self._send(_core.update_call(id, scope, changes))

    def forget(self, id: str, *, scope: str) -> Memory:
        """Forgets a memory (soft delete: status ``deleted``; ``restore`` brings it back)."""
        return self._send(_core.by_id_write_call("DELETE", id, "", scope))

    def restore(self, id: str, *, scope: str) -> Memory:
        """Restores a forgotten or decayed memory."""
        return self._send(_core.by_id_write_call("POST", id, "restore", scope))

    def unsupersede(self, id: str, *, scope: str) -> Memory:
        """Undoes a wrong supersession: the claim is current again."""
        return self._send(_core.by_id_write_call("POST", id, "unsupersede", scope))

    # -- browse ------------------------------------------------------------------------------------

    def list(self, *, scopes: Optional[Scopes] = None, limit: Optional[int] = None, cursor: Optional[str] = None, **filters: Any) -> MemoryPage:
        """One page of stored memories (not ranked), newest first by default. Filters: ``layers``,
        ``statuses``, ``tag``, ``entity``, ``text``, ``valid_from``/``valid_to``, ``recorded_from``/
        ``recorded_to``, ``as_of``, ``known_at``, ``sort``, ``order``. Pass ``next_cursor`` back as ``cursor``."""
        return self._send(_core.list_call({"scopes": scopes, "limit": limit, "cursor": cursor, **filters}))

    def iter_list(self, *, scopes: Optional[Scopes] = None, page_size: int = 100, **filters: Any) -> Iterator[Memory]:
        """Every memory ``list`` would page through, following the keyset cursor lazily."""
        cursor: Optional[str] = None
        while True:
            page = self.list(scopes=scopes, limit=page_size, cursor=cursor, **filters)
            yield from page.items
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    def scopes(self) -> List[ScopeSummary]:
        """The scopes this client may see that hold memories, with counts by layer and status."""
        return self._send(_core.scopes_call())

    def purge(self, scope: str, *, ids: Optional[Sequence[str]] = None, filter: Optional[Mapping[str, Any]] = None, confirm: bool = False) -> PurgeResult:
        """Deletes for good (the only hard delete): ``ids``, records matching ``filter``, or, with
        neither (or ``filter={}``), the whole scope. Nothing happens unless ``confirm=True``. A None
        in ``filter`` is sent as null and refused, never dropped."""
        return self._send(_core.purge_call(scope, ids, filter, confirm))

    def stats(self, *, scopes: Scopes) -> Stats:
        """Counts by layer and status within ``scopes``."""
        return self._send(_core.stats_call(scopes))

    # -- consolidation -----------------------------------------------------------------------------

    def consolidate(self, scope: str, *, phases: Optional[Sequence[str]] = None) -> ConsolidationReport:
        """Runs the sleep cycle on ``scope`` and returns its report."""
        return self._send(_core.consolidate_call(scope, phases))

    def end_session(self, scope: str, session_id: str) -> ConsolidationReport:
        """Ends a session: the mandatory consolidation of the scope, reflection included."""
        return self._send(_core.end_session_call(scope, session_id))

    def health(self) -> Health:
        """``GET /health`` (needs no key)."""
        return self._send(_core.health_call())

    # -- dump and restore ----------------------------------------------------------------------------

    @overload
    def export_jsonl(self, scopes: Scopes, to: None = None, *, embeddings: bool = False) -> Iterator[str]: ...
    @overload
    def export_jsonl(self, scopes: Scopes, to: Union[str, Path, IO[str], IO[bytes]], *, embeddings: bool = False) -> int: ...

    def export_jsonl(self, scopes: Scopes, to: Optional[Union[str, Path, IO[str], IO[bytes]]] = None, *, embeddings: bool = False) -> Union[Iterator[str], int]:
        """A lossless dump of ``scopes`` (``GET /v1/export``), streamed line by line. With ``to`` (a path
        or a file opened for writing) the lines are written there and their count returned; without,
        an iterator over the lines (JSON text, without the newline) is returned."""
        lines = self._stream_lines(_core.export_params(scopes, embeddings))
        if to is None:
            return lines
        count = 0
        if isinstance(to, (str, Path)):
            # written beside it and moved in place when whole: a failed export leaves no file (nor a clobbered one)
            partial = Path(f"{to}.partial")
            try:
                with open(partial, "wb") as handle:
                    for line in lines:
                        handle.write(line.encode("utf-8") + b"\n")
                        count += 1
                os.replace(partial, to)
            finally:
                partial.unlink(missing_ok=True)
            return count
        text = isinstance(to, io.TextIOBase)
        for line in lines:
            to.write(line + "\n" if text else line.encode("utf-8") + b"\n")  # type: ignore[arg-type]
            count += 1
        return count

    def import_jsonl(self, source: DumpSource) -> ImportReport:
        """Restores a dump (``POST /v1/import``, streamed): ``source`` is a path, a file opened for
        reading, bytes, or an iterable of lines (text, bytes or dicts). Returns the server's report."""
        reopenable = isinstance(source, (str, Path, bytes))
        content = (lambda: _core.ndjson_chunks(source))
        return self._send(
            Call("POST", "/v1/import", _core.import_report),
            content=content,
            content_type=_core.NDJSON,
            retries=self._retry.max_retries if reopenable else 0,
        )

    # -- transport ---------------------------------------------------------------------------------

    def _send(self, call: Call[T], *, content: Any = None, content_type: Optional[str] = None, retries: Optional[int] = None) -> T:
        attempts = self._retry.max_retries if retries is None else retries
        for attempt in itertools.count():
            try:
                response = self._http.request(**self._request(call, content, content_type))
            except httpx.TransportError as error:
                time.sleep(self._transport_delay(error, attempt, attempts))
                continue
            delay = self._retry_delay(response, attempt, attempts)
            if delay is None:
                return self._answer(call, response)
            time.sleep(delay)
        raise AssertionError("unreachable")

    def _stream_lines(self, params: _core.Params) -> Iterator[str]:
        attempts = self._retry.max_retries
        for attempt in itertools.count():
            try:
                with self._http.stream(**self._export_request(params)) as response:
                    delay = self._retry_delay(response, attempt, attempts)
                    if delay is None:
                        if response.status_code >= 400:
                            raise _core.error_from_response(response, response.read())
                        dump = _core.DumpLines(response.status_code)
                        for line in response.iter_lines():
                            if line.strip():
                                yield dump.check(line)
                        dump.finish()
                        return
            except httpx.TransportError as error:
                delay = self._transport_delay(error, attempt, attempts)
            time.sleep(delay)
