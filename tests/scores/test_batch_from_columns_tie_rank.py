"""batch_from_columns ranks by ``scores`` and needs ``tie_rank`` only to order equal scores (issue 15:
mypy found that a missing tie_rank reached the ranking code as None and crashed with a bare TypeError)."""

from __future__ import annotations

import numpy as np
import pytest

from ragauge.errors import InputError
from ragauge.scores.ranking import batch_from_columns


def _columns(scores: list[float]) -> dict[str, np.ndarray]:
    # one query, documents a, b, c; a has grade 1, c has grade 2, b is not judged
    return dict(
        lengths=np.array([3]),
        grades=np.array([1.0, np.nan, 2.0]),
        judged_lengths=np.array([2]),
        judged_grades=np.array([1.0, 2.0]),
        scores=np.array(scores),
    )


def test_a_missing_tie_rank_is_asked_for_only_when_scores_tie():
    batch = batch_from_columns(**_columns([2.0, 1.0, 3.0]))  # distinct scores: ranked c, a, b
    assert batch.gains.tolist() == [[2.0, 1.0, 0.0]]
    with pytest.raises(InputError, match="needs tie_rank") as caught:
        batch_from_columns(**_columns([1.0, 1.0, 3.0]))
    assert "flatten_scored" in str(caught.value)


def test_very_uneven_queries_without_a_tie_rank_say_what_to_pass():
    # one long query among many empty ones takes the unpadded path, which always asks tie_rank
    lengths = np.array([5000] + [0] * 10)
    grades = np.full(5000, np.nan)
    with pytest.raises(InputError, match="needs tie_rank"):
        batch_from_columns(lengths, grades, np.zeros(11, dtype=np.int64), np.zeros(0),
                           scores=np.arange(5000, 0, -1, dtype=np.float64))

