"""How much one hand, one match and one reason may hold: every edge (the hand form, the JSON
API, a club file) refuses beyond these, so no request can hold a worker for long (issue 11).
"""

from __future__ import annotations

from scorekeeper.rules.formats import MOST_CARDS

#: No format seats more than 6 teams or players.
MAX_TEAMS = 6
#: Every preset's meld has 3 cards or more, so the largest table's 162 cards make 54 melds.
MAX_MELDS = MOST_CARDS // 3
#: A team's name, as the database stores it.
MAX_NAME = 80
#: One meld or hand as text: 162 cards written "10H, " fit in 810 characters.
MAX_CARD_TEXT = 1000
#: 162 cards at the dearest card a house rule allows (1,000).
MAX_HAND_POINTS = 200_000
MAX_FAILED_OPENINGS = 100
#: A typed opening minimum, as the meld checker's form bounds it.
MAX_OPENING = 10_000
#: No real match comes near this; anything beyond is a typing slip, not a score.
MAX_POINTS = 10_000_000
#: A reason is a sentence or two; every viewer's scoreboard and history carries it.
MAX_REASON = 1000
#: The most live hands one match holds, saved at the table or imported (issue 11). A hand
#: takes ten minutes or more to deal, play and count, so 500 hands are three and a half days
#: of play without sleep, far beyond any real match (a game to 5,000 takes 10 to 30 hands);
#: it bounds what a correction of an early hand rescores.
MAX_HANDS = 500
