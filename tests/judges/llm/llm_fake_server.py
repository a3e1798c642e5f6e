"""A scripted OpenAI-compatible chat server on loopback that injects faults on demand.

``server.push({...}, ...)`` queues actions for the next requests, in order; with the queue empty the
``responder(body) -> content`` answers. Actions:

- ``{"status": 429, "headers": {"Retry-After": "1"}, "body": "..."}``: that HTTP status;
- ``{"hang": 1.0}``: sleep before answering normally (the client times out first);
- ``{"reset": True}``: close the TCP connection abruptly (RST) without an answer;
- ``{"content": "..."}``: a 200 whose assistant message is this text (garbage, truncated JSON, ...);
- ``{"http_body": "..."}``: a 200 whose body is this (not a chat completion);
- ``{"block": threading.Event()}``: wait until the event is set (or forever) -- for crash tests;
- ``{"trickle": 0.05}``: a valid reply sent one byte at a time, this many seconds apart;
- ``{"big": 3_000_000}``: a 200 with that many bytes of body (``"announce": True``: with a
  Content-Length, else an unannounced body ended by closing the connection);
- ``{"gzip_bomb": 50_000_000}``: a 200 with ``Content-Encoding: gzip`` whose body inflates to that many
  zero bytes (about 1/1000 of it on the wire), whatever ``Accept-Encoding`` asked;
- ``{"gzip": True}``: the normal reply, gzip-compressed (a server that ignores ``Accept-Encoding``).

``server.usage``: ``(prompt_tokens, completion_tokens)`` billed for each reply, or a callable of the
request body returning them. ``server.headers`` records each request's headers.

``server.paths`` and ``server.auth`` record each request's path (with its query string) and
Authorization header.

``POST .../embeddings`` (``{"model", "input": [...]}``) answers with ``embedder(text) -> vector`` for each
input (default :func:`bag_of_words_vector`: deterministic, texts sharing words point the same way), in
the OpenAI shape (``data[i].embedding``, ``index``; listed in reverse order, so a client must sort by
``index``) with ``usage.prompt_tokens`` = the number of words; the scripted actions apply to it too,
plus ``{"embeddings": [[...], ...]}``: reply with exactly these vectors.

``reject_json_schema`` answers any ``response_format.type == "json_schema"`` with HTTP 500, as
llama-cpp-python 0.3.36 does; ``reject_json_object`` answers json_object with HTTP 400;
``reject_seed`` answers any request with a ``seed`` with HTTP 400 naming it.
"""

from __future__ import annotations

import gzip
import json
import re
import socket
import struct
import threading
import time
import zlib
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


def _user(body: dict[str, Any]) -> str:
    return next(m["content"] for m in body["messages"] if m["role"] == "user")


def _system(body: dict[str, Any]) -> str:
    return next((m["content"] for m in body["messages"] if m["role"] == "system"), "")


def blocks(user: str, name: str) -> list[tuple[str, str]]:
    """``(n, text)`` of each fenced ``<name-TAG n="..">`` block of a judge prompt (``n`` "" when absent)."""
    return [(m.group(2) or "", m.group(3)) for m in re.finditer(
        rf'<{name}-(\w+)(?: n="(\d+)")?>\n(.*?)\n</{name}-\1>', user, re.S)]


