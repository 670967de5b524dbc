"""The mixed league (tests/conftest.py): the same members play official and unofficial games and
solitaire, play in sides and keep score sheets. Every public page a member can reach answers 200 on it, downloads
included."""

import re
from collections import Counter
from urllib.parse import parse_qs, urlencode, urlsplit

from django.urls import resolve, reverse

from league.models import Game, Matchday, Player, Result
from ratings.models import AttemptRating, Standing
from tests.conftest import MIXED_MEMBERS, section, table_rows
from tests.score_play import SCORE_MATCHDAYS
from tests.team_play import TEAM_MATCHDAYS

# Pages reached by following links, at most this many of one kind (every player and game is also
# visited directly below): the crawl stays a few seconds while still reaching every kind of page.
PER_KIND = 6
NEVER = ("/admin/", "/card-games/enter/", "/static/")


def links(html: str, path: str) -> list[str]:
    """The site's own links on a page (a link to "?..." is to the page itself)."""
    found = (href.replace("&amp;", "&") for href in re.findall(r'href="([/?][^"#]*)', html))
    return [path + href if href.startswith("?") else href for href in found if not href.startswith(NEVER)]


def kind_of(url: str) -> str:
    """A page's URL name; a download's also names its table and format (each is visited once)."""
    parts = urlsplit(url)
    kind = resolve(parts.path).view_name
    query = parse_qs(parts.query)
    if "export" in query:
        return f"{kind}?export={query['export'][0]}&table={query.get('table', [''])[0]}"
    return kind


def crawl(client, start_urls):
    """Every URL reached from `start_urls`, each answered: up to PER_KIND pages of each URL name,
    and each download of each kind of page once."""
    seen, kinds, answers = set(), Counter(), {}
    queue = list(start_urls)
    while queue:
        url = queue.pop(0)
        if url in seen:
            continue
        seen.add(url)
        kind = kind_of(url)
        limit = 1 if "?export=" in kind else PER_KIND
        if kinds[kind] >= limit and url not in start_urls:
            continue
        kinds[kind] += 1
        response = client.get(url)
        answers[url] = response.status_code
        if response.status_code == 200 and response["Content-Type"].startswith("text/html"):
            queue.extend(links(response.content.decode(), urlsplit(url).path))
    return answers, kinds


def odds_urls() -> list[str]:
    members = MIXED_MEMBERS[:12]
    tables = "\n".join(", ".join(members[i : i + 4]) for i in range(0, 12, 4))
    pairs = f"{members[0]} + {members[1]}, {members[2]} + {members[3]}"
    odds = reverse("ratings:odds")
    urls = [f"{odds}?{urlencode({'game': g.slug, 'tables': tables})}" for g in Game.objects.filter(against_deals=False)]
    urls += [f"{odds}?{urlencode({'game': slug, 'tables': pairs})}" for slug in ("codenames", "spades")]
    return [*urls, f"{odds}?{urlencode({'game': 'hearts', 'tables': tables, 'size': 3})}"]


def test_the_members_of_the_mixed_league_play_matchdays_and_solitaire(mixed_league):
    solitaire = Game.objects.get(name="Solitaire")
    both = Standing.objects.filter(table__game=solitaire, player__short_name__in=["GL", "K", "Ada N."])
    assert both.count() >= 2
    assert Game.objects.filter(official=False).exists() and Game.objects.filter(official=True).count() >= 2
    assert set(Player.objects.values_list("short_name", flat=True)) == set(MIXED_MEMBERS)


