"""Which separator a CSV file uses, told from its header line.

Excel writes ``;`` where the decimal separator is a comma (Russian and most European locales) and
``,`` elsewhere; tab-separated files get saved as ``.csv`` too. The header names the columns, so the
candidate that splits it into the most cells (quotes respected) is the separator; on a tie the
caller's default wins (``,`` for ``.csv``, tab for ``.tsv``).

>>> detect_delimiter("id;question;relevant_ids")
';'
>>> detect_delimiter('id,"question; asked",answer')
','
"""

from __future__ import annotations

import csv

#: The separators tried, in order of preference on a tie after the default.
CANDIDATES = (",", ";", "\t", "|")

_NAMES = {",": "','", ";": "';'", "\t": "a tab", "|": "'|'"}


def delimiter_name(delimiter: str) -> str:
    """How a message names a separator: ``';'``, ``a tab``."""
    return _NAMES.get(delimiter, repr(delimiter))


def cell_count(line: str, delimiter: str) -> int:
    try:
        return len(next(csv.reader([line], delimiter=delimiter)))
    except (csv.Error, StopIteration):  # an unclosed quote: the header spans lines; count it as one cell
        return 1


def detect_delimiter(header: str, *, default: str = ",", candidates: tuple[str, ...] = CANDIDATES) -> str:
    """The candidate that splits ``header`` (the first line of the file) into the most cells."""
    best, best_n = default, cell_count(header, default)
    for delimiter in candidates:
        n = cell_count(header, delimiter)
        if n > best_n:
            best, best_n = delimiter, n
    return best
