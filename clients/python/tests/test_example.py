"""examples/python/chat_agent.py runs against the real server: the second session answers from the
fact the first session's captured turn stored."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from conftest import REPO

EXAMPLE = REPO / "examples" / "python" / "chat_agent.py"


def test_chat_agent_example_remembers_across_sessions(server, scope: str) -> None:
    if server.backend != "sqlite":
        pytest.skip("the example exercises the client, not the store: run on SQLite only")
    env = {**os.environ, "ENGRAM_URL": server.url, "ENGRAM_API_KEY": server.key, "ENGRAM_SCOPE": scope}
    done = subprocess.run([sys.executable, str(EXAMPLE)], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "From what you told me (I am vegetarian" in done.stdout
