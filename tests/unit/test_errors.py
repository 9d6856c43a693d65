"""Every error survives pickling across Ray processes, with its message and fields."""

from __future__ import annotations

import inspect
import pickle

import pytest

from donecheck.actors import errors as e

SAMPLES: list[e.DoneCheckError] = [
    e.DoneCheckError("boom"),
    e.ConfigError("DONECHECK_MAX_ROUNDS", "must be >= 0"),
    e.InputError("bad input"),
    e.TranscriptError("a.json", "invalid JSON", 3),
    e.TranscriptError("b.json", "no user message"),
    e.AttachmentError("x.pdf", "no such file"),
    e.DeploymentError("ray would not start"),
    e.ActorUnavailableError("ledger-0", "died", 30.0),
    e.StoreError("postgresql://dc:***@db/ledger", "connection refused"),
    e.StoreError("sqlite:///tmp/x", "UNIQUE constraint failed", True),
    e.SessionError("s-1", "odd"),
    e.UnknownSessionError("s-2"),
    e.SessionClosedError("s-3"),
]


def test_samples_cover_every_error() -> None:
    classes = {
        c for _, c in inspect.getmembers(e, inspect.isclass) if issubclass(c, e.DoneCheckError)
    }
    assert classes == {type(s) for s in SAMPLES}


@pytest.mark.parametrize("error", SAMPLES, ids=lambda x: f"{type(x).__name__}:{x}")
def test_pickle_round_trip(error: e.DoneCheckError) -> None:
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is type(error)
    assert str(copy) == str(error)
    assert copy.args == error.args
    assert vars(copy) == vars(error)


def test_messages_name_the_input() -> None:
    assert str(e.TranscriptError("a.json", "invalid JSON", 3)) == "a.json:3: invalid JSON"
    assert str(e.ConfigError("max_rounds", "too big")) == "max_rounds: too big"
    assert str(e.UnknownSessionError("s-2")) == "session s-2: no such session"
    assert isinstance(e.TranscriptError("a", "b"), e.InputError)
    assert isinstance(e.ActorUnavailableError("a", "b"), e.DeploymentError)
