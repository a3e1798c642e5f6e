"""The diagnosis texts, in Russian and English: data, not code.

Each entry is ``(title, text)`` with ``str.format`` fields filled by :mod:`ragauge.diagnosis.rules`
(numbers already formatted for the language: a decimal comma in Russian).
"""

from __future__ import annotations

TEXTS: dict[str, dict[str, tuple[str, str]]] = {
    "retrieval_first": {
        "en": ("Fix retrieval first",
               "{hit} is below the bar {bar}{conf}. For about {miss} of the questions not one of the top {k} "
               "retrieved chunks is a relevant document, so the generator has nothing to answer from. Until "
               "retrieval finds the documents, faithfulness, context recall and answer correctness mean little, "
               "and tuning the prompt is moot. Try a larger k, a better (or fine-tuned) embedding model, "
               "re-chunking (chunk size and overlap) and hybrid search (BM25 + vectors)."),
        "ru": ("Сначала почините поиск",
               "{hit} — ниже порога {bar}{conf}. Примерно в {miss} вопросов среди первых {k} найденных фрагментов "
               "нет ни одного нужного документа, и генератору просто не из чего отвечать. Пока поиск не находит "
               "документы, faithfulness, полнота контекста и корректность ответа мало что значат, а настраивать "
               "промпт бессмысленно. Попробуйте увеличить k, сменить (или дообучить) модель эмбеддингов, "
               "пересобрать чанки (размер и перекрытие) и добавить гибридный поиск (BM25 + векторы)."),
    },
    "generation_grounding": {
        "en": ("The answers stray from the retrieved context: a generation problem",
               "{faith} is below the bar {bar}{conf}, while {recall} meets its bar: the needed documents are in "
               "the context, but the answers add or distort facts. Fix generation, not retrieval: an explicit "
               "grounding instruction (“answer only from the context; if it is not there, say so”), a lower "
               "temperature (0–0.2), a system prompt that asks to cite the fragments. Also check that the whole "
               "context fits into the model's window."),
        "ru": ("Ответы расходятся с найденным контекстом: проблема генерации",
               "{faith} — ниже порога {bar}{conf}, а {recall} порог проходит: нужные документы в контексте есть, "
               "но ответ добавляет или искажает факты. Чинить нужно генерацию, а не поиск: явная инструкция "
               "отвечать только по контексту («если в документах этого нет — так и скажи»), температура пониже "
               "(0–0,2), системный промпт с требованием ссылаться на фрагменты. Проверьте и то, что контекст "
               "целиком помещается в окно модели."),
    },
    "retrieval_recall": {
        "en": ("Retrieval misses part of what the answer needs",
               "{recall} is below the bar {bar}{conf}, while {faith} meets its bar: the model answers faithfully "
               "from what it gets, but the context lacks part of the facts. Fix retrieval: a larger k, a better "
               "embedding model, chunk size and overlap (facts cut by a chunk border get lost), hybrid search "
               "(BM25 + vectors), query rewriting."),
        "ru": ("Поиск находит не всё, что нужно для ответа",
               "{recall} — ниже порога {bar}{conf}, а {faith} порог проходит: модель честно отвечает по тому, что "
               "ей дали, но в контексте не хватает части фактов. Чинить нужно поиск: увеличить k, взять модель "
               "эмбеддингов получше, подобрать размер чанков и перекрытие (факты, разрезанные границей чанка, "
               "теряются), гибридный поиск (BM25 + векторы), переформулирование запроса."),
    },
    "retrieval_and_generation": {
        "en": ("Both retrieval and generation fall short",
               "{recall} and {faith} are both below their bars: the context lacks facts and the answers fill the "
               "gaps with unsupported claims. Fix retrieval first (k, embeddings, chunk size and overlap, hybrid "
               "search), then measure faithfulness again: part of the loss should go away by itself; what "
               "remains is for the prompt (a grounding instruction, a lower temperature)."),
        "ru": ("Проседают и поиск, и генерация",
               "{recall} и {faith} — оба ниже порогов: в контексте не хватает фактов, и ответы заполняют пробелы "
               "неподтверждёнными утверждениями. Сначала поиск (k, эмбеддинги, размер чанков и перекрытие, "
               "гибридный поиск), затем перемерьте faithfulness: часть просадки уйдёт сама, а оставшееся "
               "решается промптом (инструкция опираться на контекст, температура пониже)."),
    },
    "context_precision": {
        "en": ("Too much noise in the context",
               "{prec} is below the bar {bar}{conf}: many chunks given to the model are irrelevant, and the "
               "relevant ones are not at the top. Noise costs tokens and time and pulls the answer off track. "
               "Add a reranker (a cross-encoder over the top 20–50) and a stricter similarity threshold, or pass "
               "fewer chunks after reranking."),
        "ru": ("Слишком много шума в контексте",
               "{prec} — ниже порога {bar}{conf}: среди фрагментов, которые получает модель, много "
               "нерелевантных, а релевантные стоят не первыми. Шум стоит токенов и времени и уводит ответ в "
               "сторону. Добавьте реранкер (кросс-энкодер поверх топ-20–50) и более строгий порог схожести "
               "или передавайте меньше фрагментов после реранжирования."),
    },
    "unanswerable_answered": {
        "en": ("Questions the documents cannot answer get confident answers",
               "{answered} of {questions} that the documents cannot answer (no relevant documents, or the "
               "reference declines) got an answer instead of an honest “no matching documents” ({rate}). "
               "Examples: {ids}. Add a way to decline: a similarity threshold below which the assistant says "
               "that no matching documents were found, and an instruction to say so rather than guess."),
        "ru": ("На вопросы без ответа в документах бот всё равно отвечает",
               "На {answered} из {questions}, ответа на которые в документах нет (нет релевантных "
               "документов или эталон отказывается отвечать), бот ответил вместо честного «в базе нет "
               "подходящих документов» ({rate}). Примеры: {ids}. Нужен путь отказа: порог схожести, ниже "
               "которого бот сообщает, что подходящих документов не найдено, и инструкция в промпте так и "
               "говорить, а не угадывать."),
    },
    "latency_budget": {
        "en": ("Latency over budget: {stage}", "{over}. {shares}{advice}"),
        "ru": ("Задержка выше бюджета: {stage}", "{over}. {shares}{advice}"),
    },
}

