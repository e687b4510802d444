/*
 * The outbox: hands saved on this phone while the server could not be reached, kept in
 * localStorage per account and match ("scorekeeper:outbox:<user>:<match>", a list), and sent
 * by themselves when the server answers again: on page load, on the "online" event, when a
 * page becomes visible, and with retries that wait longer each time while a page is open.
 *
 * Each item: {url, match, hand ("new" or a number), draft (its draft's storage key), fields
 * (the form's [[name, value], ...]), key (the idempotency key), version, totals, queued,
 * base (a correction's: what its page kept of the match, engine_files.corrected_base), and
 * phone: {number, totals} once the scoreboard's engine has scored it (the totals after it as
 * "A 665 · B −95")}. A hand sent with those is remembered under "scorekeeper:sent:<user>:
 * <match>" until the scoreboard has held them against the server's.
 * A hand is stored once however often it is sent: the server keeps the first hand saved
 * under a key and answers the same for every retry (two tabs sending at once included).
 *
 * The server's answer decides: saved → the item leaves; refused (4xx) → it becomes its hand's
 * draft again, with the server's errors, and the scoreboard links to it; a server error or
 * no network → it stays and is tried again later. Loaded on every page (base.html) for a
 * signed-in account; draft.js puts hands in with scorekeeperOutbox.add().
 */
