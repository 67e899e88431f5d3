"""Every method of the sync client against a real `engram serve` (SQLite, and PostgreSQL when configured)."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Iterator

import pytest

from engram_client import EngramClient, EngramError, Memory, RecallResult, RememberResult


@pytest.fixture
def engram(server) -> Iterator[EngramClient]:
    with EngramClient(server.url, api_key=server.key, timeout=30) as client:
        yield client


def test_remember_recall_get(engram: EngramClient, scope: str) -> None:
    first = engram.remember(scope, "Alice prefers window seats on long flights.", layer="semantic", tags=["travel"], importance=0.8)
    assert isinstance(first, RememberResult)
    assert first.action == "created"
    engram.remember(scope, "The team dog Biscuit is a golden retriever.", entities=["Biscuit"])

    result = engram.recall("window seats flights", scopes=[scope], k=5)
    assert isinstance(result, RecallResult)
    top = result.hits[0]
    assert top.id == first.id
    assert top.content == "Alice prefers window seats on long flights."
    assert 0 <= top.relevance <= 1
    assert top.why.channels, "each hit says why it was returned"
    assert top.tags == ["travel"]
    assert all(hit.scope == scope for hit in result.hits)

    got = engram.get(first.id, scopes=scope)
    assert isinstance(got, Memory)
    assert got.layer == "semantic"
    assert got.importance == 0.8
    assert got.recorded_at is not None and got.recorded_at.tzinfo is not None


def test_remember_fields_in_snake_case_and_time_travel(engram: EngramClient, scope: str) -> None:
    old = engram.remember(scope, "The office is in Leeds.", layer="semantic", valid_from=datetime(2020, 1, 1, tzinfo=timezone.utc), valid_to="2023-01-01")
    assert old.action == "created"
    memory = engram.get(old.id, scopes=[scope])
    assert memory.valid_from == datetime(2020, 1, 1, tzinfo=timezone.utc)
    assert memory.valid_to == datetime(2023, 1, 1, tzinfo=timezone.utc)
    # now the claim is no longer valid; in 2021 it was
    assert all(hit.id != old.id for hit in engram.recall("office Leeds", scopes=[scope]).hits)
    assert [hit.id for hit in engram.recall("office Leeds", scopes=[scope], as_of="2021-06-01").hits] == [old.id]


def test_remember_many_is_atomic(engram: EngramClient, scope: str) -> None:
    results = engram.remember_many([{"scope": scope, "content": "one"}, {"scope": scope, "content": "two", "layer": "episodic"}])
    assert [r.action for r in results] == ["created", "created"]
    with pytest.raises(EngramError) as caught:
        engram.remember_many([{"scope": scope, "content": "three"}, {"scope": scope, "content": ""}])
    assert caught.value.code == "INVALID_INPUT"
    assert engram.stats(scopes=[scope]).total == 2


def test_context(engram: EngramClient, scope: str) -> None:
    engram.remember(scope, "Always answer in British English.", layer="procedural")
    engram.remember(scope, "Alice prefers concise answers with code first.", layer="semantic")
    context = engram.context("How should I answer Alice?", scopes=[scope], max_tokens=400, budget_ms=10_000)  # no part skipped on a loaded machine
    assert "British English" in context.markdown
    assert context.parts.rules.items[0]["content"] == "Always answer in British English."
    assert context.max_tokens == 400
    assert context.tokens > 0


def test_update_forget_restore(engram: EngramClient, scope: str) -> None:
    created = engram.remember(scope, "Bob owns the deploy checklist.", layer="semantic")
    updated = engram.update(created.id, scope=scope, importance=0.9, tags=["ops"], pinned=True)
    assert (updated.importance, updated.tags, updated.pinned) == (0.9, ["ops"], True)
    cleared = engram.update(created.id, scope=scope, valid_to=None, summary=None)
    assert cleared.valid_to is None and cleared.summary is None

    forgotten = engram.forget(created.id, scope=scope)
    assert forgotten.status == "deleted"
    assert all(hit.id != created.id for hit in engram.recall("deploy checklist", scopes=[scope]).hits)
    restored = engram.restore(created.id, scope=scope)
    assert restored.status == "active"
    assert engram.recall("deploy checklist", scopes=[scope]).hits[0].id == created.id


def test_supersession_and_unsupersede(engram: EngramClient, scope: str) -> None:
    old = engram.remember(scope, "The deploy target is staging.", layer="semantic")
    new = engram.remember(scope, "The deploy target moved from staging to production.", layer="semantic")
    if new.action != "superseded":
        pytest.skip("the hash embedder did not link these claims (supersession is covered by the engine's own tests)")
    assert new.superseded == [old.id]
    assert engram.get(old.id, scopes=[scope]).status == "superseded"
    assert engram.unsupersede(old.id, scope=scope).status == "active"


def test_list_and_iter_list_follow_the_cursor(engram: EngramClient, scope: str) -> None:
    ids = [r.id for r in engram.remember_many([{"scope": scope, "content": f"note {i}", "layer": "episodic"} for i in range(7)])]
    page = engram.list(scopes=[scope], limit=3)
    assert len(page.items) == 3 and page.next_cursor is not None
    assert [m.id for m in page.items] == list(reversed(ids))[:3]  # newest first
    second = engram.list(scopes=[scope], limit=3, cursor=page.next_cursor)
    assert [m.id for m in second.items] == list(reversed(ids))[3:6]

    seen = [m.id for m in engram.iter_list(scopes=scope, page_size=2, order="asc")]
    assert seen == ids, "every memory once, in order, across four pages"
    assert [m.id for m in engram.iter_list(scopes=scope, text="note 3")] == [ids[3]]
    assert list(engram.iter_list(scopes=scope, layers=["semantic"])) == []


def test_scopes_and_stats(engram: EngramClient, scope: str) -> None:
    engram.remember(scope, "a fact", layer="semantic")
    engram.remember(scope, "an event", layer="episodic")
    summaries = {s.scope: s for s in engram.scopes()}
    assert summaries[scope].total == 2
    assert (summaries[scope].by_layer["semantic"], summaries[scope].by_layer["episodic"]) == (1, 1)
    assert all(name.startswith("acme/") for name in summaries), "a key sees its own tenant only"
    stats = engram.stats(scopes=scope)
    assert stats.total == 2 and stats.by_layer["semantic"] == 1
    assert stats.embedder.startswith("hash")


def test_purge(engram: EngramClient, scope: str) -> None:
    keep = engram.remember(scope, "keep me", layer="semantic")
    drop = engram.remember(scope, "drop me", layer="semantic")
    with pytest.raises(EngramError) as caught:
        engram.purge(scope, ids=[drop.id])
    assert (caught.value.code, caught.value.status) == ("INVALID_INPUT", 400)
    result = engram.purge(scope, ids=[drop.id], confirm=True)
    assert result.purged == 1 and result.removed.records == 1 and result.audit_id
    assert result.removed.states == 0
    with pytest.raises(EngramError) as gone:
        engram.get(drop.id, scopes=[scope])
    assert (gone.value.code, gone.value.status) == ("NOT_FOUND", 404)
    assert engram.get(keep.id, scopes=[scope]).status == "active"


def test_consolidate_and_end_session(engram: EngramClient, scope: str) -> None:
    engram.remember(scope, "Grasped the mug; it worked.", layer="episodic")
    report = engram.consolidate(scope)
    assert report.scope == scope and report.phases
    ended = engram.end_session(scope, "session-1")
    assert ended.trigger == "session-end" and ended.session_id == "session-1"


def test_bad_input_is_an_engram_error_with_code_and_status(engram: EngramClient, scope: str) -> None:
    with pytest.raises(EngramError) as empty:
        engram.remember(scope, "   ")
    assert (empty.value.code, empty.value.status) == ("INVALID_INPUT", 400)
    assert "content" in empty.value.message
    with pytest.raises(EngramError) as layer:
        engram.remember(scope, "x", layer="dreams")
    assert layer.value.status == 400
    with pytest.raises(EngramError) as no_scopes:
        engram.recall("anything", scopes=[])
    assert no_scopes.value.code == "INVALID_INPUT"
    with pytest.raises(EngramError) as missing:
        engram.get("01JBQZ8N5W3M6Y0D2R7K4T9XVA", scopes=[scope])
    assert (missing.value.code, missing.value.status) == ("NOT_FOUND", 404)
    with pytest.raises(EngramError) as foreign:
        engram.recall("anything", scopes=["globex/shared"])
    assert (foreign.value.code, foreign.value.status) == ("SCOPE_DENIED", 403)


def test_auth(server, scope: str) -> None:
    with EngramClient(server.url, api_key="ek_not-a-real-key") as wrong:
        with pytest.raises(EngramError) as caught:
            wrong.stats(scopes=[scope])
    assert (caught.value.code, caught.value.status) == ("UNAUTHORIZED", 401)
    with EngramClient(server.url, api_key="") as none:
        with pytest.raises(EngramError) as missing:
            none.stats(scopes=[scope])
    assert missing.value.status == 401
    with EngramClient(server.url, api_key=server.other_key) as globex:
        with pytest.raises(EngramError) as denied:
            globex.stats(scopes=[scope])
        assert (denied.value.code, denied.value.status) == ("SCOPE_DENIED", 403)
        assert all(s.scope.startswith("globex/") for s in globex.scopes())
    with EngramClient(server.url, api_key=server.key) as acme:
        assert acme.health().status == "ok"


def test_api_key_from_the_environment(server, scope: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ENGRAM_API_KEY", server.key)
    with EngramClient(server.url) as engram:
        assert engram.stats(scopes=[scope]).total == 0


def test_connection_failure_is_an_engram_error() -> None:
    with EngramClient("http://127.0.0.1:9", max_retries=1, timeout=2) as engram:
        with pytest.raises(EngramError) as caught:
            engram.health()
    assert caught.value.code == "CONNECTION_FAILED" and caught.value.status is None
