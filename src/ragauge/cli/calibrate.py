"""``ragauge calibrate``: how far to trust a judge metric, measured against human ratings.

- ``ragauge calibrate export RESULTS.json --out sheet.xlsx|csv [--metric M] [--n 50] [--seed 0]``: a sheet
  of judged answers for people to rate 1-5 (:mod:`.calibrate_sheet`).
- ``ragauge calibrate RESULTS.json --human HUMAN`` (or ``ragauge calibrate RESULTS.json HUMAN``): the report.
  HUMAN is the rated sheet (XLSX/CSV, column ``human_rating``) or a JSONL or CSV file with ``id`` and one
  or more rating fields: one field per rater (``--human-field a --human-field b``, or columns
  ``rater_1..n`` found by themselves), or one field holding a list of ratings (``[3, 4, 4]``; in CSV also
  ``3;4;4``). Ratings are 1-5, 1-4 or 0/1. The consensus of a sample is the median of its ratings.
  ``--bias``: do longer or more assertive answers get higher judge scores at equal human rating
  (:mod:`ragauge.stats.bias`)? Each report appends a record (judge model, prompts hash, agreement) to
  ``.ragauge/calibration.json`` (:mod:`ragauge.judges.llm.calibration`; ``--record PATH``, ``--no-record``).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

_AUTO_FIELDS = ("human_{metric}", "human_rating", "human", "rating", "ratings", "label", "human_label")
_RATER = re.compile(r"^rater_?\d+$")


def register(sub) -> None:
    p = sub.add_parser(
        "calibrate",
        help="calibrate a judge metric against human ratings (correlation, kappa, threshold, PPI, verdict)",
        description="Match a judge metric's per-sample scores (JUDGED results.json) with human ratings (HUMAN "
        "JSONL/CSV with 'id' and rating fields) and report Spearman, Pearson and Kendall with bootstrap CIs, "
        "Cohen's kappa at a threshold and quadratic-weighted kappa on the human scale, inter-rater agreement "
        "(Krippendorff's alpha) when several raters exist, the judge threshold that best matches the human "
        "labels, and a prediction-powered (bias-corrected) estimate of the metric. Verdict against the rule "
        "'correlation > 0.7' and against the raters' own agreement.",
        epilog="Exit codes: 0 report printed (or sheet written), 2 bad input. Examples: ragauge calibrate export "
        "results.json --out sheet.xlsx --n 50; ragauge calibrate results.json --human sheet.xlsx --bias. "
        "Methods: docs/statistics.md.",
    )
    p.add_argument("judged", metavar="RESULTS", help="results.json with the judge metric; or 'export' followed "
                   "by RESULTS to write a sheet for human raters")
    p.add_argument("human_pos", nargs="?", metavar="HUMAN", help="the human ratings (same as --human)")
    p.add_argument("--human", dest="human_opt", metavar="FILE",
                   help="the rated sheet (.xlsx/.csv from 'calibrate export') or JSONL/CSV with 'id' and ratings")
    p.add_argument("--metric", default="faithfulness", help="judge metric to calibrate (default faithfulness)")
    p.add_argument("--human-field", action="append", metavar="FIELD",
                   help="rating field; repeat for one field per rater; a field may hold a list of ratings "
                   "(default: rater_1..n columns, else human_<metric>, human_rating, human, rating, ratings, label)")
    p.add_argument("--human-scale", nargs=2, type=float, metavar=("LO", "HI"),
                   help="the human rating scale (default: inferred: 0-1 for 0/1 labels, else 1-4 or 1-5)")
    p.add_argument("--threshold", type=float, default=0.5,
                   help="judge score at or above which a sample counts as positive, for kappa (default 0.5)")
    p.add_argument("--human-threshold", type=float, default=None,
                   help="human consensus at or above which a sample is positive (default: scale midpoint)")
    p.add_argument("--bias", action="store_true",
                   help="also test whether the judge favours longer or more assertive answers at equal human rating")
    p.add_argument("--data", metavar="SAMPLES",
                   help="the samples the run evaluated (answers' contexts for 'export'; answers for --bias when "
                   "results.json lacks them); default: the data file the run names")
    p.add_argument("--record", metavar="PATH",
                   help="calibration record to append to (default .ragauge/calibration.json beside ragauge.toml)")
    p.add_argument("--no-record", action="store_true", help="do not write the calibration record")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap CIs and of the export's sample (default 0)")
    p.add_argument("--format", choices=("table", "json"), default="table")
    g = p.add_argument_group("export (ragauge calibrate export RESULTS.json --out sheet.xlsx)")
    g.add_argument("--out", help="the sheet to write: .xlsx (recommended) or .csv")
    g.add_argument("--n", type=int, default=50, help="answers to sample, stratified by judge score (default 50)")
    g.add_argument("--blind", action="store_true", help="leave the judge's score and reasons out of the sheet")
    p.set_defaults(func=run)


# --- reading the human file ------------------------------------------------------------------------


def _as_ratings(value: Any, *, file: str, line: int, field: str) -> list[float | None]:
    from ..errors import InputError

    if value is None or value == "":
        return [None]
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("["):
            try:
                value = json.loads(text)
            except json.JSONDecodeError:
                raise InputError("a list of ratings that is not valid JSON", file=file, line=line, field=field,
                                 value=value, hint="write it as [3, 4, 4] or 3;4;4") from None
        else:
            value = [v for v in re.split(r"[;|]", text)] if re.search(r"[;|]", text) else [text]
    items = value if isinstance(value, list) else [value]
    out: list[float | None] = []
    for item in items:
        if item is None or (isinstance(item, str) and item.strip() in ("", "NA", "null")):
            out.append(None)
            continue
        try:
            if isinstance(item, bool):
                out.append(float(item))
                continue
            v = float(item)
        except (TypeError, ValueError):
            raise InputError("a rating that is not a number", file=file, line=line, field=field, value=item,
                             hint="ratings are numbers on a 1-5, 1-4 or 0/1 scale; leave a missing one empty") from None
        if v != v:  # NaN
            out.append(None)
        else:
            out.append(v)
    return out


def _records(path: str) -> list[tuple[int, dict[str, Any]]]:
    from ..errors import InputError

    file = Path(path)
    if not file.is_file():
        raise InputError("file not found", file=path,
                         hint="pass the rated sheet (.xlsx/.csv) or a JSONL/CSV file with 'id' and rating fields")
    if file.suffix.lower() in (".csv", ".tsv", ".xlsx"):
        from .calibrate_sheet import read_rows

        return read_rows(file)
    try:
        file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise InputError("not UTF-8 text", file=path, hint="save the file as UTF-8") from None
    from ..data.jsonl import read_json_objects

    return read_json_objects(file, what="human ratings",
                             hint="one JSON object per line (JSONL), or use a .csv or .xlsx file")


def read_human(path: str, *, metric: str, fields: list[str] | None) -> tuple[dict[str, list[float | None]], list[str]]:
    """``{id: [rating per rater (None = missing)]}`` and the fields used."""
    from ..errors import InputError

    rows = _records(path)
    if not rows:
        raise InputError("no rows", file=path, hint="the file needs 'id' and at least one rating field")
    keys = list(dict.fromkeys(k for _, r in rows for k in r))
    from .calibrate_sheet import RATING, check_sheet

    if RATING in keys and (not fields or RATING in fields):
        check_sheet(rows, file=path, metric=metric)
    if not fields:
        fields = [k for k in keys if _RATER.match(k)]
        if not fields:
            fields = [f.format(metric=metric) for f in _AUTO_FIELDS if f.format(metric=metric) in keys][:1]
        if not fields:
            raise InputError("no rating field found", file=path, field="--human-field",
                             hint=f"name it with --human-field (fields in the file: {', '.join(keys[:20])})")
    missing = [f for f in fields if f not in keys]
    if missing:
        raise InputError(f"rating field(s) {', '.join(missing)} not in the file", file=path, field="--human-field",
                         hint=f"fields in the file: {', '.join(keys[:20])}")
    out: dict[str, list[float | None]] = {}
    seen_line: dict[str, int] = {}
    for line, row in rows:
        sid = row.get("id")
        if sid is None or sid == "":
            raise InputError("row without an id", file=path, line=line, field="id",
                             hint="every row needs the sample id used in the results.json")
        sid = str(sid)
        if sid in out:
            raise InputError(f"duplicate id (first on line {seen_line[sid]})", file=path, line=line, field="id",
                             value=sid)
        ratings: list[float | None] = []
        for f in fields:
            ratings += _as_ratings(row.get(f), file=path, line=line, field=f)
        out[sid] = ratings
        seen_line[sid] = line
    return out, fields


# --- the report ------------------------------------------------------------------------------------


def _infer_scale(values: list[float]) -> tuple[float, float]:
    vs = set(values)
    if vs <= {0.0, 1.0}:
        return 0.0, 1.0
    lo, hi = min(values), max(values)
    if lo >= 1 and hi <= 4:
        return 1.0, 4.0
    if lo >= 1 and hi <= 5:
        return 1.0, 5.0
    return lo, hi


def build_report(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    from ..errors import InputError
    from ..stats import agreement as ag
    from ..stats.runs import run_scores
    from .compare import load_results

    run = run_scores(load_results(args.judged), source=args.judged)
    if args.metric not in run.scores:
        raise InputError(f"metric '{args.metric}' is not in the judged run", file=args.judged, field="--metric",
                         hint=f"metrics in it: {', '.join(run.scores) or 'none'}")
    judge = run.scores[args.metric]
    spec = run.specs[args.metric]
    bounds = list(spec.get("range") or []) + [None, None]
    j_lo = float(bounds[0]) if bounds[0] is not None else 0.0  # judge metrics live on 0-1 unless the spec says
    j_hi = float(bounds[1]) if bounds[1] is not None else 1.0
    human, fields = read_human(args.human, metric=args.metric, fields=args.human_field)

    ids = [i for i in run.ids if i in human and judge[i] is not None]
    rated = {i: [v for v in human[i] if v is not None] for i in ids}
    ids = [i for i in ids if rated[i]]
    counts = {
        "human_rows": len(human),
        "human_not_in_judged": sum(1 for i in human if i not in judge),
        "unscored_by_judge": sum(1 for i in human if i in judge and judge[i] is None),
        "no_rating": sum(1 for i in human if i in judge and judge[i] is not None
                         and not [v for v in human[i] if v is not None]),
        "paired": len(ids),
    }
    if len(ids) < 3:
        raise InputError(f"only {len(ids)} sample(s) have both a judge score and a human rating; at least 3 needed",
                         file=args.human, field="id", hint=f"the ids must match those in {args.judged}")
    all_ratings = [v for i in ids for v in rated[i]]
    lo, hi = tuple(args.human_scale) if args.human_scale else _infer_scale(all_ratings)
    if not hi > lo:
        raise InputError("the human scale must have HI > LO", field="--human-scale", value=[lo, hi])
    consensus = np.array([float(np.median(rated[i])) for i in ids])
    f = np.array([judge[i] for i in ids], dtype=float)
    y01 = (consensus - lo) / (hi - lo)
    f01 = (f - j_lo) / (j_hi - j_lo)
    h_cut = args.human_threshold if args.human_threshold is not None else (lo + hi) / 2
    human_pos = consensus >= h_cut

    corr = ag.correlations(f, consensus, seed=args.seed)
    kappa = ag.cohen_kappa((f >= args.threshold).astype(float), human_pos.astype(float), categories=[0.0, 1.0])
    levels = np.arange(lo, hi + 1) if float(lo).is_integer() and float(hi).is_integer() else None
    wkappa = None
    if levels is not None:
        judge_on_scale = lo + np.clip(np.rint(f01 * (hi - lo)), 0, hi - lo)
        cons_on_scale = np.clip(np.rint(consensus), lo, hi)
        wkappa = ag.cohen_kappa(judge_on_scale, cons_on_scale, weights="quadratic", categories=levels)
    n_raters = max(len(human[i]) for i in ids)
    matrix = [[(human[i][r] if r < len(human[i]) else None) for i in ids] for r in range(n_raters)]
    multi = any(len(rated[i]) >= 2 for i in ids)
    raters = {
        "n_raters": n_raters,
        "krippendorff_alpha_ordinal": ag.krippendorff_alpha(matrix, level="ordinal") if multi else None,
        "krippendorff_alpha_interval": ag.krippendorff_alpha(matrix, level="interval") if multi else None,
        "rater_vs_others_spearman": ag.rater_ceiling(matrix) if multi else None,
    }
    threshold = ag.best_threshold(f, human_pos)
    unlabelled = np.array([judge[i] for i in run.ids if judge[i] is not None and i not in set(ids)], dtype=float)
    ppi = None
    ppi_note = None
    if unlabelled.size >= 2:
        ppi = ag.ppi_mean(f01, y01, (unlabelled - j_lo) / (j_hi - j_lo)).to_dict()
    else:
        ppi_note = ("every judged sample has a human rating: the human mean is the estimate "
                    f"({float(y01.mean()):.4g} on the 0-1 scale); PPI needs judged samples without ratings")
    word, sentence = ag.calibration_verdict(corr["spearman"], raters["rater_vs_others_spearman"])
    bias = _bias(args, ids, f, consensus) if args.bias else None
    return {
        "judged": args.judged, "human": args.human, "metric": args.metric, "human_fields": fields,
        "human_scale": [lo, hi], "counts": counts,
        "correlations": {k: v.to_dict() for k, v in corr.items()},
        "kappa": {"judge_threshold": args.threshold, "human_threshold": h_cut, **kappa.to_dict()},
        "weighted_kappa": wkappa.to_dict() if wkappa else None,
        "raters": raters,
        "best_threshold": threshold.to_dict(),
        "ppi": ppi, "ppi_note": ppi_note,
        "verdict": word, "verdict_reason": sentence,
        "bias": bias,
        "judge": _judge_of(run_doc_judge(args.judged, args.metric)),
    }


def run_doc_judge(judged: str, metric: str) -> dict[str, Any] | None:
    """The judge provenance of ``metric`` in the run (``summary[metric].judge``), if recorded."""
    from .compare import load_results

    summary = (load_results(judged).get("summary") or {}).get(metric) or {}
    judge = summary.get("judge") if isinstance(summary, dict) else None
    return judge if isinstance(judge, dict) else None


def _judge_of(prov: dict[str, Any] | None) -> dict[str, Any] | None:
    if prov is None:
        return None
    from ..judges.llm.calibration import JudgeFingerprint

    return JudgeFingerprint.from_mapping(prov).to_dict()


def _answers(args: argparse.Namespace, ids: list[str]) -> dict[str, str]:
    """Answer texts by id: from results.json, else from --data (or the data file the run names)."""
    from ..errors import InputError
    from .compare import load_results

    doc = load_results(args.judged)
    found = {s["id"]: s.get("answer") for s in doc.get("samples") or [] if isinstance(s, dict) and "id" in s}
    if all(isinstance(found.get(i), str) for i in ids):
        return {i: found[i] for i in ids}
    path = args.data or (doc.get("source") or {}).get("path")
    if not path or not Path(path).is_file():
        raise InputError("--bias needs the answers' text, and results.json does not hold it", file=args.judged,
                         field="samples[].answer", hint="pass the evaluated samples with --data SAMPLES")
    from ..data import load

    texts = {s.id: s.answer or "" for s in load(path)}
    missing = [i for i in ids if i not in texts]
    if missing:
        raise InputError(f"{len(missing)} rated id(s) are not in the data file, e.g. {missing[0]!r}", file=path,
                         field="id", hint="pass the samples file this run evaluated")
    return {i: texts[i] for i in ids}


def _bias(args: argparse.Namespace, ids: list[str], judge: Any, consensus: Any) -> dict[str, Any]:
    from ..stats.bias import assertiveness, bias_verdict, judge_bias, word_count

    answers = _answers(args, ids)
    out = {}
    for name, fn in (("length", word_count), ("assertiveness", assertiveness)):
        feature = [float(fn(answers[i] or "")) for i in ids]
        r = judge_bias(judge, feature, consensus, name=name, seed=args.seed)
        out[name] = {**r.to_dict(), "sentence": bias_verdict(r)}
    return out


def _f(x: Any, fmt: str = ".3f") -> str:
    return "-" if x is None else format(x, fmt)


def format_table(rep: dict[str, Any]) -> str:
    c = rep["counts"]
    lo, hi = rep["human_scale"]
    lines = [
        f"calibrate {rep['metric']} ({rep['judged']}) against {rep['human']} [{', '.join(rep['human_fields'])}]",
        f"n = {c['paired']} paired samples; human scale {lo:g}-{hi:g}; dropped: {c['human_not_in_judged']} not in "
        f"the run, {c['unscored_by_judge']} unscored by the judge, {c['no_rating']} without a rating",
        "",
        "correlation with the human consensus (median of raters)",
    ]
    for name, r in rep["correlations"].items():
        ci = r["ci"]
        ci_txt = f"[{ci['low']:.3f}, {ci['high']:.3f}]" if ci else "-"
        lines.append(f"  {name:<9} {_f(r['estimate'])}  95% CI {ci_txt}  p {_f(r['p_value'], '.3g')}")
    k = rep["kappa"]
    lines += ["", f"Cohen's kappa (judge >= {k['judge_threshold']:g} vs human >= {k['human_threshold']:g}): "
              f"{_f(k['kappa'])} (agreement {k['observed_agreement']:.3f}, by chance {k['expected_agreement']:.3f})"]
    if rep["weighted_kappa"]:
        lines.append(f"quadratic-weighted kappa (judge mapped onto {lo:g}-{hi:g}): {_f(rep['weighted_kappa']['kappa'])}")
    r = rep["raters"]
    if r["krippendorff_alpha_ordinal"] is not None:
        lines.append(f"inter-rater agreement ({r['n_raters']} raters): Krippendorff alpha ordinal "
                     f"{_f(r['krippendorff_alpha_ordinal'])}, interval {_f(r['krippendorff_alpha_interval'])}; "
                     f"rater vs the others' mean: Spearman {_f(r['rater_vs_others_spearman'])}")
    else:
        lines.append("inter-rater agreement: one rating per sample, no ceiling available")
    t = rep["best_threshold"]
    if t["threshold"] is not None and (t["balanced_accuracy"] or 0) <= 0.5:
        lines.append("best judge threshold: none separates the human labels (balanced accuracy 0.5 at best: the "
                     "judge's score does not tell the good answers from the bad ones here)")
    elif t["threshold"] is not None:
        lines.append(f"best judge threshold: {t['threshold']:.3f} (balanced accuracy {t['balanced_accuracy']:.3f}, "
                     f"Youden J {t['youden_j']:.3f}, TPR {t['tpr']:.2f}, TNR {t['tnr']:.2f})")
    else:
        lines.append("best judge threshold: undefined (the human labels have one class only)")
    if rep["ppi"]:
        p = rep["ppi"]
        lines.append(f"bias-corrected {rep['metric']} (PPI, 0-1 scale): {p['estimate']:.3f} "
                     f"[{p['ci']['low']:.3f}, {p['ci']['high']:.3f}]; naive judge mean {p['judge_mean']:.3f}; "
                     f"judge bias on the rated samples {p['rectifier']:+.3f} (n = {p['n_labelled']} rated + "
                     f"{p['n_unlabelled']} unrated)")
    else:
        lines.append(f"PPI: {rep['ppi_note']}")
    lines += ["", f"verdict: {rep['verdict']} - {rep['verdict_reason']}"]
    if rep.get("bias"):
        lines += ["", "bias at equal human rating (partial Spearman correlation of the judge score with the feature, "
                  "human consensus held fixed; 95% bootstrap CI)"]
        lines += [f"  {b['sentence']}" for b in rep["bias"].values()]
    if rep.get("record"):
        lines += ["", f"recorded in {rep['record']} (ragauge eval reminds you when the judge changes)"]
    elif rep.get("record_note"):
        lines += ["", rep["record_note"]]
    return "\n".join(lines)


def _record(args: argparse.Namespace, rep: dict[str, Any]) -> None:
    """Append the calibration record (unless --no-record); says where, or why not, in ``rep``."""
    if args.no_record:
        return
    if rep["judge"] is None:
        rep["record_note"] = (f"not recorded: {args.judged} does not say which judge scored {args.metric} "
                              "(summary.judge); re-run ragauge eval with this version")
        return
    from ..judges.llm.calibration import JudgeFingerprint, append_record, default_record_path

    path = Path(args.record) if args.record else default_record_path()
    sp = rep["correlations"]["spearman"]
    figures = {"n": rep["counts"]["paired"], "spearman": sp["estimate"],
               "spearman_ci": [sp["ci"]["low"], sp["ci"]["high"]] if sp["ci"] else None,
               "kappa": rep["kappa"]["kappa"], "verdict": rep["verdict"],
               "bias": {k: v["verdict"] for k, v in rep["bias"].items()} if rep.get("bias") else None}
    append_record(path, JudgeFingerprint.from_mapping(rep["judge"]), metric=args.metric, figures=figures,
                  sources={"judged": args.judged, "human": rep["human"]})
    rep["record"] = str(path)


def _resolve(args: argparse.Namespace) -> None:
    """``judged``/``human`` from the positional and ``--human`` forms; options of the other mode refused."""
    from ..errors import InputError

    if args.judged == "export" and not Path("export").is_file():
        args.mode = "export"
        if args.human_opt or not args.human_pos:
            raise InputError("export takes one results.json", field="RESULTS",
                             hint="ragauge calibrate export RESULTS.json --out sheet.xlsx")
        if not args.out:
            raise InputError("export needs --out", field="--out",
                             hint="ragauge calibrate export RESULTS.json --out sheet.xlsx (or .csv)")
        args.judged, args.human_pos = args.human_pos, None
        return
    args.mode = "report"
    if args.out:
        raise InputError("--out is for 'ragauge calibrate export'", field="--out",
                         hint="ragauge calibrate export RESULTS.json --out sheet.xlsx")
    if args.human_pos and args.human_opt and args.human_pos != args.human_opt:
        raise InputError("two human rating files given", field="--human", value=[args.human_pos, args.human_opt],
                         hint="give one: ragauge calibrate RESULTS.json --human sheet.xlsx")
    args.human = args.human_opt or args.human_pos
    if not args.human:
        raise InputError("no human ratings given", field="--human",
                         hint="ragauge calibrate RESULTS.json --human sheet.xlsx; make the sheet with "
                         "'ragauge calibrate export RESULTS.json --out sheet.xlsx'")


def run(args: argparse.Namespace) -> int:
    _resolve(args)
    if args.mode == "export":
        from .calibrate_sheet import export

        print(export(args.judged, args.out, metric=args.metric, n=args.n, seed=args.seed, data=args.data,
                     blind=args.blind))
        return 0
    rep = build_report(args)
    _record(args, rep)
    if args.format == "json":
        print(json.dumps(rep, indent=2, ensure_ascii=False, allow_nan=False))
    else:
        print(format_table(rep))
    return 0
