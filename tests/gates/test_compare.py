"""One definition of "value op threshold": every reader agrees, and an unknown operator is handled explicitly."""

import pytest

from ragauge.diagnosis._read import _meets
from ragauge.gates.compare import OPERATORS, meets, meets_or_unknown
from ragauge.gates.profiles import OPS
from ragauge.report.html_doc import _passes


@pytest.mark.parametrize("value,op,threshold,expected", [
    (0.85, ">=", 0.85, True), (0.85, ">", 0.85, False), (2999.0, "<", 3000.0, True), (3000.0, "<=", 3000.0, True),
    (0.84, ">=", 0.85, False), (3001.0, "<", 3000.0, False),
])
def test_every_reader_agrees_on_known_operators(value, op, threshold, expected):
    assert meets(value, op, threshold) is expected
    assert _passes(value, op, threshold) is expected
    assert _meets(value, op, threshold) is expected


def test_an_unknown_operator_is_an_error_for_gates_and_unknown_for_readers():
    with pytest.raises(ValueError, match="unknown comparison '=='"):
        meets(1.0, "==", 1.0)
    assert meets_or_unknown(1.0, "==", 1.0) is None
    assert _passes(1.0, "==", 1.0) is False  # a report never shows an unknown bar as passed
    assert _meets(1.0, "==", 1.0) is True  # the diagnosis never calls it a miss
    assert OPS == OPERATORS
