"""The async client against the real server: the same calls, awaited, and concurrent use."""

from __future__ import annotations

import asyncio

import pytest

from engram_client import AsyncEngramClient, EngramError


async def test_async_round_trip(server, scope: str) -> None:
    async with AsyncEngramClient(server.url, api_key=server.key) as engram:
        created = await engram.remember(scope, "Carol takes her coffee black.", layer="semantic", tags=["coffee"])
        assert created.action == "created"
        hits = (await engram.recall("coffee black", scopes=[scope])).hits
        assert hits[0].id == created.id and hits[0].why.relevance >= 0
        assert (await engram.get(created.id, scopes=scope)).tags == ["coffee"]
        assert (await engram.update(created.id, scope=scope, importance=0.4)).importance == 0.4
        assert (await engram.forget(created.id, scope=scope)).status == "deleted"
        assert (await engram.restore(created.id, scope=scope)).status == "active"
        context = await engram.context("What coffee does Carol like?", scopes=[scope], budget_ms=10_000)  # a loaded CI machine must not skip parts
        assert "black" in context.markdown
        assert (await engram.stats(scopes=[scope])).total == 1
        assert scope in {s.scope for s in await engram.scopes()}
        purged = await engram.purge(scope, ids=[created.id], confirm=True)
        assert purged.purged == 1


async def test_async_pagination_and_concurrency(server, scope: str) -> None:
    async with AsyncEngramClient(server.url, api_key=server.key) as engram:
        results = await asyncio.gather(*(engram.remember(scope, f"event {i}", layer="episodic") for i in range(6)))
        assert len({r.id for r in results}) == 6
        seen = [m.id async for m in engram.iter_list(scopes=scope, page_size=4)]
        assert sorted(seen) == sorted(r.id for r in results)
        page = await engram.list(scopes=[scope], limit=4)
        assert len(page.items) == 4 and page.next_cursor is not None


async def test_async_errors(server, scope: str) -> None:
    async with AsyncEngramClient(server.url, api_key="ek_wrong") as engram:
        with pytest.raises(EngramError) as caught:
            await engram.stats(scopes=[scope])
    assert (caught.value.code, caught.value.status) == ("UNAUTHORIZED", 401)
    async with AsyncEngramClient(server.url, api_key=server.key) as engram:
        with pytest.raises(EngramError) as bad:
            await engram.recall("x", scopes=[scope], k=0)
    assert (bad.value.code, bad.value.status) == ("INVALID_INPUT", 400)
