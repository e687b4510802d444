"""Static URLs as the tests name them: pages ask for `/static/style.<hash>.css`
(scorekeeper/web/static_files.py); `plain()` takes the content hash out again."""

from __future__ import annotations

import re

#: The 12 hex digits put before a file's last extension (or at the end of a name without one).
DIGEST = re.compile(r"\.[0-9a-f]{12}(?=(\.[^./?#]+)?(?:[?#].*)?$)")


def plain(url: str) -> str:
    """`/static/js/copy.5a0b88cc3496.js` → `/static/js/copy.js`; other URLs as they are."""
    if "/static/" not in url:
        return url
    return DIGEST.sub("", url, count=1)
