"""Formatting shared by the text reports (table, Markdown), working on the results dict."""

from __future__ import annotations

from typing import Any, Mapping


def fmt_value(value: float | None, unit: str | None = None) -> str:
    if value is None:
        return "—"
    if unit == "ms":
        return f"{value:.0f} ms"
    return f"{value:.3f}"


def fmt_ci(ci: Mapping[str, Any] | None, unit: str | None = None) -> str:
    if not ci:
        return "n too small"
    if unit == "ms":
        return f"[{ci['low']:.0f}, {ci['high']:.0f}]"
    return f"[{ci['low']:.3f}, {ci['high']:.3f}]"


def fmt_unscored(entry: Mapping[str, Any]) -> str:
    n = entry.get("n_unscored", 0)
    if not n:
        return "0"
    reasons = entry.get("unscored_reasons", {})
    if len(reasons) == 1:
        return f"{n}: {next(iter(reasons))}"
    return f"{n}: " + "; ".join(f"{c} {r}" for r, c in reasons.items())


def gate_by_metric(results: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    return {g["metric"]: g for g in results.get("gates", [])}


def units(results: Mapping[str, Any]) -> dict[str, str | None]:
    return {m["name"]: m.get("unit") for m in results.get("metrics", [])}


def verdict_line(results: Mapping[str, Any]) -> str:
    gates = [g for g in results.get("gates", []) if g["status"] != "skipped"]
    if not gates:
        return "No gates checked (no profile)."
    failed = [g for g in gates if g["status"] != "pass"]
    if not failed:
        return f"PASS: all {len(gates)} gates passed."
    return f"FAIL: {len(failed)} of {len(gates)} gates failed: " + ", ".join(g["metric"] for g in failed)
