"""The FactCC-style pair generator (scripts/make_claim_pairs.py): swaps come from the same document, roles
keep their case, the output is seeded, and the compact file loads back into training rows."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pymorphy3")
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))

import make_claim_pairs as M  # noqa: E402

DOCS = [
    {"id": "hr:1", "source": "hr", "lang": "ru", "text": (
        "Ежегодный оплачиваемый отпуск составляет 28 календарных дней. Заявление на отпуск работник подаёт "
        "не позднее чем за 14 календарных дней до его начала. Отпускные выплачиваются не позднее чем за 3 "
        "календарных дня до начала отпуска.")},
    {"id": "hr:2", "source": "hr", "lang": "ru", "text": (
        "Суточные при командировках по России — 1 200 рублей за каждый день. Работодатель возмещает расходы "
        "на проезд при условии предъявления билетов.")},
    {"id": "hr:3", "source": "hr", "lang": "ru", "text": "Испытательный срок составляет 3 месяца для всех сотрудников."},
    {"id": "hr:4", "source": "hr", "lang": "ru", "text": "Премия выплачивается ежеквартально по итогам работы отдела."},
]


def test_a_number_swap_takes_another_number_of_the_same_unit_from_the_document():
    rng = np.random.default_rng(0)
    numbers = [("28", "кале"), ("14", "кале"), ("3", "кале")]
    out = M.number_swap("Ежегодный отпуск составляет 28 календарных дней.", rng, numbers)
    assert out in ("Ежегодный отпуск составляет 14 календарных дней.", "Ежегодный отпуск составляет 3 календарных дней.")


def test_a_role_swap_keeps_the_case():
    out = M.role_swap("Заявление на отпуск подаёт работник руководителю.", np.random.default_rng(0))
    assert out == "Заявление на отпуск подаёт работодатель руководителю."
    assert M.role_swap("Расходы возмещаются работнику.", np.random.default_rng(0)) == "Расходы возмещаются работодателю."


def test_rewrites_keep_the_figures():
    rng = np.random.default_rng(0)
    assert M.number_form("Суточные — 1 200 рублей за день.", rng) == "Суточные — 1200 рублей за день."
    assert (M.reorder("Работодатель возмещает расходы на проезд, если предъявлены билеты.", rng)
            == "Если предъявлены билеты, работодатель возмещает расходы на проезд.")


def test_pairs_are_seeded_and_labelled_by_their_transformation(tmp_path):
    a = M.make_pairs(DOCS, seed=5, per_unit=2)
    b = M.make_pairs(DOCS, seed=5, per_unit=2)
    assert a == b and a
    positives = {x for tier in M.POSITIVE for x in tier}
    negatives = {x for tier in M.NEGATIVE for x in tier}
    for row in a:
        assert row["label"] in (negatives if row["hallucinated"] else positives)
        assert row["context_ids"][0] in {d["id"] for d in DOCS}
        assert row["group"].split(":", 1)[1] in row["context_ids"]  # the source document is a context
        if row["label"] == "elsewhere":  # ... and the foreign sentence is in none of them
            assert row["answer"] not in " ".join(d["text"] for d in DOCS if d["id"] in row["context_ids"])


def test_the_compact_file_loads_back_into_training_rows(tmp_path):
    pairs = M.make_pairs(DOCS, seed=5, per_unit=1)
    path = tmp_path / "pairs.jsonl"
    path.write_text("".join(json.dumps(p, ensure_ascii=False) + "\n" for p in pairs), encoding="utf-8")
    M.documents_path(path).write_text("".join(json.dumps(d, ensure_ascii=False) + "\n" for d in DOCS), encoding="utf-8")
    rows = M.load_pairs(path)
    assert len(rows) == len(pairs)
    assert all("context_ids" not in r and r["contexts"] for r in rows)
    assert rows[0]["contexts"][0] in {d["text"] for d in DOCS}
    M.documents_path(path).write_text(json.dumps(DOCS[0], ensure_ascii=False) + "\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="not in pairs.documents.jsonl"):
        M.load_pairs(path)
