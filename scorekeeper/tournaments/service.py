"""Tournament use cases (issue 20, tournaments.md): set one up, start and close its rounds,
and read where it stands and its ranking.

Built on the pure parts of the feature (`scales`, `movements`, `standings`) and on the
match's one front door: every table of a round is an ordinary match of the club, started by
`match.create_match` with the NS entry as its first team and EW as its second, its rules
the tournament's (a fixed number of deals is the variant's `deals` option, so the match
itself ends after them). A table's Match Points are its match's totals; its VP come from
the tournament's scale once the match is finished.

Refusals are `Refused` (400) or `Busy` (409): `problems` lists every sentence, `message`
joins them, and nothing is stored.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from scorekeeper import clubs
from scorekeeper import match as matches
from scorekeeper.errors import Conflict, Invalid, NotFound
from scorekeeper.extensions import db
from scorekeeper.locks import lock_row
from scorekeeper.models import (
    Club,
    Match,
    Player,
    Role,
    Tournament,
    TournamentBye,
    TournamentEntry,
    TournamentEntryPlayer,
    TournamentPenalty,
    TournamentRound,
    TournamentTable,
    User,
    utcnow,
)
from scorekeeper.numbers import is_row_id
from scorekeeper.quote import show
from scorekeeper.rules.match import MatchState
from scorekeeper.rules.presets import find_variant
from scorekeeper.rules.variants import OptionError
from scorekeeper.tournaments import kept_results, movements, scales, table_links
from scorekeeper.tournaments import standings as ranking
from scorekeeper.tournaments.draws import Draw, Table
from scorekeeper.web.gettext import gettext as _
from scorekeeper.web.gettext import ngettext

#: How many players an entry has in each format: pairs at 4p tables, singles at 2p.
PLAYERS_PER_ENTRY = {"4p": 2, "2p": 1}
MAX_NAME = 80
MAX_REASON = 200
MIN_DEALS, MAX_DEALS = 1, 8
MIN_BYE_VP, MAX_BYE_VP = 0, 100
MIN_ROUND_MINUTES, MAX_ROUND_MINUTES = 1, 600
#: The bye's VP when the director names none (tournaments.md §1, assumed).
DEFAULT_BYE_VP = 12
#: The issue's spelling of pure Danish, taken as well as the movements' own.
MOVEMENT_ALIASES = {"danish-pure": movements.Movement.PURE_DANISH.value}
OPEN, CLOSED = "open", "closed"


class Refused(Invalid):
    """A request with problems (400): every one named, nothing stored."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = list(problems)

    def details(self) -> dict[str, object]:
        return {"problems": self.problems}


class Busy(Conflict):
    """A request the tournament's state refuses (409), with every reason named."""

    def __init__(self, problems: Sequence[str]) -> None:
        super().__init__(" ".join(problems))
        self.problems = list(problems)

    def details(self) -> dict[str, object]:
        return {"problems": self.problems}


@dataclasses.dataclass(frozen=True)
class EntrySpec:
    name: str
    players: tuple[int, ...]


@dataclasses.dataclass(frozen=True)
class Setup:
    """A tournament as the director asks for it, before it is checked."""

    name: object
    variant: object
    options: Mapping[str, Any]
    format: object
    movement: object
    rounds: object
    deals_per_round: object
    vp_scale: object
    bye_vp: object
    round_minutes: object
    counts_in_season: object
    entries: object


# --- setting up ---------------------------------------------------------------------------------


