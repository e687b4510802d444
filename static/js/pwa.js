/*
 * The installable app: registers the service worker (served at /sw.js, so its scope is the
 * whole site; it keeps the app shell and the pages of matches for use offline), and makes
 * sure no account's pages outlive its session on this phone.
 *
 * Pages kept offline show an account's clubs and matches, so they are thrown away when the
 * account logs out, and whenever a page is seen signed out (a session that ended without a
 * logout, or another person about to sign in). The outbox of unsent hands is kept: it
 * belongs to its account (outbox.js) and is sent once that account is back.
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var user = script ? script.getAttribute("data-user") : "";
  var PAGES = /^scorekeeper-pages-/;

  function forgetPages() {
    if (!window.caches) {
      return Promise.resolve();
    }
    return caches.keys().then(function (keys) {
      return Promise.all(keys.filter(function (key) {
        return PAGES.test(key);
      }).map(function (key) {
        return caches.delete(key);
      }));
    });
  }

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () {
      // No worker (private mode, an old browser): the site works, only not offline.
    });
  }

  // Signed out, on a page from the server (not the worker's offline page): forget pages.
  if (!user && !document.querySelector("[data-offline-fallback]") && navigator.onLine) {
    forgetPages();
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