def judge_responder(body: dict[str, Any]) -> str:
    """A deterministic 'LLM' for the judge prompts: claims = sentences, a claim is supported by
    the sources that contain it (case-insensitive), questions = fixed."""
    system, user = _system(body), _user(body)
    sentences = lambda t: [x for x in re.split(r"(?<=[.!?])\s+", t.strip()) if x]  # noqa: E731
    if '"answer_claims"' in system:  # claims_pair: both texts at once
        a, r = blocks(user, "answer")[0][1], blocks(user, "reference")[0][1]
        return json.dumps({"answer_claims": sentences(a), "reference_claims": sentences(r)}, ensure_ascii=False)
    if '"findings"' in system:  # verify_multi: groups of claims, each against its sources, source by source
        sources = dict(blocks(user, "source"))
        verdicts = []
        head = user.index("</source-")
        for group in re.split(r"\n\n(?=Claims|Утверждения)", user[head:])[1:]:
            header = group.split("\n", 1)[0]
            allowed = re.findall(r"\d+", header)
            for num, claim in blocks(group, "claim"):
                key = claim.lower().rstrip(".")
                findings = [{"source": int(n), "verdict": "supported", "quote": claim.rstrip(".")}
                            for n in allowed if key in sources[n].lower()]
                verdicts.append({"claim": int(num), "findings": findings,
                                 "reason": "stated in a source" if findings else "not in the sources"})
        return json.dumps({"verdicts": verdicts}, ensure_ascii=False)
    if "atomic" in system or "атомарные" in system:
        fenced = blocks(user, "answer")
        text = fenced[0][1] if fenced else user.split("\n", 1)[-1]  # a bare "Answer:\n..." (client tests)
        return json.dumps({"claims": [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]}, ensure_ascii=False)
    if '"verdicts"' in system:
        sources = blocks(user, "source")
        verdicts = []
        for num, claim in blocks(user, "claim"):
            cited = [int(n) for n, s in sources if claim.lower().rstrip(".") in s.lower()]
            verdicts.append({"claim": int(num), "verdict": "supported" if cited else "unsupported",
                             "sources": cited, "quote": claim.rstrip(".") if cited else "",
                             "reason": "stated in the source" if cited else "not in the sources"})
        return json.dumps({"verdicts": verdicts}, ensure_ascii=False)
    if '"questions"' in system:
        return json.dumps({"questions": ["What is the warranty?", "How long is the warranty?"],
                           "noncommittal": "don't know" in user.lower()})
    return "{}"


def bag_of_words_vector(text: str, dims: int = 32) -> list[float]:
    """A deterministic toy embedding: word counts hashed (crc32) into ``dims`` buckets."""
    vec = [0.0] * dims
    for w in re.findall(r"\w+", text.lower()):
        vec[zlib.crc32(w.encode()) % dims] += 1.0
    return vec


_BOMBS: dict[int, bytes] = {}


def _zeros_gzipped(size: int) -> bytes:
    """``size`` zero bytes, gzip-compressed (made once per size, in 1 MiB pieces)."""
    if size not in _BOMBS:
        z = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        block = bytes(1 << 20)
        parts = [z.compress(block[:min(len(block), size - at)]) for at in range(0, size, len(block))]
        _BOMBS[size] = b"".join(parts) + z.flush()
    return _BOMBS[size]


