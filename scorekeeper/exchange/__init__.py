"""Import and export: a whole club as one JSON file (checked whole before any of it is
stored: `import_club`), a season's hands as CSV, and the command-line export and import.
Its pages are `views`; its commands `cli`."""

from scorekeeper.exchange.club_export import export_club, find_club
from scorekeeper.exchange.club_import import Imported, import_club
from scorekeeper.exchange.season_csv import season_csv

__all__ = ["Imported", "export_club", "find_club", "import_club", "season_csv"]
