"""Pydantic v2 models of the Engram HTTP API's answers, named after the OpenAPI document's component
schemas (``/openapi.json``). Attributes are snake_case (``mention_count``); the wire names stay
camelCase (``mentionCount``) as aliases. Every model keeps fields it does not declare (layer-specific
fields of a memory, fields a newer server adds), readable as attributes or through ``model_extra``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Dict, List, Optional

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class EngramModel(BaseModel):
    """Base of every answer: camelCase aliases, unknown fields kept."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")


class Emotion(EngramModel):
    valence: float
    intensity: float
    mood: Optional[List[str]] = None


class Provenance(EngramModel):
    kind: str
    sources: List[Dict[str, Any]] = []
    derived_from: List[str] = []


class Memory(EngramModel):
    """A stored memory (schema ``Memory``). Times are parsed to timezone-aware datetimes."""

    id: str
    scope: str
    layer: str
    content: str
    summary: Optional[str] = None
    tags: List[str] = []
    entities: List[str] = []
    importance: Optional[float] = None
    salience: Optional[float] = None
    surprise: Optional[float] = None
    emotion: Optional[Emotion] = None
    confidence: Optional[float] = None
    status: str
    pinned: bool = False
    mention_count: int = 1
    access_count: int = 0
    last_accessed_at: Optional[datetime] = None
    provenance: Optional[Provenance] = None
    valid_from: Optional[datetime] = None
    valid_to: Optional[datetime] = None
    occurred_at: Optional[datetime] = None
    recorded_at: Optional[datetime] = None
    invalidated_at: Optional[datetime] = None
    updated_at: Optional[datetime] = None
    damaged: Optional[str] = None


class CapturedClaim(EngramModel):
    id: str
    action: str
    superseded: Optional[List[str]] = None


class RememberResult(EngramModel):
    """What ``remember`` did (schema ``RememberResult``): ``action`` is created, merged, superseded or unchanged."""

    id: str
    action: str
    merged_into: Optional[str] = None
    superseded: Optional[List[str]] = None
    chunks: Optional[List[str]] = None
    redacted: Optional[int] = None
    claims: Optional[List[CapturedClaim]] = None


class HitExplanation(EngramModel):
    """Why a hit was returned (schema ``HitExplanation``): per channel its rank and score, and the blend."""

    channels: Dict[str, Dict[str, Any]] = {}
    fused: float
    relevance: float
    recency: float
    importance: float
    activation: float
    neighbourhood: float


class RecallHit(Memory):
    """A memory with its ``score`` (ranks the hits), ``relevance`` (0..1) and ``why`` (schema ``RecallHit``)."""

    score: float
    relevance: float
    why: HitExplanation


class SkippedRecord(EngramModel):
    id: str
    reason: str


class RecallResult(EngramModel):
    """Schema ``RecallResult``: ``hits`` best first."""

    hits: List[RecallHit]
    skipped: Optional[List[SkippedRecord]] = None


class MemoryPage(EngramModel):
    """One page of ``list`` (schema ``MemoryPage``); ``next_cursor`` is None on the last page."""

    items: List[Memory]
    next_cursor: Optional[str] = None


class ScopeSummary(EngramModel):
    scope: str
    total: int
    by_layer: Dict[str, int] = {}
    by_status: Dict[str, int] = {}


class ScopeList(EngramModel):
    scopes: List[ScopeSummary]


class PurgeRemoved(EngramModel):
    records: int
    chunks: int
    edges: int
    refs: int
    statistics: int
    history: int
    index_entries: int
    #: state documents that held a copy of removed text (an open question, a caution); 0 from older servers
    states: int = 0


class PurgeResult(EngramModel):
    """What a purge removed for good (schema ``PurgeResult``)."""

    purged: int
    removed: PurgeRemoved
    restored: List[str]
    audit_id: str


class Stats(EngramModel):
    scopes: List[str]
    embedder: str
    total: int
    by_layer: Dict[str, int] = {}
    concepts: int
    by_status: Dict[str, int] = {}
    edges: int


class ContextPart(EngramModel):
    """One part of a context: its entries and the level the time budget let it reach."""

    level: str
    items: List[Dict[str, Any]]


class ProfileFieldsPart(EngramModel):
    """The profile schema's fields a context's facts answer (``known``) and those still missing."""

    level: str
    known: List[Dict[str, Any]]
    missing: List[str]


class ContextParts(EngramModel):
    rules: ContextPart
    profile: ContextPart
    knowledge: ContextPart
    concepts: ContextPart
    predictions: ContextPart
    episodes: ContextPart
    cautions: ContextPart
    mood: ContextPart
    profile_fields: Optional[ProfileFieldsPart] = None
    chains: Optional[ContextPart] = None


class StructuredContext(EngramModel):
    """The context of a turn (schema ``StructuredContext``); ``markdown`` is ready for a prompt."""

    scopes: List[str]
    message: str
    budget_ms: float
    elapsed_ms: float
    max_tokens: int
    tokens: int
    parts: ContextParts
    trimmed: Dict[str, int] = {}
    markdown: str
    skipped: Optional[List[SkippedRecord]] = None


class PhaseReport(EngramModel):
    name: str
    examined: int
    created: int
    updated: int
    duration_ms: float
    note: str


class ConsolidationReport(EngramModel):
    """The report of one consolidation run (schema ``ConsolidationReport``)."""

    id: str
    scope: str
    trigger: str
    session_id: Optional[str] = None
    started_at: datetime
    finished_at: datetime
    resumed: bool
    phases: List[PhaseReport]


class Health(EngramModel):
    status: str
    version: str
    auth: str


class DumpImportCounts(EngramModel):
    created: int
    skipped: int
    conflicting: int


class DumpImportEmbedder(EngramModel):
    dump: str
    store: str
    vectors: str


class DumpConflict(EngramModel):
    kind: str
    scope: str
    key: str
    reason: str


class ImportReport(EngramModel):
    """What ``POST /v1/import`` did with a dump (schema ``DumpImportReport``): per kind of line
    (``record``, ``edge``, ``conceptRefs``, ``relationType``, ``state``, ``audit``) how many were
    created, skipped (already there) and conflicting; ``complete`` is false for a cut-off dump."""

    embedder: Optional[DumpImportEmbedder] = None
    embedded: int = 0
    lines: int = 0
    counts: Dict[str, DumpImportCounts] = {}
    conflicts: List[DumpConflict] = []
    complete: bool = False


__all__ = [
    "CapturedClaim",
    "ConsolidationReport",
    "ContextPart",
    "ContextParts",
    "DumpConflict",
    "DumpImportCounts",
    "DumpImportEmbedder",
    "Emotion",
    "EngramModel",
    "Health",
    "HitExplanation",
    "ImportReport",
    "Memory",
    "MemoryPage",
    "PhaseReport",
    "Provenance",
    "PurgeRemoved",
    "PurgeResult",
    "RecallHit",
    "RecallResult",
    "RememberResult",
    "ScopeList",
    "ScopeSummary",
    "SkippedRecord",
    "Stats",
    "StructuredContext",
]
