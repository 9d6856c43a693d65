"""A bounded map of sessions, least recently used first out: what a stateful actor
keeps in memory when its store holds the rest."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Generic, TypeVar

__all__ = ["SessionCache"]

V = TypeVar("V")


class SessionCache(Generic[V]):
    """Sessions by id, at most ``limit`` once :meth:`trim` runs. A lookup makes a
    session the most recently used; :meth:`trim` drops the least recently used
    that ``droppable`` allows (a session in use stays, whatever the limit)."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._items: OrderedDict[str, V] = OrderedDict()
        self.dropped = 0

    def get(self, key: str) -> V | None:
        value = self._items.get(key)
        if value is not None:
            self._items.move_to_end(key)
        return value

    def __getitem__(self, key: str) -> V:
        value = self.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def __setitem__(self, key: str, value: V) -> None:
        self._items[key] = value
        self._items.move_to_end(key)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def __len__(self) -> int:
        return len(self._items)

    def pop(self, key: str) -> V | None:
        return self._items.pop(key, None)

    def values(self) -> Iterator[V]:
        return iter(list(self._items.values()))

    def items(self) -> Iterator[tuple[str, V]]:
        return iter(list(self._items.items()))

    def trim(self, droppable: Callable[[str, V], bool]) -> None:
        """Drop least recently used sessions until at most ``limit`` are left, skipping
        those ``droppable`` says must stay."""
        excess = len(self._items) - self.limit
        if excess <= 0:
            return
        for key in list(self._items):
            if excess <= 0:
                break
            if droppable(key, self._items[key]):
                del self._items[key]
                self.dropped += 1
                excess -= 1