(function () {
  "use strict";

  var script = document.currentScript;
  var user = script && script.getAttribute("data-user");
  if (!user || !window.localStorage || !window.fetch || !window.URLSearchParams) {
    return;
  }
  var element = window.scorekeeperHelpers.element;
  var fill = window.scorekeeperHelpers.fill;
  var PREFIX = "scorekeeper:outbox:" + user + ":";
  var DRAFTS = "scorekeeper:draft:" + user + ":";
  var board = document.querySelector("[data-outbox-board]");
  var WORDS = board ? JSON.parse(board.getAttribute("data-words") || "{}") : {};
  var failures = 0;
  var timer = null;

  function load(name) {
    try {
      return JSON.parse(localStorage.getItem(name) || "null");
    } catch (error) {
      return null;
    }
  }

  function store(name, value) {
    if (value && value.length === 0) {
      localStorage.removeItem(name);
    } else {
      localStorage.setItem(name, JSON.stringify(value));
    }
  }

  function names(prefix) {
    var found = [];
    for (var i = 0; i < localStorage.length; i += 1) {
      var name = localStorage.key(i);
      if (name && name.indexOf(prefix) === 0) {
        found.push(name);
      }
    }
    return found.sort();
  }

  /* --- putting a hand in ------------------------------------------------------------------ */

  function add(item) {
    var name = PREFIX + item.match;
    var items = (load(name) || []).filter(function (other) {
      // The same hand again is replaced; so is a correction queued earlier for the same
      // hand, since the newer one holds the whole form.
      var same = other.key === item.key && other.hand === item.hand;
      return !same && (item.hand === "new" || other.hand !== item.hand);
    });
    item.queued = Date.now();
    items.push(item);
    store(name, items);
  }

  /* Remove one item by its idempotency key (after re-reading: another tab may have sent it). */
  function take(item) {
    var name = PREFIX + item.match;
    store(name, (load(name) || []).filter(function (other) {
      return other.key !== item.key || other.hand !== item.hand;
    }));
  }

  /* --- sending ------------------------------------------------------------------------------ */

  /* A CSRF token of the session as it is now: the hand may have waited through a new login,
     and the page it was typed on may have come from the cache. Null when the form is gone
     (the match or hand deleted): the post then gets the server's verdict on that. */
  function freshToken(url) {
    return fetch(url, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (response.redirected || response.status >= 500) {
        throw new Error("signed out, or the server's trouble: try later");
      }
      return response.text().then(function (html) {
        var found = /name="csrf_token" value="([^"]+)"/.exec(html);
        return found ? found[1] : null;
      });
    });
  }

  /* Send one hand; resolves "sent", "refused" or "kept" (tried again later). */
  function send(item) {
    return freshToken(item.url).then(function (token) {
      var body = new URLSearchParams();
      item.fields.forEach(function (pair) {
        if (pair[0] !== "csrf_token" && pair[0] !== "save") {
          body.append(pair[0], pair[1]);
        }
      });
      body.append("csrf_token", token || "");
      body.append("save", "1");
      return fetch(item.url, {
        method: "POST",
        body: body,
        credentials: "same-origin",
        headers: { Accept: "application/json" },
      });
    }).then(function (response) {
      var json = /json/.test(response.headers.get("Content-Type") || "");
      var answer = json ? response.json() : Promise.resolve({});
      return answer.then(function (said) {
        if (response.ok && said.saved) {
          take(item);
          remember(item, said.number);
          return "sent";
        }
        if (response.status >= 500 || said.csrf || response.redirected || response.status < 400) {
          return "kept"; // the server's trouble, or the session's: the hand is fine
        }
        var errors = said.errors && said.errors.length ? said.errors : [fill(WORDS.refused_status, { status: response.status })];
        refuse(item, errors, said.problems || []);
        return "refused";
      });
    }, function () {
      return "kept";
    });
  }

  /* Whether a draft is this very hand (the same idempotency key): a draft written again by a
     page that was leaving, not another hand typed since. */
  function same(draft, item) {
    var found = (draft.fields || []).filter(function (pair) {
      return pair[0] === "key";
    })[0];
    return !!item.key && !!found && found[1] === item.key;
  }

  /* A refused hand becomes its hand's draft again, with what the server said. If another
     draft is being typed in that place, the refused one waits in the outbox, held, until
     that one is saved or discarded: nothing the scorer typed is ever overwritten. */
  function refuse(item, errors, problems) {
    item.errors = errors;
    item.problems = problems;
    var there = load(item.draft);
    if (there && !same(there, item)) {
      item.held = true;
      var name = PREFIX + item.match;
      store(name, (load(name) || []).map(function (other) {
        return other.key === item.key && other.hand === item.hand ? item : other;
      }));
      return;
    }
    localStorage.setItem(item.draft, JSON.stringify({
      fields: item.fields, totals: item.totals, errors: errors, problems: problems,
    }));
    take(item);
  }

  /* One round: every queued hand of this account, match by match, oldest first. It stops at
     the first hand kept back, so hands reach the server in the order they were played. */
  function round() {
    var outcome = { sent: 0, refused: 0, kept: 0 };
    var queue = [];
    names(PREFIX).forEach(function (name) {
      queue = queue.concat(load(name) || []);
    });
    function next(i) {
      if (i >= queue.length || outcome.kept) {
        return Promise.resolve(outcome);
      }
      var item = queue[i];
      if (item.held) {
        // Its place is free again: the refused hand becomes the draft now.
        var there = load(item.draft);
        if (!there || same(there, item)) {
          refuse(item, item.errors || [], item.problems || []);
          outcome.refused += 1;
        }
        return next(i + 1);
      }
      return send(item).then(function (result) {
        outcome[result] += 1;
        return next(i + 1);
      });
    }
    return next(0);
  }

  function flush() {
    window.clearTimeout(timer);
    if (!names(PREFIX).length) {
      return Promise.resolve(null);
    }
    if (!navigator.onLine) {
      return Promise.resolve(null); // the "online" event starts the next round
    }
    // One tab at a time sends (where the browser has Web Locks); the server dedupes anyway.
    var run = navigator.locks
      ? navigator.locks.request("scorekeeper-outbox", round)
      : round();
    return run.then(function (outcome) {
      if (outcome.kept) {
        failures += 1;
        var wait = Math.min(300000, 2000 * Math.pow(2, failures));
        timer = window.setTimeout(flush, wait);
      } else {
        failures = 0;
      }
      if (outcome.sent || outcome.refused) {
        if (board) {
          window.location.reload(); // the scoreboard as the server has it now
          return outcome;
        }
      }
      render();
      return outcome;
    });
  }

  /* --- what the phone said of its hands ------------------------------------------------- */

  var SENT = "scorekeeper:sent:" + user + ":";

  /* A form's [[name, value], ...] as the engine reads a post: {name: [values]}. */
  function asFields(pairs) {
    var all = {};
    (pairs || []).forEach(function (pair) {
      (all[pair[0]] = all[pair[0]] || []).push(pair[1]);
    });
    return all;
  }

  /* The hands of a match that wait to be sent, new ones and corrections, in order (a
     refused one, held, is not going to be saved as it is). */
  function waiting(match) {
    return (load(PREFIX + match) || []).filter(function (item) {
      return !item.held;
    });
  }

  /* As the engine on the phone reads them (offline-engine.js; `Queued` in offline_score.py):
     a new hand typed now follows them, corrections included. */
  function forEngine(items) {
    return items.map(function (item) {
      return { hand: item.hand, fields: asFields(item.fields), base: item.base || null };
    });
  }

  function queued(match) {
    return forEngine(waiting(match));
  }

  /* A hand the server saved, with the totals after it that this phone showed: the
     scoreboard holds them against the server's (checkSent). */
  function remember(item, number) {
    if (!item.phone || !item.phone.totals || !number) {
      return;
    }
    var name = SENT + item.match;
    var sent = (load(name) || []).filter(function (other) {
      return other.key !== item.key;
    });
    sent.push({ key: item.key, number: number, phone: item.phone.totals });
    store(name, sent.slice(-50)); // one past the scoreboard's newest hands is not kept forever
  }

  /* --- the scoreboard: what waits on this phone ------------------------------------------ */

  function formUrl(match, hand) {
    return "/matches/" + match + "/hands/" + (hand === "new" ? "new" : hand + "/edit");
  }

  function line(list, title, text, link) {
    list.appendChild(element("li", "outbox-item" + (link ? " outbox-refused" : ""), [
      element("p", "outbox-title", title),
      element("p", "outbox-text", text),
      link ? element("a", "button button-secondary", WORDS.fix, { href: link }) : null,
    ]));
  }

  function titleOf(hand) {
    return hand === "new" ? WORDS.new_hand : fill(WORDS.correction, { number: hand });
  }

  function totalsOf(totals) {
    if (!totals || !totals.length) {
      return WORDS.totals_unknown;
    }
    return fill(WORDS.totals, {
      totals: totals.map(function (side) {
        return side.name + " " + side.total;
      }).join(" · "),
    });
  }

  function sideText(sides, key) {
    return sides.map(function (side) {
      return side.name + " " + side[key];
    }).join(" · ");
  }

  /* A hand waiting on the phone as the engine scored it: a new one numbered after the
     server's last hand, or the correction of an earlier one, with its kózi, each side's
     score and the totals after it (a correction's move every hand after it). */
  function queuedLine(hand) {
    var kozi = hand.kozi
      ? element("span", "kozi-mark" + (hand.red ? " red" : ""), hand.kozi, { title: WORDS.kozi })
      : null;
    var title = element("p", "outbox-title", [
      fill(hand.correction ? WORDS.correction : WORDS.hand, { number: hand.number }),
      kozi ? " " : "", kozi, " ",
      element("span", "badge badge-warn", WORDS.not_sent),
    ]);
    var known = hand.totals.length > 0;
    return element("li", "outbox-item outbox-queued" + (hand.correction ? " outbox-correction" : ""), [
      title,
      known ? element("p", "outbox-scores", sideText(hand.scores, "score")) : null,
      element("p", "outbox-text", known
        ? fill(WORDS.after, { totals: sideText(hand.totals, "total") })
        : WORDS.totals_unknown),
    ], { "data-queued-number": String(hand.number) });
  }

  var drawing = 0;

  /* The standings cards as the phone has them: the totals (and next opening needs) once
     the `count` hands waiting here are played, marked as not sent yet; the server's again
     when the page is drawn anew. */
  function drawStandings(standings, count) {
    var summary = document.querySelector("[data-live-region='summary']");
    var list = summary && summary.querySelector(".standings");
    if (!list || !standings.length) {
      return;
    }
    var byName = {};
    standings.forEach(function (side) {
      byName[side.name] = side;
    });
    list.querySelectorAll(".standing").forEach(function (card) {
      var name = card.querySelector(".standing-name");
      var side = name && byName[name.textContent];
      var total = card.querySelector("[data-total]");
      if (!side || !total) {
        return;
      }
      if (!total.hasAttribute("data-server-total")) {
        total.setAttribute("data-server-total", total.textContent);
      }
      total.textContent = side.total;
      total.classList.add("standing-total-phone");
      total.setAttribute("title", fill(WORDS.server_total, { total: total.getAttribute("data-server-total") }));
      var bar = card.querySelector(".standing-bar");
      if (bar) {
        bar.value = side.progress;
      }
      var opening = card.querySelector(".standing-opening strong");
      if (opening) {
        opening.textContent = side.opening;
      }
    });
    var note = summary.querySelector("[data-standings-phone]");
    if (!note) {
      note = element("p", "standings-phone", "", { "data-standings-phone": "" });
      list.parentNode.insertBefore(note, list);
    }
    note.textContent = fill(count === 1 ? WORDS.phone_totals_one : WORDS.phone_totals, { count: count });
  }

  /* The engine on the phone scores the waiting hands (offline-engine.js, started only
     now): new ones on from the server's last one, corrections against the hand they
     correct, moving every total after it. The rows become numbered hands with their totals,
     the standings cards show where the match stands here, the phone's figures are kept
     with each hand to hold against the server's once it is sent, and who deals next
     counts the new ones. */
  function drawQueued(match, list, rows) {
    var engine = window.scorekeeperOfflineEngine;
    var items = waiting(match);
    if (!engine || !engine.progress || !items.length) {
      return;
    }
    drawing += 1;
    var asked = drawing;
    engine.progress(forEngine(items)).then(function (answer) {
      if (asked !== drawing) {
        return; // drawn again meanwhile
      }
      var phone = {};
      answer.hands.forEach(function (hand, i) {
        var row = rows[i];
        if (row) {
          list.replaceChild(queuedLine(hand), row);
        }
        phone[items[i].key + ":" + items[i].hand] = { number: hand.number, totals: hand.totals.length ? sideText(hand.totals, "total") : null };
      });
      keepPhone(match, phone);
      drawStandings(answer.standings || [], items.length);
      // Who deals next counts these hands: the scoreboard's own line says so (the server
      // drew it for a running match), and the list ends with it.
      var line = document.querySelector("[data-live-region='summary'] .next-dealer");
      var order = document.querySelector("[data-live-region='summary'] [data-deal-order]");
      var end = answer.winner ? fill(WORDS.won, { winner: answer.winner }) : null;
      if (!end && answer.next_dealer && line && line.querySelector("strong")) {
        line.querySelector("strong").textContent = answer.next_dealer;
        if (order) {
          order.textContent = answer.deal_order;
        }
        end = Array.prototype.slice.call(line.cloneNode(true).childNodes);
      }
      if (end) {
        list.appendChild(element("li", "outbox-item outbox-next", [element("p", "outbox-title", end)]));
      }
    }, function () {});
  }

  /* The phone's figures, with each waiting hand (read again: another tab may have sent one). */
  function keepPhone(match, phone) {
    var name = PREFIX + match;
    var changed = false;
    var items = (load(name) || []).map(function (item) {
      var mine = phone[item.key + ":" + item.hand];
      if (mine && JSON.stringify(item.phone) !== JSON.stringify(mine)) {
        item.phone = mine;
        changed = true;
      }
      return item;
    });
    if (changed) {
      store(name, items);
    }
  }

  /* Back online, the server's answer is the truth: a hand it saved whose totals after it
     differ from what this phone showed is said so, until it is read (OK). The same totals
     say nothing, and are forgotten. While hands still wait, they are not held against the
     server's yet: the phone's totals count those too (a correction sent later moves them). */
  function checkSent(match, list) {
    var name = SENT + match;
    if ((load(PREFIX + match) || []).length) {
      return;
    }
    var kept = (load(name) || []).filter(function (sent) {
      var row = document.getElementById("hand-" + sent.number);
      var server = row && row.getAttribute("data-totals-after");
      if (!server) {
        return !row; // not on this page (yet): held against a later one
      }
      if (server === sent.phone) {
        return false;
      }
      var ok = element("button", "button button-secondary", WORDS.ok, { type: "button" });
      ok.addEventListener("click", function () {
        store(name, (load(name) || []).filter(function (other) {
          return other.key !== sent.key;
        }));
        render();
      });
      list.appendChild(element("li", "outbox-item outbox-refused outbox-differs", [
        element("p", "outbox-text", fill(WORDS.differs, {
          number: sent.number, server: server, phone: sent.phone,
        })),
        ok,
      ]));
      return true;
    });
    store(name, kept);
  }

  function render() {
    if (!board) {
      return;
    }
    var match = board.getAttribute("data-match");
    var list = board.querySelector("[data-outbox-list]");
    var rows = [];
    list.textContent = "";
    drawing += 1;
    (load(PREFIX + match) || []).forEach(function (item) {
      if (item.held) {
        line(list, titleOf(item.hand), WORDS.refused + " " + (item.errors || [])[0], item.url);
      } else {
        line(list, titleOf(item.hand) + " · " + WORDS.waiting, totalsOf(item.totals));
        rows.push(list.lastChild); // in the order of waiting(match): the engine's rows
      }
    });
    checkSent(match, list);
    drawQueued(match, list, rows);
    names(DRAFTS + match + ":").forEach(function (name) {
      var draft = load(name);
      if (draft && draft.errors && draft.errors.length) {
        var hand = name.slice((DRAFTS + match + ":").length);
        line(list, titleOf(hand), WORDS.refused + " " + draft.errors[0], formUrl(match, hand));
      }
    });
    board.hidden = !list.children.length;
    renumber();
  }

  /* The page was drawn before the queued hands were played: "Hand 3" and "Enter hand 3"
     become "Hand 5" when hands 3 and 4 wait on this phone, and a tournament table's state
     ("Waiting for the first hand", "1 of 3 deals") says how many hands wait here. */
  function renumber() {
    var form = document.querySelector("[data-hand-entry][data-hand='new'][data-next-number]");
    var match = form ? form.getAttribute("data-match") : board && board.getAttribute("data-match");
    if (!match) {
      return;
    }
    var waiting = (load(PREFIX + match) || []).filter(function (item) {
      return item.hand === "new";
    }).length;
    if (!waiting) {
      return;
    }
    var state = document.querySelector("[data-table-status]");
    if (state) {
      state.textContent = fill(waiting === 1 ? WORDS.table_queued_one : WORDS.table_queued, {
        count: waiting,
      });
    }
    // A tournament table's page names its new hand by the link (/tables/<secret>/hands/new).
    var links = document.querySelectorAll(
      "a[href$='/matches/" + match + "/hands/new'], a[data-enter-next]");
    var places = form ? [document.querySelector("h1"), form.querySelector("[data-save]")] : links;
    Array.prototype.forEach.call(places, function (place) {
      if (!place) {
        return;
      }
      var drawn = place.getAttribute("data-drawn") || place.textContent;
      place.setAttribute("data-drawn", drawn);
      place.textContent = drawn.replace(/\d+/, function (number) {
        return String(Number(number) + waiting);
      });
    });
  }

  window.scorekeeperOutbox = { add: add, flush: flush, queued: queued };
  renumber();

  render();
  // Once every deferred script has run (offline-engine.js comes after this one): the
  // waiting hands scored by the engine on the phone.
  document.addEventListener("DOMContentLoaded", function () {
    if (board && window.scorekeeperOfflineEngine && waiting(board.getAttribute("data-match")).length) {
      render();
    }
  });
  // live.js drew the summary anew (another phone saved a hand): the cards are the server's
  // again, and the hands waiting here are counted on from them.
  document.addEventListener("live:updated", function () {
    if (board && waiting(board.getAttribute("data-match")).length) {
      render();
    }
  });
  flush();
  window.addEventListener("online", function () {
    failures = 0;
    flush();
  });
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") {
      flush();
    }
  });
  function count(text) {
    try {
      return (JSON.parse(text || "[]") || []).length;
    } catch (error) {
      return 0;
    }
  }

  window.addEventListener("storage", function (event) {
    if (!event.key || (event.key.indexOf(PREFIX) !== 0 && event.key.indexOf(DRAFTS) !== 0)) {
      return;
    }
    // Another tab sent a hand of this scoreboard: show it as the server has it now.
    var mine = board && event.key === PREFIX + board.getAttribute("data-match");
    if (mine && navigator.onLine && count(event.newValue) < count(event.oldValue)) {
      window.location.reload();
      return;
    }
    render(); // another tab queued a hand, or made one a draft
  });
})();