def create_tournament(club: Club, user: User | None, setup: Setup) -> Tournament:
    """Check every part of `setup` and store the tournament with its entries; a Refused
    naming every problem found otherwise, with nothing stored."""
    problems: list[str] = []
    name = _name(setup.name, problems)
    table_format = _format(setup.format, problems)
    movement = _movement(setup.movement, problems)
    rounds = _whole(setup.rounds, "rounds", 1, movements.MAX_ROUNDS, problems)
    deals = _whole(setup.deals_per_round, "deals_per_round", MIN_DEALS, MAX_DEALS, problems, True)
    bye_vp = _whole(setup.bye_vp, "bye_vp", MIN_BYE_VP, MAX_BYE_VP, problems)
    minutes = _whole(
        setup.round_minutes, "round_minutes", MIN_ROUND_MINUTES, MAX_ROUND_MINUTES, problems, True
    )
    if not isinstance(setup.counts_in_season, bool):
        problems.append(
            _(
                "'counts_in_season' must be true or false, not %(value)s.",
                value=show(setup.counts_in_season),
            )
        )
    scale = _scale(setup.vp_scale, problems)
    variant_id, options, house_rules = _rules(setup.variant, setup.options, deals, problems)
    entries = _entries(club, setup.entries, table_format, problems)
    if movement is not None and rounds is not None and entries is not None:
        problems += movements.check_setup(movement, len(entries), rounds)
    if problems:
        raise Refused(problems)
    assert name is not None and table_format is not None and movement is not None
    assert rounds is not None and bye_vp is not None and scale is not None
    assert entries is not None and variant_id is not None
    tournament = Tournament(
        club=club,
        name=name,
        variant_id=variant_id,
        options=options,
        house_rules=house_rules,
        format=table_format,
        movement=movement,
        rounds=rounds,
        deals_per_round=deals,
        vp_scale=scale.id,
        vp_rows=scales.scale_to_json(scale),
        bye_vp=bye_vp,
        round_minutes=minutes,
        counts_in_season=setup.counts_in_season,
        created_by_id=None if user is None else user.id,
    )
    for position, spec in enumerate(entries, start=1):
        entry = TournamentEntry(position=position, name=spec.name)
        for place, player_id in enumerate(spec.players):
            entry.players.append(TournamentEntryPlayer(position=place, player_id=player_id))
        tournament.entries.append(entry)
    db.session.add(tournament)
    db.session.commit()
    return tournament


def _name(value: object, problems: list[str]) -> str | None:
    if not isinstance(value, str) or not value.strip():
        problems.append(
            _("'name' must be the tournament's name, as text, not %(value)s.", value=show(value))
        )
        return None
    name = value.strip()
    if len(name) > MAX_NAME:
        problems.append(_("A tournament's name has at most %(most)d characters.", most=MAX_NAME))
        return None
    return name


def _format(value: object, problems: list[str]) -> str | None:
    if not isinstance(value, str) or value not in PLAYERS_PER_ENTRY:
        problems.append(
            _(
                '\'format\' must be "4p" (pairs) or "2p" (singles), not %(value)s.',
                value=show(value),
            )
        )
        return None
    return str(value)


def _movement(value: object, problems: list[str]) -> str | None:
    if isinstance(value, str):
        value = MOVEMENT_ALIASES.get(value, value)
    if isinstance(value, str) and value in {m.value for m in movements.Movement}:
        return value
    problems.append(
        _(
            "'movement' must be one of %(names)s, not %(value)s.",
            names=", ".join(m.value for m in movements.Movement),
            value=show(value),
        )
    )
    return None


def _whole(
    value: object,
    field: str,
    least: int,
    most: int,
    problems: list[str],
    optional: bool = False,
) -> int | None:
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        if optional:
            message = _(
                "'%(field)s' must be a whole number from %(least)d to %(most)d, or null, "
                "not %(value)s.",
                field=field,
                least=least,
                most=most,
                value=show(value),
            )
        else:
            message = _(
                "'%(field)s' must be a whole number from %(least)d to %(most)d, not %(value)s.",
                field=field,
                least=least,
                most=most,
                value=show(value),
            )
        problems.append(message)
        return None
    return value


def _scale(value: object, problems: list[str]) -> scales.VPScale | None:
    try:
        if isinstance(value, str):
            return scales.find_scale(value)
        if isinstance(value, list):
            return scales.parse_scale(value)
    except scales.ScaleError as error:
        problems.extend(error.messages)
        return None
    problems.append(
        _(
            "'vp_scale' must be one of %(scales)s, or a list of rows such as "
            '[{"up_to": 50, "winner": 10, "loser": 10}, {"up_to": null, "winner": 20, '
            '"loser": 0}], not %(value)s.',
            scales=", ".join(scales.SCALES),
            value=show(value),
        )
    )
    return None


