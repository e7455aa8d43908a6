"""One sample input per tool, generated from its JSON schema (pure).

The sample is meant to reach the tool's logic, not its validation, so it never uses an empty
string or a zero that a schema would refuse. For each value, in order: `const`, `default`, the
first `examples` entry, the first non-null `enum` value; otherwise by type: a string of at least
`minLength` (format-aware: email, uri, date, date-time, uuid...) that matches `pattern` when it
can, a number at `minimum` (or just above `exclusiveMinimum`, and 1 when there is no bound), an
array of `minItems` (at least one) items, an object with its `required` properties generated
the same way, nested objects included. `$ref` to the schema's own `$defs`/`definitions`,
`allOf`, `anyOf` and `oneOf` are followed. The caller checks the result against the schema and
flags a sample that does not satisfy it for a person to edit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from typing import Any

MAX_DEPTH = 8
_NO_VALUE = object()

_FORMATS = {
    "email": "probe@example.com",
    "idn-email": "probe@example.com",
    "uri": "https://example.com/probe",
    "url": "https://example.com/probe",
    "iri": "https://example.com/probe",
    "uri-reference": "https://example.com/probe",
    "date": "2026-01-02",
    "date-time": "2026-01-02T03:04:05Z",
    "time": "03:04:05Z",
    "duration": "PT1M",
    "uuid": "00000000-0000-4000-8000-000000000001",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "hostname": "example.com",
    "idn-hostname": "example.com",
    "json-pointer": "/probe",
    "regex": "probe",
}
# Strings tried against a `pattern` until one matches.
_PATTERN_CANDIDATES = (
    "probe", "Probe", "PROBE", "probe-1", "probe_1", "p", "a", "A", "1", "12", "123", "1234",
    "abc123", "ABC", "A1", "a1", "x1", "probe@example.com", "https://example.com/probe",
    "2026-01-02", "2026-01-02T03:04:05Z", "00000000-0000-4000-8000-000000000001", "#000000",
    "en", "en-US", "USD", "+15555550100", "192.0.2.1", "/probe", "probe.txt", "v1", "1.0.0",
)


def _resolve(schema: Any, root: Mapping[str, Any]) -> Any:
    """Follow a local `$ref` (#/$defs/..., #/definitions/...); unknown refs give {}."""
    seen = 0
    while isinstance(schema, dict) and isinstance(schema.get("$ref"), str) and seen < MAX_DEPTH:
        ref = schema["$ref"]
        seen += 1
        if not ref.startswith("#"):
            return {k: v for k, v in schema.items() if k != "$ref"}
        target: Any = root
        for part in ref.lstrip("#").strip("/").split("/") if ref != "#" else []:
            part = part.replace("~1", "/").replace("~0", "~")
            if not isinstance(target, dict) or part not in target:
                return {}
            target = target[part]
        rest = {k: v for k, v in schema.items() if k != "$ref"}
        schema = {**target, **rest} if isinstance(target, dict) else target
    return schema


def _merge_all_of(schema: dict[str, Any], root: Mapping[str, Any]) -> dict[str, Any]:
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    for part in schema.get("allOf") or []:
        part = _resolve(part, root)
        if not isinstance(part, dict):
            continue
        part = _merge_all_of(part, root) if "allOf" in part else part
        for key, value in part.items():
            if key == "properties" and isinstance(value, dict):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, list):
                merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
            else:
                merged.setdefault(key, value)
    return merged


def _pick_type(schema: Mapping[str, Any]) -> str | None:
    t = schema.get("type")
    if isinstance(t, list):
        non_null = [x for x in t if x != "null"]
        return non_null[0] if non_null else "null"
    if isinstance(t, str):
        return t
    if "properties" in schema or "required" in schema:
        return "object"
    if "items" in schema or "prefixItems" in schema or "minItems" in schema:
        return "array"
    if any(k in schema for k in ("minLength", "maxLength", "pattern", "format")):
        return "string"
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "multipleOf")):
        return "number"
    return None


