"""``ragauge review export|import``: the expert review loop of a golden set (see docs/review.md)."""

from __future__ import annotations

import argparse


def register(sub) -> None:
    p = sub.add_parser(
        "review",
        help="export a golden set for expert review, import the reviewed sheet back (versioned, audited)",
        description="export: write one row per case to .xlsx (recommended) or .csv with accept/edit/reject "
        "columns. import: apply the reviewed sheet, write a new golden file with its version sidecar "
        "(*.meta.json) and an audit (*.audit.jsonl). Exit 0 on success, 2 on a problem in the files.",
    )
    actions = p.add_subparsers(dest="review_action", metavar="ACTION")
    ex = actions.add_parser("export", help="write the review sheet")
    ex.add_argument("golden", help="golden JSONL (from 'ragauge generate')")
    ex.add_argument("--out", "-o", required=True, help="review file: .xlsx (Excel) or .csv (UTF-8 with BOM)")
    ex.add_argument("--kb", help="kb.jsonl: show the relevant chunks' text in the 'context' column")
    ex.add_argument("--delimiter", choices=(";", ",", "tab"), default=";",
                    help="CSV field separator (default ';', what a Russian/European Excel expects)")
    ex.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    ex.set_defaults(func=run)
    im = actions.add_parser("import", help="apply a reviewed sheet and write the next golden version")
    im.add_argument("reviewed", help="the reviewed .xlsx or .csv")
    im.add_argument("--golden", required=True, help="the golden JSONL the sheet was exported from")
    im.add_argument("--out", "-o", required=True, help="new golden JSONL (e.g. golden.v2.jsonl)")
    im.add_argument("--kb", help="kb.jsonl: check chunk ids written in relevant_ids_edit")
    im.add_argument("--unreviewed", choices=("keep", "drop", "error"), default="keep",
                    help="cases with no decision: keep them marked 'unreviewed' (default), drop them, or fail")
    im.add_argument("--reviewer", help="reviewer name for rows whose 'reviewer' cell is empty")
    im.add_argument("--audit", help="audit JSONL path (default: OUT with .audit.jsonl)")
    im.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    im.set_defaults(func=run)
    p.set_defaults(func=run, review_action=None, _review_parser=p)


def run(args: argparse.Namespace) -> int:
    from ..errors import ExitCode
    from ..generate.review import export_review, import_review

    if args.review_action == "export":
        delimiter = "\t" if args.delimiter == "tab" else args.delimiter
        path = export_review(args.golden, args.out, kb=args.kb, delimiter=delimiter)
        if not args.quiet:
            print(f"review sheet written: {path}")
        return int(ExitCode.OK)
    if args.review_action == "import":
        result = import_review(args.reviewed, args.golden, args.out, kb=args.kb, unreviewed=args.unreviewed,
                               reviewer=args.reviewer, audit_path=args.audit)
        if not args.quiet:
            print(result.summary())
        return int(ExitCode.OK)
    args._review_parser.print_help()
    return int(ExitCode.USAGE)
