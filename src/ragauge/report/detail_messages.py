"""Texts of the run's context (app, golden-set review, production targets) and of the per-sample details
(hallucination classes, claim-level diagnostics, agent tool calls) in Russian and English (data; merged into
``messages.MESSAGES``)."""

from __future__ import annotations

DETAIL_MESSAGES: dict[str, dict[str, str]] = {
    # the run's header
    "app": {"en": "app", "ru": "приложение"},
    "m_app": {"en": "App", "ru": "Приложение"},
    "golden_unreviewed": {
        "en": "{n} of {total} generated cases ({pct}) were never reviewed by an expert; unreviewed sets carry "
              "10-20 % broken cases: review them with ragauge review export / import",
        "ru": "{n} из {total} сгенерированных случаев ({pct}) эксперт не проверял: в непроверенных наборах "
              "10-20 % случаев с ошибками; проверьте их: ragauge review export / import"},
    "golden_reviewed": {"en": "all {total} generated cases reviewed by an expert",
                        "ru": "все сгенерированные случаи ({total}) проверены экспертом"},
    "m_golden": {"en": "Golden set", "ru": "Эталонный набор"},
    # production targets beside the gates
    "h_target": {"en": "target", "ru": "цель"},
    "H_target": {"en": "Target", "ru": "Цель"},
    "tg_met": {"en": "met", "ru": "достигнута"},
    "tg_missed": {"en": "missed", "ru": "не достигнута"},
    "tg_unknown": {"en": "not checked", "ru": "не проверена"},
    "targets_missed": {"en": "{missed} of {targets} missed: {names}",
                       "ru": "Не достигнуты целевые значения ({missed} из {total}): {names}"},
    "targets_met": {"en": "All {targets} met", "ru": "Все целевые значения достигнуты ({total})"},
    "targets_note": {"en": "(a gate catches regressions; a target is the quality to reach, it does not gate)",
                     "ru": "(порог ловит регрессии; цель — качество, к которому идём, она не блокирует)"},
    # the hallucination taxonomy
    "hc_outdated_source": {"en": "outdated source", "ru": "устаревший источник"},
    "hc_contradiction": {"en": "contradicts the context", "ru": "противоречит контексту"},
    "hc_fabrication": {"en": "fabrication", "ru": "выдумка"},
    "hc_factual_error": {"en": "factual error", "ru": "фактическая ошибка"},
    "hc_logical_contradiction": {"en": "self-contradiction", "ru": "противоречит сам себе"},
    "hc_counts": {"en": "Hallucinations by class (answers with any: {n} of {total}): {counts}",
                  "ru": "Галлюцинации по классам (ответов хотя бы с одной: {n} из {total}): {counts}"},
    "hc_none": {"en": "no hallucination of any class", "ru": "галлюцинаций нет"},
    "hc_pair": {"en": "contradicts itself: «{a}» vs «{b}»", "ru": "противоречит сам себе: «{a}» и «{b}»"},
    "hc_head": {"en": "Hallucination classes", "ru": "Классы галлюцинаций"},
    # RAGChecker's claim-level diagnostics
    "dg_head": {"en": "Claim-level diagnostics (RAGChecker)", "ru": "Диагностика по утверждениям (RAGChecker)"},
    "dg_claims": {"en": "answer claims: {correct} of {n} in the reference; reference claims: {found} of {m} in the answer",
                  "ru": "утверждения ответа: {correct} из {n} есть в эталоне; утверждения эталона: {found} из {m} есть "
                        "в ответе"},
    "dg_relevance": {"en": "relevant chunks: {k} of {n} (by {how})", "ru": "релевантные фрагменты: {k} из {n} ({how})"},
    "dg_by_ids": {"en": "relevant_ids", "ru": "по relevant_ids"},
    "dg_by_claims": {"en": "entailing a reference claim", "ru": "по утверждениям эталона"},
    "dg_details": {"en": "claims and chunks", "ru": "утверждения и фрагменты"},
    "dg_correct": {"en": "in the reference", "ru": "есть в эталоне"},
    "dg_wrong": {"en": "not in the reference", "ru": "нет в эталоне"},
    "dg_in_answer": {"en": "in the answer", "ru": "есть в ответе"},
    "dg_not_in_answer": {"en": "not in the answer", "ru": "нет в ответе"},
    "dg_chunks": {"en": "chunks {ids}", "ru": "фрагменты {ids}"},
    "dg_no_chunk": {"en": "in no chunk", "ru": "ни в одном фрагменте"},
    "dg_answer_claims": {"en": "Answer claims", "ru": "Утверждения ответа"},
    "dg_reference_claims": {"en": "Reference claims", "ru": "Утверждения эталона"},
    # agent metrics
    "ag_head": {"en": "Tool calls", "ru": "Вызовы инструментов"},
    "ag_expected": {"en": "expected", "ru": "ожидались"},
    "ag_called": {"en": "called", "ru": "вызваны"},
    "ag_in_order": {"en": " (in this order)", "ru": " (в этом порядке)"},
    "ag_missing": {"en": "missing", "ru": "не вызваны"},
    "ag_out_of_order": {"en": "out of order", "ru": "не в том порядке"},
    "ag_unexpected": {"en": "unexpected", "ru": "лишние"},
    "ag_args_head": {"en": "Arguments", "ru": "Аргументы"},
    "ag_mode_expected": {"en": "checked against the expected arguments",
                         "ru": "сверены с ожидаемыми аргументами"},
    "ag_mode_judge": {"en": "checked by the judge against the conversation and earlier tool results",
                      "ru": "проверены судьёй по диалогу и результатам предыдущих вызовов"},
    "ag_mismatched": {"en": "mismatched: {keys}", "ru": "не совпали: {keys}"},
    "ag_all_match": {"en": "all match", "ru": "все совпали"},
    "ag_not_called": {"en": "not called", "ru": "не вызван"},
    "ag_supported": {"en": "supported", "ru": "подтверждены"},
    "ag_unsupported": {"en": "not supported", "ru": "не подтверждены"},
}
