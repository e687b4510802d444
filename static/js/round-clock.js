/*
 * The round's clock: counts down to the end of the round on the tables' phones and the big
 * screen. The server passes the end and its own time as data attributes, so the phone's
 * clock being wrong does not matter (only the time since the page was drawn is the phone's):
 *
 *   <p data-round-clock data-ends-at="1764282000000" data-server-now="1764280200000"
 *      data-over="Time is up…"><time data-round-clock-time>30:00</time></p>
 *
 * It only shows the time: it never stops anyone entering hands. The clock is looked up
 * again each tick, since a live page (live.js) may swap it for a new round's.
 */
(function () {
  "use strict";

  var first = document.querySelector("[data-round-clock]");
  if (!first) {
    return;
  }
  // The server's time minus the phone's, as when the page was drawn.
  var skew = (parseInt(first.getAttribute("data-server-now"), 10) || Date.now()) - Date.now();

  function two(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function tick() {
    document.querySelectorAll("[data-round-clock]").forEach(function (clock) {
      var ends = parseInt(clock.getAttribute("data-ends-at"), 10);
      var shown = clock.querySelector("[data-round-clock-time]");
      if (!ends || !shown) {
        return;
      }
      var left = Math.round((ends - (Date.now() + skew)) / 1000);
      var over = left < 0;
      var seconds = Math.abs(left);
      var text = Math.floor(seconds / 60) + ":" + two(seconds % 60);
      shown.textContent = over ? "\u2212" + text : text;
      clock.classList.toggle("is-over", over);
      clock.classList.toggle("is-ending", !over && left < 300);
      clock.title = over ? clock.getAttribute("data-over") || "" : "";
    });
  }

  tick();
  window.setInterval(tick, 1000);
})();
