"""What the route resolver could not follow, gathered by kind and reason and rendered in the
project's one wording (`sofia.output.notes.not_followed`), each place once."""

from __future__ import annotations

from sofia.output.notes import Place, not_followed


class Misses:
    """Places grouped by (what, why), in the order first met."""

    def __init__(self) -> None:
        self._groups: dict[tuple[str, str], list[Place]] = {}

    def add(self, what: str, why: str, place: Place) -> None:
        places = self._groups.setdefault((what, why), [])
        if place not in places:
            places.append(place)

    def count(self) -> int:
        return sum(len(places) for places in self._groups.values())

    def notes(self) -> list[str]:
        return [not_followed(what, places, why) for (what, why), places in self._groups.items()]