def _rules(
    variant: object, options: Mapping[str, Any], deals: int | None, problems: list[str]
) -> tuple[str | None, dict[str, Any], dict[str, Any]]:
    """The preset's id, every option frozen, and the options the director changed (the
    deals per round among them, as the `deals` option)."""
    if not isinstance(variant, str):
        problems.append(
            _("'variant' must be text, such as \"pagat\", not %(value)s.", value=show(variant))
        )
        return None, {}, {}
    if "deals" in options:
        problems.append(_("Give a round's deals as 'deals_per_round', not as the option 'deals'."))
        return None, {}, {}
    rules = dict(options)
    if deals is not None:
        rules["deals"] = deals
    try:
        preset = find_variant(variant)
        chosen = preset.with_options(**rules)
    except (OptionError, ValueError) as error:
        problems.append(str(error))
        return None, {}, {}
    frozen = chosen.options()
    return preset.id, frozen, {name: frozen[name] for name in rules}


def _entries(
    club: Club, value: object, table_format: str | None, problems: list[str]
) -> list[EntrySpec] | None:
    """The entries as given, each checked; None when they cannot be counted."""
    if not isinstance(value, list):
        problems.append(
            _(
                "'entries' must list the entries, such as "
                '[{"name": "Ann & Bo", "players": [1, 2]}, …], not %(value)s.',
                value=show(value),
            )
        )
        return None
    if len(value) > movements.MAX_ENTRIES:
        # Refused before a player is looked up, so the work stays bounded.
        problems.append(
            _(
                "A tournament takes at most %(most)d entries; this one has %(count)d.",
                most=movements.MAX_ENTRIES,
                count=len(value),
            )
        )
        return None
    size = None if table_format is None else PLAYERS_PER_ENTRY[table_format]
    read: list[tuple[int, str | None, list[int]]] = []
    for number, item in enumerate(value, start=1):
        if not isinstance(item, dict) or set(item) - {"name", "players"}:
            problems.append(
                _(
                    "Entry %(number)d must be an object with 'name' and 'players'.",
                    number=number,
                )
            )
            continue
        name = item.get("name")
        if name is not None and not isinstance(name, str):
            problems.append(
                _(
                    "Entry %(number)d: 'name' must be text, not %(value)s.",
                    number=number,
                    value=show(name),
                )
            )
            continue
        if isinstance(name, str) and len(name.strip()) > MAX_NAME:
            problems.append(
                _(
                    "Entry %(number)d: a name has at most %(most)d characters.",
                    number=number,
                    most=MAX_NAME,
                )
            )
            continue
        players = item.get("players")
        if not isinstance(players, list) or not all(is_row_id(p) for p in players):
            problems.append(
                _(
                    "Entry %(number)d: 'players' must list player ids, not %(value)s.",
                    number=number,
                    value=show(players),
                )
            )
            continue
        if len(set(players)) != len(players):
            problems.append(_("Entry %(number)d names one player twice.", number=number))
            continue
        if size is not None and len(players) != size:
            problems.append(
                ngettext(
                    "Entry %(number)d has %(count)d players; a %(format)s tournament's entries "
                    "have %(num)d player.",
                    "Entry %(number)d has %(count)d players; a %(format)s tournament's entries "
                    "have %(num)d players.",
                    size,
                    number=number,
                    count=len(players),
                    format=table_format,
                )
            )
            continue
        read.append((number, (name or "").strip() or None, players))
    known = _club_players(club, {p for _, _, players in read for p in players})
    in_entry: dict[int, int] = {}
    specs: list[EntrySpec] = []
    named: dict[str, int] = {}
    for number, name, players in read:
        for player in players:
            if player not in known:
                problems.append(
                    _(
                        "Entry %(number)d: player %(player)d does not play in this club.",
                        number=number,
                        player=player,
                    )
                )
            elif player in in_entry:
                problems.append(
                    _(
                        "Entry %(number)d: %(player)s is already in entry %(other)d; a player "
                        "plays in one entry.",
                        number=number,
                        player=known[player],
                        other=in_entry[player],
                    )
                )
            else:
                in_entry[player] = number
        shown = name or " & ".join(known.get(p, str(p)) for p in players)[:MAX_NAME]
        if shown.casefold() in named:
            problems.append(
                _(
                    "Entries %(first)d and %(number)d are both called %(name)s; give each its "
                    "own name.",
                    first=named[shown.casefold()],
                    number=number,
                    name=show(shown),
                )
            )
        named.setdefault(shown.casefold(), number)
        specs.append(EntrySpec(shown, tuple(players)))
    return specs if len(specs) == len(value) else None


