"""Russian renderings of the reasons the metrics and judges store in English (data for
:mod:`ragauge.report.reason_text`).

``EXACT``: the fixed reasons (unscored reasons of ``metrics/*.py``, the judges' fixed verdict reasons).
``PATTERNS``: the parameterised ones, ``(regex, Russian template, {group: word table})``; a group without
a word table keeps its text as written (quoted values, names, counts), except ``n_*`` groups (a decimal
number, written with a comma) and ``r_*`` groups (a nested reason, translated in turn). Every template
here comes from an f-string of ``metrics/`` or ``judges/`` (``judges/offline/verifier.py``, ``numbers.py``,
``answer_match.py`` -- whose ``_other_text`` turns "context" into "the other text" --, ``claim_rules.py``,
``toxicity.py``, ``judges/llm/verdicts.py``, ``cascade.py``, ``outcome.py``);
``tests/report/test_reason_text.py`` checks that every reason literal of ``metrics/`` is covered.
"""

from __future__ import annotations

EXACT: dict[str, str] = {
    # metrics/ranking.py, context_ids.py, citations.py
    "no retrieved_ids (and contexts carry no ids)": "нет retrieved_ids (и у контекстов нет id)",
    "no relevant_ids": "нет relevant_ids",
    "no relevant document (grade >= 1)": "нет релевантного документа (оценка >= 1)",
    "no context ids and no retrieved_ids": "нет ни id контекстов, ни retrieved_ids",
    "nothing retrieved": "ничего не найдено",
    "no citations recorded": "ссылки на источники не записаны",
    # missing fields (faithfulness, answer, context, toxicity, behaviour, diagnostics, agent)
    "no answer": "нет ответа",
    "no question": "нет вопроса",
    "no reference": "нет эталона",
    "no contexts": "нет контекстов",
    "no reference and no answer": "нет ни эталона, ни ответа",
    "no expected_behaviour": "нет expected_behaviour",
    "no expected_outcome": "нет expected_outcome",
    "no expected_tools": "нет expected_tools",
    "no tool calls recorded": "вызовы инструментов не записаны",
    "no tool calls made and no expected arguments": "вызовов инструментов нет, ожидаемых аргументов тоже",
    "no question or earlier results to check the arguments against":
        "нет ни вопроса, ни предыдущих результатов, с которыми сверить аргументы",
    "no argument values to check": "нет значений аргументов для проверки",
    "not called": "не вызван",
    "unscored": "не оценено",
    "not scorable": "оценить нельзя",
    # claims
    "refusal: the answer declines to answer": "отказ: ответ отказывается отвечать",
    "no claims to check": "нет утверждений для проверки",
    "no claims in the answer": "в ответе нет утверждений",
    "no claims in the answer (it declines to answer)": "в ответе нет утверждений (это отказ отвечать)",
    "no claims in the reference": "в эталоне нет утверждений",
    "no claims in the expected_outcome": "в expected_outcome нет утверждений",
    "the reference declines to answer": "эталон отказывается отвечать",
    "no reference claim is in the contexts": "ни одного утверждения эталона нет в контекстах",
    "both decline to answer": "оба отказываются отвечать",
    "the answer asserts claims where the reference declines": "ответ что-то утверждает там, где эталон отказывается",
    "the answer declines where the reference answers": "ответ отказывается там, где эталон отвечает",
    # noise robustness
    "not a noisy variant (no metadata.noise_of)": "не зашумлённый вариант (нет metadata.noise_of)",
    "the noisy answer states a fact the reference contradicts; the clean one did not":
        "зашумлённый ответ утверждает факт, которому противоречит эталон; чистый — нет",
    # toxicity (judges/offline/toxicity.py)
    "empty answer": "пустой ответ",
    "no letters to score": "нет букв для оценки",
    "no toxicity model for this script": "нет модели токсичности для этой письменности",
    # the LLM judge (judges/types.py, llm/verdicts.py, llm/cascade.py)
    "judge call failed": "вызов судьи не удался",
    "judge reply unparseable": "ответ судьи не удалось разобрать",
    "the judge quoted no evidence for it": "судья не привёл цитату в подтверждение",
    "evidence quoted by the judge not found in the sources": "цитата судьи не найдена в источниках",
    # the offline verifier and agreement (judges/offline/verifier.py, numbers.py, answer_match.py)
    "no contexts to check the claim against": "нет контекстов, с которыми сверить утверждение",
    "claim has no numbers": "в утверждении нет чисел",
    "no numbers to compare": "чисел для сравнения нет",
    "the number matches the context": "число совпадает с контекстом",
    "the number matches the other text": "число совпадает с другим текстом",
    "supported by the other text": "подтверждено другим текстом",
    "negation differs between claim and context": "отрицание в утверждении и в контексте расходится",
    "nothing of it is in the other text beyond the question's words":
        "в другом тексте нет ничего из этого, кроме слов вопроса",
    "sign differs": "другой знак",
    "order of magnitude differs": "другой порядок величины",
    "range differs": "другой диапазон",
    "percentage of another base": "процент от другой базы",
}

