/*
 * Card faces: under every card field of a [data-card-faces] form, its cards drawn as small
 * faces (5♠ 6♠ 7♠ …) in suit colours, red for ♥ ♦, so a meld is read at a glance instead of
 * as "5S 6S 7S". A typed range (3H-9H) is drawn card by card; a token that is no card is drawn
 * struck out, as the server will name it. The faces are a picture of the field, which stays
 * the source of truth (they are aria-hidden: a screen reader reads the field).
 *
 * They follow every "input" event (typing, the card picker, a restored draft) and every focus
 * (a meld row the page cloned from another carries that row's faces until redrawn).
 */
(function () {
  "use strict";

  var scope = document.querySelector("[data-card-faces]");
  if (!scope) {
    return;
  }
  var RUN_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUITS = { S: "♠", H: "♥", D: "♦", C: "♣", "♠": "♠", "♥": "♥", "♦": "♦", "♣": "♣" };
  var JOKERS = ["JK", "★", "X"];
  var element = window.scorekeeperHelpers.element;

  function card(token) {
    var word = token.toUpperCase();
    if (JOKERS.indexOf(word) >= 0) {
      return { rank: "★", suit: "", red: false, joker: true };
    }
    var suit = SUITS[word.slice(-1)];
    var rank = word.slice(0, -1) === "T" ? "10" : word.slice(0, -1);
    if (!suit || RUN_ORDER.indexOf(rank) < 0) {
      return null;
    }
    return { rank: rank, suit: suit, red: suit === "♥" || suit === "♦" };
  }

  /* One token as cards: a range 3H-9H becomes its run (the ace high at the top end). */
  function cards(token) {
    var ends = token.split("-");
    if (ends.length === 2) {
      var first = card(ends[0]);
      var last = card(ends[1]);
      if (first && last && !first.joker && first.suit === last.suit) {
        var low = RUN_ORDER.indexOf(first.rank);
        var high = last.rank === "A" && low > 0 ? 13 : RUN_ORDER.indexOf(last.rank);
        var run = [];
        for (var i = Math.min(low, high); i <= Math.max(low, high); i += 1) {
          run.push({ rank: RUN_ORDER[i % 13], suit: first.suit, red: first.red });
        }
        return run;
      }
    }
    var one = card(token);
    return [one || { rank: token, suit: "", bad: true }];
  }

  function facesOf(input) {
    var next = input.nextElementSibling;
    if (next && next.classList.contains("card-faces")) {
      return next;
    }
    var faces = element("div", "card-faces", undefined, { "aria-hidden": "true" });
    input.parentNode.insertBefore(faces, input.nextSibling);
    return faces;
  }

  function draw(input) {
    var faces = facesOf(input);
    faces.textContent = "";
    input.value.split(/[\s,;]+/).filter(Boolean).forEach(function (token) {
      cards(token).forEach(function (c) {
        var className = "card-face" + (c.red ? " red" : "") + (c.joker ? " joker" : "") +
          (c.bad ? " bad" : "");
        faces.appendChild(element("span", className, [
          c.rank,
          c.suit ? element("span", "card-face-suit", c.suit) : null,
        ]));
      });
    });
    faces.hidden = !faces.firstChild;
  }

  function redraw(event) {
    var input = event.target;
    if (input.matches && input.matches("[data-card-input]") && scope.contains(input)) {
      draw(input);
    }
  }

  scope.addEventListener("input", redraw);
  scope.addEventListener("change", redraw);
  scope.addEventListener("focusin", redraw);
  scope.querySelectorAll("[data-card-input]").forEach(draw);
})();