def _club_players(club: Club, ids: set[int]) -> dict[int, str]:
    """Of `ids`, the club's players, by id, with their names: one query."""
    if not ids:
        return {}
    rows = db.session.execute(
        sa.select(Player.id, Player.name).where(Player.club_id == club.id, Player.id.in_(ids))
    )
    return {player_id: name for player_id, name in rows}


# --- finding ------------------------------------------------------------------------------------


#: What `tournament_for` reads with the tournament's row, in a few queries each (not one a
#: table). TABLES: its entries, rounds' tables and byes, and penalties: what
#: `table_results` and the ranking read (they read the tables' matches as columns,
#: match.states_of). EVERYTHING: those and the tables' matches with their teams and seats,
#: for the pages that read a table's match (`table_result`, its links and seats). ROW: the
#: row alone, for a reader that may answer 304 before it reads more (`with_tables`).
TABLES: tuple[Any, ...] = (
    selectinload(Tournament.entries),
    selectinload(Tournament.penalties),
    selectinload(Tournament.round_rows).selectinload(TournamentRound.byes),
    selectinload(Tournament.round_rows).selectinload(TournamentRound.tables),
)
EVERYTHING: tuple[Any, ...] = (
    *TABLES,
    selectinload(Tournament.round_rows)
    .selectinload(TournamentRound.tables)
    .selectinload(TournamentTable.match)
    .options(selectinload(Match.teams), selectinload(Match.seats)),
)
ROW: tuple[Any, ...] = ()
#: ROUNDS: TABLES but the tables, for the big screen: it shows the open round's tables, which
#: it reads when it draws them, and the ranking, whose closed rounds' tables a worker keeps
#: (table_results).
ROUNDS: tuple[Any, ...] = (
    selectinload(Tournament.entries),
    selectinload(Tournament.penalties),
    selectinload(Tournament.round_rows).selectinload(TournamentRound.byes),
)


def tournament_for(
    user: User | None,
    tournament_id: object,
    needed: Role = Role.VIEWER,
    reads: Sequence[Any] = EVERYTHING,
) -> Tournament:
    """The tournament, if `user` is a member of its club (404 to anyone else, as for an id
    that names nothing) with the role `needed` (403 otherwise), with what `reads` names
    (EVERYTHING, TABLES or ROW) read at once."""
    found = None
    if is_row_id(tournament_id):
        found = db.session.scalars(
            sa.select(Tournament).where(Tournament.id == tournament_id).options(*reads)
        ).one_or_none()
    if found is None or clubs.role_in(user, found.club) is None or found.club.importing:
        raise NotFound(
            _(
                "There is no tournament %(number)s, or you are not a member of its club.",
                number=tournament_id,
            )
        )
    clubs.club_for(user, found.club_id, needed)  # 403 for a role too low
    return found


# --- rounds -------------------------------------------------------------------------------------


