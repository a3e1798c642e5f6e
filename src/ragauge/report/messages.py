"""The reports' own fixed texts in Russian and English: data, one table, plus the plural rule.

A report is in one language: the language of its diagnosis (``results.json`` ``lang`` when the run
recorded it, else the language the diagnosis was written in -- under ``--lang auto`` the samples'
majority language); English when there is neither. The alarm sentences are rebuilt from their numbers
in that language too (:func:`ragauge.report.common.alarm_lines`).

    >>> plural("ru", 1, "samples"), plural("ru", 3, "samples"), plural("ru", 5, "samples"), plural("ru", 21, "samples")
    ('1 образец', '3 образца', '5 образцов', '21 образец')
    >>> plural("en", 1, "claims"), plural("en", 2, "claims")
    ('1 claim', '2 claims')
"""

from __future__ import annotations

from typing import Any, Mapping

from .detail_messages import DETAIL_MESSAGES
from .gate_messages import GATE_MESSAGES

LANGS = ("en", "ru")

#: noun -> {lang: forms}; English (one, many), Russian (one, few, many): 1 образец, 2 образца, 5 образцов
NOUNS: dict[str, dict[str, tuple[str, ...]]] = {
    "samples": {"en": ("sample", "samples"), "ru": ("образец", "образца", "образцов")},
    "claims": {"en": ("claim", "claims"), "ru": ("утверждение", "утверждения", "утверждений")},
    "gates": {"en": ("gate", "gates"), "ru": ("порог", "порога", "порогов")},
    "slices": {"en": ("slice", "slices"), "ru": ("срез", "среза", "срезов")},
    "evaluations": {"en": ("evaluation", "evaluations"), "ru": ("оценка", "оценки", "оценок")},
    "more samples": {"en": ("more sample", "more samples"), "ru": ("образец", "образца", "образцов")},
    "files": {"en": ("file", "files"), "ru": ("файл", "файла", "файлов")},
    "more characters": {"en": ("more character", "more characters"), "ru": ("символ", "символа", "символов")},
    "scored samples": {"en": ("scored sample", "scored samples"),
                       "ru": ("оценённый образец", "оценённых образца", "оценённых образцов")},
    # after "of" / "из": 1 образца, 2 образцов, 5 образцов (genitive)
    "of slices": {"en": ("slice", "slices"), "ru": ("среза", "срезов", "срезов")},
    "of samples": {"en": ("sample", "samples"), "ru": ("образца", "образцов", "образцов")},
    "production targets": {"en": ("production target", "production targets"),
                           "ru": ("целевое значение", "целевых значения", "целевых значений")},
    "paired samples": {"en": ("paired sample", "paired samples"),
                       "ru": ("пара образцов", "пары образцов", "пар образцов")},
}

