"""What the client refuses or reports instead of guessing: a None in a purge filter, ids that are not one
path segment, values JSON or UTF-8 cannot carry, and answers of the wrong shape. Each is an EngramError,
and none of them changes a record it was not meant to."""

from __future__ import annotations

from typing import Any, Dict, Iterator

import pytest

from engram_client import AsyncEngramClient, EngramClient, EngramError


@pytest.fixture
def engram(server) -> Iterator[EngramClient]:
    with EngramClient(server.url, api_key=server.key, timeout=30) as client:
        yield client


def test_a_none_in_a_purge_filter_is_refused_not_dropped(engram: EngramClient, scope: str) -> None:
    engram.remember_many([{"scope": scope, "content": f"important record {i}", "layer": "semantic", "tags": ["keep"]} for i in range(3)])
    engram.remember(scope, "scratch note", layer="semantic", tags=["scratch"])
    for unset in ({"tag": None}, {"tag": None, "layers": None}, {"valid_from": None}):
        with pytest.raises(EngramError) as caught:
            engram.purge(scope, filter=unset, confirm=True)
        assert (caught.value.code, caught.value.status) == ("INVALID_INPUT", 400), unset
    assert engram.stats(scopes=[scope]).total == 4, "nothing purged"

    assert engram.purge(scope, filter={"tag": "scratch"}, confirm=True).purged == 1
    assert engram.purge(scope, filter={"valid_from": "2000-01-01", "layers": ["semantic"]}, confirm=True).purged == 3, "names and instants still converted"


def test_an_explicit_empty_purge_filter_is_the_whole_scope(engram: EngramClient, scope: str) -> None:
    engram.remember_many([{"scope": scope, "content": f"note {i}"} for i in range(2)])
    assert engram.purge(scope, filter={}, confirm=True).purged == 2, "filter={} is the browse filter without conditions, as on the server"


async def test_the_async_purge_keeps_none_too(server, scope: str) -> None:
    async with AsyncEngramClient(server.url, api_key=server.key) as engram:
        await engram.remember(scope, "keep me", layer="semantic")
        with pytest.raises(EngramError) as caught:
            await engram.purge(scope, filter={"tag": None}, confirm=True)
        assert caught.value.status == 400
        assert (await engram.stats(scopes=[scope])).total == 1


@pytest.mark.parametrize("suffix", ["#typo", "?x=1", "?scopes=acme", "/restore", "%23x"])
def test_an_id_is_one_path_segment(engram: EngramClient, scope: str, suffix: str) -> None:
    memory = engram.remember(scope, "Kim's secret note", layer="semantic")
    before = engram.get(memory.id, scopes=[scope])
    with pytest.raises(EngramError) as read:
        engram.get(memory.id + suffix, scopes=[scope])
    assert read.value.status in (400, 404)
    with pytest.raises(EngramError) as forgot:
        engram.forget(memory.id + suffix, scope=scope)
    assert forgot.value.status in (400, 404)
    with pytest.raises(EngramError):
        engram.update(memory.id + suffix, scope=scope, importance=0.1)
    kept = engram.get(memory.id, scopes=[scope])
    assert (kept.status, kept.importance) == ("active", before.importance), "the real memory was neither forgotten nor updated"


@pytest.mark.parametrize("bad", ["..", ".", "%2e%2e", "a/b"])
def test_dot_segments_and_slashes_reach_no_other_route(engram: EngramClient, scope: str, bad: str) -> None:
    engram.remember(scope, "a note", layer="semantic")
    with pytest.raises(EngramError) as caught:
        engram.get(bad, scopes=[scope])
    assert caught.value.status in (400, 404)
    assert caught.value.code in ("INVALID_INPUT", "NOT_FOUND")


def test_an_empty_or_non_text_id_is_refused_before_sending(engram: EngramClient, scope: str) -> None:
    for bad in ("", None, 42):
        with pytest.raises(EngramError) as caught:
            engram.get(bad, scopes=[scope])  # type: ignore[arg-type]
        assert (caught.value.code, caught.value.status) == ("INVALID_INPUT", None)
        assert "memory id" in caught.value.message


