"""The names typed into a form (the entry page, the odds page, the calculator) found among the
players: by their short, full or former names, current names first; a name that may mean several
players lists them all."""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field

from league.models import FormerName, Player
from league.validation import name_key


@dataclass
class Resolved:
    """The players the typed names stand for. `unknown` maps a name that matches no one to the
    closest existing player's short name (or None); `ambiguous` a name that may mean one of several
    players, or only begins a player's name ("Farid" for "Farid A"), to every one of them; `also` a
    name found as a player's current name to the others who went by it before."""

    players: dict[str, Player]  # name_key of the typed name -> player
    unknown: dict[str, str | None]
    ambiguous: dict[str, list[Player]]
    also: dict[str, list[Player]] = field(default_factory=dict)
    former: dict[int, list[str]] = field(default_factory=dict)  # player's pk -> their former names
    short_keys: set[str] = field(default_factory=set)  # every player's short name's key: taken


class _Names:
    """Every player by each name they go or went by, as `resolve_players` looks them up."""

    def __init__(self):
        self.everyone = list(Player.objects.only("pk", "short_name", "name"))
        self.by_short = {name_key(p.short_name): p for p in self.everyone}
        self.by_full: dict[str, list[Player]] = {}
        for player in self.everyone:
            self.by_full.setdefault(name_key(player.name), []).append(player)
        by_pk = {p.pk: p for p in self.everyone}
        self.by_former: dict[str, list[Player]] = {}
        self.former: dict[int, list[str]] = {}
        for pk, name, key in FormerName.objects.values_list("player_id", "name", "name_key"):
            self.by_former.setdefault(key, []).append(by_pk[pk])
            self.former.setdefault(pk, []).append(name)
        self.word_keys = [  # each player's names as words, for a name that only begins one
            (player, name.split())
            for player in self.everyone
            for name in (name_key(player.short_name), name_key(player.name))
        ] + [(by_pk[pk], key.split()) for key, players in self.by_former.items() for pk in {p.pk for p in players}]

    def beginning(self, key: str) -> list[Player]:
        """The players one of whose names begins with the typed words ("farid" begins "farid aziz")."""
        words = key.split()
        found = {p.pk: p for p, name in self.word_keys if len(name) > len(words) and name[: len(words)] == words}
        return sorted(found.values(), key=lambda p: p.short_name)

    def closest(self, key: str) -> str | None:
        close = difflib.get_close_matches(key, list(self.by_short) + list(self.by_full), n=1, cutoff=0.6)
        if not close:
            return None
        return (self.by_short.get(close[0]) or self.by_full[close[0]][0]).short_name


def resolve_players(names: list[str]) -> Resolved:
    """Find each typed name among the players' short names, then their full names, then the names they
    went by before (case and Unicode forms aside): current names win. A name that may mean several
    players, or begins some player's name, is never taken for a new player. Two queries whatever the
    number of names: the players and their former names."""
    known = _Names()
    resolved = Resolved({}, {}, {}, former=known.former, short_keys=set(known.by_short))
    for name in names:
        key = name_key(name)
        current = [known.by_short[key]] if key in known.by_short else known.by_full.get(key, [])
        candidates = current or _distinct(known.by_former.get(key, []))
        if len(candidates) == 1:
            resolved.players[key] = candidates[0]
            others = [p for p in _distinct(known.by_former.get(key, [])) if p.pk != candidates[0].pk]
            if others:
                resolved.also[name] = others
        elif candidates or (candidates := known.beginning(key)):
            resolved.ambiguous[name] = candidates
        else:
            resolved.unknown[name] = known.closest(key)
    return resolved


def known_names() -> set[str]:
    """The keys of every player's short and full names, for a line of several names (one query)."""
    return {name_key(name) for pair in Player.objects.values_list("short_name", "name") for name in pair}


def _distinct(players: list[Player]) -> list[Player]:
    return list({p.pk: p for p in players}.values())


def described(player: Player, former: dict[int, list[str]]) -> str:
    """A player as a list of candidates names them: "Farid A (Farid Aziz, formerly Farid Q)"."""
    details = [player.name] if name_key(player.name) != name_key(player.short_name) else []
    if former.get(player.pk):
        details.append("formerly " + ", ".join(former[player.pk]))
    return f"{player.short_name} ({', '.join(details)})" if details else player.short_name


def ambiguity(name: str, players: list[Player], former: dict[int, list[str]]) -> str:
    """Why a typed name is not taken for anyone: it may mean each of `players` (never a new player)."""
    listed = "; ".join(described(p, former) for p in players)
    if len(players) == 1:
        return f"{name} is not a player's name. Did you mean {listed}? Type their short name."
    return f"{name} may be any of {len(players)} players: {listed}. Type the short name of the one who played."
