# Greek letters that look like Latin ones are the point of this file.
# ruff: noqa: RUF001
"""The Greek catalog of the engine's messages: {English template: Greek template}.

`scorekeeper.rules.i18n` registers it as ``CATALOGS["el"]``. The words are those of a Greek
table: μπιρίμπα and μπιριμπάκι, καθαρή and βρόμικη, κόζι for the bonus suit, μπαλαντέρ for a
wild card, σειρά for a run, αρσενική for a set, κλείνω for going out, μοιρασιά for a hand
and παρτίδα for the match. Card codes and symbols (3♥, JK, A-2-3) and option names stay as
they are; a token the player typed is quoted «so», unchanged.

The other presets' own words are transliterated: beriba → μπερίμπα, buraco and burraco →
μπουράκο, pozzetto → ποτσέτο; German "beribeika", itself from μπιριμπάκια, becomes
μπεριμπάκι, and the US "pot" is the πακέτο, as Greek players also call the biribaki.
Μπουράκο is neuter where μπιρίμπα is feminine, so the templates whose adjectives agree with
the word ("καθαρή μπιρίμπα", "καθαρό μπουράκο") have a neuter form, keyed by context.

This module imports nothing from the engine, so `i18n` can import it without a cycle.
"""

from __future__ import annotations

from collections.abc import Mapping

#: gettext's context separator, as `scorekeeper.rules.i18n.CONTEXT`.
_CONTEXT = "\x04"

#: A variant's own words (`Variant.biriba_word`, `Variant.biribaki_word`).
_TERMS = {
    "biriba": "μπιρίμπα",
    "beriba": "μπερίμπα",
    "buraco": "μπουράκο",
    "burraco": "μπουράκο",
    "biribaki": "μπιριμπάκι",
    "beribeika": "μπεριμπάκι",
    "pot": "πακέτο",
    "pozzetto": "ποτσέτο",
}

#: Words whose Greek is not feminine, the gender the plain templates are written for.
#: (Every biribaki word is neuter, and no template has an adjective agreeing with one.)
_GENDERS = {
    "buraco": "n",
    "burraco": "n",
}

