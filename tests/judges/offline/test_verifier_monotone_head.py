"""Sign-constrained training of the verifier head (issue 13, t13c): ``scripts/train_verifier.py``'s
``fit_signed_logreg`` and ``MONOTONE``."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
T = pytest.importorskip("train_verifier")


def _data(seed: int = 0, n: int = 600, d: int = 6):
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(n, d))
    beta = np.array([1.5, -1.0, 0.8, -0.5, 0.3, 0.0])[:d]
    y = (z @ beta + rng.logistic(size=n) > 0).astype(int)
    w = rng.uniform(0.2, 2.0, n)
    return z, y, w * n / w.sum()


def test_without_constraints_it_is_scikit_learns_logistic_regression():
    from sklearn.linear_model import LogisticRegression

    z, y, w = _data()
    lr = LogisticRegression(C=0.3, max_iter=5000, tol=1e-10).fit(z, y, sample_weight=w)
    beta, b = T.fit_signed_logreg(z, y, w, C=0.3, signs=np.full(z.shape[1], np.nan))
    assert np.abs(beta - lr.coef_[0]).max() < 1e-4
    assert abs(b - lr.intercept_[0]) < 1e-4


def test_a_weight_the_data_push_against_its_sign_is_held_at_zero_and_the_others_keep_theirs():
    z, y, w = _data()
    free, _ = T.fit_signed_logreg(z, y, w, C=1.0, signs=np.full(6, np.nan))
    assert free[0] > 0.5 and free[1] < -0.3  # what the data say
    signs = np.array([-1.0, 1.0, 1.0, np.nan, np.nan, 0.0])  # the first two against the data, the last held at 0
    beta, _ = T.fit_signed_logreg(z, y, w, C=1.0, signs=signs)
    assert beta[0] == 0.0 and beta[1] == 0.0 and beta[5] == 0.0
    assert beta[2] > 0.3 and beta[3] < -0.2  # an allowed sign is still learned


def test_the_signs_follow_the_feature_names_and_leave_the_pca_block_free():
    from ragauge.judges.offline.features import N_SCALAR, SCALAR_NAMES

    signs = T.monotone_signs(N_SCALAR + 4)
    assert np.isnan(signs[N_SCALAR:]).all()
    by_name = dict(zip(SCALAR_NAMES, signs[:N_SCALAR]))
    assert by_name["rare_recall_top"] == 1 and by_name["recall_best"] == 1 and by_name["stem4_recall_all"] == 1
    assert by_name["num_share_contradicted"] == -1 and by_name["n_entities_missing"] == -1
    assert by_name["novel_share"] == -1 and by_name["negation_mismatch"] == -1
    assert np.isnan(by_name["cyrillic"]) and np.isnan(by_name["sim_mean3"])  # no fixed direction
    assert set(T.MONOTONE) <= set(SCALAR_NAMES)  # no stale names after a feature rename


def test_a_monotone_head_is_monotone_in_its_features():
    """A head fitted with the constraints never gives a lower P(supported) for more recall, nor a higher
    one for more missing figures (the two failures of the unconstrained head, issue 13)."""
    from ragauge.judges.offline.features import FEATURE_NAMES, N_SCALAR, SCALAR_NAMES

    rng = np.random.default_rng(1)
    n = 400
    X = rng.uniform(0, 1, size=(n, len(FEATURE_NAMES))).astype(np.float32)
    rec, miss = SCALAR_NAMES.index("rare_recall_top"), SCALAR_NAMES.index("num_share_missing")
    # labels that reward *less* recall and *more* missing figures: the constraints must refuse both
    y = ((X[:, miss] - X[:, rec] + rng.normal(0, 0.2, n)) > 0).astype(np.int8)
    table = T.Table([{"id": str(i), "dataset": "halueval_qa", "hallucinated": not y[i]} for i in range(n)],
                    X, y, np.ones(n, dtype=np.float32), np.arange(n))
    head = T.fit_head(table, np.arange(n), components=0, C=1.0, monotone=True)
    W = head.layers[0][0][:N_SCALAR, 0]
    assert W[rec] >= 0.0 and W[miss] <= 0.0
    x = np.tile(X[:1], (2, 1))
    x[1, rec] = x[0, rec] + 0.5
    p = head.predict_proba(x)
    assert p[1] >= p[0]


def test_monotone_needs_the_logistic_head():
    from ragauge.judges.offline.features import FEATURE_NAMES

    X = np.zeros((4, len(FEATURE_NAMES)), dtype=np.float32)
    y = np.array([0, 1, 0, 1], dtype=np.int8)
    table = T.Table([{"id": str(i), "dataset": "wice", "hallucinated": not y[i]} for i in range(4)], X, y,
                    np.ones(4, dtype=np.float32), np.arange(4))
    with pytest.raises(ValueError, match="logreg"):
        T.fit_head(table, np.arange(4), components=0, head="mlp", monotone=True)
