/*
 * The service worker. /sw.js (scorekeeper/web/pwa.py) serves this file with two lines put
 * before it: VERSION, a hash of the app shell's files, and SHELL, their URLs.
 *
 * - The app shell (style, scripts, icons, the offline pages) is kept at install, and served
 *   from the cache first. A new VERSION is a new worker: it keeps the new shell and, once it
 *   takes over, deletes every cache of older versions. Static URLs carry each file's content
 *   hash (scorekeeper/web/static_files.py), so a page from a newer server names files this
 *   cache does not hold, and they come from the network until the new worker takes over.
 * - Pages of matches (scoreboard, new hand, correction) are fetched from the network first
 *   and kept; with the network gone the kept copy is shown, else the offline page. Visiting
 *   a scoreboard also keeps its new-hand page, so "Enter hand" opens offline. A tournament
 *   table's pages (/tables/<secret>, its new hand and corrections: a table phone with no
 *   account) are kept the same way, its table page standing for the scoreboard.
 * - Nothing else is kept: no POST answer, no API answer, no login or account page, nothing
 *   that came by a redirect, no live poll (live.json) and no shared-link page (/watch/…):
 *   a kept answer would show old scores. pwa.js deletes the kept pages at logout.
 * - A kept page follows its session (scorekeeper/web/kept_pages.py): the server tags each
 *   match page with a fingerprint of the session, its club and how long a copy may be shown;
 *   the worker adds the time it kept it. The first time the worker reaches the network again
 *   (its first navigation after it started or after a fetch failed, the page's "online"
 *   event, its activation; and at most a minute apart besides) it asks /offline/session and
 *   drops every kept page of another session (a "log out everywhere" on another device) or
 *   of a club the account no longer reads, before it answers. A table's pages belong to no
 *   session but to their link: the same check asks the table's live.json and drops them once
 *   the link opens nothing any more (a round closed, a link withdrawn). Offline, a copy older
 *   than its max age is dropped and /offline/expired says why.
 */
/* global VERSION, SHELL */
"use strict";

var SHELL_CACHE = "scorekeeper-shell-" + VERSION;
var PAGES_CACHE = "scorekeeper-pages-" + VERSION;
/* The rules engine for the phone (Pyodide and the engine's zip, /runtime/…, fetched by the
   hand page's offline-engine.js): kept across versions, as its URLs name their content (the
   runtime's version, the engine's digest), so a new app shell does not download 5 MB again. */
var RUNTIME_CACHE = "scorekeeper-runtime";
/* The engine's memory snapshot, made and kept by static/js/engine-worker.js: named by the
   runtime's version and the engine's digest, it too outlives a new app shell. */
var SNAPSHOT_CACHE = "scorekeeper-snapshot";
var RUNTIME = /^\/runtime\//;
var MATCH_PAGE = /^\/matches\/\d+(\/hands\/(new|\d+\/edit))?$/;
var SCOREBOARD = /^\/matches\/(\d+)$/;
/* A table link's pages (scorekeeper/tournaments/table_pages.py): its secret, then the page. */
var TABLE_PAGE = /^\/tables\/([A-Za-z0-9_-]{32})(\/hands\/(new|\d+\/edit))?$/;
var TABLE_BOARD = /^\/tables\/([A-Za-z0-9_-]{32})$/;
var OFFLINE_PAGE = "/offline";
var EXPIRED_PAGE = "/offline/expired";
var SESSION_URL = "/offline/session";
var KEPT_AT = "X-Offline-Kept-At"; // added by keep(); the other tags come from the server
var RECHECK_MS = 60 * 1000;
var CHECK_TIMEOUT_MS = 5000;
var ONLINE_RETRIES_MS = [500, 1000, 2000, 4000, 8000];

/* Whether the kept pages must be checked before the next answer: at start (the worker may have
   slept through a logout elsewhere) and after a fetch failed (the phone was offline). */
var unchecked = true;
var checkedAt = 0;
var checking = null;

self.addEventListener("install", function (event) {
  event.waitUntil(
    caches.open(SHELL_CACHE).then(function (cache) {
      return cache.addAll(SHELL);
    }).then(function () {
      return self.skipWaiting();
    })
  );
});

self.addEventListener("activate", function (event) {
  event.waitUntil(Promise.all([
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return /^scorekeeper-/.test(key) && key !== SHELL_CACHE && key !== PAGES_CACHE &&
          key !== RUNTIME_CACHE && key !== SNAPSHOT_CACHE;
      }).map(function (key) {
        return caches.delete(key);
      }));
    }).then(function () {
      return self.clients.claim();
    }),
    check()
  ]));
});

