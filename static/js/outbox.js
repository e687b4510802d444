/*
 * The outbox: hands saved on this phone while the server could not be reached, kept in
 * localStorage per account and match ("scorekeeper:outbox:<user>:<match>", a list), and sent
 * by themselves when the server answers again: on page load, on the "online" event, when a
 * page becomes visible, and with retries that wait longer each time while a page is open.
 *
 * Each item: {url, match, hand ("new" or a number), draft (its draft's storage key), fields
 * (the form's [[name, value], ...]), key (the idempotency key), version, totals, queued}.
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

  function render() {
    if (!board) {
      return;
    }
    var match = board.getAttribute("data-match");
    var list = board.querySelector("[data-outbox-list]");
    list.textContent = "";
    (load(PREFIX + match) || []).forEach(function (item) {
      if (item.held) {
        line(list, titleOf(item.hand), WORDS.refused + " " + (item.errors || [])[0], item.url);
      } else {
        line(list, titleOf(item.hand) + " · " + WORDS.waiting, totalsOf(item.totals));
      }
    });
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
     become "Hand 5" when hands 3 and 4 wait on this phone. */
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
    var links = document.querySelectorAll("a[href$='/matches/" + match + "/hands/new']");
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

  window.scorekeeperOutbox = { add: add, flush: flush };
  renumber();

  render();
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
