"""Transcript importers: agent conversations in other formats, as session events."""
