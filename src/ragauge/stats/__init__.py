"""Statistics that decide: intervals, paired comparisons, sample-size planning, judge agreement.

Everything random takes a seed; comparisons pair samples by id. See docs/statistics.md.
"""

from .intervals import Interval, aggregate, bootstrap_ci, is_binary, metric_ci, quantile_ci, wilson_ci

__all__ = ["Interval", "aggregate", "bootstrap_ci", "is_binary", "metric_ci", "quantile_ci", "wilson_ci"]