def start_round(tournament: Tournament, user: User | None) -> TournamentRound:
    """Draw the next round by the movement, start each table's match and record the bye:
    all of it or nothing. Busy while a round is open or after the last round."""
    lock_row(Tournament, tournament.id, Tournament.name)  # one director's start at a time
    rounds = list(tournament.round_rows)
    still_open = [r.number for r in rounds if r.status == OPEN]
    if still_open:
        raise Busy(
            [
                _(
                    "Round %(number)d is still open; close it before the next one starts.",
                    number=still_open[0],
                )
            ]
        )
    number = len(rounds) + 1
    if number > tournament.rounds:
        raise Busy(
            [
                ngettext(
                    "The tournament's %(num)d round has been played.",
                    "All %(num)d rounds of the tournament have been played.",
                    tournament.rounds,
                )
            ]
        )
    entries = [e for e in tournament.entries if not e.withdrawn]
    ids = [e.id for e in entries]
    history = [_draw_of(r) for r in rounds]
    order = None
    if number > 1 and tournament.movement in (
        movements.Movement.DANISH,
        movements.Movement.PURE_DANISH,
    ):
        order = [s.entry for s in standings_of(tournament) if s.entry in set(ids)]
    drawn = movements.draw(tournament.movement, ids, number, history, order)
    by_id = {e.id: e for e in entries}
    new = TournamentRound(number=number, status=OPEN)
    tournament.round_rows.append(new)
    for table in drawn.tables:
        ns, ew = by_id[table.ns], by_id[table.ew]
        started = matches.create_match(
            tournament.club,
            user,
            tournament.variant_id,
            tournament.format,
            [_team(ns), _team(ew)],
            house_rules=tournament.house_rules,
            commit=False,
        )
        seated = TournamentTable(
            number=table.table, ns_entry_id=ns.id, ew_entry_id=ew.id, match_id=started.id
        )
        table_links.add_links(seated)  # each side's scorer link, for the table card
        new.tables.append(seated)
    if drawn.bye is not None:
        new.byes.append(TournamentBye(entry_id=drawn.bye, vp=tournament.bye_vp))
    db.session.commit()
    return new


def _team(entry: TournamentEntry) -> matches.TeamSpec:
    return matches.TeamSpec(name=entry.name, player_ids=tuple(p.player_id for p in entry.players))


def _draw_of(played: TournamentRound) -> Draw:
    return Draw(
        tuple(Table(t.number, t.ns_entry_id, t.ew_entry_id) for t in played.tables),
        played.byes[0].entry_id if played.byes else None,
    )


def confirm_table(table: TournamentTable, by: str) -> TournamentTable:
    """Countersign a finished table's result: by "ns" or "ew" (the side that did not enter
    the last hand, through its own link) or by "director" (table_links.confirm_table)."""
    return table_links.confirm_table(table, by)


def round_of(tournament: Tournament, number: int) -> TournamentRound:
    found = next((r for r in tournament.round_rows if r.number == number), None)
    if found is None:
        raise NotFound(_("The tournament has no round %(number)d yet.", number=number))
    return found


def close_round(tournament: Tournament, number: int) -> TournamentRound:
    """Close round `number`; Busy naming every table not finished, or if it is closed."""
    lock_row(Tournament, tournament.id, Tournament.name)
    closing = round_of(tournament, number)
    if closing.status == CLOSED:
        raise Busy([_("Round %(number)d is already closed.", number=number)])
    scale = scale_of(tournament)
    late = [t for t in (table_result(t, scale) for t in closing.tables) if not t.finished]
    if late:
        raise Busy([_late(result) for result in late])
    closing.status = CLOSED
    closing.closed_at = utcnow()
    db.session.commit()
    return closing


def _late(result: TableState) -> str:
    if result.deals is not None:
        return ngettext(
            "Table %(table)d is not finished: %(played)d of its %(num)d deal is in.",
            "Table %(table)d is not finished: %(played)d of its %(num)d deals are in.",
            result.deals,
            table=result.table,
            played=result.hands,
        )
    return ngettext(
        "Table %(table)d is not finished: %(num)d hand is in, and nobody has reached the target.",
        "Table %(table)d is not finished: %(num)d hands are in, and nobody has reached the target.",
        result.hands,
        table=result.table,
    )


