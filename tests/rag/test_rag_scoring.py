"""The retriever's score formulas, hand-computed (pure numpy, no models)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ragauge.errors import ConfigError
from ragauge.rag.filters import filter_mask
from ragauge.rag.scoring import (ScoreCalibration, calibrated, default_calibration, fit_logistic, hybrid, lexical,
                                 lexical_norm)


def test_lexical_is_bm25_over_the_single_occurrence_score_capped_at_one():
    norm = lexical_norm([2.0, 3.0], k1=1.5)  # (2 + 3) / 2.5
    assert norm == pytest.approx(2.0)
    assert lexical(np.array([0.0, 1.0, 2.0, 5.0]), norm).tolist() == [0.0, 0.5, 1.0, 1.0]
    assert lexical(np.array([1.0]), 0.0).tolist() == [0.0]  # a query without content words


def test_hybrid_weights_cosine_against_lexical_and_clips_negative_cosines():
    assert hybrid(0.5, 0.2, alpha=0.4) == pytest.approx(0.4 * 0.5 + 0.6 * 0.2)
    assert hybrid(np.array([-0.3]), np.array([0.5]), alpha=0.5).tolist() == [0.25]


def test_calibrated_is_the_logistic_function():
    assert calibrated(0.5, a=4.0, b=-2.0) == pytest.approx(0.5)
    assert calibrated(1.0, a=4.0, b=-2.0) == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert np.isfinite(calibrated(np.array([1e6, -1e6]), a=100.0, b=0.0)).all()


def test_fit_logistic_recovers_a_known_model():
    rng = np.random.default_rng(0)
    x = rng.uniform(0, 1, 4000)
    y = (rng.uniform(0, 1, 4000) < 1 / (1 + np.exp(-(8 * x - 4)))).astype(float)
    a, b = fit_logistic(x, y)
    assert a == pytest.approx(8, rel=0.15) and b == pytest.approx(-4, rel=0.15)


def test_fit_logistic_needs_both_classes():
    with pytest.raises(ConfigError, match="both relevant and non-relevant"):
        fit_logistic([0.1, 0.2], [1, 1])


def test_calibration_validates_and_the_shipped_one_loads():
    with pytest.raises(ConfigError, match="alpha"):
        ScoreCalibration(alpha=1.5)
    with pytest.raises(ConfigError, match="invert the ranking"):
        ScoreCalibration(a=-1.0)
    cal = default_calibration()
    assert 0 <= cal.alpha <= 1 and cal.a > 0 and cal.n_pairs > 0


def test_filter_mask_any_of_values_and_all_fields():
    records = [{"id": "a", "doc_id": "price", "version": "2026"}, {"id": "b", "doc_id": "price", "version": "2025"},
               {"id": "c", "doc_id": "faq"}]
    assert filter_mask(records, {"doc_id": "price", "version": 2026}).tolist() == [True, False, False]
    assert filter_mask(records, {"doc_id": ["price", "faq"]}).tolist() == [True, True, True]
    assert filter_mask(records, None).tolist() == [True, True, True]


def test_filter_mask_refuses_unknown_fields_and_bad_shapes():
    records = [{"id": "a", "doc_id": "price"}]
    with pytest.raises(ConfigError, match="'city' is not a field.*known fields: \\['doc_id', 'id'\\]"):
        filter_mask(records, {"city": "Казань"})
    with pytest.raises(ConfigError, match="mapping"):
        filter_mask(records, ["doc_id"])
    with pytest.raises(ConfigError, match="empty list"):
        filter_mask(records, {"doc_id": []})
