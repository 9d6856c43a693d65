"""People's words, read the same way by the evidence view and the review.

========================  ==========================================================
:mod:`.lang`              one pack per language: every word the reading uses
:mod:`.hints`             a cheap pre-filter: sentences that may hold a pattern
:mod:`.claims`            what an answer claims; what a request asks; check kinds
:mod:`.approval`          approval statements of a source, and the claims they back
:mod:`.attachments`       which attachments a request depends on
========================  ==========================================================

Below both :mod:`donecheck.actors.evidence` and :mod:`donecheck.actors.review`:
neither imports the other for a word table or a taxonomy.
"""
