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
  var CARDS = window.scorekeeperCards; // the notation (cards.js)
  var element = window.scorekeeperHelpers.element;

  /* One token as the faces it draws: a range 3H-9H its run (the ace high at the top end), a
     joker a star, a card itself, anything else the token struck out. */
  function faces(token) {
    if (CARDS.isJoker(token)) {
      return [{ rank: "★", suit: "", red: false, joker: true }];
    }
    var run = CARDS.range(token);
    if (run) {
      return run.map(function (card) {
        return { rank: card.rank, suit: card.symbol, red: card.red };
      });
    }
    var card = CARDS.read(token);
    if (!card) {
      return [{ rank: token, suit: "", bad: true }];
    }
    return [{ rank: card.rank, suit: card.symbol, red: card.red }];
  }

  function facesOf(input) {
    var next = input.nextElementSibling;
    if (next && next.classList.contains("card-faces")) {
      return next;
    }
    var box = element("div", "card-faces", undefined, { "aria-hidden": "true" });
    input.parentNode.insertBefore(box, input.nextSibling);
    return box;
  }

  function draw(input) {
    var box = facesOf(input);
    box.textContent = "";
    CARDS.tokens(input.value).forEach(function (token) {
      faces(token).forEach(function (c) {
        var className = "card-face" + (c.red ? " red" : "") + (c.joker ? " joker" : "") +
          (c.bad ? " bad" : "");
        box.appendChild(element("span", className, [
          c.rank,
          c.suit ? element("span", "card-face-suit", c.suit) : null,
        ]));
      });
    });
    box.hidden = !box.firstChild;
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
