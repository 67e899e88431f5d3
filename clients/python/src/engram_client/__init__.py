"""Python client for Engram, the long-term memory engine for AI agents.

>>> from engram_client import EngramClient
>>> with EngramClient("http://127.0.0.1:7077", api_key="ek_...") as engram:  # doctest: +SKIP
...     engram.remember("acme/users/alice", "Alice prefers concise answers.", layer="semantic")
...     for hit in engram.recall("How should I answer Alice?", scopes=["acme/users/alice"]).hits:
...         print(hit.relevance, hit.content)
"""

from ._core import DEFAULT_BASE_URL, RetryPolicy
from ._version import __version__
from .async_client import AsyncEngramClient
from .client import EngramClient
from .errors import EngramError
from .models import (
    ConsolidationReport,
    Health,
    HitExplanation,
    ImportReport,
    Memory,
    MemoryPage,
    PurgeResult,
    RecallHit,
    RecallResult,
    RememberResult,
    ScopeSummary,
    Stats,
    StructuredContext,
)

__all__ = [
    "AsyncEngramClient",
    "ConsolidationReport",
    "DEFAULT_BASE_URL",
    "EngramClient",
    "EngramError",
    "Health",
    "HitExplanation",
    "ImportReport",
    "Memory",
    "MemoryPage",
    "PurgeResult",
    "RecallHit",
    "RecallResult",
    "RememberResult",
    "RetryPolicy",
    "ScopeSummary",
    "Stats",
    "StructuredContext",
    "__version__",
]
