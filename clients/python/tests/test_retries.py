"""Retries against a tiny local HTTP server that answers 429 / 503 before 200: bounded, with backoff,
honouring Retry-After; other errors are not retried."""

from __future__ import annotations

import time
from typing import Iterator, List, Tuple

import httpx
import pytest

from engram_client import AsyncEngramClient, EngramClient, EngramError, RetryPolicy

STATS = {"scopes": ["acme/a"], "embedder": "hash:64", "total": 3, "byLayer": {"episodic": 3}, "concepts": 0, "byStatus": {"active": 3}, "edges": 0}


class Script:
    """The answers to give, in order (the last one repeats), and the requests seen."""

    def __init__(self) -> None:
        self.answers: List[Tuple[int, dict, dict]] = []
        self.requests: List[Tuple[str, str, dict]] = []


@pytest.fixture
def scripted(local_server) -> Iterator[Tuple[str, Script]]:
    script = Script()

    def answer(handler) -> Tuple[int, dict, dict]:
        script.requests.append((handler.command, handler.path, {k.lower(): v for k, v in handler.headers.items()}))
        return script.answers[min(len(script.requests), len(script.answers)) - 1]

    yield local_server(answer), script


def busy(retry_after: str = "0") -> Tuple[int, dict, dict]:
    return 503, {"retry-after": retry_after}, {"error": {"code": "BUSY", "message": "The store is busy: retry after 1 s."}}


RATE_LIMITED = (429, {"retry-after": "0"}, {"error": {"code": "RATE_LIMITED", "message": "Too many requests."}})
FAST = RetryPolicy(max_retries=3, backoff=0.01, max_backoff=0.05)


def test_429_then_200_is_retried(scripted) -> None:
    url, script = scripted
    script.answers = [RATE_LIMITED, busy(), (200, {}, STATS)]
    with EngramClient(url, api_key="k", retry=FAST) as engram:
        stats = engram.stats(scopes=["acme/a"])
    assert stats.total == 3
    assert len(script.requests) == 3
    assert all(headers.get("authorization") == "Bearer k" for _, _, headers in script.requests)


def test_retry_after_is_honoured(scripted) -> None:
    url, script = scripted
    script.answers = [busy("1"), (200, {}, STATS)]
    started = time.monotonic()
    with EngramClient(url, retry=FAST) as engram:
        engram.stats(scopes=["acme/a"])
    assert time.monotonic() - started >= 0.95, "waited the server's Retry-After (1 s), not the 10 ms backoff"


def test_retries_are_bounded(scripted) -> None:
    url, script = scripted
    script.answers = [busy()]
    with EngramClient(url, retry=RetryPolicy(max_retries=2, backoff=0.01)) as engram:
        with pytest.raises(EngramError) as caught:
            engram.stats(scopes=["acme/a"])
    assert (caught.value.code, caught.value.status, caught.value.retry_after) == ("BUSY", 503, 0)
    assert len(script.requests) == 3, "one try and two retries"


def test_client_errors_are_not_retried(scripted) -> None:
    url, script = scripted
    script.answers = [(400, {}, {"error": {"code": "INVALID_INPUT", "message": "Invalid input: k: too big", "details": {"field": "k"}}})]
    with EngramClient(url, retry=FAST) as engram:
        with pytest.raises(EngramError) as caught:
            engram.recall("x", scopes=["acme/a"], k=5000)
    assert caught.value.details == {"field": "k"}
    assert len(script.requests) == 1


def test_an_error_answer_that_is_not_an_engram_error_is_invalid_response(scripted) -> None:
    url, script = scripted
    for status, body in [
        (502, b"<html><body>Bad gateway</body></html>"),
        (404, b"File not found"),
        (500, "not an object"),
        (400, {"error": "a string, not the server's error object"}),
        (400, {"error": {"code": "INVALID_INPUT"}}),
    ]:
        script.answers = [(status, {"content-type": "text/html"} if isinstance(body, bytes) else {}, body)]
        with EngramClient(url, retry=FAST) as engram:
            with pytest.raises(EngramError) as caught:
                engram.health()
        assert (caught.value.code, caught.value.status) == ("INVALID_RESPONSE", status), body
        assert str(status) in caught.value.message
    # the server's own error body keeps its code
    script.answers = [(404, {}, {"error": {"code": "NOT_FOUND", "message": "No memory 01X in acme/a."}})]
    with EngramClient(url, retry=FAST) as engram:
        with pytest.raises(EngramError) as caught:
            engram.health()
    assert (caught.value.code, caught.value.status, caught.value.message) == ("NOT_FOUND", 404, "No memory 01X in acme/a.")


def test_a_streamed_import_from_an_iterable_is_not_retried(scripted) -> None:
    url, script = scripted
    script.answers = [busy()]
    with EngramClient(url, retry=FAST) as engram:
        with pytest.raises(EngramError):
            engram.import_jsonl(iter(['{"format":"engram-dump","version":1}']))
    assert len(script.requests) == 1, "the lines were consumed: sending them again would send nothing"


async def test_async_client_retries_too(scripted) -> None:
    url, script = scripted
    script.answers = [RATE_LIMITED, (200, {}, STATS)]
    async with AsyncEngramClient(url, retry=FAST) as engram:
        stats = await engram.stats(scopes="acme/a")
    assert stats.by_layer == {"episodic": 3}
    assert len(script.requests) == 2


def test_policy_reads_retry_after_as_seconds_or_a_date() -> None:
    policy = RetryPolicy(max_retries=3, backoff=0.5, max_retry_after=30)
    request = httpx.Request("GET", "http://x")
    assert policy.delay(0, httpx.Response(503, headers={"retry-after": "2"}, request=request)) == 2
    assert policy.delay(0, httpx.Response(503, headers={"retry-after": "3600"}, request=request)) == 30, "capped"
    assert policy.delay(0, httpx.Response(503, headers={"retry-after": "Wed, 21 Oct 2015 07:28:00 GMT"}, request=request)) == 0, "a past date: now"
    for attempt in range(6):
        assert 0 < policy.delay(attempt) <= policy.max_backoff
    assert policy.delay(0) <= 0.5 and policy.delay(3) >= 2, "backoff doubles: 0.25-0.5 s, then 2-4 s at the fourth try"
