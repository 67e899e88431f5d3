"""Schemathesis hooks of the fuzzing test (loaded through SCHEMATHESIS_HOOKS): NDJSON request bodies, such
as POST /v1/import's dump, are sent as JSON lines, so those routes are fuzzed too."""

import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    lines = value if isinstance(value, list) else [value]
    return "".join(json.dumps(line) + "\n" for line in lines).encode("utf-8")
