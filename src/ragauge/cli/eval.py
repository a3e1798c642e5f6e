"""``ragauge eval DATA``: evaluate a data set, write results.json and reports, exit by the gates."""

from __future__ import annotations

import argparse
import sys

FORMATS = ("table", "json", "markdown", "html")


def register(sub) -> None:
    p = sub.add_parser(
        "eval",
        help="evaluate a data set against a threshold profile",
        description="Evaluate DATA (JSONL, JSON, CSV, Parquet; or 'demo' for the bundled Russian demo). "
        "Writes OUT/results.json, OUT/report.html and OUT/report.md; prints the chosen format. "
        "Exit codes: 0 every gate passed, 1 a gate failed (or has no value), 2 usage or input error "
        "(or an output file cannot be written), 3 judge unavailable or no verdict, 4 budget exhausted, "
        "70 internal error, 130 interrupted.",
    )
    p.add_argument("data", help="path to the data file, 'demo', or a ragauge serve database URL (sqlite:///ragauge.db, postgresql+psycopg://...) with --since/--until")
    p.add_argument("--metrics", "-m", help="comma-separated metric names, e.g. ndcg@10,mrr,recall@5 "
                   "(default: the profile's metrics that the data supports)")
    p.add_argument("--profile", "-p", help="threshold profile (default: from ragauge.toml, else 'dashboard'); "
                   "'none' for no gates")
    p.add_argument("--k", type=int, help="cutoff that replaces @K in the profile")
    p.add_argument("--judge", default="auto",
                   help="judge for faithfulness, relevancy, correctness, context and toxicity metrics: "
                   "'offline' (models from PyPI packages, no API key), 'openai:MODEL@URL' (any OpenAI-compatible "
                   "endpoint; key from RAGAUGE_LLM_API_KEY), 'cascade:openai:MODEL@URL' (the offline verifier decides "
                   "the claims it is sure of, the LLM the uncertain ones), 'none' (leave judge metrics out of the "
                   "defaults), 'auto' (offline when installed; default)")
    p.add_argument("--cascade-band", metavar="LO,HI",
                   help="with --judge cascade:...: claims whose offline P(supported) is in [LO, HI] go to the LLM "
                   "(default: RAGAUGE_CASCADE_BAND, else the calibrated band in docs/llm-judge.md)")
    p.add_argument("--dry-run", action="store_true",
                   help="with an LLM judge: count the calls and tokens the run would pay for, spend nothing")
    p.add_argument("--max-calls", type=int, help="LLM judge budget: stop cleanly after this many calls (exit 4)")
    p.add_argument("--max-tokens", type=int, help="LLM judge budget: stop cleanly after this many tokens (exit 4)")
    p.add_argument("--max-usd", type=float, help="LLM judge budget: stop cleanly past this cost (needs --prices)")
    p.add_argument("--prices", help="TOML price table: [prices] MODEL = {input = USD per 1M, output = USD per 1M}")
    p.add_argument("--out", "-o", default="ragauge-report", help="output folder (default: ragauge-report)")
    p.add_argument("--format", "-f", choices=FORMATS, default="table", help="what to print (default: table)")
    p.add_argument("--field-map", action="append", default=[], metavar="THEIRS=OURS",
                   help="map a column name to a ragauge field, e.g. --field-map query=question (repeatable)")
    p.add_argument("--seed", type=int, help="seed of the bootstrap intervals and permutation tests (default 0)")
    p.add_argument("--baseline", metavar="BASE", help="results.json (or its folder) of an earlier run: gates with "
                   "mode non_inferior test against it, and every gated metric shows the paired change")
    p.add_argument("--margin", type=float, help="default non-inferiority margin in the metric's units "
                   "(a threshold's own margin wins; default: the profile's, else 0.02)")
    p.add_argument("--intersection", action="store_true", help="with --baseline: compare the common sample ids "
                   "only (default: refuse when the two runs have different ids)")
    p.add_argument("--min-slice", type=int, metavar="N", help="slices with fewer scored samples are "
                   "'too small' for the hidden-breakage alarm (default 5)")
    p.add_argument("--lang", choices=("auto", "ru", "en"), default="auto",
                   help="language of the diagnosis (default: the samples' majority language)")
    p.add_argument("--app-name", help="which system was evaluated (recorded in results.json, shown in reports, "
                   "used by ragauge compare; default: app_name in ragauge.toml)")
    p.add_argument("--app-version", help="its version, e.g. 1.3 or a git commit (default: app_version in ragauge.toml)")
    p.add_argument("--engine", choices=("local", "ray"), help="where scoring runs: local (default) or ray "
                   "(pip install 'ragauge[ray]'; Ray Data blocks scored by an actor pool; docs/scale.md)")
    p.add_argument("--address", help="with --engine ray: the Ray cluster (auto, ray://HOST:10001; default: a local one)")
    p.add_argument("--workers", type=int, help="with --engine ray: scoring actors (default: one per CPU of the cluster)")
    p.add_argument("--batch-size", type=int, metavar="N", help="with --engine ray: samples per block, the unit a "
                   "worker reads, scores and a failure redoes (default 256)")
    p.add_argument("--shards", metavar="DIR", help="with --engine ray: write every sample's scores and artifacts as "
                   "Parquet shards into DIR (new or empty) as blocks finish; the driver keeps no artifacts")
    p.add_argument("--since", metavar="TIME", help="DATA is a ragauge serve database URL: score traces received from "
                   "TIME (ISO date/date-time, UTC without a zone, or unix seconds); --app-name/--app-version filter them")
    p.add_argument("--until", metavar="TIME", help="with a database URL as DATA: traces received before TIME")
    p.add_argument("--to-store", action="store_true", help="with a database URL as DATA: write the scores back to "
                   "it, as ragauge serve's background scorer does (offline judge)")
    p.add_argument("--also", metavar="M1,M2", help="metrics computed besides the default (or --metrics) ones, e.g. "
                   "--also claim_recall,hallucination_taxonomy,context_relevance")
    p.add_argument("--config", help="config file (default: ragauge.toml or pyproject.toml found from here)")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    p.set_defaults(func=run)


