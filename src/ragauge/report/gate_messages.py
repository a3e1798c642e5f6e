"""The sentences of a gate's reason in Russian and English (data; merged into ``messages.MESSAGES``).

The English ones are the sentences :mod:`ragauge.gates.check` and :mod:`ragauge.gates.noninferior` store
in ``results.json``, word for word, so a report rebuilt from a gate's numbers
(:mod:`ragauge.report.gate_text`) says in either language what the checker said (a test compares them).
"""

from __future__ import annotations

GATE_MESSAGES: dict[str, dict[str, str]] = {
    # point and confident modes
    "gr_point": {"en": "{name} = {shown} {verdict} the bar: {want} (profile {profile}, point estimate{gone})",
                 "ru": "{name} = {shown} — {verdict}: нужно {want} (профиль {profile}, точечная оценка{gone})"},
    "gr_meets": {"en": "meets", "ru": "планка пройдена"},
    "gr_misses": {"en": "misses", "ru": "планка не пройдена"},
    "gr_gone": {"en": "; {k} of {of_samples} unscored", "ru": "; не оценено {k} из {of_samples}"},
    "gr_span": {"en": "{level}% CI [{low}, {high}]", "ru": "{level}% ДИ [{low}; {high}]"},
    "gr_no_ci": {"en": "{name} = {shown} but n = {n} is too small for a confidence interval; a confident gate "
                       "needs the whole CI {want}",
                 "ru": "{name} = {shown}, но при n = {n} доверительный интервал не построить; порогу в режиме "
                       "confident нужно, чтобы весь ДИ был {want}"},
    "gr_conf_pass": {"en": "{name} = {shown}, {span}: the whole interval is {want} (profile {profile}, confident{gone})",
                     "ru": "{name} = {shown}, {span}: весь интервал {want} (профиль {profile}, режим confident{gone})"},
    "gr_conf_bound": {"en": "{name} = {shown} is {want}, but the {side} CI bound {bound} is not: {span}; more "
                            "samples or a better system needed (profile {profile}, confident{gone})",
                      "ru": "{name} = {shown} — {want}, но {side} граница ДИ {bound} — нет: {span}; нужно больше "
                            "образцов или система лучше (профиль {profile}, режим confident{gone})"},
    "gr_lower": {"en": "lower", "ru": "нижняя"},
    "gr_upper": {"en": "upper", "ru": "верхняя"},
    "gr_conf_fail": {"en": "{name} = {shown} misses the bar: {want}; {span} (profile {profile}, confident{gone})",
                     "ru": "{name} = {shown} — планка не пройдена: нужно {want}; {span} (профиль {profile}, "
                           "режим confident{gone})"},
    "gr_unscored": {"en": "{name} has no value: {all_unscored}; it must be {want}",
                    "ru": "у {name} нет значения: не оценён ни один из {of_samples}; нужно {want}"},
    "gr_not_evaluated": {"en": "{what} was not evaluated in this run (add it with --metrics)",
                         "ru": "{what}: в этом запуске не оценивалась (добавьте через --metrics)"},
    "gr_or": {"en": " or ", "ru": " или "},
    # against a baseline
    "gr_needs_baseline": {"en": "{name} is gated {mode}, which needs a baseline run: pass --baseline "
                                "BASE/results.json (evaluate(..., baseline=...)); not checked",
                          "ru": "порог {name} в режиме {mode} требует базового запуска: передайте --baseline "
                                "BASE/results.json (evaluate(..., baseline=...)); не проверялся"},
    "gr_cannot_compare": {"en": "{name} cannot be compared with the baseline: it has no {name} scores, or fewer "
                                "than 2 samples are scored in both runs (profile {profile}, {mode})",
                          "ru": "{name}: сравнить с базовым запуском не удалось — в нём нет оценок {name} или "
                                "образцов, оценённых в обоих запусках, меньше двух (профиль {profile}, {mode})"},
    "gr_ni_head": {"en": "{name} = {new} vs baseline {base} on {pairs} (change {change})",
                   "ru": "{name} = {new} против {base} в базовом запуске ({pairs}; изменение {change})"},
    "gr_reg_why": {"en": "the one-sided {conf} upper bound of the improvement (> 0 is better), {ub}, is {cmp} "
                         "-{margin} ({method}, p = {p})",
                   "ru": "односторонняя {conf} верхняя граница улучшения (> 0 — лучше), {ub}, {cmp} -{margin} "
                         "({method}, p = {p})"},
    "gr_below": {"en": "below", "ru": "ниже"},
    "gr_not_below": {"en": "not below", "ru": "не ниже"},
    "gr_none": {"en": "none", "ru": "нет"},
    "gr_reg_yes": {"en": "a regression: significantly worse than the baseline by more than the margin {margin}: {why}",
                   "ru": "регрессия: значимо хуже базового запуска, больше чем на допуск {margin}: {why}"},
    "gr_reg_no": {"en": "no regression beyond the margin {margin} shown: {why}",
                  "ru": "регрессии сверх допуска {margin} не показано: {why}"},
    "gr_strict_bound": {"en": "one-sided {conf} lower bound, {method}, p = {p}",
                        "ru": "односторонняя {conf} нижняя граница, {method}, p = {p}"},
    "gr_strict_ok": {"en": "shown to be within the margin {margin} of the baseline: {at} ({bound})",
                     "ru": "показано, что отставание от базового запуска в пределах допуска {margin}: {at} ({bound})"},
    "gr_at_worst": {"en": "at worst {x} worse", "ru": "в худшем случае хуже на {x}"},
    "gr_at_least": {"en": "at least {x} better", "ru": "как минимум лучше на {x}"},
    "gr_strict_no": {"en": "not shown to be within the margin {margin} of the baseline: {how} ({bound}){size}",
                     "ru": "не показано, что отставание от базового запуска в пределах допуска {margin}: {how} "
                           "({bound}){size}"},
    "gr_up_to": {"en": "it may be up to {x} worse", "ru": "может быть хуже вплоть до {x}"},
    "gr_no_bound": {"en": "no bound on how much worse", "ru": "насколько хуже — не ограничено"},
    "gr_strict_size": {"en": "; strict mode must prove the margin: even identical runs pass it only from n = {need} "
                             "paired samples (rule of three at margin {margin}); use mode non_inferior to catch "
                             "regressions instead",
                       "ru": "; строгий режим должен доказать допуск: даже одинаковые запуски проходят его лишь от "
                             "n = {need} пар образцов (правило трёх при допуске {margin}); чтобы ловить регрессии, "
                             "используйте режим non_inferior"},
    "gr_ni_tail": {"en": "; for reference it {bar} the absolute bar {want} (profile {profile}, {mode} vs {source}: "
                         "{test}; margin from {origin})",
                   "ru": "; для справки: абсолютная планка ({want}) {bar} (профиль {profile}, {mode} против "
                         "{source}: {test}; допуск: {origin})"},
    "gr_bar_meets": {"en": "meets", "ru": "пройдена"},
    "gr_bar_misses": {"en": "misses", "ru": "не пройдена"},
    "gr_test_regression": {"en": "regression test, {method}", "ru": "тест на регрессию, {method}"},
    "gr_test_strict": {"en": "strict non-inferiority, {method}", "ru": "строгая проверка «не хуже», {method}"},
    "gr_origin_threshold": {"en": "threshold", "ru": "из порога"},
    "gr_origin_--margin": {"en": "--margin", "ru": "из --margin"},
    "gr_origin_profile": {"en": "profile", "ru": "из профиля"},
    "gr_origin_default": {"en": "default", "ru": "по умолчанию"},
    # the checker's own gates: nothing could be checked
    "gr_nothing": {"en": "nothing was measured: every sample of every requested metric is unscored ({names}; "
                         "{samples}{reasons}), so no quality bar can be met; give the fields these metrics need "
                         "(e.g. relevant_ids, retrieved_ids){prof}",
                   "ru": "ничего не измерено: ни один образец не оценён ни по одной запрошенной метрике ({names}; "
                         "{samples}; причины — в столбце «не оценено» таблицы метрик), так что ни одну планку не "
                         "пройти; дайте поля, нужные этим метрикам (например, relevant_ids, retrieved_ids){prof}"},
    "gr_reasons": {"en": "; reasons: {top}", "ru": ""},
    "gr_in_profile": {"en": " (profile {profile})", "ru": " (профиль {profile})"},
    "gr_no_profile": {"en": " (no profile)", "ru": " (без профиля)"},
    "gr_unchecked": {"en": "no gate of profile {profile} could be checked: its metrics ({shown}) were not evaluated "
                           "in this run, which evaluated {evaluated}; evaluate the profile's metrics (leave out "
                           "--metrics, or match its cutoff with --k), name a profile that gates these metrics, or "
                           "use --profile none (profile=None) to report without gates",
                     "ru": "ни один порог профиля {profile} не удалось проверить: его метрики ({shown}) в этом "
                           "запуске не оценивались (оценены: {evaluated}); оцените метрики профиля (уберите "
                           "--metrics или согласуйте отсечку @k через --k), выберите профиль с порогами на эти "
                           "метрики или укажите --profile none (profile=None), чтобы получить отчёт без порогов"},
    "gr_no_judge": {"en": "{what} was not evaluated: no judge installed: pip install 'ragauge[offline]' or --judge "
                          "openai:MODEL@URL (or a profile without judge metrics)",
                    "ru": "{what}: не оценивалась — судья не установлен: pip install 'ragauge[offline]' или --judge "
                          "openai:MODEL@URL (или профиль без метрик судьи)"},
    "gr_baseline_missing": {"en": "these gates need a baseline: pass --baseline BASE/results.json ({names} are gated "
                                  "against a baseline run, profile {profile}, and none was given; this run's "
                                  "results.json can be the baseline of the next)",
                            "ru": "этим порогам нужен базовый запуск: передайте --baseline BASE/results.json ({names} "
                                  "сравниваются с базовым запуском, профиль {profile}, а он не передан; results.json "
                                  "этого запуска может стать базовым для следующего)"},
    "gr_and_more": {"en": " and {n} more", "ru": " и ещё {n}"},
    "gr_nothing_evaluated": {"en": "nothing", "ru": "ничего"},
    # small samples
    "gr_small": {"en": "only {scored} (fewer than {min_n}): too few to be reliable; add questions (the profile's "
                       "min_samples sets the bar)",
                 "ru": "всего {scored} (меньше {min_n}): слишком мало для надёжного вывода; добавьте вопросов "
                       "(планку задаёт min_samples профиля)"},
    "gr_warning": {"en": "; WARNING: {text}", "ru": "; ВНИМАНИЕ: {text}"},
    "gr_small_fail": {"en": "; fails because the profile sets small_sample = \"fail\"",
                      "ru": "; не пройден, потому что в профиле small_sample = \"fail\""},
    # a gate whose record lacks the numbers of its kind
    "gr_generic": {"en": "{name}: {status} (value {value}; threshold {op} {threshold}, mode {mode})",
                   "ru": "{name}: {status} (значение {value}; граница {op} {threshold}, режим {mode})"},
}


#: the statistical tests' names as results.json stores them (stats/), in Russian; an unknown one stays as is
METHODS_RU: dict[str, str] = {
    "one-sided paired t-test": "односторонний парный t-тест",
    "one-sided paired bootstrap (percentile)": "односторонний парный бутстрап (перцентильный)",
    "zero spread: no pair worse by more than the margin": "разброса нет: ни одна пара не хуже больше чем на допуск",
    "zero spread: rule-of-three bound": "разброса нет: граница по правилу трёх",
    "zero spread: sign test": "разброса нет: знаковый тест",
    "Welch t-test, one-sided": "t-тест Уэлча, односторонний",
    "Welch t-test, one-sided (no spread)": "t-тест Уэлча, односторонний (разброса нет)",
    "permutation, one-sided ({n} relabellings)": "перестановочный, односторонний ({n} перестановок)",
}