_MESSAGES = {
    # --- cards ------------------------------------------------------------------------------
    "joker": "τζόκερ",
    "a joker has no suit and every other card has one": (
        "το τζόκερ δεν έχει χρώμα, ενώ κάθε άλλο φύλλο έχει"
    ),
    "an empty string is not a card": "ένα κενό κείμενο δεν είναι φύλλο",
    "'{token}' is not a card: it needs a suit, suits are S H D C (or ♠ ♥ ♦ ♣)": (
        "«{token}» δεν είναι φύλλο: του λείπει το χρώμα, που γράφεται S H D C (ή ♠ ♥ ♦ ♣)"
    ),
    "'{token}' is not a card: suits are S H D C (or ♠ ♥ ♦ ♣)": (
        "«{token}» δεν είναι φύλλο: τα χρώματα γράφονται S H D C (ή ♠ ♥ ♦ ♣)"
    ),
    "'{token}' is not a card: ranks are A 2–10 J Q K (T for 10), or JK for a joker": (
        "«{token}» δεν είναι φύλλο: οι αξίες γράφονται A 2–10 J Q K (T για το 10) "
        "ή JK για το τζόκερ"
    ),
    "'{token}' is not a run: a range runs between two cards of one suit": (
        "«{token}» δεν είναι σειρά: ένα διάστημα πάει από ένα φύλλο σε ένα άλλο του ίδιου χρώματος"
    ),
    "'{token}' is not a run: both ends of a range need the same suit": (
        "«{token}» δεν είναι σειρά: οι δύο άκρες ενός διαστήματος θέλουν το ίδιο χρώμα"
    ),
    "'{token}' is not a run: a range goes from one card up to a higher one": (
        "«{token}» δεν είναι σειρά: ένα διάστημα πάει από ένα φύλλο σε ένα μεγαλύτερο"
    ),
    "'{token}' is not a run: a range goes up from its first card to its last, "
    "and a run never wraps past the ace": (
        "«{token}» δεν είναι σειρά: ένα διάστημα ανεβαίνει από το πρώτο του φύλλο "
        "στο τελευταίο, και μια σειρά δεν συνεχίζει ποτέ πέρα από τον άσο"
    ),
    "'{token}' is not a card or a range: write a run as 3H-9H": (
        "«{token}» δεν είναι ούτε φύλλο ούτε διάστημα: γράψτε μια σειρά ως 3H-9H"
    ),
    # --- opening requirements ---------------------------------------------------------------
    "no minimum": "χωρίς ελάχιστο",
    "at least {points}": "τουλάχιστον {points}",
    "more than {points}": "πάνω από {points}",
    # --- points -----------------------------------------------------------------------------
    "{text!r} is not a number of points": "«{text}» δεν είναι αριθμός πόντων",
    # --- table formats ----------------------------------------------------------------------
    "two decks": "δύο τράπουλες",
    "three decks": "τρεις τράπουλες",
    "{decks} decks": "{decks} τράπουλες",
    "4 players, 2 teams of 2": "4 παίκτες, 2 ομάδες των 2",
    "2 players": "2 παίκτες",
    "3 players, each alone": "3 παίκτες, ο καθένας μόνος του",
    "3 players, one alone against a pair": "3 παίκτες, ένας μόνος του εναντίον ζευγαριού",
    "5 players, one alone against two pairs": ("5 παίκτες, ένας μόνος του εναντίον δύο ζευγαριών"),
    "6 players, 3 teams of 2": "6 παίκτες, 3 ομάδες των 2",
    "3 or 4 players, one alone against all the others": (
        "3 ή 4 παίκτες, ένας μόνος του εναντίον όλων των άλλων"
    ),
    "'{format}' is not a table format: use one of {known}": (
        "«{format}» δεν είναι διάταξη τραπεζιού: διαλέξτε μία από τις {known}"
    ),
    # --- presets ----------------------------------------------------------------------------
    "Greek Biriba (pagat.com)": "Ελληνική Μπιρίμπα (pagat.com)",
    "Greek Biriba, Kouridakis' version": "Ελληνική Μπιρίμπα, η εκδοχή του Κουριδάκη",
    "Greek Biriba (Wikipedia)": "Ελληνική Μπιρίμπα (Wikipedia)",
    "Biriba (CatsAtCards)": "Μπιρίμπα (CatsAtCards)",
    "Venezuelan Biriba": "Μπιρίμπα της Βενεζουέλας",
    "German Beriba (house rules, 2003)": "Γερμανική Μπερίμπα (κανόνες παρέας, 2003)",
    # Two games that Greek would both spell Μπουράκο keep their own names.
    "Buraco (US rules)": "Buraco (κανόνες ΗΠΑ)",
    "Burraco (Italian federation)": "Burraco (Ιταλική Ομοσπονδία)",
    "'{variant}' is not a variant: use one of {known}": (
        "«{variant}» δεν είναι παραλλαγή: διαλέξτε μία από τις {known}"
    ),
    # --- house-rule options -----------------------------------------------------------------
    "'{name}' is not an option of variant {variant}": (
        "«{name}» δεν είναι επιλογή της παραλλαγής {variant}"
    ),
    "Option '{name}' needs a value, not null": "Η επιλογή «{name}» θέλει τιμή, όχι null",
    "Option '{name}' cannot be {value}: use one of {allowed}": (
        "Η επιλογή «{name}» δεν μπορεί να είναι {value}: διαλέξτε μία από τις τιμές {allowed}"
    ),
    "Option '{name}' must be true or false, not {value}": (
        "Η επιλογή «{name}» πρέπει να είναι true ή false, όχι {value}"
    ),
    "Option '{name}' must be a whole number, not {value}": (
        "Η επιλογή «{name}» πρέπει να είναι ακέραιος αριθμός, όχι {value}"
    ),
    "Option '{name}' must be text, not {value}": (
        "Η επιλογή «{name}» πρέπει να είναι κείμενο, όχι {value}"
    ),
    "Option '{name}' cannot be set": "Η επιλογή «{name}» δεν αλλάζει",
    "Option 'set_ranks' must be a list of ranks, not {value}": (
        "Η επιλογή «set_ranks» πρέπει να είναι λίστα από αξίες, όχι {value}"
    ),
    "Option 'set_ranks' cannot hold {value}: ranks are A 3–10 J Q K": (
        "Η επιλογή «set_ranks» δεν μπορεί να περιέχει {value}: οι αξίες είναι A 3–10 J Q K"
    ),
    "Option 'set_ranks' cannot hold 2 or JK: a set of wild cards is no set": (
        "Η επιλογή «set_ranks» δεν μπορεί να περιέχει 2 ή JK: αρσενική από μπαλαντέρ "
        "δεν είναι αρσενική"
    ),
    "Option 'min_size' must be at least 2, not {value}": (
        "Η επιλογή «min_size» πρέπει να είναι τουλάχιστον 2, όχι {value}"
    ),
    "Option 'max_size' ({max_size}) cannot be below 'min_size' ({min_size})": (
        "Η επιλογή «max_size» ({max_size}) δεν μπορεί να είναι μικρότερη από την "
        "«min_size» ({min_size})"
    ),
    "Option 'max_wilds' cannot be negative ({value})": (
        "Η επιλογή «max_wilds» δεν μπορεί να είναι αρνητική ({value})"
    ),
    "Option 'biriba_size' must be at least 1, not {value}": (
        "Η επιλογή «biriba_size» πρέπει να είναι τουλάχιστον 1, όχι {value}"
    ),
    "Option 'target' must be above 0, not {value}": (
        "Η επιλογή «target» πρέπει να είναι πάνω από 0, όχι {value}"
    ),
    "Option 'opening_table' cannot be {value}: use one of {tables}, or null": (
        "Η επιλογή «opening_table» δεν μπορεί να είναι {value}: διαλέξτε έναν από τους "
        "πίνακες {tables} ή null"
    ),
    "Option '{name}' must be a whole number from 0 to {most}, not {value}": (
        "Η επιλογή «{name}» πρέπει να είναι ακέραιος από 0 έως {most}, όχι {value}"
    ),
    "Option '{name}' cannot be negative ({value})": (
        "Η επιλογή «{name}» δεν μπορεί να είναι αρνητική ({value})"
    ),
    "'options' must be an object of option names and values, not {value}": (
        "Το «options» πρέπει να είναι αντικείμενο με ονόματα επιλογών και τιμές, όχι {value}"
    ),
    # --- match ------------------------------------------------------------------------------
    "The {format} format needs its teams named.": (
        "Η διάταξη {format} θέλει τα ονόματα των ομάδων."
    ),
    "Hand {number}: '{team}' is not a team of this match.": (
        "Μοιρασιά {number}: «{team}» δεν είναι ομάδα αυτής της παρτίδας."
    ),
    "Hand {number}: a side has no players.": "Μοιρασιά {number}: μια ομάδα δεν έχει παίκτες.",
    "Hand {number}: '{player}' is not a player of this match.": (
        "Μοιρασιά {number}: «{player}» δεν είναι παίκτης αυτής της παρτίδας."
    ),
    # --- melds: bonus labels ----------------------------------------------------------------
    "Wild {biriba}": "{Biriba} από μπαλαντέρ",
    "Clean {biriba} (set)": "Καθαρή {biriba} (αρσενική)",
    "Semi-clean {biriba} (set)": "Μισοκάθαρη {biriba} (αρσενική)",
    "Dirty {biriba} (set)": "Βρόμικη {biriba} (αρσενική)",
    "Clean kózi full {biriba}": "Καθαρή πλήρης {biriba} κόζι",
    "Semi-clean kózi full {biriba}": "Μισοκάθαρη πλήρης {biriba} κόζι",
    "Dirty kózi full {biriba}": "Βρόμικη πλήρης {biriba} κόζι",
    "Clean full {biriba}": "Καθαρή πλήρης {biriba}",
    "Semi-clean full {biriba}": "Μισοκάθαρη πλήρης {biriba}",
    "Dirty full {biriba}": "Βρόμικη πλήρης {biriba}",
    "Clean kózi {biriba}": "Καθαρή {biriba} κόζι",
    "Semi-clean kózi {biriba}": "Μισοκάθαρη {biriba} κόζι",
    "Dirty kózi {biriba}": "Βρόμικη {biriba} κόζι",
    "Clean {biriba}": "Καθαρή {biriba}",
    "Semi-clean {biriba}": "Μισοκάθαρη {biriba}",
    "Dirty {biriba}": "Βρόμικη {biriba}",
    # --- melds: problems --------------------------------------------------------------------
    "A meld needs at least {need} cards; this one has {size}.": (
        "Ένας συνδυασμός θέλει τουλάχιστον {need} φύλλα, ενώ αυτός έχει {size}."
    ),
    "A meld may hold at most {most} cards in this variant; this one has {size}.": (
        "Σε αυτή την παραλλαγή ένας συνδυασμός έχει το πολύ {most} φύλλα, ενώ αυτός έχει {size}."
    ),
    "A meld may hold no wild card, but this one has {count}: {cards} "
    "(a 2 is natural only in a run of its own suit, in the 2's place).": (
        "Ένας συνδυασμός δεν μπορεί να έχει μπαλαντέρ, αλλά αυτός έχει {count}: {cards} "
        "(το 2 μετράει ως κανονικό φύλλο μόνο σε σειρά του χρώματός του, στη θέση του 2)."
    ),
    "A meld may hold only one wild card, but this one has {count}: {cards} "
    "(a 2 is natural only in a run of its own suit, in the 2's place).": (
        "Ένας συνδυασμός μπορεί να έχει μόνο έναν μπαλαντέρ, αλλά αυτός έχει {count}: {cards} "
        "(το 2 μετράει ως κανονικό φύλλο μόνο σε σειρά του χρώματός του, στη θέση του 2)."
    ),
    "A meld may hold {most} wild cards, but this one has {count}: {cards} "
    "(a 2 is natural only in a run of its own suit, in the 2's place).": (
        "Ένας συνδυασμός μπορεί να έχει έως {most} μπαλαντέρ, αλλά αυτός έχει {count}: {cards} "
        "(το 2 μετράει ως κανονικό φύλλο μόνο σε σειρά του χρώματός του, στη θέση του 2)."
    ),
    "A meld may hold no wild card, but this one has {count}: {cards}.": (
        "Ένας συνδυασμός δεν μπορεί να έχει μπαλαντέρ, αλλά αυτός έχει {count}: {cards}."
    ),
    "A meld may hold only one wild card, but this one has {count}: {cards}.": (
        "Ένας συνδυασμός μπορεί να έχει μόνο έναν μπαλαντέρ, αλλά αυτός έχει {count}: {cards}."
    ),
    "A meld may hold {most} wild cards, but this one has {count}: {cards}.": (
        "Ένας συνδυασμός μπορεί να έχει έως {most} μπαλαντέρ, αλλά αυτός έχει {count}: {cards}."
    ),
    "{cards}: a set of 2s is never legal, 2s are wild.": (
        "{cards}: αρσενική από δυάρια δεν επιτρέπεται ποτέ, τα δυάρια είναι μπαλαντέρ."
    ),
    "{cards}: this variant allows no meld of wild cards only (jokers and 2s).": (
        "{cards}: αυτή η παραλλαγή δεν επιτρέπει συνδυασμό μόνο από μπαλαντέρ (τζόκερ και δυάρια)."
    ),
    "This variant allows no sets, only runs: {cards} is a set.": (
        "Αυτή η παραλλαγή δεν επιτρέπει αρσενικές, μόνο σειρές: τα φύλλα {cards} κάνουν αρσενική."
    ),
    "Sets of {ranks} are not allowed in this variant: only {allowed} may form sets.": (
        "Σε αυτή την παραλλαγή δεν επιτρέπονται αρσενικές από {ranks}: αρσενικές κάνουν "
        "μόνο τα {allowed}."
    ),
    # The plural ranks of that sentence, in the accusative ("αρσενικές από άσους").
    "aces": "άσους",
    "3s": "τριάρια",
    "4s": "τεσσάρια",
    "5s": "πεντάρια",
    "6s": "εξάρια",
    "7s": "εφτάρια",
    "8s": "οχτάρια",
    "9s": "εννιάρια",
    "10s": "δεκάρια",
    "jacks": "βαλέδες",
    "queens": "ντάμες",
    "kings": "ρηγάδες",
    "A run keeps to one suit: {cards} is not {suit}.": (
        "Μια σειρά είναι όλη σε ένα χρώμα: το φύλλο {cards} δεν είναι {suit}."
    ),
    "A run keeps to one suit: {cards} are not {suit}.": (
        "Μια σειρά είναι όλη σε ένα χρώμα: τα φύλλα {cards} δεν είναι {suit}."
    ),
    "A set holds one rank: {cards} is not {rank}.": (
        "Μια αρσενική έχει φύλλα μίας μόνο αξίας: το φύλλο {cards} δεν είναι {rank}."
    ),
    "A set holds one rank: {cards} are not {rank}.": (
        "Μια αρσενική έχει φύλλα μίας μόνο αξίας: τα φύλλα {cards} δεν είναι {rank}."
    ),
    "{cards} is neither a run (one suit, in sequence) nor a set (one rank).": (
        "Τα φύλλα {cards} δεν είναι ούτε σειρά (ένα χρώμα, διαδοχικά) ούτε αρσενική (μία αξία)."
    ),
    "A run holds each card once, but {card} appears {times} times.": (
        "Σε μια σειρά κάθε φύλλο μπαίνει μία φορά, αλλά το φύλλο {card} εμφανίζεται {times} φορές."
    ),
    "This run has {card} at both ends, but an ace sits low (A-2-3) or high (Q-K-A) "
    "in a run, never both.": (
        "Αυτή η σειρά έχει τον {card} και στις δύο άκρες, αλλά σε μια σειρά ο άσος μπαίνει "
        "ή κάτω (A-2-3) ή πάνω (Q-K-A), ποτέ και στις δύο."
    ),
    "In this variant an ace is always low (A-2-3), never high.": (
        "Σε αυτή την παραλλαγή ο άσος μπαίνει πάντα κάτω (A-2-3), ποτέ πάνω."
    ),
    "In this variant an ace is always high (Q-K-A), never low.": (
        "Σε αυτή την παραλλαγή ο άσος μπαίνει πάντα πάνω (Q-K-A), ποτέ κάτω."
    ),
    "A run never wraps around the ace: K-A-2 is not a run.": (
        "Μια σειρά δεν συνεχίζει ποτέ πέρα από τον άσο: το K-A-2 δεν είναι σειρά."
    ),
    "The run has a gap: {cards} is missing, and no wild card fills it.": (
        "Η σειρά έχει κενό: λείπει το φύλλο {cards} και δεν υπάρχει μπαλαντέρ να το καλύψει."
    ),
    "The run has a gap: {cards} are missing, and no wild card fills it.": (
        "Η σειρά έχει κενό: λείπουν τα φύλλα {cards} και δεν υπάρχει μπαλαντέρ να τα καλύψει."
    ),
    "The run has a gap: {cards} are missing, more than its wild card fills.": (
        "Η σειρά έχει κενό: λείπουν τα φύλλα {cards}, περισσότερα απ' όσα καλύπτει ο μπαλαντέρ της."
    ),
    "A run can be at most 13 cards long (from A to K or from 2 to A), and never wraps "
    "around; this one would need {need}.": (
        "Μια σειρά έχει το πολύ 13 φύλλα (από A ως K ή από 2 ως A) και δεν κάνει ποτέ "
        "κύκλο, ενώ αυτή θα χρειαζόταν {need}."
    ),
    "A run can be at most {longest} cards long (from {low} to {high}), and never wraps "
    "around; this one would need {need}.": (
        "Μια σειρά έχει το πολύ {longest} φύλλα (από {low} ως {high}) και δεν κάνει ποτέ "
        "κύκλο, ενώ αυτή θα χρειαζόταν {need}."
    ),
    # --- scoring: score lines ---------------------------------------------------------------
    "Cards melded": "Κατεβασμένα φύλλα",
    "Went out": "Κλείσιμο",
    "Exact cut": "Ακριβές κόψιμο",
    "Cut off by one card": "Κόψιμο με διαφορά ενός φύλλου",
    "Cards left in hands": "Φύλλα που έμειναν στο χέρι",
    "{Biribaki} taken but not played": "{Biribaki} που πάρθηκε αλλά δεν παίχτηκε",
    "Melded nothing": "Δεν κατέβασε τίποτα",
    "No {biribaki} taken": "Δεν πήρε {biribaki}",
    "No {biriba}": "Χωρίς {biriba}",
    # --- scoring: problems ------------------------------------------------------------------
    "The meld {cards} of {team} is not legal.": ("{team}: ο συνδυασμός {cards} δεν είναι έγκυρος."),
    "{team} went out without a clean {biriba} on its side.": (
        "{team} έκλεισε χωρίς να έχει κάνει καθαρή {biriba}."
    ),
    "{team} went out without a {biriba} on its side.": (
        "{team} έκλεισε χωρίς να έχει κάνει {biriba}."
    ),
    "{team} went out without having taken its {biribaki}.": (
        "{team} έκλεισε χωρίς να έχει πάρει το {biribaki}."
    ),
    "The meld {cards} of {team} uses the wild card {wilds}, but while the wild meld "
    "{wild_meld} of {team} has fewer than {size} cards, no other meld may use a wild card.": (
        "{team}: ο συνδυασμός {cards} έχει τον μπαλαντέρ {wilds}, αλλά όσο ο συνδυασμός "
        "από μπαλαντέρ {wild_meld} έχει λιγότερα από {size} φύλλα, κανένας άλλος συνδυασμός "
        "δεν μπορεί να πάρει μπαλαντέρ."
    ),
    "{team} claims an exact cut, but this variant gives no bonus for it.": (
        "{team} δηλώνει ακριβές κόψιμο, αλλά αυτή η παραλλαγή δεν δίνει μπόνους γι' αυτό."
    ),
    "{team} claims a cut off by one card, but this variant gives no bonus for it.": (
        "{team} δηλώνει κόψιμο με διαφορά ενός φύλλου, αλλά αυτή η παραλλαγή δεν δίνει "
        "μπόνους γι' αυτό."
    ),
    "{team} lists failed opening attempts, but this variant has no rule for them.": (
        "{team}: δηλώνονται αποτυχημένες προσπάθειες για πρώτο κατέβασμα, αλλά αυτή "
        "η παραλλαγή δεν έχει κανόνα γι' αυτές."
    ),
    "An opening meld is given for {team}, but it melded nothing.": (
        "{team}: δόθηκε πρώτο κατέβασμα, αλλά η ομάδα δεν κατέβασε τίποτα."
    ),
    "The opening of {team} lists {cards}, which its melds do not hold.": (
        "{team}: στο πρώτο κατέβασμα δηλώνονται φύλλα που δεν βρίσκονται στους "
        "κατεβασμένους συνδυασμούς: {cards}."
    ),
    "The first meld of {team} ({cards}) is worth {value} points, but with {before} "
    "before the hand it needed {needed}.": (
        "{team}: το πρώτο κατέβασμα ({cards}) αξίζει {value} πόντους, αλλά με {before} "
        "πριν από τη μοιρασιά χρειαζόταν {needed}."
    ),
    "The opening of {team} is given both as cards and as marked melds; give one.": (
        "{team}: το πρώτο κατέβασμα δόθηκε και με φύλλα και με σημειωμένους συνδυασμούς· "
        "δώσ' το με έναν μόνο τρόπο."
    ),
    "The opening of {team} names meld index {index}, but its melds are numbered 0 to {last}.": (
        "{team}: το πρώτο κατέβασμα δείχνει τον συνδυασμό με αριθμό {index}, αλλά οι "
        "συνδυασμοί της αριθμούνται από 0 έως {last}."
    ),
    "The opening of {team} ({cards}) is worth {value} points, but with {before} "
    "before the hand it needed {needed}.": (
        "{team}: το πρώτο κατέβασμα ({cards}) αξίζει {value} πόντους, αλλά με {before} "
        "πριν από τη μοιρασιά χρειαζόταν {needed}."
    ),
    "{team} needs {needed} to open, but all its melds together hold {value} points.": (
        "{team}: για να ανοίξει χρειάζεται {needed}, αλλά όλοι οι συνδυασμοί της μαζί "
        "κάνουν {value} πόντους."
    ),
    "Opening not checked (needed {needed})": (
        "Το πρώτο κατέβασμα δεν ελέγχθηκε (χρειαζόταν {needed})"
    ),
    "Choose this hand's kózi: {variant} has one every hand.": (
        "Διάλεξε το κόζι της μοιρασιάς: η παραλλαγή «{variant}» έχει κόζι σε κάθε μοιρασιά."
    ),
    "The {format} format plays with {counts} sides, but {entered} is entered.": (
        "Η διάταξη {format} παίζεται με {counts} ομάδες, αλλά δόθηκε {entered}."
    ),
    "The {format} format plays with {counts} sides, but {entered} are entered.": (
        "Η διάταξη {format} παίζεται με {counts} ομάδες, αλλά δόθηκαν {entered}."
    ),
    "Only one side can go out in a hand, but {names} are both marked as gone out.": (
        "Σε μια μοιρασιά μόνο μία ομάδα μπορεί να κλείσει, αλλά έχουν σημειωθεί ότι "
        "έκλεισαν και οι δύο: {names}."
    ),
    "Only one side can go out in a hand, but {names} are all marked as gone out.": (
        "Σε μια μοιρασιά μόνο μία ομάδα μπορεί να κλείσει, αλλά έχουν σημειωθεί ότι "
        "έκλεισαν όλες: {names}."
    ),
    "Only the side that cut can earn a cut bonus, but {names} both claim one.": (
        "Μπόνους κοψίματος παίρνει μόνο η ομάδα που έκοψε, αλλά το διεκδικούν και οι δύο: {names}."
    ),
    "Only the side that cut can earn a cut bonus, but {names} all claim one.": (
        "Μπόνους κοψίματος παίρνει μόνο η ομάδα που έκοψε, αλλά το διεκδικούν όλες: {names}."
    ),
    "{names} and {last}": "{names} και {last}",
    "{first} or {second}": "{first} ή {second}",
    "jokers appear {times} times, but {decks} hold only {limit}.": (
        "Τα τζόκερ εμφανίζονται {times} φορές, αλλά με {decks} υπάρχουν μόνο {limit}."
    ),
    "{card} appears {times} times, but {decks} hold only {limit}.": (
        "Το φύλλο {card} εμφανίζεται {times} φορές, αλλά με {decks} υπάρχουν μόνο {limit}."
    ),
}