#: key -> {lang: text with str.format fields}
MESSAGES: dict[str, dict[str, str]] = {
    # verdict and header
    "no_gates": {"en": "No gates checked (no profile).", "ru": "Пороги не проверялись (нет профиля)."},
    "no_gates_baseline": {"en": "No gates checked yet: every gate of profile {profile} needs a baseline run.",
                          "ru": "Пороги пока не проверялись: каждому порогу профиля {profile} нужен базовый запуск."},
    "all_passed": {"en": "PASS: all {gates} passed.", "ru": "PASS: все пороги пройдены ({gates})."},
    "some_failed": {"en": "FAIL: {failed} of {gates} failed: {names}",
                    "ru": "FAIL: не пройдены пороги ({failed} из {total}): {names}"},
    "profile": {"en": "Profile", "ru": "Профиль"},
    "data": {"en": "data", "ru": "данные"},
    "none": {"en": "none", "ru": "нет"},
    # sections
    "what_to_fix": {"en": "What to fix", "ru": "Что исправить"},
    "hidden_breakage": {"en": "Hidden breakage", "ru": "Скрытые поломки"},
    "breakage_count": {"en": "Hidden breakage: {slices} significantly below the rest",
                       "ru": "Скрытые поломки: значимо хуже остальных — {slices}"},
    "not_evaluated": {"en": "Not evaluated in this run: ", "ru": "Не оценивались в этом запуске: "},
    "waiting_baseline": {"en": "Waiting for a baseline (pass --baseline BASE/results.json): ",
                         "ru": "Ждут базового запуска (передайте --baseline BASE/results.json): "},
    "too_small": {"en": "Too small to test (fewer than {min_n} scored samples in the slice or in the rest): {pairs}.",
                  "ru": "Слишком мало данных для проверки (меньше {min_n} оценённых образцов в срезе или в "
                        "остальных): {pairs}."},
    "too_small_pair": {"en": "{slice} on {metric} (n = {n}{rest})", "ru": "{slice} по {metric} (n = {n}{rest})"},
    "too_small_rest": {"en": ", rest {n_rest}", "ru": ", остальных {n_rest}"},
    "baseline": {"en": "Compared with baseline {path} (paired by id{extra}; difference = this run - baseline, "
                       "{level}% CI of the paired permutation test (bootstrap for percentiles), Holm-adjusted p).",
                 "ru": "Сравнение с базовым запуском {path} (пары по id{extra}; разница = этот запуск − базовый, "
                       "{level}% ДИ парного перестановочного теста (бутстрап для перцентилей), p с поправкой Холма)."},
    "baseline_common": {"en": "; compared on the {n} common samples ({left})",
                        "ru": "; сравнение по {n} общим образцам ({left})"},
    "only_base": {"en": "{n} only in the baseline", "ru": "{n} только в базовом"},
    "only_new": {"en": "{n} only in this run", "ru": "{n} только в этом запуске"},
    "judge_spend": {"en": "LLM judge spend", "ru": "Расход LLM-судьи"},
    "why_failed": {"en": "Why gates failed", "ru": "Почему пороги не пройдены"},
    "failed_assertions": {"en": "Failed quality assertions", "ru": "Не пройденные проверки качества"},
    # an alarm (slice_alarms.alarm_record writes the English one into results.json)
    "alarm": {"en": "Slice '{slice}' is significantly below the rest on {metric}: {value} (n = {n}{ci}) vs {rest} on "
                    "the other {n_rest} samples (difference {diff}; {method}, p = {p}, Holm-adjusted {p_adj})",
              "ru": "Срез «{slice}» значимо хуже остальных по {metric}: {value} (n = {n}{ci}) против {rest} на "
                    "остальных образцах (n = {n_rest}; разница {diff}; {method}, p = {p}, с поправкой Холма {p_adj})"},
    "alarm_ci": {"en": ", 95% CI {low}–{high}", "ru": ", 95% ДИ {low}–{high}"},
    "alarm_gate": {"en": ", while the overall gate {overall} ({value}, {want})",
                   "ru": ", хотя общий порог {overall} ({value}, {want})"},
    "alarm_passes": {"en": "passes", "ru": "пройден"},
    "alarm_fails": {"en": "fails", "ru": "не пройден"},
    "alarm_meets": {"en": "; the slice itself meets the bar", "ru": "; сам срез до планки дотягивает"},
    "alarm_misses": {"en": "; the slice itself misses the bar", "ru": "; сам срез до планки не дотягивает"},
    "op_>=": {"en": "at least {v}", "ru": "не меньше {v}"},
    "op_>": {"en": "above {v}", "ru": "больше {v}"},
    "op_<=": {"en": "at most {v}", "ru": "не больше {v}"},
    "op_<": {"en": "below {v}", "ru": "меньше {v}"},
    # table heads
    "h_metric": {"en": "metric", "ru": "метрика"},
    "h_value": {"en": "value", "ru": "значение"},
    "h_ci": {"en": "95% CI", "ru": "95% ДИ"},
    "h_unscored": {"en": "unscored", "ru": "не оценено"},
    "h_gate": {"en": "gate", "ru": "порог"},
    "h_threshold": {"en": "threshold", "ru": "граница"},
    "h_status": {"en": "status", "ru": "статус"},
    "h_vs_baseline": {"en": "vs baseline", "ru": "против базового"},
    "h_what": {"en": "what", "ru": "что"},
    "h_calls": {"en": "calls", "ru": "вызовы"},
    "h_cached": {"en": "from cache", "ru": "из кэша"},
    "h_tokens": {"en": "tokens", "ru": "токены"},
    "h_cost": {"en": "cost", "ru": "стоимость"},
    "st_pass": {"en": "pass", "ru": "пройден"},
    "st_fail": {"en": "fail", "ru": "не пройден"},
    "st_unscored": {"en": "unscored", "ru": "не оценён"},
    "st_skipped": {"en": "not evaluated", "ru": "не оценивался"},
    "st_waiting": {"en": "waiting for a baseline", "ru": "ждёт базового запуска"},
    "n_too_small": {"en": "n too small", "ru": "мало данных"},
    # HTML
    "H_metric": {"en": "Metric", "ru": "Метрика"},
    "H_value": {"en": "Value", "ru": "Значение"},
    "H_threshold": {"en": "Threshold", "ru": "Граница"},
    "H_mode": {"en": "Mode", "ru": "Режим"},
    "H_status": {"en": "Status", "ru": "Статус"},
    "H_reason": {"en": "Reason", "ru": "Причина"},
    "H_aggregate": {"en": "Aggregate", "ru": "Агрегат"},
    "H_unscored": {"en": "Unscored", "ru": "Не оценено"},
    "H_description": {"en": "Description", "ru": "Описание"},
    "c_no_scores": {"en": "No per-sample scores in this document.", "ru": "В документе нет оценок по образцам."},
    "c_scored": {"en": "n = {n} scored", "ru": "n = {n} оценено"},
    "c_measured": {"en": "n = {n} measured", "ru": "n = {n} измерено"},
    "c_none_unscored": {"en": "none unscored", "ru": "всё оценено"},
    "c_unscored": {"en": "{n} unscored", "ru": "не оценено {n}"},
    "c_no_reason": {"en": "reason not recorded", "ru": "причина не записана"},
    "c_all_unscored": {"en": "Every sample is unscored: no distribution to draw.",
                       "ru": "Ни один образец не оценён: строить распределение не из чего."},
    "c_distribution_of": {"en": "Distribution of {name}", "ru": "Распределение {name}"},
    "c_dist_intro": {"en": "Per-sample scores in 10 equal bins; the dashed line is the gate threshold, the grey line "
                           "the mean.",
                     "ru": "Оценки образцов в 10 равных интервалах; пунктир — граница порога, серая линия — среднее."},
    "c_no_slices": {"en": "the document has no slices", "ru": "в документе нет срезов"},
    "c_no_gate": {"en": "no metric has a gate", "ru": "ни у одной метрики нет порога"},
    "c_no_slice_charts": {"en": "No slice charts: {why}.", "ru": "Графиков по срезам нет: {why}."},
    "c_by_slice": {"en": "by slice", "ru": "по срезам"},
    "c_no_value": {"en": "No value: every sample is unscored", "ru": "Значения нет: ни один образец не оценён"},
    "c_all_samples": {"en": "All samples", "ru": "Все образцы"},
    "c_slices_intro": {"en": "Bars are green when the slice's point estimate meets the gate, red when it does not; "
                             "whiskers are the 95% CI. Slices with fewer than {n} scored samples are hatched and "
                             "marked “too small”: their estimate is not reliable. A red outlined bar marked “alarm” "
                             "is a slice significantly below the rest (see Hidden breakage).",
                       "ru": "Столбец зелёный, если точечная оценка среза проходит порог, красный — если нет; усы — "
                             "95% ДИ. Срезы, где меньше {n} оценённых образцов, заштрихованы и помечены «мало данных»: "
                             "их оценка ненадёжна. Столбец с красной рамкой и пометкой «тревога» — срез, значимо хуже "
                             "остальных (см. «Скрытые поломки»)."},
    "c_no_timing": {"en": "No percentile (timing) metrics.", "ru": "Нет перцентильных метрик (времени)."},
    "c_percentiles": {"en": "percentiles", "ru": "перцентили"},
    "c_latency_intro": {"en": "Percentiles use linear interpolation; dashed lines are the gate thresholds.",
                        "ru": "Перцентили с линейной интерполяцией; пунктир — границы порогов."},
    "judge_intro": {"en": "The judge behind faithfulness, relevancy, correctness, context and toxicity metrics, and "
                          "how well it is known to work.",
                    "ru": "Судья метрик faithfulness, relevancy, correctness, context и toxicity и его измеренная "
                          "точность."},
    "judge_spend_note": {"en": "(a call that served several metrics counts once, in its shared row)",
                         "ru": "(вызов, обслуживший несколько метрик, учтён один раз — в общей строке)"},
    "no_gates_profile": {"en": "No gates in this profile.", "ru": "В этом профиле нет порогов."},
    "no_metrics": {"en": "No metrics in this document.", "ru": "В документе нет метрик."},
    "breakage_intro": {"en": "Slices significantly below the rest of the data (one-sided test against the other "
                             "samples, Holm-corrected over {n_tests} slice × metric tests, alpha {alpha}). An average "
                             "that passes can hide them.",
                       "ru": "Срезы, значимо хуже остальных данных (односторонний тест против остальных образцов, "
                             "поправка Холма на {n_tests} проверок срез × метрика, альфа {alpha}). Проходящее среднее "
                             "может их скрывать."},
    "html_brand": {"en": "ragauge · RAG evaluation report", "ru": "ragauge · отчёт об оценке RAG"},
    "html_results": {"en": "Evaluation results", "ru": "Результаты оценки"},
    "m_source": {"en": "Data source", "ru": "Данные"},
    "m_samples": {"en": "Samples", "ru": "Образцы"},
    "m_date": {"en": "Date", "ru": "Дата"},
    "nav_gates": {"en": "Gates", "ru": "Пороги"},
    "nav_metrics": {"en": "Metrics", "ru": "Метрики"},
    "nav_distributions": {"en": "Distributions", "ru": "Распределения"},
    "nav_slices": {"en": "Slices", "ru": "Срезы"},
    "nav_latency": {"en": "Latency", "ru": "Задержка"},
    "nav_samples": {"en": "Samples", "ru": "Образцы"},
    "sec_gates": {"en": "Quality gates", "ru": "Пороги качества"},
    "sec_judge": {"en": "Judge", "ru": "Судья"},
    "sec_distributions": {"en": "Score distributions", "ru": "Распределения оценок"},
    "v_no_gates": {"en": "no gates checked", "ru": "пороги не проверялись"},
    "v_skipped": {"en": "{n} skipped", "ru": "пропущено: {n}"},
    "v_not_passed": {"en": "{k} of {gates} did not pass ({parts})", "ru": "не пройдены пороги: {k} из {total} ({parts})"},
    "v_failed": {"en": "{n} failed", "ru": "провалено: {n}"},
    "v_unscored": {"en": "{n} unscored", "ru": "не оценено: {n}"},
    "v_all_passed": {"en": "all {gates} passed", "ru": "все пороги пройдены ({gates})"},
    "v_skipped_metric": {"en": "; {n} skipped (metric not evaluated)", "ru": "; пропущено {n} (метрика не оценивалась)"},
    "s_empty": {"en": "No samples in this document.", "ru": "В документе нет образцов."},
    # a --shards run: results.json keeps no per-sample rows (samples_in: "shards")
    "s_in_shards": {"en": "The per-sample rows, {samples} in {files}, are not in this report: they are in the run's "
                          "Parquet shards, a row per sample with id, tags and, per metric, the value, the unscored "
                          "reason and the artifacts, in the folder {path}.",
                    "ru": "Результаты по образцам — {samples} — не входят в этот отчёт: они в Parquet-шардах "
                          "прогона (файлов: {n_files}), по строке на образец: id, теги и по каждой метрике "
                          "значение, причина «не оценено» и артефакты; папка {path}."},
    "s_shards_read": {"en": "Read them with {reader} or {pandas}; ragauge compare and --baseline pair runs by id "
                            "from them.",
                      "ru": "Прочитать их: {reader} или {pandas}; ragauge compare и --baseline берут из них пары "
                            "по id."},
    "s_filter": {"en": "Filter samples…", "ru": "Фильтр образцов…"},
    "s_sorted": {"en": "Sorted worst first by <strong>{metric}</strong>; ",
                 "ru": "Худшие сверху по <strong>{metric}</strong>; "},
    "s_note": {"en": "click a column to sort, a question to see the answer, reference and artifacts. “—” is "
                     "unscored (hover for the reason).",
               "ru": "нажмите на столбец для сортировки, на вопрос — чтобы увидеть ответ, эталон и артефакты. "
                     "«—» — не оценено (причина во всплывающей подсказке)."},
    "s_failing": {"en": "Failing or unscored on a gated metric: {samples}", "ru": "Не проходят или не оценены по порогу: {samples}"},
    "s_passing": {"en": "Passing samples: {samples} (click to show)",
                  "ru": "Проходящие образцы: {samples} (нажмите, чтобы показать)"},
    "s_more_rows": {"en": "Not shown here: {samples}; every sample is in results.json.",
                    "ru": "Здесь не показаны ещё {samples}; все образцы есть в results.json."},
    "s_more_chars": {"en": "… ({chars} in results.json)", "ru": "… (ещё {chars} — в results.json)"},
    "s_all": {"en": "all columns", "ru": "все столбцы"},
    "s_more_claims": {"en": "… and {claims} more in results.json", "ru": "… и ещё {claims} — в results.json"},
    "g_retrieval": {"en": "retrieval", "ru": "поиск"},
    "g_generation": {"en": "generation", "ru": "генерация"},
    "g_context": {"en": "context", "ru": "контекст"},
    "g_operational": {"en": "operational", "ru": "эксплуатация"},
    "g_other": {"en": "other", "ru": "прочее"},
    "q_question": {"en": "Question", "ru": "Вопрос"},
    "s_h_tags": {"en": "tags", "ru": "теги"},
    "s_h_question": {"en": "question", "ru": "вопрос"},
    "q_answer": {"en": "Answer", "ru": "Ответ"},
    "q_reference": {"en": "Reference", "ru": "Эталон"},
    "q_unscored": {"en": "Unscored", "ru": "Не оценено"},
    "q_artifacts": {"en": "Artifacts", "ru": "Артефакты"},
    "q_other": {"en": "Other fields", "ru": "Другие поля"},
    # HTML cells, footer and charts
    "b_gated": {"en": "gated", "ru": "с порогом"},
    "b_higher": {"en": "higher is better", "ru": "больше — лучше"},
    "b_lower": {"en": "lower is better", "ru": "меньше — лучше"},
    "b_not_scored": {"en": "not scored", "ru": "не оценено"},
    "f_schema": {"en": "Schema", "ru": "Схема"},
    "f_seed": {"en": "Seed", "ru": "Seed"},
    "ci_per metric": {"en": "per metric", "ru": "по метрикам"},
    # gate modes and aggregates as the HTML tables show them
    "mode_point": {"en": "point", "ru": "точечно"},
    "mode_confident": {"en": "confident", "ru": "уверенно"},
    "mode_non_inferior": {"en": "non_inferior", "ru": "не хуже базового"},
    "mode_non_inferior_strict": {"en": "non_inferior_strict", "ru": "не хуже базового (строго)"},
    "agg_mean": {"en": "mean", "ru": "среднее"},
    # the diagnosis: severity words and the evidence line under each finding
    "sev_critical": {"en": "critical", "ru": "критично"},
    "sev_high": {"en": "high", "ru": "важно"},
    "sev_medium": {"en": "medium", "ru": "средне"},
    "d_bar": {"en": "bar", "ru": "планка"},
    "d_answered": {"en": "{answered} of {n} answered", "ru": "ответ дан на {answered} из {n}"},
    "f_ci": {"en": "CI", "ru": "ДИ"},
    "f_level": {"en": "{level} level", "ru": "уровень {level}"},
    "f_resamples": {"en": "{n} resamples", "ru": "повторных выборок: {n}"},
    "f_generated": {"en": "Generated offline by ragauge {version}", "ru": "Создан офлайн, ragauge {version}"},
    "g_score_axis": {"en": "score per sample", "ru": "оценка образца"},
    "g_samples_axis": {"en": "samples", "ru": "образцы"},
    "g_mean": {"en": "mean {v}", "ru": "среднее {v}"},
    "g_threshold": {"en": "threshold {label} {op} {v}", "ru": "порог {label} {op} {v}"},
    "g_bin": {"en": "{a}–{b}: {samples}", "ru": "{a}–{b}: {samples}"},
    "g_hist_desc": {"en": "{samples} in {bins} bins from {lo} to {hi}: {counts}",
                    "ru": "{samples} в {bins} интервалах от {lo} до {hi}: {counts}"},
    "g_unscored": {"en": "— unscored (n={n})", "ru": "— не оценено (n={n})"},
    "g_too_small": {"en": "too small", "ru": "мало данных"},
    "g_alarm": {"en": "alarm", "ru": "тревога"},
    "g_alarm_title": {"en": "alarm: significantly below the rest", "ru": "тревога: значимо хуже остальных"},
    "g_not_measured": {"en": "— not measured", "ru": "— не измерено"},
    "g_collapsed": {"en": "by slice: {k} of {slices} below the bar; worst {worst}",
                    "ru": "по срезам: ниже планки {k} из {slices}; хуже всех {worst}"},
    "g_collapsed_none": {"en": "by slice: {slices}, none below the bar",
                         "ru": "по срезам: {slices}, ниже планки ни одного"},
    "g_worst": {"en": "{slice} ({value}, n = {n})", "ru": "{slice} ({value}, n = {n})"},
    "j_line": {"en": "Judge: {judge} ({model}, {version}).", "ru": "Судья: {judge} ({model}, {version})."},
    "j_measured": {"en": " Measured {measure}: {tasks}.", "ru": " Измерено ({measure}): {tasks}."},
    "j_task": {"en": "task type", "ru": "тип задачи"},
    "j_measured_by": {"en": "Measured by {how}.", "ru": "Как измерено: {how}."},
    "j_cascade": {"en": "Cascade: {k} of {n} claim verdicts escalated to the LLM.",
                  "ru": "Каскад: {k} из {n} вердиктов по утверждениям переданы LLM."},
    "u_whole_run": {"en": "whole run", "ru": "весь запуск"},
    "u_shared": {"en": "shared: {name}", "ru": "общие: {name}"},
    # the paired comparison's verdicts (stats/paired.py), long and short
    "vd_better": {"en": "better", "ru": "лучше"},
    "vd_worse": {"en": "worse", "ru": "хуже"},
    "vd_no detectable difference": {"en": "no detectable difference", "ru": "разницы не видно"},
    "vd_too few pairs": {"en": "too few pairs", "ru": "мало пар"},
    "vs_no detectable difference": {"en": "n.s.", "ru": "незначимо"},
    "vs_too few pairs": {"en": "too few", "ru": "мало пар"},
    "vd_title": {"en": "{metric}: baseline {base} → this run {new} on {pairs}",
                 "ru": "{metric}: базовый {base} → этот запуск {new}, {pairs}"},
    **GATE_MESSAGES,
    **DETAIL_MESSAGES,
}


