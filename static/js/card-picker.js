/*
 * Card picker: tap cards into a text input. Markup, options and usage are documented at the
 * top of templates/macros/cards.html.
 *
 * The input is the source of truth: every tap reads its text, changes it and writes it back,
 * then fires a bubbling "input" event so page scripts hear taps exactly as they hear typing.
 * What it says comes, in the page's language, from the picker's data-words (picker_words() in
 * scorekeeper/web/game_words.py): templates whose %(name)s fields fill() fills in.
 */
(function () {
  "use strict";

  var RUN_ORDER = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var SUIT_LETTERS = { S: "S", H: "H", D: "D", C: "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C" };
  var SUIT_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var SEPARATORS = /[\s,;]+/;
  var lastFocused = null;

  // Any [data-card-input] that gets focus becomes the target of the pickers without a fixed one.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-card-input]")) {
      lastFocused = event.target;
    }
  });

  function tokens(text) {
    return text.split(SEPARATORS).filter(Boolean);
  }

  /* A card token as {rank, suit} (suit letter), or null for a joker or anything unreadable. */
  function readCard(token) {
    var word = token.trim().toUpperCase();
    var suit = SUIT_LETTERS[word.slice(-1)];
    var rank = word.slice(0, -1);
    if (rank === "T") {
      rank = "10";
    }
    if (!suit || RUN_ORDER.indexOf(rank) < 0) {
      return null;
    }
    return { rank: rank, suit: suit };
  }

  /* A template with %(name)s fields, filled in from `values`. */
  function fill(template, values) {
    return String(template).replace(/%\((\w+)\)[sd]/g, function (match, name) {
      return name in values ? String(values[name]) : match;
    });
  }

  /* Codes of the run from one card to another of the same suit; the ace is high when it is
     the top end (10♥ then A♥), low otherwise, as in the server's 3H-9H notation. */
  function runBetween(firstCode, lastCode) {
    var first = readCard(firstCode);
    var last = readCard(lastCode);
    if (!first || !last || first.suit !== last.suit) {
      return null;
    }
    var low = RUN_ORDER.indexOf(first.rank) + 1;
    var high = RUN_ORDER.indexOf(last.rank) + 1;
    if (last.rank === "A" && low > 1) {
      high = 14;
    } else if (high < low) {
      var swap = low;
      low = high;
      high = swap;
    }
    var codes = [];
    for (var position = low; position <= high; position += 1) {
      codes.push(RUN_ORDER[(position - 1) % 13] + first.suit);
    }
    return codes;
  }

  /* The last token without its last card: "3H-9H" → "3H-8H", "3H-4H" → "3H", "QH" → null. */
  function withoutLastCard(token) {
    var ends = token.split("-");
    if (ends.length !== 2) {
      return null;
    }
    var run = runBetween(ends[0], ends[1]);
    if (!run || run.length < 2) {
      return null;
    }
    run.pop();
    return run.length === 1 ? run[0] : run[0] + "-" + run[run.length - 1];
  }

  function attach(picker) {
    var fixedId = picker.getAttribute("data-card-picker");
    var rangeButton = picker.querySelector("[data-picker-range]");
    var status = picker.querySelector("[data-picker-status]");
    var rangeStart = null;
    var words = JSON.parse(picker.getAttribute("data-words") || "{}");

    function label(code) {
      var card = readCard(code);
      return card ? card.rank + SUIT_SYMBOLS[card.suit] : words.joker || "JK";
    }

    function target() {
      if (fixedId) {
        return document.getElementById(fixedId);
      }
      var form = picker.closest("form");
      return lastFocused || (form || document).querySelector("[data-card-input]");
    }

    function write(input, list) {
      input.value = list.join(" ");
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }

    function say(text) {
      status.textContent = text;
    }

    function setStart(button) {
      var marked = picker.querySelector(".is-range-start");
      if (marked) {
        marked.classList.remove("is-range-start");
      }
      rangeStart = button ? button.getAttribute("data-card") : null;
      if (button) {
        button.classList.add("is-range-start");
      }
    }

    function tapCard(input, button) {
      var code = button.getAttribute("data-card");
      var list = tokens(input.value);
      var inRange = rangeButton && rangeButton.getAttribute("aria-pressed") === "true";
      if (!inRange || code === "JK") {
        write(input, list.concat([code]));
        say("");
        return;
      }
      if (rangeStart === null) {
        setStart(button);
        say(fill(words.from, { card: label(code) }));
        return;
      }
      var run = rangeStart === code ? [code] : runBetween(rangeStart, code);
      if (!run) {
        say(fill(words.one_suit, { card: label(code) }));
        setStart(button);
        return;
      }
      setStart(null);
      write(input, list.concat(run));
      say(fill(words.added, { first: label(run[0]), last: label(run[run.length - 1]) }));
    }

    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      var input = target();
      if (!button || !picker.contains(button)) {
        return;
      }
      if (button === rangeButton) {
        var on = rangeButton.getAttribute("aria-pressed") !== "true";
        rangeButton.setAttribute("aria-pressed", on ? "true" : "false");
        setStart(null);
        say(on ? words.range : "");
        return;
      }
      if (!input) {
        say(words.field_first);
        return;
      }
      if (button.hasAttribute("data-card")) {
        tapCard(input, button);
        return;
      }
      setStart(null); // ⌫ and Clear also drop a run whose first card was tapped
      say("");
      if (button.hasAttribute("data-picker-back")) {
        var list = tokens(input.value);
        var shorter = list.length ? withoutLastCard(list.pop()) : null;
        write(input, shorter ? list.concat([shorter]) : list);
      } else if (button.hasAttribute("data-picker-clear")) {
        write(input, []);
      }
    });

    picker.hidden = false;
  }

  document.querySelectorAll("[data-card-picker]").forEach(attach);
})();
