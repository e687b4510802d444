/*
 * The card notation of the page scripts, in one place: card-picker.js writes it and
 * card-faces.js draws it. A page loads this before them; they take it from
 * window.scorekeeperCards. It is the server's notation (scorekeeper/rules/cards.py) less a
 * few rarer spellings the server also reads (the hollow suits ♤ ♡ ♢ ♧, ☆ and JOKER): the
 * faces draw those struck out, and the picker never writes them.
 *
 * A card is its rank and its suit: 10H, QS, AC. The rank is A, 2 … 10, J, Q, K (T for 10:
 * TH is 10H); the suit is a letter, S H D C, or its symbol, ♠ ♥ ♦ ♣ (10♥ is 10H), in either
 * case. A joker is JK, ★ or X. Cards are separated by spaces, commas or semicolons, and a
 * range of one suit stands for the run between its ends: 3H-9H, ace high at the top end
 * (10H-AH), low otherwise (AH-4H). What the scripts write is letters (10H, JK); symbols are
 * only for showing a card.
 */
(function () {
  "use strict";

  /* The ranks in the order of a run, the ace low; a run ending with the ace wraps to it. */
  var RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  /* The suits: the letter written, the symbol shown, red or black. (The picker's keys are
     drawn by the server, from suit_faces, in this same order.) */
  var SUITS = [
    { letter: "S", symbol: "♠", red: false },
    { letter: "H", symbol: "♥", red: true },
    { letter: "D", symbol: "♦", red: true },
    { letter: "C", symbol: "♣", red: false },
  ];
  var JOKERS = ["JK", "★", "X"];
  var SEPARATORS = /[\s,;]+/;

  var suitBySign = {}; // by letter and by symbol
  SUITS.forEach(function (suit) {
    suitBySign[suit.letter] = suit;
    suitBySign[suit.symbol] = suit;
  });

  /* A field's text as its tokens: cards, ranges, and whatever else was typed. */
  function tokens(text) {
    return String(text).split(SEPARATORS).filter(Boolean);
  }

  function isJoker(token) {
    return JOKERS.indexOf(String(token || "").trim().toUpperCase()) >= 0;
  }

  /* A token as a card, {rank, suit (its letter), symbol, red, code (as written: 10H)}, or
     null for a joker or anything unreadable. */
  function read(token) {
    var word = String(token || "").trim().toUpperCase();
    var suit = suitBySign[word.slice(-1)];
    var rank = word.slice(0, -1);
    if (rank === "T") {
      rank = "10";
    }
    if (!suit || RANKS.indexOf(rank) < 0) {
      return null;
    }
    return {
      rank: rank,
      suit: suit.letter,
      symbol: suit.symbol,
      red: suit.red,
      code: rank + suit.letter,
    };
  }

  /* The cards of a range token (3H-9H), lowest first, or null when the token is no range of
     two cards of one suit. The ace is high when it is the top end (10H-AH), low otherwise. */
  function range(token) {
    var ends = String(token).split("-");
    if (ends.length !== 2) {
      return null;
    }
    var first = read(ends[0]);
    var last = read(ends[1]);
    if (!first || !last || first.suit !== last.suit) {
      return null;
    }
    var low = RANKS.indexOf(first.rank);
    var high = last.rank === "A" && low > 0 ? RANKS.length : RANKS.indexOf(last.rank);
    var cards = [];
    for (var i = Math.min(low, high); i <= Math.max(low, high); i += 1) {
      cards.push(read(RANKS[i % RANKS.length] + first.suit));
    }
    return cards;
  }

  window.scorekeeperCards = {
    RANKS: RANKS,
    SUITS: SUITS,
    JOKERS: JOKERS,
    tokens: tokens,
    isJoker: isJoker,
    read: read,
    range: range,
  };
})();