def test_every_public_page_answers_on_the_mixed_league(client, mixed_league):
    sided = Matchday.objects.filter(results__side__gt="").distinct()
    assert sided.count() == TEAM_MATCHDAYS + 1  # and a Rummy night in pairs
    scored = Matchday.objects.filter(results__score__isnull=False).distinct()
    assert scored.count() == SCORE_MATCHDAYS and Game.objects.exclude(scoring="placings").count() == 2
    start = [
        reverse("league:home"),
        reverse("league:standings"),
        reverse("league:players"),
        reverse("ratings:calculator"),
        reverse("ratings:attempts_calculator"),
        reverse("ratings:methods"),
        reverse("ratings:compare"),
        reverse("ratings:odds"),
        # tonight's odds of each kind of game: official, unofficial, in sides (TrueSkill's and openskill's
        # teams), and balanced tables
        *odds_urls(),
        *(reverse("league:player", args=[pk]) for pk in Player.objects.values_list("pk", flat=True)),
        *(reverse("league:game", args=[slug]) for slug in Game.objects.values_list("slug", flat=True)),
        # every matchday played in sides, which a crawl of a few pages per kind may not reach
        *(reverse("league:matchday", args=[number]) for number in sided.values_list("number", flat=True)),
        *(reverse("league:matchday", args=[number]) for number in scored.values_list("number", flat=True)),
        # the nights of those matchdays: official and unofficial games, sides and score sheets together
        *(reverse("league:night", args=[day.isoformat()]) for day in {m.date for m in [*sided, *scored]}),
    ]
    answers, kinds = crawl(client, start)
    failed = {url: status for url, status in answers.items() if status != 200}
    assert not failed
    reached = {kind.split("&")[0] for kind in kinds}
    kinds_wanted = (
        "league:matchday",
        "league:deal",
        "league:page",
        "league:night",
        "league:night?export=csv",
        "league:home?export=csv",
        "league:player?export=json",
    )
    for kind in kinds_wanted:
        assert kind in reached, f"no {kind} page was reached"
    for table in ("points", "record-scores"):  # the score sheets' game page and its downloads
        assert f"league:game?export=csv&table={table}" in kinds


def test_a_member_who_plays_solitaire_too_has_every_rating_in_their_tooltip(client, mixed_league):
    html = client.get(reverse("league:home")).content.decode()
    tip = re.search(
        r'data-player="GL" aria-describedby="(tip\.[^"]+)">GL</a><span[^>]*id="\1">(.*?)</span>',
        html,
        re.S,
    )
    assert tip, "GL's name should carry a tooltip on the home page"
    lines = tip.group(2).split("\n")
    assert lines[:2] == ["GL", lines[1]] and lines[1].startswith("Overall ")
    solitaire = [line for line in lines if line.startswith("Solitaire ")]
    assert solitaire and re.fullmatch(r"Solitaire (\(unofficial\) )?\d+\.\d\d", solitaire[0]), solitaire
    gl = re.search(r'href="/card-games/players/(\d+)/" data-player="GL"', html).group(1)
    assert solitaire[0].split()[-1] in client.get(reverse("league:player", args=[gl])).content.decode()


def test_tonights_odds_answer_for_every_game_of_the_mixed_league(client, mixed_league):
    for url in odds_urls():
        html = client.get(url).content.decode()
        assert 'role="alert"' not in html, url
        assert html.count("<data value=") >= 4 or "rates players alone" in html, url
    balanced = client.get(odds_urls()[-1]).content.decode()
    assert "the best of all 15400 ways" in balanced


def test_no_provisional_member_is_ranked_above_a_settled_one(client, mixed_league):
    boards = [
        ("/card-games/standings/", "overall-heading"),
        ("/card-games/standings/", "pokemon-heading"),
        ("/card-games/games/pokemon/", "standings-heading"),
        ("/card-games/", "leaderboard-heading"),
    ]
    for url, heading in boards:
        ranks = [row[0] for row in table_rows(section(client.get(url).content.decode(), heading))[1:]]
        settled = [rank for rank in ranks if rank != "—"]
        assert ranks == settled + ["—"] * (len(ranks) - len(settled)), (url, heading)  # unranked last
        assert settled, (url, heading)
    html = client.get("/card-games/standings/").content.decode()
    assert "provisional</span>" in section(html, "pokemon-heading")
    assert re.search(r'<h2 id="pokemon-heading">Pokemon · Trading card games <span class="badge">unofficial', html)


