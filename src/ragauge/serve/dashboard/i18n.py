"""The dashboard's words in English and Russian, and which language a request gets.

The language is ``?lang=ru|en`` when given (remembered in a cookie), else the cookie, else the first of
``Accept-Language`` that we speak, else English.

    >>> pick_language(None, None, "ru-RU,ru;q=0.9,en;q=0.8")
    'ru'
    >>> pick_language("en", "ru", "ru")
    'en'
    >>> Words("ru")("requests")
    'Запросы'
"""

from __future__ import annotations

LANGS = ("en", "ru")

#: key -> (English, Russian); ``{name}`` fields are filled by :class:`Words`.
TEXT: dict[str, tuple[str, str]] = {
    "title": ("ragauge monitoring", "ragauge: мониторинг"),
    "overview": ("Overview", "Обзор"),
    "requests": ("Requests", "Запросы"),
    "request": ("Request", "Запрос"),
    "logout": ("Log out", "Выйти"),
    "login": ("Log in", "Войти"),
    "login_intro": ("Enter the API token (RAGAUGE_TOKEN) or the read-only dashboard token.",
                    "Введите токен API (RAGAUGE_TOKEN) или токен дашборда только для чтения."),
    "token": ("Token", "Токен"),
    "login_failed": ("Wrong token.", "Неверный токен."),
    "login_throttled": ("Too many wrong tokens from this address; try again in {s} s.",
                        "Слишком много неверных токенов с этого адреса; повторите через {s} с."),
    "read_only": ("read-only", "только чтение"),
    "no_data": ("No traces yet: send some with ragauge.trace (see docs/monitoring.md).",
                "Трасс пока нет: отправьте их через ragauge.trace (см. docs/monitoring.md)."),
    "app": ("App", "Приложение"),
    "version": ("Version", "Версия"),
    "traces": ("traces", "трасс"),
    "scored": ("scored", "оценено"),
    "pending": ("waiting for scoring", "ждут оценки"),
    "failed": ("scoring failed", "оценка не удалась"),
    "window": ("last {n} requests of {app} {version}", "последние {n} запросов {app} {version}"),
    "profile": ("thresholds: profile {name}", "пороги: профиль {name}"),
    "threshold": ("threshold", "порог"),
    "no_threshold": ("no threshold", "без порога"),
    "ci": ("95% CI", "95% ДИ"),
    "no_ci": ("too few values for an interval", "мало значений для интервала"),
    "unscored": ("unscored", "без оценки"),
    "status_pass": ("meets the threshold", "проходит порог"),
    "status_fail": ("misses the threshold", "не проходит порог"),
    "status_unsure": ("meets it, but the CI crosses the threshold", "проходит, но ДИ пересекает порог"),
    "status_near": ("misses it, but the CI crosses the threshold", "не проходит, но ДИ пересекает порог"),
    "status_none": ("no value", "нет значения"),
    "trend": ("rolling mean over {w} requests", "скользящее среднее по {w} запросам"),
    "groups": ("Apps and versions", "Приложения и версии"),
    "last_seen": ("last request", "последний запрос"),
    "compare": ("Compare versions", "Сравнение версий"),
    "compare_go": ("Compare", "Сравнить"),
    "compare_paired": ("Paired by question: {n} questions were asked in both versions.",
                       "Парное сравнение по вопросам, заданным обеим версиям (вопросов: {n})."),
    "compare_none": ("No question was asked in both versions: the means are shown side by side, without a paired test.",
                     "Ни один вопрос не задан обеим версиям: средние показаны рядом, без парного теста."),
    "metric": ("Metric", "Метрика"),
    "difference": ("Difference", "Разница"),
    "p_value": ("p (Holm)", "p (Холм)"),
    "verdict": ("Verdict", "Вывод"),
    "pairs": ("{n} pairs", "пар: {n}"),
    "v_better": ("better", "лучше"),
    "v_worse": ("worse", "хуже"),
    "v_same": ("no detectable difference", "различие не обнаружено"),
    "v_few": ("too few pairs", "слишком мало пар"),
    "agreement": ("Judge vs user feedback", "Судья и отзывы пользователей"),
    "agreement_none": ("No feedback on these requests yet.", "На эти запросы отзывов пока нет."),
    "agreement_note": ("Spearman correlation of the judge's score with the thumbs (up = 1, down = 0) and the cut that "
                       "best separates them (balanced accuracy); the same statistics as ragauge calibrate.",
                       "Корреляция Спирмена оценки судьи с отзывами (полезно = 1, бесполезно = 0) и порог, лучше всего "
                       "их разделяющий (сбалансированная точность); та же статистика, что в ragauge calibrate."),
    "mean_up": ("mean score, helpful", "средняя оценка, полезно"),
    "mean_down": ("mean score, not helpful", "средняя оценка, бесполезно"),
    "spearman": ("Spearman", "Спирмен"),
    "best_cut": ("best cut (balanced accuracy)", "лучший порог (сбаланс. точность)"),
    "filters": ("Filters", "Фильтры"),
    "f_low": ("low faithfulness (< {x})", "низкая достоверность (< {x})"),
    "f_no_answer": ("no answer", "нет ответа"),
    "f_clarify": ("clarifying question", "уточняющий вопрос"),
    "f_slow": ("slow (> {x} ms)", "медленные (> {x} мс)"),
    "f_negative": ("negative feedback", "отрицательный отзыв"),
    "guard_only": ("Without the offline judge (pip install 'ragauge[offline]') these filters see only the guard's "
                   "decisions, not what the answer text says.",
                   "Без офлайн-судьи (pip install 'ragauge[offline]') эти фильтры видят только решения guard, "
                   "а не текст ответа."),
    "all": ("all", "все"),
    "apply": ("Apply", "Применить"),
    "reset": ("Reset", "Сбросить"),
    "found": ("{n} requests", "запросов: {n}"),
    "page": ("page {p} of {n}", "страница {p} из {n}"),
    "prev": ("previous", "назад"),
    "next": ("next", "вперёд"),
    "time": ("Time", "Время"),
    "question": ("Question", "Вопрос"),
    "answer": ("Answer", "Ответ"),
    "latency": ("Latency", "Задержка"),
    "behaviour": ("Behaviour", "Поведение"),
    "b_answer": ("answer", "ответ"),
    "b_not_found": ("no answer", "нет ответа"),
    "b_clarify": ("clarifying question", "уточняющий вопрос"),
    "export": ("Export", "Экспорт"),
    "export_selected": ("Export the selected as golden candidates (JSONL)",
                        "Выгрузить отмеченные как кандидатов в эталон (JSONL)"),
    "export_all": ("Export all matching the filters (JSONL)", "Выгрузить все по фильтрам (JSONL)"),
    "export_hint": ("For ragauge review: ragauge review export FILE --out review.xlsx",
                    "Для ragauge review: ragauge review export ФАЙЛ --out review.xlsx"),
    "select": ("select", "отметить"),
    "chunks": ("Retrieved chunks", "Найденные фрагменты"),
    "no_chunks": ("No retrieval span in this trace.", "В трассе нет шага поиска."),
    "score": ("score", "оценка"),
    "metadata": ("metadata", "метаданные"),
    "claims": ("Claims of the answer", "Утверждения ответа"),
    "no_claims": ("No claim verdicts stored (not scored yet, or faithfulness not computed).",
                  "Вердиктов по утверждениям нет (ещё не оценено или достоверность не считалась)."),
    "claim": ("Claim", "Утверждение"),
    "evidence": ("Evidence", "Подтверждение"),
    "no_evidence": ("no supporting passage in the retrieved chunks", "в найденных фрагментах нет подтверждения"),
    "contradicted_by": ("contradicted by", "противоречит тексту:"),
    "closest": ("closest passage (does not support it)", "ближайший фрагмент (не подтверждает)"),
    "chunk_n": ("chunk {n}", "фрагмент {n}"),
    "supported": ("supported", "подтверждено"),
    "unsupported": ("unsupported", "не подтверждено"),
    "contradicted": ("contradicted", "противоречит"),
    "scores": ("Scores", "Оценки"),
    "guard": ("Guard decisions", "Решения guard"),
    "no_guard": ("No guard span in this trace.", "В трассе нет шагов guard."),
    "spans": ("Spans", "Шаги"),
    "feedback": ("Feedback", "Отзыв"),
    "no_feedback": ("No feedback yet.", "Отзывов пока нет."),
    "thumbs_up": ("▲ Helpful", "▲ Полезно"),
    "thumbs_down": ("▼ Not helpful", "▼ Бесполезно"),
    "comment": ("Comment", "Комментарий"),
    "send": ("Send feedback", "Отправить отзыв"),
    "feedback_saved": ("Feedback saved.", "Отзыв сохранён."),
    "feedback_read_only": ("Log in with the API token to give feedback (the dashboard token is read-only).",
                           "Чтобы оставить отзыв, войдите с токеном API (токен дашборда только для чтения)."),
    "feedback_missing": ("This collector has no feedback table yet (update ragauge and restart `ragauge serve`).",
                         "В этом сборщике ещё нет таблицы отзывов (обновите ragauge и перезапустите `ragauge serve`)."),
    "not_found": ("No trace with this id.", "Трассы с таким id нет."),
    "no_app": ("No traces of the app {app!r}.", "Трасс приложения {app!r} нет."),
    "csrf_failed": ("The form expired or came from another site; reload the page and send it again.",
                    "Форма устарела или отправлена с другого сайта; обновите страницу и отправьте снова."),
    "bad_input": ("Bad input: {what}", "Неверные данные: {what}"),
    "forbidden": ("This needs the API token; the dashboard token is read-only.",
                  "Нужен токен API; токен дашборда только для чтения."),
    "state": ("Scoring", "Оценка"),
    "state_pending": ("waiting", "в очереди"),
    "state_claimed": ("being scored", "оценивается"),
    "state_done": ("done", "готово"),
    "state_failed": ("failed", "не удалась"),
    "state_unknown": ("unknown", "неизвестно"),
    "error": ("Error", "Ошибка"),
    "trace_id": ("Trace id", "Id трассы"),
    "back": ("back to the list", "к списку"),
    "timings": ("Latency per {w}", "Задержки по интервалам {w}"),
    "timings_none": ("No timed requests in the last 24 windows.", "За последние 24 интервала запросов с замерами нет."),
    "window_start": ("From (UTC)", "С (UTC)"),
    "n_requests": ("requests", "запросов"),
    "retrieval_time": ("Retrieval", "Поиск"),
    "ttft": ("TTFT", "До первого токена"),
    "slices": ("Slices", "Срезы"),
    "slice": ("Slice", "Срез"),
    "group_by": ("Group by (tag or meta:KEY)", "Группировать по (tag или meta:КЛЮЧ)"),
    "slices_note": ("The last {n} requests of this version, grouped; a request with several tags counts in each.",
                    "Последние {n} запросов этой версии по группам; запрос с несколькими тегами входит в каждую."),
    "runs": ("Eval runs", "Прогоны eval"),
    "run": ("Run", "Прогон"),
    "runs_none": ("No run uploaded yet.", "Прогонов пока нет."),
    "runs_upload": ("Upload the results.json of `ragauge eval` with the API token:",
                    "Загрузите results.json из `ragauge eval` с токеном API:"),
    "runs_url": ("http://HOST:PORT", "http://ХОСТ:ПОРТ"),
    "runs_intersect": ("compare the common questions only", "сравнить только общие вопросы"),
    "runs_paired": ("Paired by sample id over {n} samples, as ragauge compare does (Holm across metrics).",
                    "Парное сравнение по id на {n} примерах, как в ragauge compare (поправка Холма)."),
    "n_samples": ("samples", "примеров"),
    "metrics_means": ("means", "средние"),
}

