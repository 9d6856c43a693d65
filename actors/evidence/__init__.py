"""What the ledger's entries mean, computed where they live: pure functions, no I/O.

The ledger (:mod:`donecheck.actors.ledger`) folds each session's entries through
these as they arrive and serves a review its :class:`~donecheck.actors.messages.EvidenceView`;
the reviewer reads that view and never the log.

========================  ==========================================================
:mod:`.shell`             shell command lines: simple commands, checks, masking
:mod:`.runner`            what a tool's output says about how it ended
:mod:`.writes`            which files the agent's calls write; file snapshots
:mod:`.pairing`           calls paired with results and reports: operations, checks
:mod:`.reads`             whether an attachment's content was shown to the agent
:mod:`.integrity`         tests and test configuration weakened after a failure
:mod:`.scope`             which part of a session a request is reviewed on
:mod:`.excerpt`           the bounded tool log a model is shown
:mod:`.fingerprint`       an order-preserving hash of the evidence
========================  ==========================================================
"""
