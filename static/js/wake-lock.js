/*
 * Keeps the phone's screen on while a match page ([data-wake-lock]: the scoreboard and the
 * hand entry) is open: the phone lies on the card table between hands, and a dark screen
 * would mean unlocking it for every score.
 *
 * Uses the Screen Wake Lock API where the browser has it (it needs a secure page: https or
 * localhost). A lock ends by itself when the page is hidden, so it is asked for again when
 * the page is visible again. Where the API is missing or refuses, nothing happens: the
 * screen simply dims as usual.
 */
(function () {
  "use strict";

  if (!document.querySelector("[data-wake-lock]")) {
    return;
  }
  if (!("wakeLock" in navigator) || typeof navigator.wakeLock.request !== "function") {
    return;
  }

  var lock = null;
  var asking = false;

  function request() {
    if (asking || document.visibilityState !== "visible" || (lock && !lock.released)) {
      return;
    }
    asking = true;
    var promise;
    try {
      promise = navigator.wakeLock.request("screen");
    } catch (error) {
      asking = false; // a browser that throws instead of rejecting: keep quiet
      return;
    }
    Promise.resolve(promise)
      .then(function (sentinel) {
        lock = sentinel;
      })
      .catch(function () {
        lock = null; // battery saver, no permission, not a secure page: the screen may dim
      })
      .then(function () {
        asking = false;
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      request();
    }
  });
  request();
})();