# --- reading ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class TableState:
    """A table as it stands: its match's totals as MP, its VP once finished."""

    round: int
    table: int
    ns: int
    ew: int
    match: int | None
    hands: int
    deals: int | None
    finished: bool
    confirmed: bool
    ns_mp: int
    ew_mp: int
    ns_vp: int | None
    ew_vp: int | None

    @property
    def status(self) -> str:
        """waiting (no hand yet), playing, finished or confirmed."""
        if self.finished:
            return "confirmed" if self.confirmed else "finished"
        return "playing" if self.hands else "waiting"


def scale_of(tournament: Tournament) -> scales.VPScale:
    """The tournament's scale as it was frozen when it was set up (a preset's steps kept)."""
    if tournament.vp_scale in scales.SCALES:
        preset = scales.SCALES[tournament.vp_scale]
        rows = scales.parse_scale(tournament.vp_rows).rows
        return dataclasses.replace(preset, rows=rows)
    return scales.parse_scale(tournament.vp_rows)


def table_result(table: TournamentTable, scale: scales.VPScale | None = None) -> TableState:
    """Where `table` stands; `scale` is its tournament's (`scale_of`), read once by a
    caller that reads many tables (`table_results` reads a whole tournament's at once)."""
    match: Match | None = table.match
    state = None
    if match is not None:
        # The match's stored progress, as the rules engine reads it: not its full view, whose
        # players' names and lines cost milliseconds a table and showed none of them here.
        state = matches.progress_of(match).state(matches.setup_of(match))
    return _table_state(table, state, scale or scale_of(table.round.tournament))


def table_results(tournament: Tournament) -> dict[int, TableState]:
    """Where every table of every round stands, by the table's id: its matches read
    together (match.states_of: three queries for the whole tournament), so a ranking or a
    screen of every table costs no query, nor a match's full view, a table. The closed
    rounds' results are kept by each worker (tournaments.kept_results): after a hand only
    the open round's tables are read again, and a closed round's tables not at all."""
    scale = scale_of(tournament)
    closed = [r for r in tournament.round_rows if r.status == CLOSED]
    key = None
    kept: Mapping[int, TableState] | None = None
    if closed:
        ids = [r.id for r in closed]
        # Its time of making too: another database (a test's, a restored copy) may hold a
        # tournament of the same id, rounds and sums.
        made = str(tournament.created_at)
        key = (tournament.id, made, tuple(ids), repr(scale), kept_results.mark(ids))
        kept = kept_results.kept(key)
    reading = [r for r in tournament.round_rows if kept is None or r.status != CLOSED]
    tables = [t for r in reading for t in r.tables]
    states = matches.states_of([t.match_id for t in tables if t.match_id is not None])
    results = {
        t.id: _table_state(t, None if t.match_id is None else states.get(t.match_id), scale)
        for t in tables
    }
    if key is not None and kept is None:
        kept = {t.id: results[t.id] for r in closed for t in r.tables}
        kept_results.keep(key, kept)
    return {**(kept or {}), **results}


def _table_state(
    table: TournamentTable, state: MatchState | None, scale: scales.VPScale
) -> TableState:
    ns_mp = ew_mp = hands = 0
    finished = False
    if state is not None:
        # NS is the match's first team, EW its second (start_round): the standings' order.
        ns, ew = state.standings[0], state.standings[1]
        ns_mp, ew_mp = _mp(ns.total), _mp(ew.total)
        hands, finished = state.hands_played, state.finished
    ns_vp = ew_vp = None
    if finished:
        ns_vp, ew_vp = scales.vp(scale, ns_mp, ew_mp)
    return TableState(
        round=table.round.number,
        table=table.number,
        ns=table.ns_entry_id,
        ew=table.ew_entry_id,
        match=table.match_id,
        hands=hands,
        deals=table.round.tournament.deals_per_round,
        finished=finished,
        confirmed=table.confirmed,
        ns_mp=ns_mp,
        ew_mp=ew_mp,
        ns_vp=ns_vp,
        ew_vp=ew_vp,
    )


def _mp(total: Fraction) -> int:
    # A team's total is a whole number (4p and 2p credit teams, never shares).
    return int(total)


