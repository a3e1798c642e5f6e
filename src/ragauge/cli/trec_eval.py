"""``ragauge trec-eval QRELS RUN``: trec_eval's ranking measures and output, exact to v10.

A thin shell over ``ragauge.trec``: read both files, join, compute, print.
"""

from __future__ import annotations

import argparse
import sys

from ..errors import ExitCode

_HELP = "score a TREC run file against qrels, with trec_eval's options and output"


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "trec-eval",
        help=_HELP,
        description=_HELP + ". Measures: map, map_cut, recip_rank, P, recall, ndcg, ndcg_cut, success, Rprec, "
        "num_q, num_ret, num_rel, num_rel_ret, runid; nicknames official (default) and all_trec.",
    )
    parser.add_argument("qrels", help="qrels file: qid iter docno grade")
    parser.add_argument("run", help="run file: qid iter docno rank score run_id")
    parser.add_argument(
        "-m", "--measure", action="append", dest="measures", metavar="MEASURE[.PARAMS]",
        help="measure to print, trec_eval syntax (-m map, -m P.5,10, -m ndcg_cut.10, -m all_trec); repeatable",
    )
    parser.add_argument("-q", "--query_eval_wanted", action="store_true", dest="per_query",
                        help="also print one line per query and measure")
    parser.add_argument("-c", "--complete_rel_info_wanted", action="store_true", dest="complete",
                        help="average over every qrels query; queries missing from the run count as 0")
    parser.add_argument("-n", "--nosummary", action="store_false", dest="summary",
                        help="do not print the 'all' lines")
    parser.add_argument("-M", "--Max_retrieved_per_topic", type=int, default=None, dest="max_docs", metavar="N",
                        help="evaluate only the top N documents of each query")
    parser.add_argument("-l", "--level_for_rel", type=int, default=1, dest="rel_level", metavar="N",
                        help="minimum grade of a relevant document (default 1)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..trec import evaluate_files, format_lines

    specs_args = args.measures
    evaluation = evaluate_files(
        args.qrels,
        args.run,
        measures=specs_args,
        rel_level=args.rel_level,
        complete=args.complete,
        max_docs=args.max_docs,
    )
    out = sys.stdout
    out.write("".join(line + "\n" for line in format_lines(evaluation, per_query=args.per_query, summary=args.summary)))
    return int(ExitCode.OK)
