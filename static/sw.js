/*
 * The service worker. /sw.js (scorekeeper/web/pwa.py) serves this file with two lines put
 * before it: VERSION, a hash of the app shell's files, and SHELL, their URLs.
 *
 * - The app shell (style, scripts, icons, the offline page) is kept at install, and served
 *   from the cache first. A new VERSION is a new worker: it keeps the new shell and, once it
 *   takes over, deletes every cache of older versions. Static URLs carry each file's content
 *   hash (scorekeeper/web/static_files.py), so a page from a newer server names files this
 *   cache does not hold, and they come from the network until the new worker takes over.
 * - Pages of matches (scoreboard, new hand, correction) are fetched from the network first
 *   and kept; with the network gone the kept copy is shown, else the offline page. Visiting
 *   a scoreboard also keeps its new-hand page, so "Enter hand" opens offline.
 * - Nothing else is kept: no POST answer, no API answer, no login or account page, nothing
 *   that came by a redirect, no live poll (live.json) and no shared-link page (/watch/…):
 *   a kept answer would show old scores. pwa.js deletes the kept pages at logout.
 */
/* global VERSION, SHELL */
"use strict";

var SHELL_CACHE = "scorekeeper-shell-" + VERSION;
var PAGES_CACHE = "scorekeeper-pages-" + VERSION;
var MATCH_PAGE = /^\/matches\/\d+(\/hands\/(new|\d+\/edit))?$/;
var SCOREBOARD = /^\/matches\/(\d+)$/;

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
  event.waitUntil(
    caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return /^scorekeeper-/.test(key) && key !== SHELL_CACHE && key !== PAGES_CACHE;
      }).map(function (key) {
        return caches.delete(key);
      }));
    }).then(function () {
      return self.clients.claim();
    })
  );
});

/* A page worth keeping: a match page, fetched as itself (not landed on by a redirect, e.g.
   to the login page), complete and HTML. */
function keepable(url, response) {
  return MATCH_PAGE.test(url.pathname) && response.ok && !response.redirected &&
    response.type === "basic" && /text\/html/.test(response.headers.get("Content-Type") || "");
}

function keep(request, response) {
  return caches.open(PAGES_CACHE).then(function (cache) {
    return cache.put(request, response);
  });
}

/* After a scoreboard, its new-hand page too (a viewer gets 403: nothing is kept). */
function keepNewHand(url) {
  var match = SCOREBOARD.exec(url.pathname);
  if (!match) {
    return Promise.resolve();
  }
  var page = new URL("/matches/" + match[1] + "/hands/new", url);
  return fetch(page, { credentials: "same-origin" }).then(function (response) {
    if (keepable(page, response)) {
      return keep(new Request(page.href), response);
    }
    return null;
  }).catch(function () {
    return null;
  });
}

function page(event) {
  var request = event.request;
  var url = new URL(request.url);
  return fetch(request).then(function (response) {
    if (keepable(url, response)) {
      // The key is the bare URL: a page asked for with ?something offline still matches.
      var copy = response.clone();
      event.waitUntil(keep(new Request(url.origin + url.pathname), copy).then(function () {
        return keepNewHand(url);
      }));
    }
    return response;
  }).catch(function () {
    return caches.open(PAGES_CACHE).then(function (cache) {
      return cache.match(url.origin + url.pathname, { ignoreSearch: true });
    }).then(function (kept) {
      return kept || caches.match("/offline");
    }).then(function (answer) {
      return answer || Response.error();
    });
  });
}

function shellFile(request) {
  return caches.match(request, { ignoreSearch: true }).then(function (kept) {
    return kept || fetch(request);
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
  }
  // Anything else (the API, the meld checks, tokens fetched by the outbox): the network.
});