/* pwa.js says when a page sees the network come back: check at once, even with no
   navigation (a phone left on a kept scoreboard must not keep it for the next offline).
   "online" often comes before the network really answers (a Wi-Fi still joining, a line
   just back), so a failed check is tried again a few times, a little later each time. */
self.addEventListener("message", function (event) {
  if (event.data === "online") {
    event.waitUntil(checkUntilDone(ONLINE_RETRIES_MS));
  }
});

function checkUntilDone(delays) {
  return check().then(function (done) {
    if (done || !delays.length) {
      return done;
    }
    return new Promise(function (resolve) {
      setTimeout(resolve, delays[0]);
    }).then(function () {
      return checkUntilDone(delays.slice(1));
    });
  });
}

/* Whether a kept copy may still be shown: younger than the max age its server gave. */
function fresh(kept) {
  var keptAt = Number(kept.headers.get(KEPT_AT));
  var maxAge = Number(kept.headers.get("X-Offline-Max-Age"));
  if (!keptAt || isNaN(maxAge)) {
    return false;
  }
  return Date.now() - keptAt < maxAge * 1000;
}

/* A page the worker keeps: a match's, or a table link's. */
function keptPage(pathname) {
  return MATCH_PAGE.test(pathname) || TABLE_PAGE.test(pathname);
}

/* Whether a kept copy belongs to the session and clubs the server names now; a table's page
   to a link that still opens its table (`alive`, by the link's secret). */
function belongs(kept, request, now, alive) {
  var table = TABLE_PAGE.exec(new URL(request.url).pathname);
  if (table) {
    return fresh(kept) ? alive(table[1]) : false;
  }
  var club = Number(kept.headers.get("X-Offline-Club"));
  return Boolean(now.session) && kept.headers.get("X-Offline-Session") === now.session &&
    now.clubs.indexOf(club) !== -1 && fresh(kept);
}

/* Drop every kept page `test(kept, request)` (true, false or a promise of one) does not keep. */
function dropUnless(test) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        return cache.match(request).then(function (kept) {
          return kept ? test(kept, request) : false;
        }).then(function (keep) {
          return keep ? null : cache.delete(request);
        });
      }));
    });
  });
}

/* Whether the table link `secret` still opens its table, asked once a check: its live.json
   answers 404 once the round is closed or the link withdrawn. An answer that says nothing of
   the kind (a server error, no answer in time) keeps the pages for the next check. */
function linkChecker(signal) {
  var asked = {};
  return function (secret) {
    if (!asked[secret]) {
      asked[secret] = fetch("/tables/" + secret + "/live.json", {
        credentials: "same-origin", cache: "no-store", signal: signal
      }).then(function (response) {
        return !gone(response);
      }, function () {
        return true;
      });
    }
    return asked[secret];
  };
}

/* Ask the server whose the phone's session is now and drop what is no longer theirs.
   Resolves true once checked, false when the server could not be asked (offline, an error,
   no answer within CHECK_TIMEOUT_MS): the pages stay unchecked, and are checked next time. */
function check() {
  if (checking) {
    return checking;
  }
  var abort = new AbortController();
  var timer = setTimeout(function () {
    abort.abort();
  }, CHECK_TIMEOUT_MS);
  checking = fetch(SESSION_URL, {
    credentials: "same-origin", cache: "no-store", signal: abort.signal
  }).then(function (response) {
    if (!response.ok) {
      throw new Error("The server answered " + response.status);
    }
    return response.json();
  }).then(function (now) {
    var alive = linkChecker(abort.signal);
    return dropUnless(function (kept, request) {
      return belongs(kept, request, now, alive);
    });
  }).then(function () {
    unchecked = false;
    checkedAt = Date.now();
    return true;
  }).catch(function () {
    unchecked = true;
    return false;
  }).then(function (done) {
    clearTimeout(timer);
    checking = null;
    return done;
  });
  return checking;
}

/* A page worth keeping: a match's or a table link's page, fetched as itself (not landed on
   by a redirect, e.g. to the login page), complete and HTML. */
function keepable(url, response) {
  return keptPage(url.pathname) && response.ok && !response.redirected &&
    response.type === "basic" && /text\/html/.test(response.headers.get("Content-Type") || "");
}

