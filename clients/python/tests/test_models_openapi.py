"""The pydantic models match the OpenAPI document the server serves: each model is a named component
schema (or an object nested in one); every field of a model exists there under its wire name with a
compatible type, and every property the schema requires is a field of the model."""

from __future__ import annotations

import typing
from datetime import datetime
from typing import Any, Dict, Type

import httpx
import pytest
from pydantic import BaseModel

from engram_client import models

#: Models and the component schema each one reads.
NAMED = {
    models.Memory: "Memory",
    models.RememberResult: "RememberResult",
    models.RecallResult: "RecallResult",
    models.RecallHit: "RecallHit",
    models.HitExplanation: "HitExplanation",
    models.SkippedRecord: "SkippedRecord",
    models.MemoryPage: "MemoryPage",
    models.ScopeList: "ScopeList",
    models.ScopeSummary: "ScopeSummary",
    models.PurgeResult: "PurgeResult",
    models.Stats: "Stats",
    models.StructuredContext: "StructuredContext",
    models.ConsolidationReport: "ConsolidationReport",
    models.PhaseReport: "PhaseReport",
    models.Health: "Health",
    models.Emotion: "Emotion",
    models.Provenance: "MemoryProvenance",
    models.CapturedClaim: "CapturedClaim",
    models.PurgeRemoved: "PurgeRemoved",
    models.ContextParts: "ContextParts",
}
#: Models of objects nested without a name of their own, checked through their parent.
NESTED = {models.ContextPart, models.ProfileFieldsPart, models.DumpImportEmbedder, models.DumpConflict}
#: Answers of routes another branch adds (POST /v1/import); checked once the document has them.
PENDING = {models.ImportReport: "DumpImportReport", models.DumpImportCounts: "DumpImportCounts"}

COMPATIBLE = {str: {"string"}, datetime: {"string"}, float: {"number", "integer"}, int: {"integer", "number"}, bool: {"boolean"}}


@pytest.fixture(scope="module")
def document(server) -> Dict[str, Any]:
    if server.backend != "sqlite":
        pytest.skip("the OpenAPI document does not depend on the store: checked on the SQLite run")
    response = httpx.get(f"{server.url}/openapi.json", timeout=30)
    response.raise_for_status()
    return response.json()


def test_every_model_is_accounted_for() -> None:
    declared = {cls for cls in vars(models).values() if isinstance(cls, type) and issubclass(cls, models.EngramModel) and cls is not models.EngramModel}
    assert declared == set(NAMED) | NESTED | set(PENDING)


@pytest.mark.parametrize("model", list(NAMED), ids=lambda m: m.__name__)
def test_model_matches_its_named_schema(document: Dict[str, Any], model: Type[BaseModel]) -> None:
    schemas = document["components"]["schemas"]
    name = NAMED[model]
    assert name in schemas, f"the served document has no schema {name}"
    check_model(model, schemas[name], schemas, name)


def test_the_check_can_fail(document: Dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]

    class Drifted(models.EngramModel):
        id: str
        mention_count: str  # the schema says number

    with pytest.raises(AssertionError, match="mentionCount"):
        check_model(Drifted, schemas["Memory"], schemas, "Memory")

    class Invented(models.EngramModel):
        id: str
        favourite_colour: str

    with pytest.raises(AssertionError, match="favouriteColour"):
        check_model(Invented, schemas["Memory"], schemas, "Memory")


def test_pending_models(document: Dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    for model, name in PENDING.items():
        if name not in schemas:
            pytest.skip(f"{name} is not in the served document yet (POST /v1/import comes from the dump branch)")
        check_model(model, schemas[name], schemas, name)


def resolve(schema: Dict[str, Any], schemas: Dict[str, Any]) -> Dict[str, Any]:
    """Follows $ref and drops the null branch of a nullable schema."""
    while "$ref" in schema:
        schema = schemas[schema["$ref"].split("/")[-1]]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            branches = [b for b in schema[key] if resolve(b, schemas).get("type") != "null"]
            if len(branches) == 1:
                return resolve(branches[0], schemas)
    if isinstance(schema.get("type"), list):
        types = [t for t in schema["type"] if t != "null"]
        if len(types) == 1:
            return {**schema, "type": types[0]}
    return schema


def check_model(model: Type[BaseModel], schema: Dict[str, Any], schemas: Dict[str, Any], where: str) -> None:
    schema = resolve(schema, schemas)
    assert schema.get("type") == "object", f"{where} is not an object schema"
    properties = schema.get("properties", {})
    aliases = set()
    for name, field in model.model_fields.items():
        alias = field.alias or name
        aliases.add(alias)
        assert alias in properties, f"{model.__name__}.{name}: {where} has no property {alias}"
        check_type(field.annotation, properties[alias], schemas, f"{where}.{alias}")
    missing = [p for p in schema.get("required", []) if p not in aliases]
    assert not missing, f"{model.__name__} lacks fields {missing} that {where} requires"


def check_type(annotation: Any, schema: Dict[str, Any], schemas: Dict[str, Any], where: str) -> None:
    origin = typing.get_origin(annotation)
    if origin is typing.Union:
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        assert len(inner) == 1, f"{where}: unions other than Optional are not used"
        return check_type(inner[0], schema, schemas, where)
    if annotation is Any:
        return
    schema = resolve(schema, schemas)
    kind = schema.get("type")
    if origin in (list, typing.List):
        assert kind == "array", f"{where}: a list in the model, {kind} in the schema"
        (item,) = typing.get_args(annotation)
        return check_type(item, schema.get("items", {}), schemas, f"{where}[]")
    if origin in (dict, typing.Dict):
        assert kind == "object", f"{where}: a dict in the model, {kind} in the schema"
        _, value = typing.get_args(annotation)
        extra = schema.get("additionalProperties")
        if isinstance(extra, dict) and extra:
            check_type(value, extra, schemas, f"{where}{{}}")
        return
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return check_model(annotation, schema, schemas, where)
    allowed = COMPATIBLE.get(annotation)
    assert allowed is not None, f"{where}: no rule for {annotation!r}"
    if "const" in schema and "type" not in schema:
        kind = type(schema["const"]).__name__.replace("str", "string")
    if "enum" in schema and kind is None:
        kind = "string"
    assert kind in allowed, f"{where}: {annotation.__name__} in the model, {kind} in the schema"
