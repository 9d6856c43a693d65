"""The review: what the evidence shows, what the answer claims, and the verdict.

Pure functions and small value classes — no actors, no I/O, no Ray. The
reviewer actor (:mod:`donecheck.actors.reviewer`) runs them; the ledger uses the
evidence views; the loop uses only the checklist.

========================  ==========================================================
:mod:`.evidence`          what ledger events mean: operations, exit status, checks,
                          edits, the fingerprint
:mod:`.reads`             whether an attachment's content was shown to the agent
:mod:`.excerpt`           the bounded tool log a model is shown
:mod:`.facts`             everything one review reads from the ledger, computed once
:mod:`.claims`            what an answer claims (checks pass, files written, approvals)
:mod:`.preanalysis`       acceptance items drawn from the request alone
:mod:`.rules`             the rules-only review: hard gates and evidence checks
:mod:`.gates`             which findings are defects to fix
:mod:`.prompt`            the judge's prompt, every piece fenced as data
:mod:`.verdicts`          the judge's answer parsed and held to the evidence
:mod:`.combine`           the judge's verdict and the rules' findings as one result
:mod:`.checklist`         the steer message handed back to the agent
========================  ==========================================================
"""
