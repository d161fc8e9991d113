"""An immutable, hashable mapping: :class:`FrozenMap`, the mapping fields of
the model's frozen values (a deal's hands and scores, a hand's tricks)."""
from __future__ import annotations

from typing import Dict, Iterable, Iterator, Mapping, Tuple, TypeVar, Union

K = TypeVar("K")
V = TypeVar("V")


class FrozenMap(Mapping[K, V]):
    """An immutable, hashable mapping that keeps insertion order; ``repr``
    is ``FrozenMap({...})``."""

    __slots__ = ("_data",)

    def __init__(self, data: Union[Mapping[K, V], Iterable[Tuple[K, V]]] = ()) -> None:
        self._data: Dict[K, V] = dict(data)

    def __getitem__(self, key: K) -> V:
        return self._data[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(tuple(self._data.items()))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self._data) == dict(other)

    def __repr__(self) -> str:
        return f"FrozenMap({self._data!r})"


__all__ = ["FrozenMap"]
