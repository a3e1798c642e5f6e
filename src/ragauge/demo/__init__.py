"""The bundled demo: a Russian construction firm's assistant, evaluated by ``make demo``.

- :func:`kb_path` — the knowledge base, one chunk a line (``id``, ``doc_id``, ``title``, ``version``,
  ``section``, ``text``);
- :func:`golden_path` — the golden set generated from that knowledge base (questions, references,
  relevant ids, type and slice tags), answered by the reference RAG in ``make demo``;
- :func:`samples_path` — 46 evaluated interactions plus 10 noisy variants in ragauge's canonical sample schema, with the gold
  answer labels in ``metadata`` (``answer_label``, ``error_note``, ``grounded``, ``equivalent_form``).

Both files ship as package data and are rebuilt by ``scripts/build_demo.py`` from the hand-written
source in ``demo/source/kb.toml`` and ``questions.toml`` (data files); see ``README.md`` next to this file.

>>> samples_path().name, kb_path().name
('samples.jsonl', 'kb.jsonl')
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["DEMO_DIR", "golden_path", "kb_path", "samples_path"]

#: The folder holding the demo data files, inside the installed package.
DEMO_DIR: Path = Path(str(resources.files(__name__).joinpath("data")))


def samples_path() -> Path:
    """Path of the demo samples (JSONL, one sample a line)."""
    return DEMO_DIR / "samples.jsonl"


def golden_path() -> Path:
    """Path of the demo's golden set: 120 cases generated from the knowledge base by ``ragauge.generate``
    (``scripts/build_demo_golden.py``), by slice, with reference answers and relevant chunk ids."""
    return DEMO_DIR / "golden.jsonl"


def kb_path() -> Path:
    """Path of the demo knowledge base (JSONL, one chunk a line)."""
    return DEMO_DIR / "kb.jsonl"