def test_values_json_cannot_carry_are_invalid_input(engram: EngramClient, scope: str) -> None:
    secret = "bad \ud800 text"
    cases = [
        (lambda: engram.remember(scope, "z", importance=float("nan")), "importance"),
        (lambda: engram.remember(scope, "z", importance=float("inf")), "importance"),
        (lambda: engram.remember(scope, secret), "content"),
        (lambda: engram.remember_many([{"scope": scope, "content": "ok"}, {"scope": scope, "content": secret}]), "[1].content"),
        (lambda: engram.recall("q", scopes=[scope], weights={"lexical": float("nan")}), "weights.lexical"),
        (lambda: engram.remember(scope, "z", tags={"a"}), "tags"),
        (lambda: engram.get("01JBQZ8N5W3M6Y0D2R7K4T9XVA", scopes=["acme/\udc80"]), "scopes"),
        (lambda: engram.get("01JBQZ8N\ud800", scopes=[scope]), "memory id"),
        (lambda: engram.list(scopes=[scope], text=secret), "text"),
        (lambda: list(engram.export_jsonl(["acme/\udc80"])), "scope"),
        (lambda: engram.import_jsonl([secret]), "dump line"),
        (lambda: engram.recall("q", scopes=[scope, 7]), "scopes"),  # type: ignore[list-item]
    ]
    for call, field in cases:
        with pytest.raises(EngramError) as caught:
            call()
        assert (caught.value.code, caught.value.status) == ("INVALID_INPUT", None), field
        assert field in caught.value.message, (field, caught.value.message)
        assert "bad" not in caught.value.message, "the text itself stays out of the message"
    assert engram.stats(scopes=[scope]).total == 0, "nothing was sent"


async def test_the_async_client_refuses_them_too(server, scope: str) -> None:
    async with AsyncEngramClient(server.url, api_key=server.key) as engram:
        with pytest.raises(EngramError) as caught:
            await engram.remember(scope, "z", importance=float("nan"))
        assert (caught.value.code, caught.value.status) == ("INVALID_INPUT", None)


@pytest.fixture
def stub(local_server) -> Iterator[Dict[str, Any]]:
    """A local HTTP server answering 200 with the JSON in ``answers[path]`` (a proxy or an old server)."""
    answers: Dict[str, Any] = {}
    answers["url"] = local_server(lambda handler: (200, {}, answers.get(handler.path.split("?")[0], {})))
    yield answers


def test_an_answer_of_the_wrong_shape_is_invalid_response(stub: Dict[str, Any]) -> None:
    stub["/health"] = {"status": "ok"}
    stub["/v1/memories"] = {"not": "a list"}
    stub["/v1/scopes"] = ["not", "an", "object"]
    stub["/v1/stats"] = {"total": "many", "content": "memory text"}
    with EngramClient(stub["url"], max_retries=0) as engram:
        for call, path in [
            (engram.health, "GET /health"),
            (lambda: engram.remember_many([{"scope": "acme/a", "content": "x"}]), "POST /v1/memories"),
            (engram.scopes, "GET /v1/scopes"),
            (lambda: engram.stats(scopes="acme/a"), "POST /v1/stats"),
        ]:
            with pytest.raises(EngramError) as caught:
                call()
            assert (caught.value.code, caught.value.status) == ("INVALID_RESPONSE", 200), path
            assert path in caught.value.message
            assert "memory text" not in caught.value.message


async def test_the_async_client_reports_a_wrong_shape_too(stub: Dict[str, Any]) -> None:
    stub["/health"] = {"status": "ok"}
    async with AsyncEngramClient(stub["url"], max_retries=0) as engram:
        with pytest.raises(EngramError) as caught:
            await engram.health()
    assert caught.value.code == "INVALID_RESPONSE"
