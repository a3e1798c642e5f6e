"""Our ``ragauge trec-eval`` against trec_eval v10's own test suite, value by value.

The suite (qrels, runs and ``out.test*`` outputs) lives in ``shared/data/trec_eval/test`` beside the
repository; users' clones do not have it, so these tests skip cleanly there. Each ``out.test*`` file
comes from the trec_eval command in its Makefile (``quicktest``), repeated below with its flags.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragauge.cli.main import main

SUITE = (Path(__file__).resolve().parents[2] / "../shared/data/trec_eval/test").resolve()
OURS = re.compile(
    r"^(runid|num_q|num_ret|num_rel|num_rel_ret|map|Rprec|recip_rank|ndcg"
    r"|P_\d+|recall_\d+|ndcg_cut_\d+|map_cut_\d+|success_\d+)$"
)

# expected output, our flags (trec_eval's, minus measures we do not implement), qrels, run
VARIANTS = {
    "out.test": ([], "qrels.test", "results.test"),
    "out.test.a": (["-m", "all_trec"], "qrels.test", "results.test"),
    "out.test.aq": (["-m", "all_trec", "-q"], "qrels.test", "results.test"),
    "out.test.aqc": (["-m", "all_trec", "-q", "-c"], "qrels.test", "results.trunc"),
    "out.test.aqcM": (["-m", "all_trec", "-q", "-c", "-M100"], "qrels.test", "results.trunc"),
    # trec_eval also had -mrelstring.20 here (not implemented: its lines are ignored)
    "out.test.aql": (["-m", "all_trec", "-q", "-l2"], "qrels.rel_level", "results.test"),
    # trec_eval also had iprec_at_recall, Rprec_mult, utility, 11pt_avg and ndcg with gain params
    "out.test.meas_params": (
        ["-q", "-m", "P.5,7,3", "-m", "recall.20,2000", "-m", "ndcg_cut.10,20,23.4", "-msuccess.2,5,20"],
        "qrels.test",
        "results.test",
    ),
    "out.comment.test": ([], "qrels.comment.test", "results.comment.test"),
}
SKIPPED = {
    "out.test.aqZ": "-Z (z-scores against a means file) is not implemented",
    "out.test.prefs": "-R prefs (preference judgements) is not implemented",
    "out.test.qrels_prefs": "-R qrels_prefs (preference measures) is not implemented",
    "out.test.qrels_jg": "-R qrels_jg (multiple judgement groups) is not implemented",
}


def _suite() -> Path:
    if not SUITE.is_dir():
        pytest.skip(f"trec_eval test suite not found at {SUITE} (only in the project's shared data)")
    return SUITE


def _run(capsys, args: list[str]) -> str:
    code = main(["trec-eval", *args])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return captured.out


def _table(lines: list[str]) -> dict[tuple[str, str], str]:
    table = {}
    for line in lines:
        name, qid, value = line.split("\t")
        table[(name.strip(), qid)] = value
    return table


def test_every_expected_output_is_covered_or_skipped_with_a_reason():
    suite = _suite()
    outputs = {p.name for p in suite.glob("out.*")}
    assert outputs == set(VARIANTS) | set(SKIPPED)


@pytest.mark.parametrize("expected_name", sorted(VARIANTS))
def test_matches_trec_eval(expected_name, capsys):
    suite = _suite()
    flags, qrels, run = VARIANTS[expected_name]
    expected_lines = [
        line
        for line in (suite / expected_name).read_text().splitlines()
        if OURS.match(line.split("\t")[0].strip())
    ]
    ours_lines = _run(capsys, [*flags, str(suite / qrels), str(suite / run)]).splitlines()
    theirs, ours = _table(expected_lines), _table(ours_lines)
    problems = [
        f"{name} {qid}: ours {ours.get((name, qid), 'MISSING')} theirs {value}"
        for (name, qid), value in theirs.items()
        if ours.get((name, qid)) != value
    ]
    problems += [f"{name} {qid}: ours {value}, trec_eval prints no such line" for (name, qid), value in ours.items()
                 if (name, qid) not in theirs]
    assert not problems, f"{len(problems)} mismatches with {expected_name}:\n" + "\n".join(problems[:50])
    assert ours_lines == expected_lines  # same order, padding and number format


def test_comment_lines_in_qrels_change_nothing(capsys):
    suite = _suite()
    plain = _run(capsys, [str(suite / "qrels.test"), str(suite / "results.test")])
    commented = _run(capsys, [str(suite / "qrels.test.with-comments"), str(suite / "results.test")])
    assert commented == plain


def test_duplicate_judgements_are_refused_with_their_line(capsys):
    suite = _suite()
    # qrels.123 judges documents several times (it is meant for -R qrels_jg): trec_eval v10 refuses it
    code = main(["trec-eval", str(suite / "qrels.123"), str(suite / "results.test")])
    err = capsys.readouterr().err
    assert code == 2
    assert "qrels.123, line 3682" in err and "listed twice for query '301'" in err
