"""A minimal chat agent with long-term memory, on the Engram Python client.

Each turn: read the memory context for the message, ask the model with it, store the turn. The user's
turns are *captured*: their claim-shaped sentences also become facts, so the next session knows them
(and a correction later supersedes the old fact). The model here is a scripted stand-in, so the example
runs offline; swap `scripted_model` for a call to any LLM.

Run it against a local server:
    npm start                          # in the Engram repository (engram serve on 127.0.0.1:7077)
    pip install ./clients/python
    python examples/python/chat_agent.py

Environment: ENGRAM_URL (default http://127.0.0.1:7077), ENGRAM_API_KEY (when the server has keys),
ENGRAM_SCOPE (default demo/users/alice; with a key, use a scope of the key's tenant).
"""

from __future__ import annotations

import os
import re
import sys
import uuid

from engram_client import EngramClient

SCOPE = os.environ.get("ENGRAM_SCOPE", "demo/users/alice")


def scripted_model(context: str, message: str) -> str:
    """Stands in for an LLM: answers from the remembered facts the context gives it."""
    facts = [line[2:].strip() for line in context.splitlines() if line.startswith("- ")]
    words = set(re.findall(r"[a-z]+", message.lower())) - {"what", "should", "i", "me", "my", "do", "the", "a", "for", "tonight", "you"}
    relevant = [fact for fact in facts if words & set(re.findall(r"[a-z]+", fact.lower()))] or facts
    if message.rstrip().endswith("?") and relevant:
        return f"From what you told me ({relevant[0].rstrip('.')}), here is my suggestion."
    if message.rstrip().endswith("?"):
        return "I don't know that about you yet. Tell me?"
    return "Noted, I'll remember that."


def chat_turn(engram: EngramClient, session: str, message: str) -> str:
    # rules, profile facts, knowledge, episodes; a generous time budget (the default is 50 ms) so a busy
    # machine still gets every part
    context = engram.context(message, scopes=[SCOPE], budget_ms=2000)
    reply = scripted_model(context.markdown, message)
    source = {"system": "chat-agent-example", "conversationId": session}
    engram.remember(SCOPE, f"user: {message}", capture=True, source={**source, "messageId": uuid.uuid4().hex})
    engram.remember(SCOPE, f"assistant: {reply}", layer="episodic", source={**source, "messageId": uuid.uuid4().hex})
    return reply


def main() -> int:
    sessions = [
        ["Hi! I am vegetarian and I live in Leeds.", "I love spicy food."],
        ["What should I cook for dinner, given my vegetarian diet?"],
    ]
    with EngramClient(os.environ.get("ENGRAM_URL", "http://127.0.0.1:7077"), api_key=os.environ.get("ENGRAM_API_KEY")) as engram:
        replies = []
        for number, messages in enumerate(sessions, start=1):
            session = f"session-{number}-{uuid.uuid4().hex[:8]}"
            print(f"--- {session}")
            for message in messages:
                reply = chat_turn(engram, session, message)
                replies.append(reply)
                print(f"user:      {message}\nassistant: {reply}")
            engram.end_session(SCOPE, session)  # consolidation at the end of each session
    # the second session answered from what the first one stored
    return 0 if "vegetarian" in replies[-1] else 1


if __name__ == "__main__":
    sys.exit(main())