/* Keep a copy with the time it was kept (a header of its own, as the server's tags are). */
function keep(request, response) {
  return response.blob().then(function (body) {
    var headers = new Headers(response.headers);
    headers.set(KEPT_AT, String(Date.now()));
    var copy = new Response(body, {
      status: response.status, statusText: response.statusText, headers: headers
    });
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.put(request, copy);
    });
  });
}

/* Whether the server no longer gives this page to this phone (a redirect to the login page,
   401, 403, 404): its kept copy goes too. A server error says nothing of the kind. */
function gone(response) {
  return response.redirected || [401, 403, 404, 410].indexOf(response.status) !== -1;
}

function forget(url) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.delete(url.origin + url.pathname);
  });
}

/* The new-hand page of a scoreboard or a table page; null for any other page. */
function newHandPath(pathname) {
  var match = SCOREBOARD.exec(pathname);
  if (match) {
    return "/matches/" + match[1] + "/hands/new";
  }
  var table = TABLE_BOARD.exec(pathname);
  return table ? "/tables/" + table[1] + "/hands/new" : null;
}

/* After a scoreboard or a table page, its new-hand page too (a viewer gets 403, a finished
   table 409: nothing is kept). */
function keepNewHand(url) {
  var path = newHandPath(url.pathname);
  if (!path) {
    return Promise.resolve();
  }
  var page = new URL(path, url);
  return fetch(page, { credentials: "same-origin" }).then(function (response) {
    if (keepable(page, response)) {
      return keep(new Request(page.href), response);
    }
    return gone(response) ? forget(page) : null;
  }).catch(function () {
    return null;
  });
}

/* A kept copy for a page the network could not give: the copy while it is fresh, else the
   offline page (saying the copy expired, when there was one). */
function fromKept(url) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    var key = url.origin + url.pathname;
    return cache.match(key, { ignoreSearch: true }).then(function (kept) {
      if (kept && fresh(kept)) {
        return kept;
      }
      if (kept) {
        return cache.delete(key).then(function () {
          return caches.match(EXPIRED_PAGE);
        });
      }
      return caches.match(OFFLINE_PAGE);
    });
  }).then(function (answer) {
    return answer || Response.error();
  });
}

function page(event) {
  var request = event.request;
  var url = new URL(request.url);
  // Asked beside the page, not before it: the check costs no time unless the page is faster.
  var checked = unchecked || Date.now() - checkedAt > RECHECK_MS ? check() : Promise.resolve();
  var answer = fetch(request).then(function (response) {
    if (keepable(url, response)) {
      // The key is the bare URL: a page asked for with ?something offline still matches.
      var copy = response.clone();
      event.waitUntil(checked.then(function () {
        return keep(new Request(url.origin + url.pathname), copy);
      }).then(function () {
        return keepNewHand(url);
      }));
    } else if (keptPage(url.pathname) && gone(response)) {
      event.waitUntil(forget(url));
    }
    return response;
  }, function (error) {
    unchecked = true;
    throw error;
  });
  // Nothing is shown before the check is done: a page kept for an ended session is gone
  // before the first page the phone shows online again.
  return answer.then(function (response) {
    return checked.then(function () {
      return response;
    });
  }, function () {
    return checked.then(function () {
      return fromKept(url);
    });
  });
}

function shellFile(request) {
  return caches.match(request, { ignoreSearch: true }).then(function (kept) {
    return kept || fetch(request);
  });
}

/* The engine's files: from the runtime cache, else fetched once and kept (whole answers only). */
function runtimeFile(request) {
  return caches.open(RUNTIME_CACHE).then(function (cache) {
    return cache.match(request, { ignoreSearch: true }).then(function (kept) {
      if (kept) {
        return kept;
      }
      return fetch(request).then(function (response) {
        if (response.ok && response.status === 200 && response.type === "basic") {
          return cache.put(request, response.clone()).then(function () {
            return response;
          });
        }
        return response;
      });
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return; // POSTs and other sites go straight to the network, never kept
  }
  if (request.mode === "navigate") {
    event.respondWith(page(event));
  } else if (url.pathname.indexOf("/static/") === 0 || url.pathname === "/manifest.webmanifest") {
    event.respondWith(shellFile(request));
  } else if (RUNTIME.test(url.pathname)) {
    event.respondWith(runtimeFile(request));
  }
  // Anything else (the API, the meld checks, tokens fetched by the outbox): the network.
});
