/*
 * The installable app: registers the service worker (served at /sw.js, so its scope is the
 * whole site; it keeps the app shell and the pages of matches for use offline), and makes
 * sure no account's pages outlive its session on this phone.
 *
 * Pages kept offline show an account's clubs and matches, so they are thrown away when the
 * account logs out, and whenever a page is seen signed out (a session that ended without a
 * logout, or another person about to sign in); the worker itself drops those of a session
 * ended elsewhere or of a club left, as soon as the network is back. The outbox of unsent
 * hands is kept: it belongs to its account (outbox.js) and is sent once that account is back.
 *
 * A tournament table's pages (/tables/<secret>/…) belong to no account but to their link: a
 * table phone is signed out by design, so a signed-out page spares them (the worker drops
 * them once the link opens nothing any more); a logout forgets them with the rest.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var user = script ? script.getAttribute("data-user") : "";
  var PAGES = /^scorekeeper-pages-/;
  var TABLE_PAGES = /^\/tables\//;

  /* Forget the kept pages, but those whose path `spare` matches (when given). */
  function forgetPages(spare) {
    if (!window.caches) {
      return Promise.resolve();
    }
    return caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return PAGES.test(key);
      }).map(function (key) {
        if (!spare) {
          return caches.delete(key);
        }
        return caches.open(key).then(function (cache) {
          return cache.keys().then(function (requests) {
            return Promise.all(requests.filter(function (request) {
              return !spare.test(new URL(request.url).pathname);
            }).map(function (request) {
              return cache.delete(request);
            }));
          });
        });
      }));
    });
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // No worker (private mode, an old browser): the site works, only not offline.
    });
    // The network is back: the worker asks the server whose this phone's session is now and
    // drops the pages kept for another (sw.js), before the next time the network goes.
    window.addEventListener("online", function () {
      navigator.serviceWorker.ready.then(function (registration) {
        if (registration.active) {
          registration.active.postMessage("online");
        }
      });
    });
  }

  // Signed out, on a page from the server (not the worker's offline page): forget pages.
  if (!user && !document.querySelector("[data-offline-fallback]") && navigator.onLine) {
    forgetPages(TABLE_PAGES);
  }

  var logout = document.querySelector("form.nav-form");
  if (logout && window.caches) {
    logout.addEventListener("submit", function (event) {
      if (logout.getAttribute("data-forgotten")) {
        return;
      }
      // Forget first, then log out: a page cached after this could only be the next one.
      event.preventDefault();
      logout.setAttribute("data-forgotten", "1");
      var done = function () {
        logout.submit();
      };
      forgetPages().then(done, done);
    });
  }
})();
