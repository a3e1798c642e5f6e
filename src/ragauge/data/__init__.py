"""Samples in and out: the schema, ``load()`` for files/DataFrames/datasets, validation, writers.

See ``docs/data-format.md`` for the accepted fields, aliases (Ragas v1/v2) and error messages.
"""

from ragauge.data._collect import InputErrors
from ragauge.data.loaders import load
from ragauge.data.schema import Context, Sample
from ragauge.data.validate import require_questions, sample_from_record
from ragauge.data.writers import sample_to_dict, write_jsonl

__all__ = [
    "Context",
    "InputErrors",
    "Sample",
    "load",
    "require_questions",
    "sample_from_record",
    "sample_to_dict",
    "write_jsonl",
]
