"""Peak memory and time of loading hostile DOCX files (issue 14): a zip bomb and a million-paragraph file.

    python benchmarks/hostile_docs.py                       # both files, 120 s and 6 GiB per run at most
    python benchmarks/hostile_docs.py --bomb-gib 1          # a smaller bomb (faster to build)
    python benchmarks/hostile_docs.py --timeout 600 --mem-cap-gib 12 --json out.json

The files are built here (nothing is downloaded):

* ``bomb.docx``: python-docx's blank document whose ``word/document.xml`` is ``--bomb-gib`` GiB of one
  repeated paragraph, deflated (about 4 MB for 4 GiB; the ratio of deflate is ~1000:1);
* ``paragraphs.docx``: ``--paragraphs`` (1.8 million) one-letter paragraphs, about 300 KB;
* ``numbered.docx``: as many paragraphs holding their number (4.4 MB: compresses 15 times only, so it
  passes the compression-ratio check and shows the paragraph count check).

Each file is loaded by ``ragauge.generate.load_folder`` in a child process (a folder holding only that
file: a file over a limit is reported as skipped, not raised). This script polls the child's peak
resident memory (``VmHWM`` in ``/proc``, Linux) and its wall time, and kills it after ``--timeout``
seconds; ``--mem-cap-gib`` sets the child's address-space limit (``RLIMIT_AS``) so that the code
without limits fails with a MemoryError instead of taking the whole machine. The script reports; it
exits 0.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Iterator

ROOT = Path(__file__).resolve().parents[1]

_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
         b'<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
_TAIL = b"</w:body></w:document>"


def docx_with_body(path: Path, body: Iterator[bytes]) -> Path:
    """python-docx's blank document with ``word/document.xml`` replaced by ``_HEAD + body + _TAIL``."""
    import docx

    template = io.BytesIO()
    docx.Document().save(template)
    with zipfile.ZipFile(template) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            if info.filename != "word/document.xml":
                dst.writestr(info.filename, src.read(info))
        with dst.open("word/document.xml", "w", force_zip64=True) as fh:
            fh.write(_HEAD)
            for chunk in body:
                fh.write(chunk)
            fh.write(_TAIL)
    return path


def bomb_body(gib: float) -> Iterator[bytes]:
    para = b"<w:p><w:r><w:t>Warranty is 12 months from the date of acceptance.</w:t></w:r></w:p>"
    chunk = para * ((16 << 20) // len(para))  # ~16 MB
    total = int(gib * (1 << 30))
    for _ in range(max(1, total // len(chunk))):
        yield chunk


def paragraphs_body(n: int) -> Iterator[bytes]:
    para = b"<w:p><w:r><w:t>x</w:t></w:r></w:p>"
    for start in range(0, n, 10_000):
        yield para * min(10_000, n - start)


def numbered_body(n: int) -> Iterator[bytes]:
    for start in range(0, n, 10_000):
        yield b"".join(b"<w:p><w:r><w:t>%d</w:t></w:r></w:p>" % i for i in range(start, min(n, start + 10_000)))


_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[2])
from ragauge.generate import load_folder
t = time.perf_counter()
docs, problems = load_folder(sys.argv[1])
print(json.dumps({"loaded": len(docs), "skipped": [p.reason for p in problems],
                  "seconds_in_child": round(time.perf_counter() - t, 2)}))
"""


def _peak_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(folder: Path, *, timeout: float, mem_cap_gib: float) -> dict:
    cap = int(mem_cap_gib * (1 << 30))

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    start = time.perf_counter()
    child = subprocess.Popen([sys.executable, "-c", _CHILD, str(folder), str(ROOT / "src")], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True, preexec_fn=limit)
    peak, killed = 0, False
    while child.poll() is None:
        peak = max(peak, _peak_kib(child.pid))
        if time.perf_counter() - start > timeout:
            child.kill()
            killed = True
            break
        time.sleep(0.05)
    out, err = child.communicate()
    row = {"wall_s": round(time.perf_counter() - start, 2), "peak_rss_mib": round(peak / 1024, 1),
           "killed_at_timeout": killed, "exit_code": child.returncode}
    try:
        row.update(json.loads(out.strip().splitlines()[-1]))
    except (IndexError, ValueError):
        row["stderr_tail"] = err.strip().splitlines()[-1:] if err.strip() else []
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bomb-gib", type=float, default=4.0, help="expanded size of the bomb (default 4)")
    parser.add_argument("--paragraphs", type=int, default=1_800_000, help="paragraphs of the long file (default 1.8M)")
    parser.add_argument("--timeout", type=float, default=120.0, help="seconds per load before it is killed")
    parser.add_argument("--mem-cap-gib", type=float, default=6.0, help="address-space limit of the child (GiB)")
    parser.add_argument("--only", choices=("bomb", "paragraphs", "numbered"), help="measure one of the files")
    parser.add_argument("--keep", help="folder to build the files in and keep them (default: a temporary one)")
    parser.add_argument("--json", help="also write the numbers here")
    args = parser.parse_args(argv)
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="ragauge-hostile-"))
    results = {"python": platform.python_version(), "machine": platform.machine(), "cpus": os.cpu_count(),
               "timeout_s": args.timeout, "mem_cap_gib": args.mem_cap_gib, "files": {}}
    for name, body in (("bomb", lambda: bomb_body(args.bomb_gib)),
                       ("paragraphs", lambda: paragraphs_body(args.paragraphs)),
                       ("numbered", lambda: numbered_body(args.paragraphs))):
        if args.only and name != args.only:
            continue
        folder = base / name
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.docx"
        t = time.perf_counter()
        if not path.exists():
            docx_with_body(path, body())
        with zipfile.ZipFile(path) as zf:
            expanded = sum(i.file_size for i in zf.infolist())
        row = {"file_bytes": path.stat().st_size, "expanded_bytes": expanded,
               "build_s": round(time.perf_counter() - t, 1)}
        row.update(measure(folder, timeout=args.timeout, mem_cap_gib=args.mem_cap_gib))
        results["files"][name] = row
        print(f"{name}: {row['file_bytes'] / 1e6:.2f} MB file, {expanded / (1 << 20):.0f} MiB expanded -> "
              f"{row['wall_s']} s, peak RSS {row['peak_rss_mib']} MiB"
              f"{' (killed at timeout)' if row['killed_at_timeout'] else ''}; "
              f"loaded {row.get('loaded', '?')}, skipped {row.get('skipped', row.get('stderr_tail'))}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
