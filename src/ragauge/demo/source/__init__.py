"""Hand-written source of the bundled demo: the knowledge base and the evaluation questions.

``kb.DOCUMENTS`` holds the documents (each a list of chunks), ``questions.QUESTIONS`` the questions with
their gold answers, the assistant's answers and the labels. ``scripts/build_demo.py`` turns both into
``demo/data/kb.jsonl`` and ``demo/data/samples.jsonl`` (retrieval, scores and timings are computed there).
Edit these files, then rebuild; never edit the ``.jsonl`` files by hand.
"""
