"""Metric descriptions in the report's language.

results.json stores each metric's English description (``metrics[].description``, from its ``MetricDef``);
a Russian report shows the description below, keyed by the metric's base name, with the same fields as
the English one (``{k}``, ``{p}``, ``{cut}``: " of the top k" or ""). The report layer may not import the
metrics registry (tests/test_architecture.py), so the table lives here;
``tests/report/test_metric_text.py`` checks that every registered metric has one with the same fields.

    >>> metric_description({"base": "hit_rate", "params": {"k": 5}, "description": "..."}, "ru")
    '1, если среди первых 5 есть хотя бы один релевантный документ, иначе 0 (trec_eval success_5).'
"""

from __future__ import annotations

from typing import Any, Mapping

DESCRIPTIONS_RU: dict[str, str] = {
    "hit_rate": "1, если среди первых {k} есть хотя бы один релевантный документ, иначе 0 (trec_eval success_{k}).",
    "recall": "Найденные среди первых {k} релевантные документы / все релевантные документы (trec_eval recall_{k}).",
    "precision": "Релевантные документы среди первых {k} / {k}, даже если найдено меньше (trec_eval P_{k}).",
    "mrr": "Обратный ранг первого релевантного документа{cut}; 0, если его нет (trec_eval recip_rank без отсечки).",
    "ndcg": "Нормированный дисконтированный совокупный выигрыш{cut}, выигрыш = оценка релевантности, дисконт log2 "
            "(trec_eval ndcg / ndcg_cut_{k}).",
    "ndcg_exp": "NDCG{cut} с экспоненциальным выигрышем 2^оценка - 1 (Burges et al. 2005), дисконт log2.",
    "map": "Средняя точность{cut}: среднее точности на позиции каждого найденного релевантного документа по всем "
           "релевантным документам (trec_eval map / map_cut_{k}).",
    "r_precision": "Точность на ранге R, R = число релевантных документов (trec_eval Rprec).",
    "context_precision_ids": "Взвешенная по рангу доля релевантных фрагментов среди переданных генератору (id "
                             "контекстов, иначе retrieved_ids): среднее precision@i по позициям релевантных.",
    "context_precision_share_ids": "Доля релевантных фрагментов среди переданных генератору без учёта порядка "
                                   "(найдено релевантных / найдено всего).",
    "context_recall_ids": "Доля релевантных фрагментов, переданных генератору (id контекстов, иначе retrieved_ids).",
    "context_f1_ids": "Среднее гармоническое context_precision_ids и context_recall_ids.",
    "latency": "P{p} полной задержки ответа (latency_ms) в миллисекундах.",
    "retrieval": "P{p} времени поиска (retrieval_ms) в миллисекундах.",
    "ttft": "P{p} времени до первого токена (ttft_ms) в миллисекундах.",
    "faithfulness": "Доля утверждений ответа, подтверждённых контекстами (вердикты по утверждениям с цитатами).",
    "hallucination_rate": "Доля ответов, где хотя бы одно утверждение не подтверждается контекстами.",
    "faithfulness_soft": "Среднее по утверждениям ответа P(подтверждается) судьи: непрерывный спутник faithfulness, "
                         "упорядочивающий ответы по уверенности судьи (у судьи, дающего только метки, равен faithfulness).",
    "answer_relevancy": "Даёт ли ответ то, о чём спросили (намерение, значение нужного типа, предмет, сходство; "
                        "отказы получают 0 и помечаются).",
    "answer_correctness": "0,75 × F1 утверждений ответа относительно эталона + 0,25 × смысловое сходство.",
    "context_precision": "Взвешенная по рангу доля контекстов, подтверждающих утверждение эталона (иначе ответа).",
    "context_recall": "Доля утверждений эталона, подтверждённых контекстами.",
    "context_f1": "Среднее гармоническое context_precision и context_recall.",
    "noise_robustness": "0, если ответ зашумлённого варианта утверждает факт, которому противоречит эталон, а чистый "
                        "ответ — нет, иначе min(1, корректность варианта / корректность его чистого образца); "
                        "варианты помечены metadata.noise_of.",
    "toxicity": "Доля ответов, помеченных токсичными (оскорбления, мат, угрозы, ненависть); откалиброванный "
                "классификатор по предложениям, RU и EN.",
    "context_relevance": "Средняя релевантность каждого найденного фрагмента вопросу (эталон и разметка не нужны; "
                         "по фрагментам — в артефактах).",
    "has_citations": "1, если ответ ссылается хотя бы на один фрагмент (ссылки записывает конвейер), иначе 0.",
    "answer_grounded": "1, если ответ ссылается на фрагменты и каждый указанный id был найден, иначе 0 (указанные, но "
                       "не найденные id перечислены).",
    "claim_precision": "Доля утверждений ответа, которые есть в эталоне (precision в RAGChecker).",
    "claim_recall": "Доля утверждений эталона, которые есть в ответе (recall в RAGChecker).",
    "context_utilization": "Из утверждений эталона, которые есть в контекстах, доля тех, что есть в ответе.",
    "noise_sensitivity_relevant": "Доля утверждений ответа, которые неверны, но следуют из релевантного фрагмента.",
    "noise_sensitivity_irrelevant": "Доля утверждений ответа, которые неверны и следуют только из нерелевантного "
                                    "фрагмента.",
    "hallucinated_claims": "Доля утверждений ответа, которые неверны и нет ни в одном фрагменте (галлюцинации в "
                           "RAGChecker).",
    "self_knowledge": "Доля утверждений ответа, которые верны, но нет ни в одном фрагменте (из модели, а не из "
                      "поиска).",
    "context_answerability": "P(контексты называют значение нужного типа о предмете вопроса) по частям вопроса, "
                             "среднее по частям.",
    "tool_correctness": "Доля ожидаемых инструментов, которые вызвал агент (с tools_ordered — наибольшая общая "
                        "подпоследовательность / ожидаемые), определение DeepEval.",
    "argument_correctness": "Аргументы вызовов совпадают с ожидаемыми (доля имён аргументов с равными значениями); "
                            "без ожидаемых аргументов судья сверяет каждое значение с диалогом.",
    "task_completion": "Доля утверждений ожидаемого результата, которые есть в итоговом ответе (согласие ответа с "
                       "эталоном по судье).",
    "hallucination_taxonomy": "Доля ответов с галлюцинацией любого класса (противоречие, выдумка, устаревший "
                              "источник, фактическая ошибка против доверенного источника, противоречие самому себе); "
                              "класс каждого утверждения — в артефактах.",
    "self_contradiction": "Доля ответов, в которых два утверждения противоречат друг другу (логическое противоречие "
                          "внутри ответа).",
    "factuality": "Доля утверждений ответа, подтверждённых доверенным источником пользователя (верный пересказ "
                  "ошибочного контекста получает низкую оценку).",
    "behaviour_match": "1, если ответ ведёт себя так, как требует expected_behaviour случая (answer / not_found или "
                       "refuse / clarify / refuse_or_caution), иначе 0; без него не оценивается.",
}


def metric_description(spec: Mapping[str, Any], lang: str) -> str:
    """The description of a results.json ``metrics[]`` entry in ``lang``; the stored one when there is no
    Russian text for its base name (a metric newer than this table, a hand-made document)."""
    stored = "" if spec.get("description") is None else str(spec.get("description"))
    template = DESCRIPTIONS_RU.get(str(spec.get("base"))) if lang == "ru" else None
    if template is None:
        return stored
    params = spec.get("params") if isinstance(spec.get("params"), Mapping) else {}
    k = params.get("k")
    p = params.get("percentile")
    p_text = "" if p is None else (str(int(p)) if float(p).is_integer() else str(p).replace(".", ","))
    try:
        return template.format(k="" if k is None else k, p=p_text, cut=f" среди первых {k}" if k is not None else "")
    except (KeyError, IndexError, ValueError):
        return stored
