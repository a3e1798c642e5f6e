"""The offline toxicity scorer with its real models (toxicityclassifier, alt-profanity-check)."""

from __future__ import annotations

import json
import sys

import pytest

from ragauge.errors import MissingDependencyError
from ragauge.judges.offline import toxicity as tox

# Not in benchmarks/data/toxicity_labelled.jsonl: a construction firm's price list and contract.
RU_FACTUAL = [
    "Штукатурка стен по маякам — 520 руб. за м².",
    "Шпаклёвка под покраску в два слоя стоит 380 руб. за квадратный метр.",
    "Демонтаж бетонной стяжки — 450 руб. за м² при толщине до 5 см.",
    "Снос деревянной постройки площадью до 30 м² — от 25 000 руб.",
    "Вывоз мусора после демонтажа оплачивается отдельно.",
    "Монтаж натяжного потолка — 650 руб. за м², включая профиль.",
    "Укладка керамогранита 60×60 см — 1 400 руб. за м².",
    "Грунтовка стен глубокого проникновения — 60 руб. за м².",
    "Установка межкомнатной двери с фурнитурой — 4 500 руб.",
    "За нарушение сроков оплаты Заказчик уплачивает неустойку 0,1% от суммы задолженности за каждый день просрочки.",
    "Штраф за срыв сроков этапа составляет 2% от стоимости этапа.",
    "Виновная сторона возмещает другой стороне причинённый ущерб.",
    "Договор может быть расторгнут по соглашению сторон.",
    "При расторжении договора Подрядчик возвращает неотработанный аванс в течение 10 дней.",
    "Задолженность Заказчика подлежит погашению до подписания акта сдачи-приёмки.",
    "Подрядчик не несёт ответственности за ущерб, вызванный действиями третьих лиц.",
    "Гарантийный срок на отделочные работы составляет 24 месяца.",
    "Стороны освобождаются от ответственности при обстоятельствах непреодолимой силы.",
    "Претензии по качеству принимаются в письменной форме в течение 14 дней.",
    "Уплата штрафа не освобождает сторону от исполнения обязательств.",
    "Стоимость работ по смете составляет 1 280 000 руб., НДС не облагается.",
    "Демонтаж и снос перегородок выполняются после согласования с управляющей компанией.",
    "Сумма неустойки не может превышать 5% от цены договора.",
    "Убытки возмещаются в части, не покрытой неустойкой.",
]

RU_INSULTS = ["Ты тупой идиот.", "Заткнись, дебил.", "Пошёл нахуй со своей сметой, мудак."]
EN_INSULTS = ["You are a stupid idiot.", "Shut up, you fucking moron.", "Go fuck yourself, asshole."]


@pytest.fixture(scope="module")
def scorer() -> tox.ToxicityScorer:
    return tox.get_toxicity_scorer()


def test_clear_insults_are_flagged(scorer):
    results = scorer.score(RU_INSULTS + EN_INSULTS)
    assert [r.toxic for r in results] == [True] * 6
    assert [r.lang for r in results] == ["ru"] * 3 + ["en"] * 3
    assert results[0].model.startswith("toxicityclassifier==")
    assert results[-1].model.startswith("alt-profanity-check==")
    assert all(0.0 <= r.probability <= 1.0 for r in results)


def test_neutral_russian_price_list_and_contract_are_not_flagged(scorer):
    results = scorer.score(RU_FACTUAL, ["ru"] * len(RU_FACTUAL))
    flagged = [(t, round(r.probability, 3)) for t, r in zip(RU_FACTUAL, results) if r.toxic]
    assert flagged == []
    assert len(RU_FACTUAL) >= 20


def test_answer_score_is_the_worst_sentence(scorer):
    polite = "Стоимость штукатурки — 450 руб. за м². Срок работ — 10 дней."
    rude = polite + " А ты тупой дебил."
    clean, toxic = scorer.score([polite, rude])
    assert clean.toxic is False
    assert toxic.toxic is True and toxic.sentence == "А ты тупой дебил."
    assert toxic.probability > clean.probability


def test_english_insult_inside_a_russian_answer_is_seen(scorer):
    (result,) = scorer.score(["Смета готова, отправлю завтра. You are a stupid fucking idiot."])
    assert result.toxic is True and result.lang == "en"


@pytest.mark.parametrize(
    ("text", "lang", "reason"),
    [
        ("", None, "empty answer"),
        ("   \n ", None, "empty answer"),
        ("1 150 ₽", None, "no letters to score"),
        ("Der Preis beträgt 12 Euro.", "de", "no toxicity model for language 'de' (supported: ru, en)"),
    ],
)
def test_unscored_answers_have_a_reason(scorer, text, lang, reason):
    (result,) = scorer.score([text], [lang])
    assert (result.probability, result.toxic, result.model, result.reason) == (None, None, None, reason)


def test_threshold_comes_from_the_calibration_file(scorer, tmp_path):
    shipped = json.loads(tox.CALIBRATION_PATH.read_text(encoding="utf-8"))["languages"]
    (result,) = scorer.score(["Неустойка составляет 0,1% за каждый день просрочки."])
    assert result.threshold == shipped["ru"]["threshold"]
    strict = {"languages": {lang: dict(v, threshold=0.0) for lang, v in shipped.items()}}
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps(strict), encoding="utf-8")
    (strict_result,) = tox.ToxicityScorer(calibration=path).score(["Неустойка составляет 0,1% за каждый день просрочки."])
    assert strict_result.toxic is True and strict_result.threshold == 0.0
    assert strict_result.probability == pytest.approx(result.probability)


def test_russian_preprocessing_matches_nltk_pipeline():
    # Expected values from NLTK 3.x's SnowballStemmer("russian") on the same words.
    assert [tox.russian_stem(w) for w in ("неустойка", "расторжения", "задолженности", "виновная", "дураки")] == [
        "неустойк", "расторжен", "задолжен", "виновн", "дурак",
    ]
    assert tox.prepare_russian("Это был «тупой» ответ!") == "эт « туп » ответ"  # "это" is not in NLTK's list


@pytest.mark.parametrize(("module", "package"), [("profanity_check", "alt-profanity-check"), ("sklearn", "scikit-learn")])
def test_missing_english_package_is_a_clear_error(monkeypatch, module, package):
    monkeypatch.setitem(sys.modules, module, None)
    with pytest.raises(MissingDependencyError, match=rf"The toxicity metric needs the package '{package}'.*ragauge\[offline\]"):
        tox._EnglishModel() if module == "profanity_check" else tox._RussianModel()


def test_missing_toxicityclassifier_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "toxicityclassifier", None)
    with pytest.raises(MissingDependencyError) as info:
        tox._RussianModel()
    assert info.value.package == "toxicityclassifier"
    assert "pip install 'ragauge[offline]'" in str(info.value)
