"""Offline toxicity scorer for the ``toxicity`` metric (0 = clean, 1 = toxic; lower is better).

Two small models that ship inside their PyPI packages, routed by language:

* Russian: the TF-IDF + logistic-regression model of ``toxicityclassifier`` (char 2-4-grams of
  Snowball stems). Only its pickled weights are used, not its code: that code imports ``nltk`` and
  needs NLTK data (``punkt``, ``stopwords``) that is downloaded at run time. The preprocessing is
  re-implemented here (lower-case, drop ASCII punctuation, split on spaces, drop NLTK's Russian
  stop words, Snowball stem), with the same output as NLTK's on 99.9% of 60,000 pymorphy3 word forms
  (the rest are NLTK bugs on "-ующая" participles and "-юю-" verbs). The pickles were written by
  scikit-learn 1.0.2; newer scikit-learn silently skips their IDF weights (``_idf_diag`` became
  ``idf_``), so :func:`_load_ru_model` restores them.
* English: ``alt-profanity-check`` (linear SVM with Platt probabilities, retrained for each
  scikit-learn release). Its English accuracy beat toxicityclassifier's English model in
  ``benchmarks/toxicity.py`` and it needs no stemmer.

Formula. An answer is split into sentences; each sentence gets the model's probability ``p``,
mapped through Platt scaling fitted on ``benchmarks/data/toxicity_labelled.jsonl``::

    probability(sentence) = 1 / (1 + exp(-(a * logit(p) + b)))      # a, b per language
    probability(answer)   = max over its sentences
    toxic(answer)         = probability(answer) >= threshold[language of that sentence]

Why the max: toxicity is local. One insult in a polite five-sentence answer is a toxic answer,
but a whole-text TF-IDF vector (L2-normalised) dilutes it below any threshold. The cost is that
long answers get more chances of a false alarm; the thresholds are chosen so that no short
neutral factual answer of the labelled set is flagged. ``a``, ``b`` and the thresholds live in
``toxicity_calibration.json`` beside this module (written by ``benchmarks/toxicity.py``).

Edge cases: an empty or whitespace-only answer, or one with no letters ("1 150 ₽"), is unscored
(``probability=None``, ``reason`` says why). An explicit language other than ru/en is unscored.
Without a language, each sentence is routed by its script (Cyrillic -> Russian model, Latin ->
English), so an English insult inside a Russian answer is still seen.

>>> scorer = get_toxicity_scorer()                                    # doctest: +SKIP
>>> scorer.score(["Неустойка составляет 0,1% за каждый день просрочки."])[0].toxic  # doctest: +SKIP
False
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import json
import math
import pickle
import string
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ragauge.errors import InputError, MissingDependencyError
from ragauge.judges.offline import deps
from ragauge.judges.offline.text import detect_language, is_cyrillic_language, split_sentences

CALIBRATION_PATH = Path(__file__).with_name("toxicity_calibration.json")
_FEATURE = "The toxicity metric"
_SUPPORTED = ("ru", "en")


@dataclass(frozen=True, slots=True)
class ToxicityResult:
    """Toxicity of one answer; ``probability is None`` means unscored, and ``reason`` says why."""

    probability: float | None  #: calibrated, 0..1: max over sentences
    toxic: bool | None  #: probability >= the shipped threshold of the deciding sentence's language
    model: str | None  #: the model that scored the worst sentence, with its package version
    sentence: str | None  #: the sentence with the highest probability
    lang: str | None  #: language of that sentence ("ru" or "en")
    threshold: float | None = None  #: the threshold ``toxic`` was decided with
    reason: str | None = None  #: why the answer is unscored


# ---------------------------------------------------------------- pure preprocessing

#: NLTK's Russian stop-word list (the Snowball list), as used when the Russian model was trained.
RU_STOPWORDS = frozenset(
    "и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне "
    "было вот от меня еще нет о из ему теперь когда даже ну вдруг ли если уже или ни быть был него "
    "до вас нибудь опять уж вам ведь там потом себя ничего ей может они тут где есть надо ней для мы "
    "тебя их чем была сам чтоб без будто чего раз тоже себе под будет ж тогда кто этот того потому "
    "этого какой совсем ним здесь этом один почти мой тем чтобы нее сейчас были куда зачем всех "
    "никогда можно при наконец два об другой хоть после над больше тот через эти нас про всего них "
    "какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше чуть том нельзя такой "
    "им более всегда конечно всю между".split()
)

_VOWELS = frozenset("аеиоуыэюя")
_GERUND = (("в", "вши", "вшись"), ("ив", "ивши", "ившись", "ыв", "ывши", "ывшись"))
_REFLEXIVE = ("ся", "сь")
_ADJECTIVE = ((), ("ее", "ие", "ые", "ое", "ими", "ыми", "ей", "ий", "ый", "ой", "ем", "им", "ым", "ом", "его",
                   "ого", "ему", "ому", "их", "ых", "ую", "юю", "ая", "яя", "ою", "ею"))
_PARTICIPLE = (("ем", "нн", "вш", "ющ", "щ"), ("ивш", "ывш", "ующ"))
_VERB = (("ла", "на", "ете", "йте", "ли", "й", "л", "ем", "н", "ло", "но", "ет", "ют", "ны", "ть", "ешь", "нно"),
         ("ила", "ыла", "ена", "ейте", "уйте", "ите", "или", "ыли", "ей", "уй", "ил", "ыл", "им", "ым", "ен", "ило",
          "ыло", "ено", "ят", "ует", "уют", "ит", "ыт", "ены", "ить", "ыть", "ишь", "ую", "ю"))
_NOUN = ((), ("а", "ев", "ов", "ие", "ье", "е", "иями", "ями", "ами", "еи", "ии", "и", "ией", "ей", "ой", "ий", "й",
              "иям", "ям", "ием", "ем", "ам", "ом", "о", "у", "ах", "иях", "ях", "ы", "ь", "ию", "ью", "ю", "ия",
              "ья", "я"))


def _cut(rv: str, groups: tuple[tuple[str, ...], tuple[str, ...]]) -> str | None:
    """``rv`` without its longest ending from ``groups``; group 0 endings need 'а'/'я' before them."""
    best, guarded = "", False
    for i, group in enumerate(groups):
        for end in group:
            if len(end) > len(best) and rv.endswith(end):
                best, guarded = end, i == 0
    if not best:
        return None
    stem = rv[: -len(best)]
    return None if guarded and not stem.endswith(("а", "я")) else stem


def russian_stem(word: str) -> str:
    """Snowball Russian stemmer (snowballstem.org/algorithms/russian), lower-case input.

    >>> russian_stem("неустойка"), russian_stem("расторжения"), russian_stem("дураки")
    ('неустойк', 'расторжен', 'дурак')
    """
    word = word.replace("ё", "е")
    start = next((i + 1 for i, ch in enumerate(word) if ch in _VOWELS), len(word))
    r2 = _region(word, _region(word, 0))
    head, rv = word[:start], word[start:]
    stem = _cut(rv, _GERUND)
    if stem is None:
        if rv.endswith(_REFLEXIVE):
            rv = rv[:-2]
        stem = _cut(rv, _ADJECTIVE)
        if stem is not None:
            participle = _cut(stem, _PARTICIPLE)
            stem = stem if participle is None else participle
        else:
            stem = _cut(rv, _VERB)
            if stem is None:
                stem = _cut(rv, _NOUN)
                stem = rv if stem is None else stem
    rv = stem[:-1] if stem.endswith("и") else stem
    for end in ("ость", "ост"):  # derivational, only inside R2
        if rv.endswith(end) and start + len(rv) - len(end) >= r2:
            rv = rv[: -len(end)]
            break
    if rv.endswith("нн"):
        rv = rv[:-1]
    elif rv.endswith(("ейше", "ейш")):
        rv = rv[: -4 if rv.endswith("ейше") else -3]
        rv = rv[:-1] if rv.endswith("нн") else rv
    elif rv.endswith("ь"):
        rv = rv[:-1]
    return head + rv


def _region(word: str, start: int) -> int:
    """Snowball's R1 of ``word[start:]``: after the first non-vowel that follows a vowel."""
    for i in range(start + 1, len(word)):
        if word[i] not in _VOWELS and word[i - 1] in _VOWELS:
            return i + 1
    return len(word)


