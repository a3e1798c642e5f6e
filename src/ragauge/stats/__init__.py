"""Statistics that decide: intervals (and, later, paired comparisons and sample-size planning)."""

from .intervals import Interval, aggregate, bootstrap_ci

__all__ = ["Interval", "aggregate", "bootstrap_ci"]
