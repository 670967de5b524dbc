"""Names compared by their key, and the ranges of a matchday's numbers, first checked against the
data already stored: a database holding players (or games) whose names now compare equal, or numbers
the constraints of 0007 refuse, stops here with a list of them and what to do, and nothing changes."""

from django.core.management.base import CommandError
from django.db import migrations, models
from django.db.models import Q

from league.validation import name_key

# The ranges as this migration's constraints (0007) write them.
RANGES = {
    "matchday": {"number": (1, 1_000_000_000), "rounds": (1, 100), "winner_score": (0, 1_000)},
    "result": {
        "placing": (1, 500),
        "rated_placing": (1, 500),
        "won_by_16": (0, 100),
        "won_by_24": (0, 100),
        "won_by_4_and_last": (0, 100),
        "bad_moves": (0, 100),
    },
}
SHOWN = 20  # problems listed of each kind


def _same_keys(rows, what):
    by_key = {}
    for pk, name in rows:
        by_key.setdefault(name_key(name), []).append((pk, name))
    lines = []
    for key, named in by_key.items():
        shown = " and ".join(f"{name!r} (id {pk})" for pk, name in named)
        if not key:
            lines.append(f"{what} {shown}: empty once spaces and invisible characters are left out")
        elif len(named) > 1:
            lines.append(f"{what}s {shown} are one {what} now")
    return lines


def _outside(queryset, ranges, describe):
    outside = Q()
    for field, (lowest, highest) in ranges.items():
        outside |= Q(**{f"{field}__lt": lowest}) | Q(**{f"{field}__gt": highest})
    lines = []
    for row in queryset.filter(outside)[:SHOWN]:
        for field, (lowest, highest) in ranges.items():
            value = getattr(row, field)
            if value is not None and not lowest <= value <= highest:
                lines.append(f"{describe(row)}: {field.replace('_', ' ')} {value} (must be {lowest}-{highest:,})")
    return lines


def refuse_what_the_new_rules_refuse(apps, schema_editor):
    Player, Game = apps.get_model("league", "Player"), apps.get_model("league", "Game")
    Matchday, Result = apps.get_model("league", "Matchday"), apps.get_model("league", "Result")
    problems = _same_keys(Player.objects.values_list("pk", "short_name"), "player")
    problems += _same_keys(Game.objects.values_list("pk", "name"), "game")
    problems += _outside(Matchday.objects.order_by("number"), RANGES["matchday"], lambda m: f"matchday {m.number}")
    problems += _outside(
        Result.objects.select_related("matchday", "player").order_by("matchday__number", "pk"),
        RANGES["result"],
        lambda r: f"matchday {r.matchday.number}, player {r.player.short_name}",
    )
    if problems:
        listed = "\n".join(f"- {line}" for line in problems[:SHOWN])
        more = f"\n... and {len(problems) - SHOWN} more" if len(problems) > SHOWN else ""
        raise CommandError(
            "This version of the site compares names ignoring case, width, accents' form and invisible "
            "characters, and keeps a matchday's numbers within ranges; the stored data breaks these "
            f"rules, so the upgrade stopped and nothing was changed:\n{listed}{more}\n"
            "What to do: with the previous version of the site, in the admin, rename one player (or "
            "game) of each pair, or move its results to the other and delete it; rename empty names; "
            "correct or delete those matchdays and results. Then run `manage.py migrate` again."
        )


def fill_keys(apps, schema_editor):
    Player, Game = apps.get_model("league", "Player"), apps.get_model("league", "Game")
    players = list(Player.objects.only("short_name"))
    for player in players:
        player.short_name_key = name_key(player.short_name)
    Player.objects.bulk_update(players, ["short_name_key"], batch_size=1000)
    games = list(Game.objects.only("name"))
    for game in games:
        game.name_key = name_key(game.name)
    Game.objects.bulk_update(games, ["name_key"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0005_matchday_game_order_index"),
    ]

    operations = [
        migrations.RunPython(refuse_what_the_new_rules_refuse, migrations.RunPython.noop),
        migrations.AddField(
            model_name="game",
            name="name_key",
            field=models.CharField(editable=False, max_length=400, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="short_name_key",
            field=models.CharField(editable=False, max_length=48, null=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
