from .evaluate import evaluate
from .results import Results

__all__ = ["Results", "evaluate"]