def _string(schema: Mapping[str, Any], variant: int) -> str:
    min_len = schema.get("minLength", 1)
    max_len = schema.get("maxLength")
    min_len = max(int(min_len) if isinstance(min_len, int | float) else 1, 1)
    fmt = schema.get("format")
    pattern = schema.get("pattern")
    if isinstance(fmt, str) and fmt in _FORMATS and variant == 0:
        base = _FORMATS[fmt]
    elif isinstance(fmt, str) and fmt in _FORMATS:
        base = _FORMATS[fmt].replace("probe", f"probe{variant + 1}", 1)
    else:
        base = "probe" if variant == 0 else f"probe-{variant + 1}"
    if isinstance(pattern, str):
        try:
            rx = re.compile(pattern)
        except re.error:
            rx = None
        if rx is not None and not rx.search(base):
            for cand in _PATTERN_CANDIDATES:
                if rx.search(cand) and len(cand) >= min_len:
                    base = cand
                    break
    if len(base) < min_len:
        base = (base * (min_len // len(base) + 1))[:min_len]
    if isinstance(max_len, int) and max_len >= 1 and len(base) > max_len:
        base = base[:max_len]
    return base


def _number(schema: Mapping[str, Any], integer: bool, variant: int) -> int | float:
    lo, hi = schema.get("minimum"), schema.get("maximum")
    xlo, xhi = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    step = schema.get("multipleOf")
    if isinstance(xlo, bool):  # draft-04 spelling: exclusiveMinimum is a flag on minimum
        xlo, lo = (lo, None) if xlo else (None, lo)
    if isinstance(xhi, bool):
        xhi, hi = (hi, None) if xhi else (None, hi)
    inc = 1 if integer else 0.5
    if isinstance(lo, int | float):
        value: float = lo
    elif isinstance(xlo, int | float):
        value = math.floor(xlo) + 1 if integer else xlo + inc
    else:
        value = 1
    value += variant
    upper = hi if isinstance(hi, int | float) else (xhi - (1 if integer else 1e-6)
                                                    if isinstance(xhi, int | float) else None)
    if upper is not None and value > upper:
        value = upper
    if isinstance(step, int | float) and step > 0:
        value = math.ceil(value / step) * step
        if upper is not None and value > upper:
            value = math.floor(upper / step) * step
    if integer:
        return value if isinstance(value, int) else math.ceil(value)
    return int(value) if float(value).is_integer() else value


def sample_for(schema: Any, root: Mapping[str, Any] | None = None, *, depth: int = 0,
               variant: int = 0) -> Any:
    """A sample value satisfying `schema` where the rules above allow (None when nothing fits)."""
    if root is None:
        root = schema if isinstance(schema, dict) else {}
    if depth > MAX_DEPTH or schema is True or schema is None:
        return "probe" if variant == 0 else f"probe-{variant + 1}"
    schema = _resolve(schema, root)
    if not isinstance(schema, dict):
        return None
    if "allOf" in schema:
        schema = _merge_all_of(schema, root)
    if "const" in schema:
        return schema["const"]
    if "default" in schema and variant == 0:
        return schema["default"]
    examples = schema.get("examples")
    if isinstance(examples, list) and examples and variant < len(examples):
        return examples[variant]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        choices = [e for e in enum if e is not None] or enum
        return choices[variant % len(choices)]
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            resolved = [_resolve(o, root) for o in options]
            usable = [o for o in resolved if not (isinstance(o, dict) and o.get("type") == "null")]
            chosen = usable[0] if usable else resolved[0]
            base = {k: v for k, v in schema.items() if k not in ("anyOf", "oneOf")}
            if isinstance(chosen, dict):
                merged = {**base, **chosen}
                if "properties" in base and "properties" in chosen:
                    merged["properties"] = {**base["properties"], **chosen["properties"]}
                if "required" in base or "required" in chosen:
                    merged["required"] = list(
                        dict.fromkeys([*base.get("required", []), *chosen.get("required", [])])
                    )
                return sample_for(merged, root, depth=depth + 1, variant=variant)
    kind = _pick_type(schema)
    if kind == "string":
        return _string(schema, variant)
    if kind in ("integer", "number"):
        return _number(schema, kind == "integer", variant)
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    if kind == "array":
        return _array(schema, root, depth)
    if kind == "object":
        return _object(schema, root, depth)
    return "probe" if variant == 0 else f"probe-{variant + 1}"


def _array(schema: Mapping[str, Any], root: Mapping[str, Any], depth: int) -> list[Any]:
    min_items = schema.get("minItems", 1)
    count = max(int(min_items) if isinstance(min_items, int) else 1, 1)
    max_items = schema.get("maxItems")
    if isinstance(max_items, int) and max_items >= 0:
        count = min(count, max_items)
    prefix = schema.get("prefixItems")
    items = schema.get("items", {})
    if isinstance(items, list):  # draft-07 tuple form
        prefix, items = items, schema.get("additionalItems", {})
    out: list[Any] = []
    if isinstance(prefix, list):
        out = [sample_for(p, root, depth=depth + 1) for p in prefix]
    i = len(out)
    while len(out) < count:
        out.append(sample_for(items, root, depth=depth + 1, variant=i))
        i += 1
    return out


def _object(schema: Mapping[str, Any], root: Mapping[str, Any], depth: int) -> dict[str, Any]:
    found = schema.get("properties")
    props: Mapping[str, Any] = found if isinstance(found, dict) else {}
    required = [r for r in schema.get("required", []) if isinstance(r, str)]
    min_props = schema.get("minProperties", 0)
    names = list(required)
    if isinstance(min_props, int) and len(names) < min_props:
        names += [p for p in props if p not in names][: min_props - len(names)]
    out: dict[str, Any] = {}
    for name in names:
        out[name] = sample_for(props.get(name, {}), root, depth=depth + 1)
    return out


def sample_input(input_schema: Any) -> dict[str, Any]:
    """The arguments object for a tool: the sample of its input schema, always an object."""
    value = sample_for(input_schema if isinstance(input_schema, dict) else {})
    return value if isinstance(value, dict) else {}