#: the demo report also shows the diagnostics of issue 18 where its data allows (judge metrics: with a judge)
DEMO_ALSO = ("claim_precision,claim_recall,context_utilization,noise_sensitivity_relevant,"
             "noise_sensitivity_irrelevant,hallucinated_claims,self_knowledge,context_relevance,"
             "context_precision_share_ids,hallucination_taxonomy,self_contradiction,factuality")


def _field_map(items: list[str]) -> dict[str, str]:
    from ..errors import InputError

    out = {}
    for item in items:
        theirs, sep, ours = item.partition("=")
        if not sep or not theirs or not ours:
            raise InputError(f"--field-map expects THEIRS=OURS, got {item!r}", hint="e.g. --field-map query=question")
        out[theirs.strip()] = ours.strip()
    return out


def _progress(quiet: bool):
    if quiet or not sys.stderr.isatty():
        return None

    def show(step: str, done: int, total: int) -> None:
        width = 24
        filled = int(width * done / max(total, 1))
        end = "\n" if done >= total else ""
        print(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} {step:<12}", end=end, file=sys.stderr, flush=True)

    return show


def _judge(args: argparse.Namespace):
    """``--judge`` and its options -> what ``evaluate(judge=...)`` takes (one parser: ``judges/spec.py``)."""
    from ..judges.spec import make_judge

    return make_judge(args.judge, max_calls=args.max_calls, max_tokens=args.max_tokens, max_usd=args.max_usd,
                      prices=args.prices, dry_run=args.dry_run, band=getattr(args, "cascade_band", None))