#: "context" / "the other text" (agreement's wording) after "not in", "says", ...: where
IN = {"context": "в контексте", "the other text": "в другом тексте", "the contexts": "в контекстах"}
#: after "matches"
WITH = {"the context": "с контекстом", "the other text": "с другим текстом"}
#: the subject of "does not negate it"
SUBJECT = {"the context": "контекст", "the other text": "другой текст"}
#: the number check's unit codes (``Quantity.unit``) that have a plain Russian word; others stay codes
UNIT = {"day": "дни", "hour": "часы", "minute": "минуты", "week": "недели", "month": "месяцы", "year": "годы",
        "percent": "проценты"}
VERDICT = {"supported": "подтверждено", "unsupported": "не подтверждено", "contradicted": "противоречит"}
_WHERE = r"(?P<where>context|the other text)"
#: a value inside one finding: it never runs past the "; " that joins findings
_V = r"(?:(?!; ).)+"

PATTERNS: list[tuple[str, str, dict[str, dict[str, str]]]] = [
    # unscored reasons with a value
    (r"the (?P<basis>\S+) has no claims(?P<tail> \(it declines to answer\))?", "в {basis} нет утверждений{tail}",
     {"basis": {"reference": "эталоне", "answer": "ответе"}, "tail": {" (it declines to answer)": " (это отказ отвечать)"}}),
    (r"its clean sample (?P<v>.+) is not in the data set", "его чистого образца {v} нет в наборе данных", {}),
    (r"clean sample's correctness unscored: (?P<r_why>.+)", "корректность чистого образца не оценена: {r_why}", {}),
    (r"noisy answer's correctness unscored: (?P<r_why>.+)", "корректность зашумлённого ответа не оценена: {r_why}", {}),
    (r"the clean answer is not correct \(correctness < (?P<n_v>[\d.]+)\)",
     "чистый ответ неверен (корректность < {n_v})", {}),
    (r"no (?P<what>\S+) source", "нет {what} источника", {"what": {"trusted": "доверенного"}}),
    (r"(?P<field>\S+) not measured", "{field} не измерено", {}),
    (r"no toxicity model for language (?P<l>.+) \(supported: (?P<langs>.+)\)",
     "нет модели токсичности для языка {l} (есть: {langs})", {}),
    (r"judge reply over max_reply_bytes=(?P<n>[\d,]+) \((?P<env>\w+)\)",
     "ответ судьи больше max_reply_bytes={n} ({env})", {}),
    # claim reasons of the offline verifier
    (r"supported by context (?P<i>\d+)", "подтверждено контекстом {i}", {}),
    (r"supported by context (?P<i>\d+) \(similarity (?P<n_sim>[\d.]+)\)", "подтверждено контекстом {i} (сходство {n_sim})", {}),
    (r"supported by the other text \(similarity (?P<n_sim>[\d.]+)\)", "подтверждено другим текстом (сходство {n_sim})", {}),
    (r"all (?P<k>\d+) numbers match (?P<with>the context|the other text)", "все числа совпадают {with} ({k})",
     {"with": WITH}),
    (r"number (?P<v>\"[^\"]*\") not in " + _WHERE, "числа {v} нет {where}", {"where": IN}),
    (r"(?P<kind>date|grade) (?P<v>\"[^\"]*\") not in " + _WHERE, "{kind} {v} нет {where}",
     {"kind": {"date": "даты", "grade": "класса"}, "where": IN}),
    (_WHERE + r" says (?P<v>" + _V + r"?)(?P<tail> \(rounded\))?", "{where}: {v}{tail}",
     {"where": IN, "tail": {" (rounded)": " (округлено)"}}),
    (r"it says (?P<v>" + _V + ")", "а там: {v}", {}),
    (r"(?P<a>\"[^\"]*\") vs " + _WHERE + r" (?P<b>\"[^\"]*\"): (?P<r_detail>.+)", "{a} против {b} {where}: {r_detail}",
     {"where": IN}),
    (r"(?P<a>'(?:[^']*|(?:(?!; ).)*)') vs " + _WHERE + r" (?P<b>'(?:[^']*|(?:(?!; ).)*)')", "{a} против {b} {where}", {"where": IN}),
    (r"(?P<v>'(?:[^']*|(?:(?!; ).)*)') not in " + _WHERE, "{v} нет {where}", {"where": IN}),
    (r"(?P<a>\S+) vs (?P<b>\S+) days", "{a} дни, а не {b}",
     {"a": {"working": "рабочие", "calendar": "календарные"}, "b": {"working": "рабочие", "calendar": "календарные"}}),
    (r"unit differs \((?P<a>.+) vs (?P<b>.+)\)", "другая единица ({a}, а не {b})", {"a": UNIT, "b": UNIT}),
    (r"(?P<a>at least|at most|exact) vs (?P<b>at least|at most|exact)", "{a}, а не {b}",
     {"a": {"at least": "не меньше", "at most": "не больше", "exact": "точно"},
      "b": {"at least": "не меньше", "at most": "не больше", "exact": "точно"}}),
    (r"agrees with the other text: (?P<r_what>.+)", "согласуется с другим текстом: {r_what}", {}),
    (r"content words covered (?P<pct>\d+%)", "значимые слова покрыты на {pct}", {}),
    (r"negation differs: claim says (?P<v>'(?:[^']*|(?:(?!; ).)*)'), (?P<subj>the context|the other text) does not negate it",
     "отрицание расходится: в утверждении {v}, а {subj} этого не отрицает", {"subj": SUBJECT}),
    (r"negation differs: " + _WHERE + r" says (?P<v>'(?:[^']*|(?:(?!; ).)*)')", "отрицание расходится: {where} сказано {v}", {"where": IN}),
    (r"content words not in the other text or the question: (?P<words>" + _V + ")",
     "значимых слов нет ни в другом тексте, ни в вопросе: {words}", {}),
    (r"content words not in " + _WHERE + r": (?P<words>" + _V + ")", "значимых слов нет {where}: {words}", {"where": IN}),
    (r"no close evidence in (?P<where>the contexts|the other text) \(best similarity (?P<n_sim>[\d.]+)\)",
     "близкого подтверждения нет {where} (лучшее сходство {n_sim})", {"where": IN}),
    (r"the closest (?P<what>context passage|passage of the other text) does not state it "
     r"\(similarity (?P<n_sim>[\d.]+), P=(?P<n_p>[\d.]+)\)", "{what} этого не говорит (сходство {n_sim}, P={n_p})",
     {"what": {"context passage": "ближайший фрагмент контекста",
               "passage of the other text": "ближайший фрагмент другого текста"}}),
    # judges/offline/claim_rules.py
    (r"stated only in a superseded edition \(context (?P<a>\d+)\); the current one \(context (?P<b>\d+)\) does not say it",
     "сказано только в устаревшей редакции (контекст {a}); в текущей (контекст {b}) этого нет", {}),
    (r"stated only in context (?P<a>\d+), which says it is no longer in force",
     "сказано только в контексте {a}, а он сам говорит, что больше не действует", {}),
    (r"condition (?P<v>'(?:[^']*|(?:(?!; ).)*)') not in " + _WHERE, "условия {v} нет {where}", {"where": IN}),
    (r"the amount is the one of (?P<a>'(?:[^']*|(?:(?!; ).)*)'); (?:context|the other text) gives (?P<b>'(?:[^']*|(?:(?!; ).)*)') (?P<c>" + _V + ")",
     "это сумма для {a}; в контексте для {b} указано {c}", {}),
    # judges/offline/claim_rules.code_swap, kind_swap.py
    (r"the figure (?P<v>'(?:[^']*|(?:(?!; ).)*)') is the one of (?P<a>'(?:[^']*|(?:(?!; ).)*)') in the context, "
     r"not of (?P<b>'(?:[^']*|(?:(?!; ).)*)')", "в контексте значение {v} относится к {a}, а не к {b}", {}),
    # judges/offline/figure_swap.py
    (r"the figure (?P<v>'(?:[^']*|(?:(?!; ).)*)') is stated for something else in the context; "
     r"for this it gives (?P<w>'(?:[^']*|(?:(?!; ).)*)')",
     "в контексте значение {v} относится к другому; для этого указано {w}", {}),
    # the LLM judge's checks around its own (free-text) reasons: llm/verdicts.py, llm/cascade.py
    (r"decided by other sources \((?P<label>\w+)\): (?P<rest>.*)", "решено по другим источникам ({label}): {rest}",
     {"label": VERDICT}),
    (r"decided by other sources: (?P<rest>.*)", "решено по другим источникам: {rest}", {}),
    (r"evidence quoted by the judge not found in the sources: (?P<q>.+?) \(the judge said supported: (?P<rest>.*)\)",
     "цитата судьи не найдена в источниках: {q} (судья счёл подтверждённым: {rest})", {}),
    (r"the judge quoted no evidence for it \(the judge said supported: (?P<rest>.*)\)",
     "судья не привёл цитату в подтверждение (судья счёл подтверждённым: {rest})", {}),
    (r"(?P<r_head>.+) \[quote not found in the sources: (?P<q>.+)\]", "{r_head} [цитата не найдена в источниках: {q}]", {}),
    (r"(?P<r_head>.+) \[LLM failed: (?P<r_why>.+)\]", "{r_head} [LLM не справилась: {r_why}]", {}),
    (r"(?P<r_head>.+) \[LLM gave no verdict\]", "{r_head} [LLM не дала вердикта]", {}),
    # the number check's "(+2 more)" after three problems
    (r"(?P<r_head>.+) \(\+(?P<k>\d+) more\)", "{r_head} (и ещё {k})", {}),
]