#: The templates above whose adjectives agree with the variant's word, for a neuter word
#: (μπουράκο): "Καθαρό μπουράκο", "πλήρες".
_NEUTER = {
    "Clean {biriba} (set)": "Καθαρό {biriba} (αρσενική)",
    "Semi-clean {biriba} (set)": "Μισοκάθαρο {biriba} (αρσενική)",
    "Dirty {biriba} (set)": "Βρόμικο {biriba} (αρσενική)",
    "Clean kózi full {biriba}": "Καθαρό πλήρες {biriba} κόζι",
    "Semi-clean kózi full {biriba}": "Μισοκάθαρο πλήρες {biriba} κόζι",
    "Dirty kózi full {biriba}": "Βρόμικο πλήρες {biriba} κόζι",
    "Clean full {biriba}": "Καθαρό πλήρες {biriba}",
    "Semi-clean full {biriba}": "Μισοκάθαρο πλήρες {biriba}",
    "Dirty full {biriba}": "Βρόμικο πλήρες {biriba}",
    "Clean kózi {biriba}": "Καθαρό {biriba} κόζι",
    "Semi-clean kózi {biriba}": "Μισοκάθαρο {biriba} κόζι",
    "Dirty kózi {biriba}": "Βρόμικο {biriba} κόζι",
    "Clean {biriba}": "Καθαρό {biriba}",
    "Semi-clean {biriba}": "Μισοκάθαρο {biriba}",
    "Dirty {biriba}": "Βρόμικο {biriba}",
    "{team} went out without a clean {biriba} on its side.": (
        "{team} έκλεισε χωρίς να έχει κάνει καθαρό {biriba}."
    ),
}

CATALOG: Mapping[str, str] = (
    _TERMS
    | _MESSAGES
    | {"gender" + _CONTEXT + word: gender for word, gender in _GENDERS.items()}
    | {"n" + _CONTEXT + template: text for template, text in _NEUTER.items()}
)
