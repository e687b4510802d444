/*
 * Card picker: tap cards into a text input. Markup, options, usage and the rules for runs and
 * new melds are documented at the top of templates/macros/cards.html.
 *
 * The input is the source of truth: every tap reads its text, changes it and writes it back,
 * then fires a bubbling "input" event so page scripts (live verdicts, drafts, card faces) hear
 * taps exactly as they hear typing. What it says comes, in the page's language, from the
 * picker's data-words (picker_words() in scorekeeper/words/game_words.py): templates whose
 * %(name)s fields fill() fills in. The card notation is cards.js's and fill() is helpers.js's:
 * the page loads both first.
 */
(function () {
  "use strict";

  var CARDS = window.scorekeeperCards;
  var RUN_ORDER = CARDS.RANKS;
  var tokens = CARDS.tokens;
  var readCard = CARDS.read; // {rank, suit (its letter), symbol}, or null for a joker
  var fill = window.scorekeeperHelpers.fill;
  // A field focused before this script ran (tapped while a slow page loaded) is the target too.
  var lastFocused =
    document.activeElement && document.activeElement.matches &&
    document.activeElement.matches("[data-card-input]") ? document.activeElement : null;

  // Any [data-card-input] that gets focus becomes the target of the pickers without a fixed one.
  document.addEventListener("focusin", function (event) {
    if (event.target.matches && event.target.matches("[data-card-input]")) {
      lastFocused = event.target;
    }
  });

  /* A card that can be natural at either end of a filled-in run: neither a joker nor a 2. */
  function natural(token) {
    var card = readCard(token);
    return card && card.rank !== "2" ? card : null;
  }

  /* --- a run by its ends ------------------------------------------------------------------
     A tap on a natural card of the run's suit, beyond either end of the run the field holds
     with at least one rank between, fills in the ranks between that end and the card, at
     that end of the field: 5♠ 6♠ 7♠ then 3♠ writes 3♠ 4♠ 5♠ 6♠ 7♠, and 5♠ 6♠ 7♠ then 10♠
     writes 5♠ … 10♠. No rank is ever written twice: a card inside the run, or next to one of
     its ends, is just one more card. A field of one natural card is filled towards the tap
     (J♠ then 5♠ writes J♠ 10♠ … 5♠, the order of the taps). Runs are tapped in their order,
     so a wild card (a joker, a 2) before or after the naturals holds the rank beyond them
     (9♠ JK then J♠ fills in nothing: the joker is the 10), and a 2 of the run's suit may be
     the 2 itself. The ace sits low or high as the variant's ace rule (the form's data-ace:
     low_or_high, both_ends, low_only or high_only) allows, at whichever end fills in fewest
     cards (10♥ then A♥ ends with the ace high; A♣ then 4♣ starts with it low). */

  var LOWEST = { low_or_high: 1, both_ends: 1, low_only: 1, high_only: 2 };
  var HIGHEST = { low_or_high: 14, both_ends: 14, low_only: 13, high_only: 14 };

  /* The places (1 = ace low … 13 = king, 14 = ace high) a rank may take under `rule`. */
  function placesOf(rank, rule) {
    if (rank !== "A") {
      return [RUN_ORDER.indexOf(rank) + 1];
    }
    return [1, 14].filter(function (place) {
      return place >= LOWEST[rule] && place <= HIGHEST[rule];
    });
  }

  function codeAt(place, suit) {
    return RUN_ORDER[(place - 1) % 13] + suit;
  }

  /* Every way to read the field's tokens as a run with `suit`: each token a natural with a
     place, or a wild card (null); a suited 2 either way, an ace at each place it may take. */
  function readings(list, suit, rule) {
    var ways = [[]];
    for (var i = 0; i < list.length; i += 1) {
      var card = readCard(list[i]);
      var options;
      if (CARDS.isJoker(list[i])) {
        options = [null];
      } else if (!card) {
        return []; // a typed range or an unreadable token: no guessing
      } else if (card.rank === "2") {
        options = card.suit === suit ? [2, null] : [null];
      } else if (card.suit !== suit) {
        return []; // a set, or another suit's card: no run to fill
      } else {
        options = placesOf(card.rank, rule);
      }
      var next = [];
      ways.forEach(function (way) {
        options.forEach(function (place) {
          next.push(way.concat([place]));
        });
      });
      ways = next;
    }
    return ways;
  }

  /* What tapping the natural at `place` does to the run `way` reads (the places of the field's
     tokens, null for a wild): {cards, atStart} for the cards to write and which end of the
     field they go to, {cards: []} when it is one more card, or null when `way` is no run. */
  function fillFor(way, place, suit, rule) {
    var naturals = way.filter(function (p) {
      return p !== null;
    });
    if (!naturals.length) {
      return null;
    }
    var first = way.indexOf(naturals[0]);
    var last = way.lastIndexOf(naturals[naturals.length - 1]);
    var leading = first;
    var trailing = way.length - 1 - last;
    var lo = Math.min.apply(null, naturals);
    var hi = Math.max.apply(null, naturals);
    var wilds = way.length - naturals.length;
    // No rank twice, and the gaps between the naturals within the wild cards' reach.
    var distinct = naturals.every(function (p, i) {
      return naturals.indexOf(p) === i;
    });
    if (!distinct || hi - lo + 1 - naturals.length > wilds) {
      return null;
    }
    var rising = naturals.every(function (p, i) {
      return i === 0 || p > naturals[i - 1];
    });
    var falling = naturals.every(function (p, i) {
      return i === 0 || p < naturals[i - 1];
    });
    var up;
    if (naturals.length > 1 && (rising || falling)) {
      up = rising;
    } else {
      up = place > hi; // one natural, or typed out of order: the tap says which way
    }
    // The wild cards before and after the naturals hold the ranks beyond them.
    lo -= up ? leading : trailing;
    hi += up ? trailing : leading;
    if (place >= lo && place <= hi) {
      return { cards: [] }; // inside the run: one more card
    }
    var low = Math.min(lo, place);
    var high = Math.max(hi, place);
    var longest = rule === "both_ends" ? 14 : 13;
    if (low < LOWEST[rule] || high > HIGHEST[rule] || high - low + 1 > longest) {
      return null;
    }
    var below = place < lo;
    var cards = [];
    var from = below ? lo - 1 : hi + 1;
    var step = below ? -1 : 1;
    for (var p = from; p !== place + step; p += step) {
      cards.push(codeAt(p, suit));
    }
    if (cards.length < 2) {
      return { cards: [] }; // a neighbour of an end: one more card
    }
    // The run's low end is the field's start when it rises; what goes at the start is
    // written in the field's order.
    var atStart = naturals.length > 1 && (rising || falling) && below === up;
    return { cards: atStart ? cards.reverse() : cards, atStart: atStart };
  }

  /* The field's tokens once the tapped card fills in the run (the tapped card written last
     or the filled cards first), or null when the tap is just one more card. */
  function filledRun(list, tappedCode, rule) {
    var tapped = readCard(tappedCode);
    if (!list.length || !tapped || tapped.rank === "2" || CARDS.isJoker(tappedCode)) {
      return null;
    }
    rule = LOWEST[rule] ? rule : "low_or_high";
    var best = null;
    readings(list, tapped.suit, rule).forEach(function (way) {
      placesOf(tapped.rank, rule).forEach(function (place) {
        if (way.indexOf(place) >= 0) {
          return;
        }
        var fill = fillFor(way, place, tapped.suit, rule);
        // The reading that fills in fewest cards wins; one that needs none, none at all.
        if (fill && (!best || fill.cards.length < best.cards.length ||
            (fill.cards.length === best.cards.length && best.atStart && !fill.atStart))) {
          best = fill;
        }
      });
    });
    if (!best || !best.cards.length) {
      return null;
    }
    return best.atStart ? best.cards.concat(list) : list.concat(best.cards);
  }

  /* Whether `code` cannot belong to the meld `list` holds, so it starts the next one: the meld
     has three cards or more, its naturals (2s and jokers aside) make a set of one rank or a
     run of one suit, and the card is a natural of another rank (set) or of another suit or a
     rank already in it (run; under the ace rule `rule` "both_ends", a second ace may close a
     run). Wild cards always join; a mixed meld is left to the scorer. */
  function startsNewMeld(list, code, rule) {
    var card = natural(code);
    if (!card || list.length < 3) {
      return false;
    }
    var readable = list.every(function (token) {
      return readCard(token) || CARDS.isJoker(token);
    });
    var naturals = list.map(natural).filter(Boolean);
    if (!readable || !naturals.length) {
      return false; // a typed range, an unreadable token or wild cards only: no guessing
    }
    var oneRank = naturals.every(function (c) {
      return c.rank === naturals[0].rank;
    });
    if (oneRank && naturals.length >= 2) {
      return card.rank !== naturals[0].rank;
    }
    var oneSuit = naturals.every(function (c) {
      return c.suit === naturals[0].suit;
    });
    if (!oneSuit) {
      return false;
    }
    var ranks = naturals.filter(function (c) {
      return c.rank === card.rank;
    }).length;
    // Where a run may hold an ace at both ends, a second ace may close it.
    var room = rule === "both_ends" && card.rank === "A" ? 2 : 1;
    return card.suit !== naturals[0].suit || ranks >= room;
  }

  /* --- a set by its rank ------------------------------------------------------------------
     While a meld holds a set in the making (one or two cards; its naturals, 2s and jokers
     aside, all of one rank) that lacks two suits or more of that rank, one key writes the card of each suit
     it lacks, in the picker's order of suits: after 10♥ it writes 10♠ 10♦ 10♣. A set's
     order scores nothing, and the key names the cards it writes, so a set of all four
     suits is two taps and never a card the scorer did not see. */
  function otherSuits(list) {
    if (!list.length || list.length > 2) {
      return null; // from three cards on, a meld is whole: "Add meld" has the key's place
    }
    var naturals = [];
    for (var i = 0; i < list.length; i += 1) {
      var card = readCard(list[i]);
      if (!card && !CARDS.isJoker(list[i])) {
        return null; // a typed range or an unreadable token: no guessing
      }
      if (card && card.rank !== "2") {
        naturals.push(card);
      }
    }
    if (!naturals.length) {
      return null;
    }
    var rank = naturals[0].rank;
    if (!naturals.every(function (c) { return c.rank === rank; })) {
      return null;
    }
    var missing = CARDS.SUITS.filter(function (suit) {
      return !naturals.some(function (c) { return c.suit === suit.letter; });
    }).map(function (suit) {
      return rank + suit.letter;
    });
    return missing.length >= 2 ? missing : null;
  }

  /* --- a set of three by its first card ---------------------------------------------------
     While a meld holds one natural card and nothing else (so three suits of its rank are
     missing), three more keys each write two of those suits, in the picker's order of suits:
     after K♥, +♠♦ writes K♠ K♦, +♠♣ writes K♠ K♣ and +♦♣ writes K♦ K♣. A set of three is
     then two taps, its first card and the suit it leaves out, as a set of four is with the
     set key. A 2 or a joker alone starts no set by its rank; with two cards in, the set key
     alone is left. */
  function threeSets(list) {
    if (list.length !== 1 || !natural(list[0])) {
      return null;
    }
    var missing = otherSuits(list);
    if (!missing || missing.length !== 3) {
      return null;
    }
    return [
      [missing[0], missing[1]],
      [missing[0], missing[2]],
      [missing[1], missing[2]],
    ];
  }

  /* The last token without its last card: "3H-9H" → "3H-8H", "3H-4H" → "3H", "QH" → null. */
  function withoutLastCard(token) {
    var run = CARDS.range(token);
    if (!run || run.length < 2) {
      return null;
    }
    run.pop();
    var first = run[0].code;
    return run.length === 1 ? first : first + "-" + run[run.length - 1].code;
  }

  function attach(picker) {
    var fixedId = picker.getAttribute("data-card-picker");
    var status = picker.querySelector("[data-picker-status]");
    var keyboardButton = picker.querySelector("[data-picker-keyboard]");
    var suitsButton = picker.querySelector("[data-picker-suits]");
    // The three-card set keys, and the strip under the grid that holds them.
    var setsStrip = picker.querySelector("[data-picker-sets]");
    var setButtons = Array.prototype.slice.call(picker.querySelectorAll("[data-picker-set]"));
    var words = JSON.parse(picker.getAttribute("data-words") || "{}");
    var form = picker.closest("form");
    var scope = fixedId ? null : form || document;
    // The last automatic step (a run filled in, a meld started), which ⌫ takes back whole.
    var undo = null;
    var writing = false;

    /* The variant's ace rule, where the page gives it (the hand form's data-ace). */
    function aceRule() {
      var holder = picker.closest("[data-ace]") || (fixedId && document.querySelector("[data-ace]"));
      return holder ? holder.getAttribute("data-ace") : "low_or_high";
    }

    function label(code) {
      var card = readCard(code);
      return card ? card.rank + card.symbol : words.joker || "JK";
    }

    function cardInputs() {
      if (fixedId) {
        var one = document.getElementById(fixedId);
        return one ? [one] : [];
      }
      return Array.prototype.slice.call(scope.querySelectorAll("[data-card-input]"));
    }

    function target() {
      if (fixedId) {
        return document.getElementById(fixedId);
      }
      return lastFocused && scope.contains(lastFocused)
        ? lastFocused
        : scope.querySelector("[data-card-input]");
    }

    /* Runs are filled in and melds started only in meld fields (a hand's cards left are any
       cards, and two of a suit there are no run). */
    function isMeld(input) {
      return Boolean(fixedId) || input.hasAttribute("data-meld");
    }

    function write(input, list) {
      writing = true;
      input.value = list.join(" ");
      input.dispatchEvent(new Event("input", { bubbles: true }));
      writing = false;
      showSuits();
    }

    /* A key that adds suits to a set: "+" and the suits it writes (the rank is the set's),
       red suits in red, and a spoken name that lists the cards. */
    function nameKey(button, cards) {
      button.disabled = !cards;
      button.setAttribute("data-cards", cards ? cards.join(" ") : "");
      if (!cards) {
        return;
      }
      button.textContent = "+";
      cards.forEach(function (code) {
        var card = readCard(code);
        var suit = document.createElement("span");
        suit.textContent = card.symbol;
        if (card.red) {
          suit.className = "red";
        }
        button.appendChild(suit);
      });
      button.setAttribute("aria-label", fill(words.suits_key, { cards: cards.map(label).join(" ") }));
    }

    /* The set key: on, naming the cards it writes, while the field in use is a meld that a
       set's other suits could finish; off (its place kept, so no key moves) otherwise. The
       three-card set keys: on while that meld is one natural card, their strip under the
       grid shown only then (below every key, so none moves). */
    function showSuits() {
      var input = target();
      var list = input && isMeld(input) ? tokens(input.value) : [];
      if (suitsButton) {
        nameKey(suitsButton, otherSuits(list));
      }
      var sets = threeSets(list);
      setButtons.forEach(function (button, i) {
        nameKey(button, sets ? sets[i] : null);
      });
      if (setsStrip) {
        setsStrip.hidden = !sets;
      }
    }

    /* A set key's tap: its cards after the meld's, taken back whole by ⌫. */
    function addSuits(input, list, cards) {
      write(input, list.concat(cards));
      undo = { kind: "suits", input: input, value: list, cards: cards };
      say(fill(words.suits_added, { cards: cards.map(label).join(" ") }));
    }

    function say(text) {
      status.textContent = text || "";
    }

    /* --- where the picker is: in sight, and still under the finger ----------------------- */

    /* In a dock (the hand form's, static/js/entry-dock.js) the picker never moves: the dock
       keeps the field in sight above it, and nothing here scrolls the page. */
    function docked() {
      return Boolean(picker.closest("[data-entry-dock]"));
    }

    // Room kept above the keys for the field and what grows under it as cards go in (card
    // faces, the verdict), so neither the field nor the keys leave the screen meanwhile.
    var ROOM_ABOVE = 168;

    /* On a new field: the picker at the same height on the screen every time, with room
       above it for the field (or as high as shows every key, on a short screen). */
    function keepInSight() {
      window.requestAnimationFrame(function () {
        window.scorekeeperHelpers.whenLifted(placeKeys);
      });
    }

    function placeKeys() {
      if (picker.hidden || docked()) {
        return;
      }
      watchHolder(); // the page has moved the picker under the field by now
      var box = picker.getBoundingClientRect();
      var blocks = picker.querySelectorAll(".picker-block");
      var keysBottom = blocks.length ? blocks[blocks.length - 1].getBoundingClientRect().bottom : box.bottom;
      // Room under the grid for the three-card set keys, which come with a meld's first
      // card: a row as tall as the tools', so they come in sight and no key moves for them.
      var tools = picker.querySelector(".picker-tools");
      var strip = setsStrip && tools
        ? tools.getBoundingClientRect().height + (parseFloat(window.getComputedStyle(picker).rowGap) || 0)
        : 0;
      // The lowest top that still shows every key (the status line under them may go below).
      var lowest = window.innerHeight - (keysBottom + strip - box.top) - 8;
      var wanted = Math.max(0, Math.min(ROOM_ABOVE, lowest));
      if (Math.abs(box.top - wanted) > 4) {
        window.scrollBy(0, box.top - wanted);
      }
    }

    /* While cards go in, what grows above the keys (faces, a verdict) scrolls the page by as
       much: the keys stay where the finger is. */
    var holder = null;
    var holderHeight = 0;
    var moving = false;
    function followGrowth() {
      var height = holder ? holder.getBoundingClientRect().height : 0;
      if (holder && !picker.hidden && !docked() && picker.previousElementSibling === holder) {
        window.scrollBy(0, height - holderHeight);
      }
      holderHeight = height;
    }

    // Not under a pressed finger (helpers.js): the growth is followed once the tap has landed.
    var growth = window.ResizeObserver
      ? new window.ResizeObserver(function () {
          window.scorekeeperHelpers.whenLifted(followGrowth);
        })
      : null;

    function watchHolder() {
      var above = picker.previousElementSibling;
      if (!growth || above === holder) {
        return;
      }
      if (holder) {
        growth.unobserve(holder);
      }
      holder = above;
      holderHeight = holder ? holder.getBoundingClientRect().height : 0;
      if (holder) {
        growth.observe(holder);
      }
    }

    if (!fixedId) {
      // The picker keeps its keys still itself; the browser's own scroll anchoring would
      // move the page a second time for the same change.
      document.documentElement.style.overflowAnchor = "none";
      (form || document).addEventListener("focusin", function (event) {
        // A focus the picker moves itself (a new meld, one taken back) keeps the keys put.
        if (!moving && event.target.matches && event.target.matches("[data-card-input]")) {
          keepInSight();
        }
      });
    }

    /* The next meld row of the same side, opened with the side's "Add meld" button (the page
       owns its rows); null when this field is not the last meld in use or there is none. */
    function nextMeldField(input) {
      var row = input.closest("[data-meld-row]");
      var list = row && row.closest("[data-meld-list]");
      var add = list && list.parentNode.querySelector("[data-add-meld]");
      if (!add || add.hidden) {
        return null;
      }
      var rows = Array.prototype.slice.call(list.querySelectorAll("[data-meld-row]"));
      var later = rows.slice(rows.indexOf(row) + 1).some(function (other) {
        return !other.hidden && other.querySelector("input").value.trim();
      });
      if (later) {
        return null; // correcting an earlier meld: taps stay in it
      }
      var before = picker.getBoundingClientRect().top;
      moving = true;
      add.click();
      moving = false;
      var next = document.activeElement;
      if (!next || next === input || !next.matches("[data-card-input]")) {
        return null;
      }
      lastFocused = next;
      // The picker followed the field down a row: scroll by as much, so no key moved.
      window.scrollBy(0, picker.getBoundingClientRect().top - before);
      watchHolder();
      return next;
    }

    function tapCard(input, code) {
      var list = tokens(input.value);
      if (isMeld(input) && startsNewMeld(list, code, aceRule())) {
        var next = nextMeldField(input);
        if (next) {
          write(next, [code]);
          undo = { kind: "meld", input: next, from: input, card: code };
          say(fill(words.new_meld, { card: label(code) }));
          return;
        }
      }
      var run = isMeld(input) ? filledRun(list, code, aceRule()) : null;
      if (run) {
        write(input, run);
        undo = { kind: "run", input: input, value: list.concat([code]) };
        var ends = run.filter(natural);
        say(fill(words.filled, { first: label(ends[0]), last: label(ends[ends.length - 1]) }));
        return;
      }
      write(input, list.concat([code]));
      undo = null;
      say("");
    }

    function takeBack(input) {
      if (undo && undo.input === input) {
        var step = undo;
        undo = null;
        if (step.kind === "run") {
          write(input, step.value);
          say(fill(words.run_undone, { card: label(step.value[step.value.length - 1]) }));
        } else if (step.kind === "suits") {
          write(input, step.value);
          say(fill(words.suits_undone, { cards: step.cards.map(label).join(" ") }));
        } else {
          write(input, []);
          var before = picker.getBoundingClientRect().top;
          moving = true;
          step.from.focus({ preventScroll: true });
          moving = false;
          lastFocused = step.from;
          window.scrollBy(0, picker.getBoundingClientRect().top - before);
          watchHolder();
          write(step.from, tokens(step.from.value).concat([step.card]));
          say(fill(words.meld_undone, { card: label(step.card) }));
        }
        return;
      }
      var list = tokens(input.value);
      var shorter = list.length ? withoutLastCard(list.pop()) : null;
      write(input, shorter ? list.concat([shorter]) : list);
      say("");
    }

    /* --- the phone's own keyboard: away while the picker is in use, one key brings it ----- */

    function setTyping(on) {
      cardInputs().forEach(function (input) {
        input.setAttribute("inputmode", on ? "text" : "none");
      });
      if (keyboardButton) {
        keyboardButton.setAttribute("aria-pressed", on ? "true" : "false");
      }
    }

    // Rows the page adds later are clones of these, so they carry the attribute too.
    setTyping(false);

    // Typing by hand drops the last automatic step: ⌫ then removes a card again.
    (fixedId ? document : scope).addEventListener("input", function (event) {
      if (!writing && undo && event.target === undo.input) {
        undo = null;
      }
      if (!writing) {
        showSuits();
      }
    });
    // Another field, another meld: the set key follows it (after the picker's own focusin,
    // which makes it the field in use).
    (fixedId ? document : scope).addEventListener("focusin", function (event) {
      if (event.target.matches && event.target.matches("[data-card-input]")) {
        window.setTimeout(showSuits, 0);
      }
    });

    /* A hand's first card field opens by itself once the kózi is chosen, so no tap is spent
       on reaching it; only while no card field has been used and the first meld is empty. */
    if (form && !fixedId) {
      form.addEventListener("change", function (event) {
        var first = form.querySelector("[data-meld]");
        if (!event.target.matches("[data-kozi], [name='kozi']") || lastFocused || !first || first.value) {
          return;
        }
        first.focus({ preventScroll: true });
      });
    }

    picker.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button || !picker.contains(button)) {
        return;
      }
      var input = target();
      if (button === keyboardButton) {
        var on = keyboardButton.getAttribute("aria-pressed") !== "true";
        setTyping(on);
        if (input) {
          input.blur(); // the keyboard shows on the next focus, not on a mode change
          input.focus({ preventScroll: true });
        }
        say(on ? words.typing : "");
        return;
      }
      if (!input) {
        say(words.field_first);
        return;
      }
      if (button.hasAttribute("data-card")) {
        tapCard(input, button.getAttribute("data-card"));
      } else if (button === suitsButton || setButtons.indexOf(button) >= 0) {
        // What the meld holds now decides the cards, not what the key last showed.
        var list = isMeld(input) ? tokens(input.value) : [];
        var sets = threeSets(list);
        var cards = button === suitsButton
          ? otherSuits(list)
          : sets && sets[setButtons.indexOf(button)];
        if (cards && isMeld(input)) {
          addSuits(input, list, cards);
        }
      } else if (button.hasAttribute("data-picker-back")) {
        takeBack(input);
      } else if (button.hasAttribute("data-picker-clear")) {
        undo = null;
        write(input, []);
        say("");
      }
    });

    showSuits();
    picker.setAttribute("data-picker-ready", "");
    // A hand form's picker opens under the field in use, or in its dock (hand-entry.js, which
    // loads after this): shown here first, a key tapped before that script ran vanished under
    // the finger as it folded the picker away.
    if (!picker.closest("[data-hand-entry]")) {
      picker.hidden = false;
    }
  }

  document.querySelectorAll("[data-card-picker]").forEach(attach);
})();