def plural_index(lang: str, n: int) -> int:
    """Which form of a noun goes with ``n``: English 0 (one) or 1; Russian 0 (1, 21), 1 (2-4, 22-24), 2 (5-20)."""
    n = abs(int(n))
    if lang != "ru":
        return 0 if n == 1 else 1
    if n % 10 == 1 and n % 100 != 11:
        return 0
    if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        return 1
    return 2


def plural(lang: str, n: int, noun: str) -> str:
    """``n`` and the noun in the form that goes with it: ``1 sample``, ``5 образцов``."""
    forms = NOUNS[noun][lang if lang in LANGS else "en"]
    return f"{n} {forms[plural_index(lang, n)]}"


def local_num(x: Any, lang: str, spec: str = ".3f") -> str:
    """A number as the report's language writes it: ``0.769`` / ``0,769`` (a decimal comma in Russian, as
    the diagnosis); ``—`` for none.

    >>> local_num(0.7691, "ru"), local_num(-0.02, "en", "+.3f"), local_num(None, "ru")
    ('0,769', '-0.020', '—')
    """
    if x is None:
        return "—"
    text = format(float(x), spec)
    return text.replace(".", ",") if lang == "ru" else text


#: unit symbols as each language writes them (results.json keeps "ms")
UNITS: dict[str, dict[str, str]] = {"ms": {"ru": "мс"}}


