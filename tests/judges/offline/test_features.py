"""Feature helpers that must not depend on the order of a set (it changes from process to process)."""

from __future__ import annotations

from ragauge.judges.offline.features import align


def test_align_picks_the_same_lemma_whatever_the_order_of_known():
    known = ["бетонный", "бетонирование", "бетонщик", "гарантийный", "срок"]
    claim = ["бетон", "гарантия", "срок", "цена", "бет"]
    expected = ["бетонирование", "гарантийный", "срок", "цена", "бет"]  # "бет": too short for a stem
    assert align(claim, known) == expected
    claim = ["бетонная", "гарантия"]
    for order in (known, known[::-1], sorted(known, key=len)):
        assert align(claim, order) == ["бетонирование", "гарантийный"]  # the alphabetically first of the stem