class FakeOpenAI:
    def __init__(self, responder: Callable[[dict[str, Any]], str] = judge_responder) -> None:
        self.responder = responder
        self.embedder: Callable[[str], list[float]] = bag_of_words_vector
        self.script: deque[dict[str, Any]] = deque()
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.auth: list[str | None] = []
        self.headers: list[dict[str, str]] = []
        self.answered = 0
        self.reject_json_schema = False
        self.reject_json_object = False
        self.reject_seed = False
        self.usage = (100, 20)
        self.delay = 0.0
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _gzipped(self, payload: bytes) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self._leave()
                try:
                    self.wfile.write(payload)
                except OSError:
                    pass  # the client stopped reading

            def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self._leave()  # before the client can see the reply and send its next request
                self.wfile.write(payload)

            def _leave(self) -> None:
                if getattr(self, "_counted", False):
                    with fake._lock:
                        fake.in_flight -= 1
                    self._counted = False

            def _big(self, size: int, announce: bool) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                if announce:
                    self.send_header("Content-Length", str(size))
                else:
                    self.send_header("Connection", "close")
                self.end_headers()
                self._leave()
                self.close_connection = True
                chunk = b"x" * 65536
                try:
                    for _ in range(0, size, len(chunk)):
                        self.wfile.write(chunk)
                except OSError:
                    pass  # the client stopped reading: what it should do

            def _trickle(self, gap: float, content: str) -> None:
                doc = {"choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": 100, "completion_tokens": 20}}
                payload = json.dumps(doc).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self._leave()
                try:
                    for i in range(len(payload)):
                        self.wfile.write(payload[i:i + 1])
                        self.wfile.flush()
                        time.sleep(gap)
                except OSError:
                    pass

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with fake._lock:
                    fake.requests.append(body)
                    fake.paths.append(self.path)
                    fake.auth.append(self.headers.get("Authorization"))
                    fake.headers.append({k.lower(): v for k, v in self.headers.items()})
                    action = fake.script.popleft() if fake.script else {}
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                self._counted = True
                try:
                    self._handle(body, action)
                finally:
                    self._leave()

            def _handle(self, body: dict[str, Any], action: dict[str, Any]) -> None:
                if "block" in action:
                    action["block"].wait()
                if "reset" in action:
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    self.connection.close()
                    self.close_connection = True
                    return
                if "hang" in action:
                    time.sleep(action["hang"])
                if "big" in action:
                    self._big(action["big"], action.get("announce", False))
                    return
                if "gzip_bomb" in action:
                    self._gzipped(_zeros_gzipped(action["gzip_bomb"]))
                    return
                if "trickle" in action:
                    self._trickle(action["trickle"], fake.responder(body))
                    return
                if "status" in action:
                    self._send(action["status"], action.get("body", '{"error": "scripted"}').encode(),
                               action.get("headers"))
                    return
                rf = (body.get("response_format") or {}).get("type")
                if fake.reject_seed and "seed" in body:
                    self._send(400, b'{"error": {"message": "Unrecognized request argument supplied: seed"}}')
                    return
                if fake.reject_json_schema and rf == "json_schema":
                    self._send(500, b'{"error": {"message": "response_format json_schema is not supported"}}')
                    return
                if fake.reject_json_object and rf == "json_object":
                    self._send(400, b'{"error": {"message": "unknown response_format"}}')
                    return
                if "http_body" in action:
                    self._send(200, action["http_body"].encode())
                    return
                if self.path.split("?")[0].endswith("/embeddings"):
                    texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
                    vectors = action.get("embeddings") or [fake.embedder(t) for t in texts]
                    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vectors)][::-1]
                    words = sum(len(t.split()) for t in texts)
                    with fake._lock:
                        fake.answered += 1
                    self._send(200, json.dumps({"object": "list", "model": body.get("model"), "data": data,
                                                "usage": {"prompt_tokens": words, "total_tokens": words}}).encode())
                    return
                if fake.delay:
                    time.sleep(fake.delay)
                content = action["content"] if "content" in action else fake.responder(body)
                p, c = fake.usage(body) if callable(fake.usage) else fake.usage
                doc = {"id": "x", "object": "chat.completion", "model": body.get("model"),
                       "choices": [{"index": 0, "finish_reason": "stop",
                                    "message": {"role": "assistant", "content": content}}],
                       "usage": {"prompt_tokens": p, "completion_tokens": c, "total_tokens": p + c}}
                with fake._lock:
                    fake.answered += 1
                if action.get("gzip"):
                    self._gzipped(gzip.compress(json.dumps(doc, ensure_ascii=False).encode()))
                    return
                self._send(200, json.dumps(doc, ensure_ascii=False).encode())

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def push(self, *actions: dict[str, Any]) -> None:
        self.script.extend(actions)

    def __enter__(self) -> "FakeOpenAI":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class StubOffline:
    """The offline half of the LLM judge without loading models: refusals by keyword, fixed cosine."""

    def __init__(self, cosine: float = 0.8) -> None:
        self.cosine = cosine

    def refusals(self, texts, langs):
        return ["don't know" in t.lower() or "не знаю" in t.lower() for t in texts]

    def similarity(self, a, b):
        import numpy as np

        return np.full(len(a), self.cosine)

    def toxicity(self, texts, langs):
        return [None for _ in texts]
