"""Judges: the only I/O door of ragauge (offline models, OpenAI-compatible clients, caches).

Kept import-free: importing ``ragauge.judges`` loads no model and no optional package.
"""