def test_the_directory_counts_a_members_matchdays_and_solitaire_attempts_apart(client, mixed_league):
    rows = client.get("/card-games/players/", {"export": "json", "table": "players", "q": "GL"}).json()
    gl = next(row for row in rows if row["Player"] == "GL")
    assert gl["Matchdays"] == Result.objects.filter(player__short_name="GL").count()
    assert gl["Attempts"] == AttemptRating.objects.filter(player__short_name="GL").count() > 0


def test_a_member_who_plays_everything_has_one_list_and_a_record_per_table(client, mixed_league):
    """Their matchdays newest first in one list with a column per table; their wins, podiums and
    win % per game as their results have them: score sheets' placings from the points, and a side's
    win each partner's."""
    member = Player.objects.get(short_name=MIXED_MEMBERS[0])
    html = client.get(reverse("league:player", args=[member.pk])).content.decode()
    header, *rows = table_rows(section(html, "matchdays-heading"))
    mine = Standing.objects.filter(player=member).select_related("table")
    assert set(header[5:-2]) == {s.table.name for s in mine if not s.table.against_deals}
    assert header[:5] == ["Date", "Matchday", "Game", "Placing", "Points"] and header[-2:] == ["Side", "Weight"]
    rummy = [dict(zip(header, row, strict=True)) for row in rows if row[2] == "Rummy"]  # the newest nights
    assert rummy and all(
        row["Points"] == str(Result.objects.get(player=member, matchday__number=row["Matchday"]).score) for row in rummy
    )
    days = {m.number: m for m in Matchday.objects.filter(number__in=[int(row[1]) for row in rows])}
    order = [(days[int(row[1])].date, int(row[1])) for row in rows]
    assert order == sorted(order, reverse=True) and len(order) == len(set(order))
    cards = {
        re.search(r'card-title">([^<]+)', card).group(1).strip(): card
        for card in re.findall(r'<li class="card">(.*?)</li>', html, flags=re.S)
    }
    for game in ("Rummy", "Spades", "Codenames"):
        results = Result.objects.filter(player=member, matchday__game__name=game)
        wins, podiums = results.filter(placing=1).count(), results.filter(placing__lte=3).count()
        assert f"<dt>Wins</dt><dd>{wins}</dd>" in cards[game]
        assert f'<dd title="Finished in the first three">{podiums}</dd>' in cards[game]
        assert f"<dd>{wins / results.count():.0%}</dd>" in cards[game]
    won = Result.objects.filter(player=member, placing=1, side__gt="").select_related("matchday__game").first()
    partner = Result.objects.filter(matchday=won.matchday, side=won.side).exclude(player=member).first().player
    assert Result.objects.get(matchday=won.matchday, player=partner).placing == 1  # the side's placing
    partner_html = client.get(reverse("league:player", args=[partner.pk])).content.decode()
    game = won.matchday.game
    partner_wins = Result.objects.filter(player=partner, matchday__game=game, placing=1).count()
    card = next(c for c in re.findall(r'<li class="card">(.*?)</li>', partner_html, flags=re.S) if f">{game.name}" in c)
    assert partner_wins >= 1 and f"<dt>Wins</dt><dd>{partner_wins}</dd>" in card


def test_a_solitaire_card_has_the_record_of_attempts_won(client, mixed_league):
    """Solitaire's card follows the matchday cards: attempts won, win %, peak (two decimals, as its
    ratings), the change over the last 30 days; no podiums, an attempt being won or lost."""
    member = Player.objects.get(short_name=MIXED_MEMBERS[0])
    rated = AttemptRating.objects.filter(player=member, table__game__slug="solitaire")
    assert rated.exists()
    html = client.get(reverse("league:player", args=[member.pk])).content.decode()
    card = next(c for c in re.findall(r'<li class="card">(.*?)</li>', html, flags=re.S) if ">Solitaire" in c)
    wins = rated.filter(won=True).count()
    assert f"<dt>Wins</dt><dd>{wins}</dd>" in card
    assert f"<dd>{wins / rated.count():.0%}</dd>" in card
    peak = max(rated.values_list("player_after", flat=True))
    assert f">{peak:.2f}</dd>" in card and "Podiums" not in card
    assert "The changes at the attempts since" in card
