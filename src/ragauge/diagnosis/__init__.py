"""What to fix: rules that read a run's results and say, in Russian or English, what is wrong and what to try.

Lives beside the engine rather than in ``stats``: it is a reading of a whole results document (bars,
slices, refusals, timings) with texts in two languages, not a statistical procedure. It works on the
results.json dict, so it runs on a saved file as well as on a fresh run.

    >>> from ragauge.diagnosis import diagnose
    >>> [d.code for d in diagnose({"summary": {}, "samples": []})]
    []
"""

from .rules import RULES, Diagnosis, diagnose

__all__ = ["Diagnosis", "RULES", "diagnose"]
