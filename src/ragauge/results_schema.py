"""The one rule for which results documents this ragauge reads (``results.json``, schema ``ragauge.results/1``).

A leaf module (no ragauge imports but errors) so the engine, the statistics and the reports all apply the
same rule: the ``schema`` field names ``ragauge.results/MAJOR[.MINOR]``; any minor version of major 1 is
read (minor versions only add fields), another major is refused with what to do.

>>> check_schema({"schema": "ragauge.results/1.2"})
'ragauge.results/1.2'
"""

from __future__ import annotations

from typing import Any, Mapping

from .errors import InputError

SCHEMA = "ragauge.results/1"
_PREFIX = "ragauge.results/"
_MAJOR = SCHEMA[len(_PREFIX):]


def check_schema(doc: Any, *, source: str | None = None, required: bool = True) -> str | None:
    """The document's schema string, after checking it; ``required=False`` lets a document without one pass."""
    schema = doc.get("schema") if isinstance(doc, Mapping) else None
    if schema is None and not required and isinstance(doc, Mapping):
        return None
    if not isinstance(schema, str) or not schema.startswith(_PREFIX):
        raise InputError("not a ragauge results document", file=source, field="schema", value=schema,
                         hint=f"pass the results.json written by `ragauge eval` (schema {SCHEMA})")
    if schema[len(_PREFIX):].split(".")[0] != _MAJOR:
        raise InputError(f"results schema {schema!r} is not readable by this ragauge (it reads {SCHEMA} and its "
                         "minor versions)", file=source, field="schema", value=schema,
                         hint="use the ragauge version that wrote it, or re-run the evaluation")
    return schema
