from .config import EvalConfig
from .evaluate import aevaluate, evaluate
from .results import Results

__all__ = ["EvalConfig", "Results", "aevaluate", "evaluate"]
