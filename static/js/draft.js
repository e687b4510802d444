/*
 * Drafts: a hand form is never lost. Every change to the form is kept on this phone in
 * localStorage under the form's data-draft key (per account, match and hand), and a reload,
 * Back, the phone locking or the browser being killed brings it back exactly as it was.
 *
 * This script runs before hand-entry.js (both deferred, in document order), so it restores
 * into the form as the server drew it: meld rows the draft has beyond those drawn are cloned
 * here, and hand-entry.js then folds and checks them as if the server had drawn them.
 *
 * It also sends Save itself (as JSON), so that with the network gone the hand goes into the
 * outbox (outbox.js) instead of onto the browser's error page. Preview stays a plain post.
 *
 * A draft, as stored (outbox.js writes the same shape when the server refuses a hand):
 *   {fields: [[name, value], ...]  every named control but the CSRF token, as a post sends
 *                                  them (so "key" and "version" are in it),
 *    totals: [{name, total}]|null  the match totals the last live preview gave, if any,
 *    totalsFor: str                what was typed when they came (else they are stale),
 *    errors: [str], problems: [str]  what the server said when it refused the hand}
 */
(function () {
  "use strict";

  var form = document.querySelector("[data-hand-entry][data-draft]");
  if (!form || !window.localStorage) {
    return;
  }
  var element = window.scorekeeperHelpers.element;
  var storeKey = form.getAttribute("data-draft");
  var WORDS = JSON.parse(form.getAttribute("data-offline-words") || "{}");
  var keyInput = form.querySelector("input[type=hidden][name=key]");
  var versionInput = form.querySelector("input[type=hidden][name=version]");

  function read() {
    try {
      return JSON.parse(localStorage.getItem(storeKey) || "null");
    } catch (error) {
      return null; // a broken draft is no draft
    }
  }

  function write(draft) {
    try {
      localStorage.setItem(storeKey, JSON.stringify(draft));
    } catch (error) {
      // storage full or forbidden: the form still works, only without its safety net
    }
  }

  /* The controls a post would send, in order: [[name, value], ...] (no CSRF token: a fresh
     one is used whenever the hand is sent). Generic, so fields other scripts add are kept. */
  function fields() {
    var pairs = [];
    Array.prototype.forEach.call(form.elements, function (el) {
      var type = el.type;
      if (!el.name || el.disabled || el.name === "csrf_token" || /^(submit|button|reset|file)$/.test(type)) {
        return;
      }
      if ((type === "checkbox" || type === "radio") && !el.checked) {
        return;
      }
      if (type === "select-multiple") {
        Array.prototype.forEach.call(el.selectedOptions, function (option) {
          pairs.push([el.name, option.value]);
        });
        return;
      }
      pairs.push([el.name, el.value]);
    });
    return pairs;
  }

  /* What the scorer typed, for comparing: empty fields and the key and version left out
     (every page draws a new key, and a blank row more or less is no change). */
  function typed(pairs) {
    return JSON.stringify(pairs.filter(function (pair) {
      return pair[1] !== "" && pair[0] !== "key" && pair[0] !== "version";
    }));
  }

  /* A fresh idempotency key. The page may come from the service worker's cache, with a key
     that already saved a hand: reused, the next hand would be taken for that one and
     silently dropped. So every new draft gets its own key, made here. */
  function freshKey() {
    var bytes = new Uint8Array(16);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  /* --- restoring ----------------------------------------------------------------------- */

  function cloneRow(input, count) {
    var row = input.closest("[data-meld-row]");
    var copy = row.cloneNode(true);
    var field = copy.querySelector("[name='" + input.name + "']");
    var label = copy.querySelector("label");
    var verdict = copy.querySelector("[data-verdict]");
    field.id = field.name + "-draft-" + count;
    field.value = "";
    field.removeAttribute("placeholder");
    if (label) {
      label.setAttribute("for", field.id);
      label.textContent = label.textContent.replace(/\d+$/, String(count));
    }
    if (verdict) {
      verdict.textContent = "";
      verdict.className = "meld-verdict";
    }
    row.parentNode.insertBefore(copy, row.nextSibling);
    return field;
  }

  function restore(pairs) {
    var values = {};
    pairs.forEach(function (pair) {
      (values[pair[0]] = values[pair[0]] || []).push(pair[1]);
    });
    Object.keys(values).forEach(function (name) {
      var wanted = values[name];
      var els = form.querySelectorAll("[name='" + name.replace(/'/g, "\\'") + "']");
      var last = els[els.length - 1];
      // More melds than rows drawn: the rows the scorer added with "Add meld".
      for (var n = els.length; last && n < wanted.length && last.closest("[data-meld-row]"); n += 1) {
        last = cloneRow(last, n + 1);
      }
    });
    Array.prototype.forEach.call(form.elements, function (el) {
      var wanted = values[el.name];
      if (!el.name || el.name === "csrf_token" || /^(submit|button|reset|file)$/.test(el.type)) {
        return;
      }
      if (el.type === "checkbox" || el.type === "radio") {
        el.checked = !!wanted && wanted.indexOf(el.value) >= 0;
      } else if (el.type === "select-multiple") {
        Array.prototype.forEach.call(el.options, function (option) {
          option.selected = !!wanted && wanted.indexOf(option.value) >= 0;
        });
      } else if (wanted) {
        var same = form.querySelectorAll("[name='" + el.name.replace(/'/g, "\\'") + "']");
        var index = Array.prototype.indexOf.call(same, el);
        el.value = index < wanted.length ? wanted[index] : "";
      }
    });
    // A folded "more" section holding something restored is opened, so nothing is hidden.
    form.querySelectorAll("details").forEach(function (details) {
      details.querySelectorAll("input, textarea").forEach(function (el) {
        if (el.value) {
          details.open = true;
        }
      });
    });
  }

  function showProblems(draft) {
    var box = document.querySelector("[data-draft-problems]");
    var said = (draft.errors || []).concat(draft.problems || []);
    if (!box || !said.length) {
      return;
    }
    // Like the server's own banner: once the hand is changed, the old verdict is stale.
    form.addEventListener("input", function () {
      box.hidden = box.hidden || !asking;
    });
    var list = box.querySelector("ul");
    said.filter(function (text, i) {
      return said.indexOf(text) === i;
    }).forEach(function (text) {
      list.appendChild(element("li", "", text));
    });
    box.hidden = false;
  }

  var asking = false; // true while the verdicts are asked for again (see "online" below)
  var drawn = typed(fields());
  var draft = read();
  if (draft && draft.fields) {
    restore(draft.fields);
    showProblems(draft);
    var note = document.querySelector("[data-draft-note]");
    if (note && typed(draft.fields) !== drawn) {
      note.hidden = false;
    }
  } else {
    draft = { fields: [], totals: null, errors: [], problems: [] };
    if (keyInput) {
      keyInput.value = freshKey();
    }
  }

  var discard = document.querySelector("[data-draft-discard]");
  if (discard) {
    discard.addEventListener("click", function () {
      localStorage.removeItem(storeKey);
      // A new navigation, not a reload: the browser must not put the old values back.
      window.location.replace(window.location.pathname);
    });
  }

  /* --- saving every change --------------------------------------------------------------- */

  var pending = false;
  var left = false;

  function save() {
    pending = false;
    if (left) {
      return; // saved or queued: a late change event must not bring the draft back
    }
    draft.fields = fields();
    if (typed(draft.fields) === drawn && !(draft.errors || []).length) {
      localStorage.removeItem(storeKey); // back to what the server has: nothing unsaved
      return;
    }
    write(draft);
  }

  /* Changes come in bursts (a picker tap fires input on a field, a script may fire several):
     one save after the burst, in a microtask, is enough. */
  function later() {
    if (!pending) {
      pending = true;
      Promise.resolve().then(save);
    }
  }

  form.addEventListener("input", later);
  form.addEventListener("change", later);
  // hand-entry.js's live preview (the "hand:preview" event, described at the top of
  // hand-entry.js): the totals this hand would give, with what was typed when it came, so
  // totals are never kept for a hand changed since.
  form.addEventListener("hand:preview", function (event) {
    var detail = event.detail || {};
    draft.totals = detail.totals && detail.totals.length ? detail.totals : null;
    draft.totalsFor = typed(fields());
    later();
  });

  function totals() {
    return draft.totals && draft.totalsFor === typed(fields()) ? draft.totals : null;
  }
  window.addEventListener("pagehide", function () {
    if (pending) {
      save();
    }
  });

  /* --- Save: sent as JSON, or kept in the outbox when the server cannot be reached ------- */

  function clear() {
    left = true;
    localStorage.removeItem(storeKey);
    draft = { fields: [], totals: null, errors: [], problems: [] };
  }

  /* A correction's base: what its page kept of the match (engine_files.corrected_base), so
     the engine on the phone can move the totals after it before it is sent. */
  function correcting() {
    var holder = document.getElementById("offline-engine-setup");
    if (!holder || form.getAttribute("data-hand") === "new") {
      return null;
    }
    try {
      return JSON.parse(holder.getAttribute("data-setup")).correcting || null;
    } catch (error) {
      return null;
    }
  }

  function queue() {
    var outbox = window.scorekeeperOutbox;
    if (!outbox) {
      return false;
    }
    outbox.add({
      url: window.location.pathname,
      match: form.getAttribute("data-match"),
      hand: form.getAttribute("data-hand"),
      draft: storeKey,
      fields: fields(),
      key: keyInput ? keyInput.value : "",
      version: versionInput ? versionInput.value : "",
      totals: totals(),
      base: correcting(),
    });
    clear();
    window.location.assign(form.getAttribute("data-scoreboard"));
    return true;
  }

  /* Refused: post the form as without JavaScript, so the server draws its answer (problems,
     preview, the reason field). Nothing was saved, so nothing doubles. */
  function resubmit() {
    // What the server said about an earlier sending gives way to what it says now.
    draft.errors = [];
    draft.problems = [];
    save();
    form.appendChild(element("input", "", undefined, { type: "hidden", name: "save", value: "1" }));
    form.submit();
  }

  var sending = false;

  function send(event) {
    var button = event.submitter;
    if (event.defaultPrevented) {
      return; // another script held the form back (a second tap, a field still to fill)
    }
    if (!button || !button.hasAttribute("data-save") || !window.fetch || !window.URLSearchParams) {
      return; // Preview, or an old browser: the plain post, as without JavaScript
    }
    event.preventDefault();
    if (sending) {
      return; // a second tap while the first is on its way
    }
    if (!navigator.onLine) {
      queue();
      return;
    }
    sending = true;
    var body = new URLSearchParams(new FormData(form));
    body.append("save", "1");
    fetch(window.location.pathname, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    })
      .then(function (response) {
        var json = /json/.test(response.headers.get("Content-Type") || "");
        return (json ? response.json() : Promise.resolve({})).then(function (answer) {
          if (response.ok && answer.saved) {
            clear();
            window.location.assign(answer.scoreboard || form.getAttribute("data-scoreboard"));
            return;
          }
          if (response.status < 400 || response.status >= 500 || answer.csrf) {
            // The server's trouble, or a token from a page the cache kept: the hand itself
            // is fine, and the outbox sends it with a fresh token.
            throw new Error("not saved yet");
          }
          resubmit();
        });
      })
      .catch(function () {
        sending = false;
        queue();
      });
  }

  // Listened to after the page's other scripts (hand-entry.js runs after this one, before
  // DOMContentLoaded), so a submit they stop is seen as stopped here.
  document.addEventListener("DOMContentLoaded", function () {
    form.addEventListener("submit", send);
  });

  /* --- meld verdicts that need the server ------------------------------------------------ */

  // hand-entry.js leaves a verdict blank when its check cannot reach the server; offline,
  // say when it will come instead.
  function markOffline() {
    if (navigator.onLine || !WORDS.offline_verdict) {
      return;
    }
    form.querySelectorAll("[data-meld]").forEach(function (input) {
      var output = input.parentNode.querySelector("[data-verdict]");
      if (output && input.value.trim() && !output.textContent.trim()) {
        output.textContent = WORDS.offline_verdict;
        output.classList.add("verdict-offline");
      }
    });
  }

  if (window.MutationObserver) {
    new MutationObserver(markOffline).observe(form, { childList: true, subtree: true, characterData: true });
  }
  form.addEventListener("input", function () {
    window.setTimeout(markOffline, 400); // after hand-entry.js's typing pause and its failed check
  });
  window.addEventListener("offline", markOffline);
  window.addEventListener("online", function () {
    // Ask again for each verdict that waited: hand-entry.js checks a meld on input.
    form.querySelectorAll(".verdict-offline").forEach(function (output) {
      output.classList.remove("verdict-offline");
      output.textContent = "";
      var input = output.parentNode.querySelector("[data-meld]");
      if (input) {
        asking = true; // not a change: the problems banner stays
        input.dispatchEvent(new Event("input", { bubbles: true }));
        asking = false;
      }
    });
  });
  window.setTimeout(markOffline, 400);

  window.scorekeeperDraft = { fields: fields, clear: clear };
})();