def unit_label(unit: str | None, lang: str) -> str | None:
    """A unit symbol in ``lang``: ``ms`` -> ``мс`` in Russian; others as stored."""
    return UNITS.get(unit or "", {}).get(lang, unit) if unit else unit


def severity_word(severity: Any, lang: str) -> str:
    """A diagnosis severity (``critical``, ``high``, ``medium``) in ``lang``; an unknown one as stored."""
    s = "" if severity is None else str(severity)
    return msg(lang, f"sev_{s}") if f"sev_{s}" in MESSAGES else s


def msg(lang: str, key: str, **fields: Any) -> str:
    """The fixed text ``key`` in ``lang`` (English for any other language), its fields filled in."""
    text = MESSAGES[key][lang if lang in LANGS else "en"]
    return text.format(**fields) if fields else text


def report_lang(results: Mapping[str, Any]) -> str:
    """The one language of a report: ``lang`` of the document, else the diagnosis', else English."""
    lang = results.get("lang")
    if lang in LANGS:
        return str(lang)
    diags = [d for d in results.get("diagnosis") or [] if isinstance(d, Mapping)]
    if diags:
        text = " ".join(str(d.get("title", "")) + " " + str(d.get("text", "")) for d in diags).lower()
        cyr = sum(1 for ch in text if "а" <= ch <= "я" or ch == "ё")
        lat = sum(1 for ch in text if "a" <= ch <= "z")
        return "ru" if cyr > lat else "en"
    return "en"
