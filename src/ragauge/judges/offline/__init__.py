"""The offline judge: models that ship inside PyPI packages, no API key, no downloads at run time.

Kept import-free: each building block lives in its own module and loads its models lazily.
"""
