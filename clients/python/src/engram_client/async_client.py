"""The asynchronous client: the same methods as :class:`EngramClient`, awaited."""

from __future__ import annotations

import asyncio
import io
import itertools
import os
from pathlib import Path
from typing import IO, Any, AsyncIterator, Dict, Iterable, List, Mapping, Optional, Sequence, Union, overload

import httpx

from . import _core
from ._core import DEFAULT_BASE_URL, Call, Instant, RetryPolicy, Scopes, T
from ._version import __version__
from .client import DumpSource
from .models import ConsolidationReport, Health, ImportReport, Memory, MemoryPage, PurgeResult, RecallResult, RememberResult, ScopeSummary, Stats, StructuredContext


class AsyncEngramClient(_core.ClientBase):
    """The asyncio client of the Engram HTTP API; see :class:`EngramClient` for every method.

    >>> async with AsyncEngramClient(api_key="ek_...") as engram:  # doctest: +SKIP
    ...     result = await engram.recall("What does Alice prefer?", scopes=["acme/users/alice"])
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
        http_client: Optional[httpx.AsyncClient] = None,
    ) -> None:
        super().__init__(base_url, api_key, max_retries, retry, headers, __version__)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient(timeout=timeout)

    async def aclose(self) -> None:
        """Closes the connection pool (only when this client created it)."""
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> "AsyncEngramClient":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def remember(self, scope: str, content: str, **fields: Any) -> RememberResult:
        return await self._send(_core.remember_call(scope, content, fields))

    async def remember_many(self, memories: Iterable[Mapping[str, Any]]) -> List[RememberResult]:
        return await self._send(_core.remember_many_call(memories))

    async def recall(self, query: str, *, scopes: Scopes, k: int = 10, as_of: Optional[Instant] = None, known_at: Optional[Instant] = None, **options: Any) -> RecallResult:
        return await self._send(_core.recall_call(query, scopes, k, as_of, known_at, options))

    async def context(self, message: str, *, scopes: Scopes, **options: Any) -> StructuredContext:
        return await self._send(_core.context_call(message, scopes, options))

    async def get(self, id: str, *, scopes: Scopes) -> Memory:
        return await self._send(_core.get_call(id, scopes))

    async def update(self, id: str, *, scope: str, **changes: Any) -> Memory:
        return await self._send(_core.update_call(id, scope, changes))

    async def forget(self, id: str, *, scope: str) -> Memory:
        return await self._send(_core.by_id_write_call("DELETE", id, "", scope))

    async def restore(self, id: str, *, scope: str) -> Memory:
        return await self._send(_core.by_id_write_call("POST", id, "restore", scope))

    async def unsupersede(self, id: str, *, scope: str) -> Memory:
        return await self._send(_core.by_id_write_call("POST", id, "unsupersede", scope))

    async def list(self, *, scopes: Optional[Scopes] = None, limit: Optional[int] = None, cursor: Optional[str] = None, **filters: Any) -> MemoryPage:
        return await self._send(_core.list_call({"scopes": scopes, "limit": limit, "cursor": cursor, **filters}))

    async def iter_list(self, *, scopes: Optional[Scopes] = None, page_size: int = 100, **filters: Any) -> AsyncIterator[Memory]:
        """Every memory ``list`` would page through: ``async for memory in engram.iter_list(...)``."""
        cursor: Optional[str] = None
        while True:
            page = await self.list(scopes=scopes, limit=page_size, cursor=cursor, **filters)
            for item in page.items:
                yield item
            if page.next_cursor is None:
                return
            cursor = page.next_cursor

    async def scopes(self) -> List[ScopeSummary]:
        return await self._send(_core.scopes_call())

    async def purge(self, scope: str, *, ids: Optional[Sequence[str]] = None, filter: Optional[Mapping[str, Any]] = None, confirm: bool = False) -> PurgeResult:
        return await self._send(_core.purge_call(scope, ids, filter, confirm))

    async def stats(self, *, scopes: Scopes) -> Stats:
        return await self._send(_core.stats_call(scopes))

    async def consolidate(self, scope: str, *, phases: Optional[Sequence[str]] = None) -> ConsolidationReport:
        return await self._send(_core.consolidate_call(scope, phases))

    async def end_session(self, scope: str, session_id: str) -> ConsolidationReport:
        return await self._send(_core.end_session_call(scope, session_id))

    async def health(self) -> Health:
        return await self._send(_core.health_call())

    @overload
    def export_jsonl(self, scopes: Scopes, to: None = None, *, embeddings: bool = False) -> AsyncIterator[str]: ...
    @overload
    def export_jsonl(self, scopes: Scopes, to: Union[str, Path, IO[str], IO[bytes]], *, embeddings: bool = False) -> "asyncio.Future[int]": ...

    def export_jsonl(self, scopes: Scopes, to: Optional[Union[str, Path, IO[str], IO[bytes]]] = None, *, embeddings: bool = False) -> Any:
        """Without ``to``: an async iterator over the dump's lines (``async for line in ...``). With
        ``to`` (a path or a file opened for writing): an awaitable writing the lines there and
        returning their count."""
        lines = self._stream_lines(_core.export_params(scopes, embeddings))
        if to is None:
            return lines
        return asyncio.ensure_future(self._write_lines(lines, to))

    async def import_jsonl(self, source: DumpSource) -> ImportReport:
        """Restores a dump (``POST /v1/import``, streamed); ``source`` as for :meth:`EngramClient.import_jsonl`."""
        reopenable = isinstance(source, (str, Path, bytes))

        async def chunks() -> AsyncIterator[bytes]:
            for chunk in _core.ndjson_chunks(source):
                yield chunk

        return await self._send(
            Call("POST", "/v1/import", _core.import_report),
            content=chunks,
            content_type=_core.NDJSON,
            retries=self._retry.max_retries if reopenable else 0,
        )

    async def _write_lines(self, lines: AsyncIterator[str], to: Union[str, Path, IO[str], IO[bytes]]) -> int:
        count = 0
        if isinstance(to, (str, Path)):
            # written beside it and moved in place when whole: a failed export leaves no file (nor a clobbered one)
            partial = Path(f"{to}.partial")
            try:
                with open(partial, "wb") as handle:
                    async for line in lines:
                        handle.write(line.encode("utf-8") + b"\n")
                        count += 1
                os.replace(partial, to)
            finally:
                partial.unlink(missing_ok=True)
            return count
        text = isinstance(to, io.TextIOBase)
        async for line in lines:
            to.write(line + "\n" if text else line.encode("utf-8") + b"\n")  # type: ignore[arg-type]
            count += 1
        return count

    async def _send(self, call: Call[T], *, content: Any = None, content_type: Optional[str] = None, retries: Optional[int] = None) -> T:
        attempts = self._retry.max_retries if retries is None else retries
        for attempt in itertools.count():
            try:
                response = await self._http.request(**self._request(call, content, content_type))
            except httpx.TransportError as error:
                await asyncio.sleep(self._transport_delay(error, attempt, attempts))
                continue
            delay = self._retry_delay(response, attempt, attempts)
            if delay is None:
                return self._answer(call, response)
            await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def _stream_lines(self, params: _core.Params) -> AsyncIterator[str]:
        attempts = self._retry.max_retries
        for attempt in itertools.count():
            try:
                async with self._http.stream(**self._export_request(params)) as response:
                    delay = self._retry_delay(response, attempt, attempts)
                    if delay is None:
                        if response.status_code >= 400:
                            raise _core.error_from_response(response, await response.aread())
                        dump = _core.DumpLines(response.status_code)
                        async for line in response.aiter_lines():
                            if line.strip():
                                yield dump.check(line)
                        dump.finish()
                        return
            except httpx.TransportError as error:
                delay = self._transport_delay(error, attempt, attempts)
            await asyncio.sleep(delay)