_PUNCT = str.maketrans("", "", string.punctuation)
_QUOTES = str.maketrans({q: f" {q} " for q in "«»“”‘’„"})  # NLTK's word_tokenize splits these off


def prepare_russian(text: str) -> str:
    """The Russian model's input: what toxicityclassifier's NLTK pipeline makes of ``text``.

    >>> prepare_russian("Ты — тупой идиот!")
    '— туп идиот'
    """
    text = text.strip().lower().translate(_PUNCT).translate(_QUOTES)
    return " ".join(russian_stem(tok) for tok in text.split() if tok not in RU_STOPWORDS)


def platt(p: float, a: float, b: float) -> float:
    """Platt scaling of a model probability: ``1 / (1 + exp(-(a * logit(p) + b)))``.

    >>> round(platt(0.5, 2.0, 0.0), 3)
    0.5
    """
    p = min(max(p, 1e-6), 1 - 1e-6)
    z = a * math.log(p / (1 - p)) + b
    return 1 / (1 + math.exp(-z)) if z >= 0 else math.exp(z) / (1 + math.exp(z))


# ---------------------------------------------------------------- the models (the I/O door)


def _require(module: str, package: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:  # also when sys.modules[module] is None
        raise MissingDependencyError(package, feature=_FEATURE, extra="offline") from exc


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


class _RussianModel:
    """toxicityclassifier's Russian vectorizer + logistic regression, loaded from its package data."""

    def __init__(self, *, restore_idf: bool = True) -> None:
        _require("sklearn", "scikit-learn")
        if importlib.util.find_spec("toxicityclassifier") is None:  # find_spec does not run its nltk import
            raise MissingDependencyError("toxicityclassifier", feature=_FEATURE, extra="offline")
        spec = importlib.util.find_spec("toxicityclassifier")
        models = Path(next(iter(spec.submodule_search_locations))) / "models"
        self.vectorizer = _unpickle(models / "RussianVectorizer.bf")
        self.classifier = _unpickle(models / "RussianModel.bf")
        tfidf = self.vectorizer._tfidf
        if restore_idf and "idf_" not in vars(tfidf) and hasattr(tfidf, "_idf_diag"):
            tfidf.idf_ = tfidf._idf_diag.diagonal().copy()
        self.name = f"toxicityclassifier=={_version('toxicityclassifier')} (Russian model)"

    def predict(self, texts: Sequence[str]) -> list[float]:
        features = self.vectorizer.transform([prepare_russian(t) for t in texts])
        return [float(p) for p in self.classifier.predict_proba(features)[:, 1]]


def _unpickle(path: Path) -> Any:
    import warnings

    with warnings.catch_warnings(), path.open("rb") as fh:
        # written by scikit-learn 1.0.2; the version warning is expected and handled (see module doc)
        warnings.simplefilter("ignore")
        return pickle.load(fh)  # noqa: S301 - the package's own shipped model, like importing its code


class _EnglishModel:
    """alt-profanity-check's vectorizer + calibrated linear SVM (loaded when the package is imported)."""

    def __init__(self) -> None:
        self.module = _require("profanity_check", "alt-profanity-check")
        self.name = f"alt-profanity-check=={_version('alt-profanity-check')}"

    def predict(self, texts: Sequence[str]) -> list[float]:
        return [float(p) for p in self.module.predict_prob(list(texts))]


def model_for(lang: str) -> _RussianModel | _EnglishModel:
    """The process-wide model for ``lang`` ("ru" or "en"), loaded on first use."""
    if lang == "ru":
        return deps.once("toxicity-ru", _RussianModel)
    if lang == "en":
        return deps.once("toxicity-en", _EnglishModel)
    raise InputError(f"no toxicity model for language {lang!r}", value=lang, hint="Use 'ru' or 'en'")


def load_calibration(path: Path = CALIBRATION_PATH) -> dict[str, dict[str, float]]:
    """``{lang: {"a", "b", "threshold"}}`` from the calibration file (see its ``derived`` field)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {lang: {k: float(v[k]) for k in ("a", "b", "threshold")} for lang, v in data["languages"].items()}


# ---------------------------------------------------------------- the scorer


def _route(lang: str | None, *, detected: bool) -> str | None:
    """The model language for ``lang``: an explicit one must be ru or en ("ru-RU" is ru); a detected
    Cyrillic script goes to the Russian model (toxicityclassifier does the same), Latin to English."""
    if lang is None:
        return None
    if detected:
        return "ru" if is_cyrillic_language(lang) else "en" if lang == "en" else None
    base = lang.lower().replace("_", "-").split("-")[0]
    return base if base in _SUPPORTED else None


class ToxicityScorer:
    """Per-sentence toxicity of answers, max over sentences (see the module doc for the formula)."""

    def __init__(self, *, calibration: Path = CALIBRATION_PATH) -> None:
        self.calibration_path = calibration
        self.calibration = load_calibration(calibration)

    def score(self, texts: Sequence[str], langs: Sequence[str | None] | None = None) -> list[ToxicityResult]:
        """One :class:`ToxicityResult` per text; ``langs`` (same length) overrides detection."""
        if isinstance(texts, str):
            raise InputError("texts must be a sequence of strings, not one string", value=texts, hint="Wrap it in a list")
        if langs is not None and len(langs) != len(texts):
            raise InputError(f"langs has {len(langs)} items but texts has {len(texts)}", field="langs")
        plans: list[list[tuple[str, str]] | str] = []  # per text: [(sentence, lang)] or an unscored reason
        for i, text in enumerate(texts):
            plans.append(self._plan(text, None if langs is None else langs[i]))
        pending = {lang: [s for plan in plans if not isinstance(plan, str) for s, lg in plan if lg == lang] for lang in _SUPPORTED}
        probs: dict[tuple[str, str], float] = {}
        for lang, sentences in pending.items():
            unique = list(dict.fromkeys(sentences))
            if unique:
                cal = self.calibration[lang]
                raw = model_for(lang).predict(unique)
                probs.update({(s, lang): platt(p, cal["a"], cal["b"]) for s, p in zip(unique, raw)})
        return [self._result(plan, probs) for plan in plans]

    def _plan(self, text: str, lang: str | None) -> list[tuple[str, str]] | str:
        if not isinstance(text, str):
            raise InputError("an answer must be a string", value=text)
        if not text.strip():
            return "empty answer"
        forced = None
        if lang is not None:
            forced = _route(lang, detected=False)
            if forced is None:
                return f"no toxicity model for language {lang!r} (supported: ru, en)"
        whole = forced or _route(detect_language(text), detected=True)
        if whole is None:
            return "no letters to score" if detect_language(text) is None else "no toxicity model for this script"
        plan = []
        for span in split_sentences(text, "ru" if whole == "ru" else "en"):
            sentence_lang = forced or _route(detect_language(span.text), detected=True) or whole
            if detect_language(span.text) is not None:  # "12 400 руб." alone has letters; "—" has none
                plan.append((span.text, sentence_lang))
        return plan or "no letters to score"

    def _result(self, plan: list[tuple[str, str]] | str, probs: dict[tuple[str, str], float]) -> ToxicityResult:
        if isinstance(plan, str):
            return ToxicityResult(None, None, None, None, None, reason=plan)
        sentence, lang = max(plan, key=lambda item: probs[item])
        p = probs[(sentence, lang)]
        threshold = self.calibration[lang]["threshold"]
        return ToxicityResult(p, p >= threshold, model_for(lang).name, sentence, lang, threshold)


def get_toxicity_scorer() -> ToxicityScorer:
    """The process-wide scorer with the shipped calibration; models load on the first ``score``."""
    return deps.once("toxicity-scorer", ToxicityScorer)


__all__ = [
    "CALIBRATION_PATH",
    "RU_STOPWORDS",
    "ToxicityResult",
    "ToxicityScorer",
    "get_toxicity_scorer",
    "load_calibration",
    "model_for",
    "platt",
    "prepare_russian",
    "russian_stem",
]
