"""The test session runs a REAL `engram serve` (the repository's built bin, `npm run build` first) on a
free 127.0.0.1 port with the hash embedder: once over a temp SQLite file, and once over a fresh schema of
the PostgreSQL server named by ENGRAM_TEST_PG_URL (skipped, saying so, when it is not set). API keys come
from `engram keys create`, so the server requires them (auth auto) exactly as in production.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

REPO = Path(os.environ.get("ENGRAM_REPO") or Path(__file__).resolve().parents[3])
BIN = Path(os.environ.get("ENGRAM_BIN", REPO / "dist" / "interfaces" / "cli" / "main.js"))
NODE = os.environ.get("NODE", shutil.which("node") or "node")
PG_URL = os.environ.get("ENGRAM_TEST_PG_URL") or None
START_TIMEOUT_S = 90


@dataclass
class Server:
    backend: str
    url: str
    key: str  # tenant acme
    other_key: str  # tenant globex
    process: subprocess.Popen

    def output(self) -> str:
        return "".join(self._lines)

    _lines: List[str]


def _engram(args: List[str], db: str) -> str:
    done = subprocess.run([NODE, str(BIN), *args, "--db", db, "--embedder", "hash"], capture_output=True, text=True, timeout=120, cwd=REPO)
    if done.returncode != 0:
        raise RuntimeError(f"engram {' '.join(args)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def _create_key(db: str, tenant: str) -> str:
    return json.loads(_engram(["keys", "create", "--tenant", tenant, "--json"], db))["key"]


def _with_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "schema"] + [("schema", schema)]
    return urlunsplit(parts._replace(query=urlencode(query)))


def _drop_schema(url: str, schema: str) -> None:
    # pg comes from the repository's node_modules; no Python driver is needed for one DROP
    script = "import pg from 'pg'; const c = new pg.Client({ connectionString: process.argv[1] }); await c.connect(); await c.query(`DROP SCHEMA IF EXISTS \"${process.argv[2]}\" CASCADE`); await c.end();"
    subprocess.run([NODE, "--input-type=module", "-e", script, url, schema], cwd=REPO, timeout=60, check=False, capture_output=True)


def start_serve(db: str, extra: Optional[List[str]] = None) -> tuple[subprocess.Popen, str, List[str]]:
    """`engram serve --port 0` on 127.0.0.1; returns once it listens and has warmed up."""
    process = subprocess.Popen(
        [NODE, str(BIN), "serve", "--port", "0", "--host", "127.0.0.1", "--db", db, "--embedder", "hash", *(extra or [])],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        cwd=REPO,
    )
    lines: List[str] = []
    ready = threading.Event()
    found: dict = {}

    def pump() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.append(line)
            match = re.search(r"listening on (http:\S+)", line)
            if match:
                found["url"] = match.group(1).rstrip("/")
            if "url" in found and re.search(r"warmed up in|warm-up failed", "".join(lines)):
                ready.set()
        ready.set()

    threading.Thread(target=pump, daemon=True).start()
    if not ready.wait(START_TIMEOUT_S) or "url" not in found:
        process.kill()
        raise RuntimeError(f"engram serve did not start within {START_TIMEOUT_S} s:\n{''.join(lines)}")
    return process, found["url"], lines


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


BACKENDS = [
    "sqlite",
    pytest.param("postgres", marks=pytest.mark.skipif(PG_URL is None, reason="PostgreSQL run skipped: set ENGRAM_TEST_PG_URL=postgres://engram:engram@localhost:5432/engram_test (.ci/run sets it)")),
]


@pytest.fixture(scope="session", params=BACKENDS)
def server(request: pytest.FixtureRequest) -> Iterator[Server]:
    if not BIN.exists():
        pytest.fail(f"{BIN} is missing: run `npm run build` in {REPO} first")
    tmp = tempfile.mkdtemp(prefix="engram-py-")
    schema = None
    if request.param == "sqlite":
        db = str(Path(tmp) / "engram.db")
    else:
        schema = f"py_{int(time.time()):x}_{secrets.token_hex(4)}"
        db = _with_schema(PG_URL or "", schema)
    try:
        key = _create_key(db, "acme")
        other = _create_key(db, "globex")
        process, url, lines = start_serve(db)
        try:
            yield Server(backend=request.param, url=url, key=key, other_key=other, process=process, _lines=lines)
        finally:
            stop(process)
    finally:
        if schema is not None and PG_URL is not None:
            _drop_schema(PG_URL, schema)
        shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture
def scope(request: pytest.FixtureRequest) -> str:
    """A scope of tenant acme no other test writes to."""
    name = re.sub(r"[^A-Za-z0-9_-]", "-", request.node.name)[:60]
    return f"acme/py/{name}-{secrets.token_hex(3)}"


Answer = Tuple[int, Dict[str, str], Any]


@pytest.fixture
def local_server() -> Iterator[Callable[[Callable[[BaseHTTPRequestHandler], Answer]], str]]:
    """Starts tiny HTTP servers on 127.0.0.1 (a proxy, an old server, a busy one): each request's body is
    read, then ``answer(handler)`` gives its status, headers and body (sent as JSON; ``bytes`` as they are,
    with the headers' content-type). Returns the server's URL; every server started is stopped after the
    test."""
    started: List[ThreadingHTTPServer] = []

    def start(answer: Callable[[BaseHTTPRequestHandler], Answer]) -> str:
        class Handler(BaseHTTPRequestHandler):
            def _answer(self) -> None:
                self.rfile.read(int(self.headers.get("content-length") or 0))
                status, headers, body = answer(self)
                data = body if isinstance(body, bytes) else json.dumps(body).encode()
                self.send_response(status)
                if "content-type" not in headers:
                    self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for name, value in headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(data)

            do_GET = do_POST = _answer

            def log_message(self, *args: object) -> None:
                pass

        httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=httpd.serve_forever, daemon=True).start()
        started.append(httpd)
        return f"http://127.0.0.1:{httpd.server_address[1]}"

    try:
        yield start
    finally:
        for httpd in started:
            httpd.shutdown()
            httpd.server_close()
