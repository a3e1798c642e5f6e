"""Build ``src/ragauge/demo/data/golden.jsonl``: the demo's golden set, made by the offline generator.

    python scripts/build_demo_golden.py          # write the file
    python scripts/build_demo_golden.py --check  # exit 1 when the file is not what the generator gives

The input is the demo knowledge base (``demo/data/kb.jsonl``, built by ``scripts/build_demo.py`` from
``ragauge.demo.source.kb``). Deterministic: N and SEED below fix the output byte for byte, and
``tests/generate/test_demo_golden.py`` regenerates it and compares.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

N = 120
SEED = 0


def generate() -> tuple[str, dict]:
    """The golden file's text and the generation summary."""
    from ragauge.demo import kb_path
    from ragauge.generate.questions import generate_questions
    from ragauge.generate.questions.from_kb import read_kb_jsonl

    cases, summary = generate_questions(read_kb_jsonl(kb_path()), n=N, seed=SEED)
    return "".join(json.dumps(c.to_row(), ensure_ascii=False) + "\n" for c in cases), summary


def build() -> str:
    """The golden file's text."""
    return generate()[0]


def target() -> Path:
    from ragauge.demo import DEMO_DIR

    return DEMO_DIR / "golden.jsonl"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    text, summary = generate()
    path = target()
    if args.check:
        same = path.is_file() and path.read_text(encoding="utf-8") == text
        print(f"{path}: {'up to date' if same else 'OUT OF DATE: run scripts/build_demo_golden.py'}")
        return 0 if same else 1
    from ragauge.files import write_text_atomically

    write_text_atomically(path, text)
    print(f"wrote {text.count(chr(10))} cases to {path}")
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