#: metric -> (English, Russian) label of a tile
METRIC_LABELS: dict[str, tuple[str, str]] = {
    "faithfulness": ("Faithfulness", "Достоверность"),
    "answer_relevancy": ("Answer relevancy", "Релевантность ответа"),
    "context_precision": ("Context precision", "Точность контекста"),
    "faithfulness:llm": ("Faithfulness, LLM judge (sample)", "Достоверность, LLM-судья (выборка)"),
    "answer_relevancy:llm": ("Answer relevancy, LLM judge (sample)", "Релевантность ответа, LLM-судья (выборка)"),
    "context_precision:llm": ("Context precision, LLM judge (sample)", "Точность контекста, LLM-судья (выборка)"),
    "latency_p50": ("Latency P50", "Задержка P50"),
    "latency_p95": ("Latency P95", "Задержка P95"),
    "latency_p99": ("Latency P99", "Задержка P99"),
    "retrieval_p95": ("Retrieval time P95", "Время поиска P95"),
    "ttft_p95": ("Time to first token P95", "Время до первого токена P95"),
}


def pick_language(query: str | None, cookie: str | None, accept: str | None) -> str:
    """``query`` (``?lang=``), else ``cookie``, else the first language of ``Accept-Language`` we speak."""
    for given in (query, cookie):
        if given and given.lower() in LANGS:
            return given.lower()
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        base = tag.strip().lower().split("-")[0]
        if base in LANGS and q > 0:
            ranked.append((-q, i, base))
    return sorted(ranked)[0][2] if ranked else "en"


class Words:
    """``words(key, **fields)``: the text of ``key`` in one language (the key itself when unknown, so a
    missing translation shows up on the page instead of crashing it)."""

    def __init__(self, lang: str) -> None:
        self.lang = lang if lang in LANGS else "en"
        self._i = LANGS.index(self.lang)

    def __call__(self, key: str, **fields: object) -> str:
        pair = TEXT.get(key)
        text = pair[self._i] if pair else key
        return text.format(**fields) if fields else text

    def metric(self, name: str) -> str:
        pair = METRIC_LABELS.get(name)
        return pair[self._i] if pair else name