def standings_of(
    tournament: Tournament, results: Mapping[int, TableState] | None = None
) -> list[ranking.Standing]:
    """The ranking from every finished table, the byes and the penalties (§5); `results`
    is `table_results(tournament)` when the caller read them already."""
    tables = []
    byes = []
    results = table_results(tournament) if results is None else results
    # From the results alone, round by round and table by table: the closed rounds' tables
    # need not be read (kept_results).
    for result in sorted(results.values(), key=lambda r: (r.round, r.table)):
        if result.finished:
            assert result.ns_vp is not None and result.ew_vp is not None
            tables.append(
                ranking.TableResult(
                    result.round,
                    result.ns,
                    result.ew,
                    result.ns_mp,
                    result.ew_mp,
                    result.ns_vp,
                    result.ew_vp,
                )
            )
    for played in tournament.round_rows:
        byes += [ranking.Bye(played.number, b.entry_id, b.vp) for b in played.byes]
    penalties = [
        ranking.Penalty(p.entry_id, p.round_number, p.mp, p.vp, p.reason)
        for p in tournament.penalties
    ]
    return ranking.standings([e.id for e in tournament.entries], tables, byes, penalties)


def revision_of(tournament_id: int, live: str | None = None) -> str:
    """The ETag of the API's reads of a tournament (its state, its ranking): what its live
    pages' revision follows (its rounds, each table's hands and countersignature, …: `live`
    when the caller read it, table_links.revision) and every column of its setup, entries,
    rounds, byes and penalties. A few small queries, where an answer reads every table's
    match and ranks every entry."""
    rows: list[object] = [live or table_links.revision(tournament_id)]
    round_ids = sa.select(TournamentRound.id).where(TournamentRound.tournament_id == tournament_id)
    entry_ids = sa.select(TournamentEntry.id).where(TournamentEntry.tournament_id == tournament_id)
    for model, where in (
        (Tournament, Tournament.id == tournament_id),
        (TournamentEntry, TournamentEntry.tournament_id == tournament_id),
        (TournamentEntryPlayer, TournamentEntryPlayer.entry_id.in_(entry_ids)),
        (TournamentRound, TournamentRound.tournament_id == tournament_id),
        (TournamentBye, TournamentBye.round_id.in_(round_ids)),
        (TournamentPenalty, TournamentPenalty.tournament_id == tournament_id),
    ):
        columns = model.__table__.columns
        rows.append(
            [
                tuple(row)
                for row in db.session.execute(sa.select(*columns).where(where).order_by(model.id))
            ]
        )
    return f"a{tournament_id}-{hashlib.sha256(repr(rows).encode()).hexdigest()[:20]}"


def with_tables(tournament: Tournament, reads: Sequence[Any] = TABLES) -> Tournament:
    """`tournament` (read as its ROW) with what `reads` names (TABLES or ROUNDS) read now,
    at once."""
    return db.session.scalars(
        sa.select(Tournament)
        .where(Tournament.id == tournament.id)
        .options(*reads)
        .execution_options(populate_existing=True)
    ).one()


def rounds_played(tournament: Tournament) -> int:
    """How many of the tournament's rounds are closed."""
    return sum(1 for r in tournament.round_rows if r.status == CLOSED)


def standing_json(standing: ranking.Standing, names: dict[int, str]) -> dict[str, Any]:
    """One line of the ranking as the API answers it (the ranking's export adds to it)."""
    return {
        "rank": standing.rank,
        "entry": standing.entry,
        "name": names[standing.entry],
        "vp": standing.vp,
        "mp_for": standing.mp_for,
        "mp_against": standing.mp_against,
        "played": standing.played,
        "byes": standing.byes,
        "penalty_vp": standing.penalty_vp,
        "penalty_mp": standing.penalty_mp,
    }


def penalty_json(penalty: TournamentPenalty) -> dict[str, Any]:
    return {
        "entry": penalty.entry_id,
        "round": penalty.round_number,
        "mp": penalty.mp,
        "vp": penalty.vp,
        "reason": penalty.reason,
    }
