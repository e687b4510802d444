"""The referee: a meld's verdict and a hand's score under any rule set, with no match and no
login (the JSON API's stateless endpoints, the meld checker and the rules pages, the command
line). Its front door is the use cases below; its pages are `views`, `api` and `forms`."""

from scorekeeper.referee.service import (
    InputError,
    check_meld,
    hand_json,
    list_variants,
    read_format,
    read_opening,
    read_variant,
    require_kozi,
    score_hand_request,
)

__all__ = [
    "InputError",
    "check_meld",
    "hand_json",
    "list_variants",
    "read_format",
    "read_opening",
    "read_variant",
    "require_kozi",
    "score_hand_request",
]