def _remind_calibration(judge, args: argparse.Namespace) -> None:
    """An LLM judge whose model or prompts changed since the last `ragauge calibrate` (or never calibrated):
    say so before spending, on stderr."""
    if judge is None or isinstance(judge, str) or args.dry_run or args.quiet:
        return
    from ..judges.llm.calibration import calibration_reminder

    lang = "ru" if args.lang == "ru" else "en"
    message = calibration_reminder(judge, lang=lang)
    if message:
        print(f"ragauge: {message}", file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from ..config import load_config
    from ..engine import EvalConfig
    from ..errors import JudgeError
    from ..errors import ExitCode
    from ..report.common import verdict_line

    cfg = load_config(args.config)
    data = args.data
    if data == "demo":
        from ..demo import samples_path

        data = str(samples_path())
    config = EvalConfig.from_project(
        cfg, metrics=args.metrics or None, profile=args.profile, k=args.k, seed=args.seed, judge=_judge(args),
        field_map=_field_map(args.field_map), baseline=args.baseline, margin=args.margin,
        allow_intersection=args.intersection or None, min_slice_n=args.min_slice,
        lang=None if args.lang == "auto" else args.lang, app_name=args.app_name, app_version=args.app_version,
        engine=args.engine, ray_address=args.address, workers=args.workers, batch_size=args.batch_size,
        also=args.also or (DEMO_ALSO if args.data == "demo" and not args.metrics else None))
    judge = config.judge
    _remind_calibration(judge, args)
    try:
        from ..scale.front import evaluate_at_scale  # = evaluate() unless a store, window or shards are given
        results = evaluate_at_scale(data, config, since=args.since, until=args.until, shards=args.shards,
                                    to_store=args.to_store, progress=_progress(args.quiet))
    except JudgeError as exc:  # no verdict at all (exit 3): still write what was measured and the raw replies
        partial = getattr(exc, "results", None)
        if partial is not None and not args.dry_run:
            written = partial.save(args.out)
            print(f"ragauge: the run's results (raw judge replies of unscored samples) are in {written['json']}",
                  file=sys.stderr)
        raise
    if args.data == "demo":
        results.source = "demo"
    if args.dry_run:
        print(judge.plan.summary())
        e = (results.usage or {}).get("escalation")
        if e:
            print(f"cascade: {e['escalated']} of {e['claims']} claim verdicts would go to the LLM "
                  f"(band P(supported) in [{e['band'][0]}, {e['band'][1]}])")
        return int(ExitCode.OK)
    from ..engine.golden_review import review_warning

    from ..lang import ru_or_en

    lang = results.lang or ru_or_en(" ".join((s.question or "") for s in list(results.samples)[:100]))
    warning = review_warning(results.golden_review, lang) if results.golden_review else None
    if warning and (args.quiet or args.format != "table"):  # the table prints it itself
        print(f"ragauge: warning: {warning}", file=sys.stderr)
    written = results.save(args.out)
    if not args.quiet:
        doc = results.to_dict()
        if args.format == "json":
            print(results.to_json())
        elif args.format == "markdown":
            from ..report.markdown import render_markdown

            print(render_markdown(doc), end="")
        elif args.format == "html":
            print(written["html"].read_text(encoding="utf-8"))
        else:
            from ..report.table import render_table

            print(render_table(doc))
        if args.format in ("table",):
            from ..engine.summary import usage_lines

            for line in usage_lines(doc.get("usage")):
                print(line)
            print()
            for fmt, path in written.items():
                print(f"{fmt:>8}: {path}")
        else:
            print(f"ragauge: {verdict_line(doc)} Reports in {args.out}/", file=sys.stderr)
            from ..engine.summary import usage_lines

            for line in usage_lines(doc.get("usage"))[:1]:  # stdout holds the document: the total to stderr
                print(f"ragauge: {line}", file=sys.stderr)
    return int(ExitCode.OK if results.passed else ExitCode.GATE_FAILED)
