/*
 * The score with no network: the rules engine itself (scorekeeper/rules, pure Python) run on
 * the phone by Pyodide, for the hand page's live preview when the server cannot be reached.
 *
 * The hand page loads this (templates/play/hand.html, with the match's setup as JSON in
 * #offline-engine-setup's data-setup: rules, table, each side's total before the hand, the
 * deal), and so does a scorer's scoreboard, which starts the engine only when hands wait on
 * the phone (outbox.js asks `.progress`). Opened online, the hand
 * page fetches the runtime and the engine once, at idle, so the service worker keeps them
 * (static/sw.js, its runtime cache), then starts the engine once so that its worker keeps a
 * snapshot of it (engine-worker.js). On later hand pages, with them kept, the engine starts
 * at idle (at once on a page opened with no network); else when the network drops (the
 * "offline" event) or when a preview finds no server, whichever comes first. It starts and
 * runs in a worker of its own (engine-worker.js), never on the page's thread.
 *
 * window.scorekeeperOfflineEngine.preview(form) → Promise of the live preview's answer, in
 * the "hand:preview" contract (hand-entry.js), with `offline: true`; hand-entry.js draws it
 * as it draws the server's. `.score(requestJson)` → Promise of POST /api/v1/hands/score's
 * answer as text (the golden hands' browser test compares it with the server's).
 * `.verdict(body)` → Promise of POST /api/v1/melds/check's answer for `body` (its verdict
 * line in the page's language, or `error` for cards that cannot be read): hand-entry.js
 * shows it when the check finds no server.
 */
(function () {
  "use strict";

  var holder = document.getElementById("offline-engine-setup");
  if (!holder) {
    return;
  }
  var setup = JSON.parse(holder.getAttribute("data-setup"));
  var runtimeBase = setup.runtime.replace(/[^/]+$/, "");
  var FILES = ["pyodide.js", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
    "pyodide-lock.json"];
  var starting = null;

  /* The engine runs in its own thread (engine-worker.js): starting Pyodide takes seconds of
     compiling and unpacking that, here, held up every tap on the page meanwhile. Each call
     is a message; its answer settles the call's promise. A start that fails (its files not
     to be had) is tried again by the next call; a worker that breaks is dropped for a new one. */
  var worker = null;
  var waiting = {};
  var asked = 0;

  function drop(reason) {
    Object.keys(waiting).forEach(function (id) {
      waiting[id].reject(new Error(reason));
    });
    waiting = {};
    if (worker) {
      worker.terminate();
    }
    worker = null;
  }

  function ask(call, args) {
    if (!window.Worker) {
      return Promise.reject(new Error("no workers"));
    }
    if (!worker) {
      worker = new Worker(setup.worker, { type: "module" });
      worker.onmessage = function (event) {
        var answer = event.data;
        var call = waiting[answer.id];
        delete waiting[answer.id];
        if (call && "error" in answer) {
          call.reject(new Error(answer.error));
        } else if (call) {
          call.resolve(answer.result);
        }
      };
      worker.onerror = function (event) {
        drop(event.message || "engine worker");
      };
    }
    asked += 1;
    var id = asked;
    return new Promise(function (resolve, reject) {
      waiting[id] = { resolve: resolve, reject: reject };
      worker.postMessage({ id: id, setup: setup, call: call, args: args || [] });
    });
  }

  function start() {
    return ask("start");
  }

  /* Started ahead of need: a start that fails now is tried again when it is needed. */
  function warm() {
    start().catch(function () {});
  }

  /* The form's fields as the server reads a post: every name with its list of values. */
  function fields(form) {
    var all = {};
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") {
        (all[name] = all[name] || []).push(value);
      }
    });
    return all;
  }

  function note(form) {
    var panel = form.querySelector("[data-preview]");
    if (!panel || panel.querySelector("[data-preview-offline]")) {
      return;
    }
    var line = document.createElement("p");
    line.className = "preview-offline";
    line.setAttribute("data-preview-offline", "");
    line.textContent = setup.offline_words.offline;
    var heading = panel.querySelector("h2");
    panel.insertBefore(line, heading ? heading.nextSibling : panel.firstChild);
  }

  function dropNote(form) {
    var line = form.querySelector("[data-preview-offline]");
    if (line) {
      line.remove();
    }
  }

  window.scorekeeperOfflineEngine = {
    start: start,
    preview: function (form) {
      // A new hand follows the hands waiting on this phone (outbox.js), corrections
      // included: its totals before are those they bring the match to.
      var outbox = window.scorekeeperOutbox;
      var queued = outbox && form.getAttribute("data-hand") === "new"
        ? outbox.queued(form.getAttribute("data-match"))
        : [];
      return ask("preview", [JSON.stringify(setup), JSON.stringify(fields(form)),
        JSON.stringify(queued)]).then(function (text) {
        var answer = JSON.parse(text);
        answer.offline = true;
        note(form);
        return answer;
      });
    },
    score: function (request) {
      return ask("score", [request]);
    },
    /* The scoreboard's hands saved on this phone, in order, each {hand: "new" or the
       number it corrects, fields: {name: [values]}, base}: {hands: [{number, correction,
       kozi, red, scores, totals, errors}], standings: [{name, total, opening, progress}],
       next_dealer, deal_order, winner} (progress_json in offline_score.py). */
    progress: function (queued) {
      return ask("progress", [JSON.stringify(setup), JSON.stringify(queued)]).then(JSON.parse);
    },
    verdict: function (body) {
      return ask("check", [JSON.stringify(body)]).then(JSON.parse);
    },
  };

  var form = document.querySelector("[data-hand-entry]");
  // Back online, the server's preview is the truth again: its answer has no such note.
  document.addEventListener("hand:preview", function (event) {
    if (form && !event.detail.offline) {
      dropNote(form);
    }
  });
  // The network gone: start at once, so the first preview offline does not wait for it.
  window.addEventListener("offline", function () {
    if (form) {
      warm();
    }
  });

  /* Online: fetch each file once, so the service worker keeps them for the day it is needed
     (it answers them from its cache afterwards: this costs nothing the second time); then
     start the engine once, in its worker, which keeps its snapshot (engine-worker.js) so
     that later starts take a fraction of the time. */
  function keep() {
    Promise.all(FILES.map(function (name) {
      return runtimeBase + name;
    }).concat([setup.engine]).map(function (url) {
      return fetch(url, { credentials: "same-origin" }).then(function (response) {
        return response.blob(); // read to its end: the service worker has kept it then
      });
    })).then(warm, function () {});
  }
  /* Once the files are kept, the engine is started at idle on every hand page (at once when
     the page opens with no network): the network may drop at any time, and starting takes
     time (under a second from the kept snapshot on the bench's machine, several seconds
     without it) that the first preview offline would otherwise wait. */
  function kept() {
    if (!window.caches) {
      return Promise.resolve(false);
    }
    return caches.open("scorekeeper-runtime").then(function (cache) {
      return cache.keys();
    }).then(function (keys) {
      return keys.length >= FILES.length + 1;
    }, function () {
      return false;
    });
  }
  var idle = window.requestIdleCallback || window.setTimeout;
  // The scoreboard (no hand form) starts the engine only for hands saved on the phone.
  if (form && navigator.serviceWorker && navigator.serviceWorker.controller) {
    kept().then(function (all) {
      if (all && navigator.onLine === false) {
        warm(); // opened with no network: the first preview is near
      } else if (all) {
        idle(warm, { timeout: 3000 });
      } else if (navigator.onLine !== false) {
        idle(keep, { timeout: 3000 });
      }
    });
  }
})();
