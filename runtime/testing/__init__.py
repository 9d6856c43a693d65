"""Fakes for testing a DoneCheck setup without a real model: the scripted judge
(:mod:`.scripted`), a real HTTP server on 127.0.0.1 that ``donecheck demo`` also
plays its agent with. Nothing else in the package imports this but the demo."""