#: "N questions" after "of" / "из": English one / many; Russian genitive for 1 (21, ...), 2-4, 5+ (из 1 вопроса,
#: из 3 вопросов, из 5 вопросов).
OF_QUESTIONS: dict[str, tuple[str, ...]] = {"en": ("question", "questions"), "ru": ("вопроса", "вопросов", "вопросов")}

#: Pieces of the latency text and the shared phrases.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "confidently": " (confidently: the whole 95% CI is below it)",
        "confidently_over": " (confidently: the whole 95% CI is above it)",
        "not_sure": " (the 95% CI still reaches the bar: more questions are needed to be sure)",
        "ci": "95% CI",
        "and": " and ",
        "over": "{what} exceeds the budget of {bar}",
        "stage_retrieval": "retrieval",
        "stage_generation": "generation",
        "stage_tail": "after the first token",
        "stage_unknown": "stage unknown",
        "shares": "Median share of the end-to-end time: retrieval {r}, until the first token {t}. ",
        "advice_retrieval": "Retrieval: tune the vector index (HNSW ef/M, IVF probes), cache frequent queries, "
                            "take fewer candidates before reranking, keep the index close to the service. ",
        "advice_generation": "Generation (time to first token): a shorter prompt (fewer or shorter chunks), a "
                             "smaller or faster model, prompt caching, streaming; check the provider's queue. ",
        "advice_tail": "Retrieval and time to first token are within their budgets, so the time goes after the "
                       "first token: long answers (limit max_tokens, ask for brevity) or slow decoding. ",
        "advice_unknown": "Record retrieval_ms and ttft_ms per sample to see which stage is slow. ",
    },
    "ru": {
        "confidently": " (уверенно: весь 95% доверительный интервал ниже порога)",
        "confidently_over": " (уверенно: весь 95% доверительный интервал выше бюджета)",
        "not_sure": " (95% доверительный интервал ещё достаёт до порога — чтобы быть уверенными, нужно больше "
                    "вопросов)",
        "ci": "95% ДИ",
        "and": " и ",
        "over": "{what} — выше бюджета {bar}",
        "stage_retrieval": "поиск",
        "stage_generation": "генерация",
        "stage_tail": "после первого токена",
        "stage_unknown": "стадия неизвестна",
        "shares": "Медианная доля от полного времени ответа: поиск {r}, до первого токена {t}. ",
        "advice_retrieval": "Поиск: настройте векторный индекс (HNSW ef/M, число проб IVF), кешируйте частые "
                            "запросы, берите меньше кандидатов до реранкера, держите индекс ближе к сервису. ",
        "advice_generation": "Генерация (время до первого токена): промпт короче (меньше или короче фрагменты), "
                             "модель поменьше или побыстрее, кеширование промпта, стриминг; проверьте очередь "
                             "у провайдера. ",
        "advice_tail": "Поиск и время до первого токена укладываются в свои бюджеты, значит время уходит после "
                       "первого токена: длинные ответы (ограничьте max_tokens, попросите краткости) или "
                       "медленное декодирование. ",
        "advice_unknown": "Записывайте retrieval_ms и ttft_ms для каждого запроса, чтобы увидеть, какая стадия "
                          "медленная. ",
    },
}
