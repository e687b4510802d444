/*
 * Hand entry, quicker with JavaScript. Without this script the form works as it is: every
 * meld row is shown, and Preview asks the server for the verdicts and the scores.
 *
 * With it: each meld is judged while it is typed or tapped (POST /api/v1/melds/check; with no
 * network, the same answer from the engine on the phone, offline-engine.js), empty
 * meld rows stay folded until "Add meld", Enter in a meld moves to the next one, the card
 * picker opens for the card field in use (in the page's dock, entry-dock.js, where it has
 * one; else right under the field), and a second tap on Save sends nothing twice.
 * Save and Preview wait for the kózi where every hand has one; ticking a flag ticks the flag
 * it implies (data-implies); and every change asks the live preview (the form's
 * data-preview-url: each side's lines, its opening line, the problems and the match totals)
 * after clearing the old banner and scores at once, then fires "hand:preview" on the form
 * (below).
 *
 * Each meld's verdict line comes worded by the API (its "verdict", drawn by verdict_text() in
 * scorekeeper/words/verdict_words.py, in the request's language) and is inserted as it is. The
 * few other words come from the form's data-words (script_words() in the same module).
 *
 * The "hand:preview" event: what the page's other scripts may rely on (draft.js keeps the
 * totals with the draft, so the outbox can show them; tests fire it to stand in for a
 * preview). It is a CustomEvent fired on the form, bubbling, once a live preview's answer
 * has been drawn, and only for the latest preview asked: not for an answer a newer change
 * has overtaken, nor when no JSON answer came (a signed-out session's login page; offline
 * without the engine on the phone).
 * Its detail is the JSON as the server sent it (_live_preview() in scorekeeper/play/views.py),
 * whatever the status (a match or hand gone answers 4xx with its error in `errors`):
 *   errors: [str]          why the form cannot be saved as it stands (a field missing or
 *                          unreadable, the match or hand gone); the preview's first lines
 *   problems: [str]        the engine's problems with the hand, each worded for the scorer
 *   problems_title: str    their heading ("2 problems"); absent when the hand could not be
 *                          previewed at all
 *   teams: [{name, score, lines: [{label, points}], problems: [str], opening_line}]
 *                          each side, indexed as the form's [data-side] sections: its score
 *                          for this hand, the lines that make it up, and its opening line (a
 *                          sentence; null where the game has no opening); [] when the hand
 *                          could not be previewed
 *   totals: [{name, total}]  the match totals with this hand counted; [] while there are
 *                          errors (a hand without its kózi may be short of its bonuses)
 *   offline: true          only in an answer worked out on the phone with no network, by
 *                          the same engine (offline-engine.js, scorekeeper/play/offline_score.py)
 * Scores, points and totals are text, as players write them ("1252½", "−95"): for showing,
 * not for adding up.
 */
(function () {
  "use strict";

  var form = document.querySelector("[data-hand-entry]");
  if (!form) {
    return;
  }
  var variant = form.getAttribute("data-variant");
  var tableFormat = form.getAttribute("data-format");
  var options = JSON.parse(form.getAttribute("data-options") || "{}");
  var WORDS = JSON.parse(form.getAttribute("data-words") || "{}");
  var TYPING_PAUSE_MS = 250;
  var PREVIEW_PAUSE_MS = 300;
  var rowCount = 0;

  function kozi() {
    var checked = form.querySelector("[data-kozi]:checked");
    return checked && checked.value && checked.value !== "none" ? checked.value : null;
  }

  /* --- the verdict on each meld ---------------------------------------------------------- */

  function show(output, text, ok) {
    output.textContent = text;
    if (text) {
      output.classList.remove("verdict-offline"); // draft.js's "checked when back online"
    }
    output.classList.toggle("verdict-ok", ok === true);
    output.classList.toggle("verdict-bad", ok === false);
  }

  function check(input) {
    var output = input.parentNode.querySelector("[data-verdict]");
    var cards = input.value.trim();
    var asked = (Number(input.getAttribute("data-asked") || "0") + 1).toString();
    input.setAttribute("data-asked", asked);
    if (!output) {
      return;
    }
    if (!cards) {
      show(output, "", null);
      return;
    }
    if (!window.fetch) {
      return;
    }
    var body = { variant: variant, options: options, kozi: kozi(), format: tableFormat, cards: cards };
    fetch("/api/v1/melds/check", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
      credentials: "same-origin",
    })
      .then(function (response) {
        return response.json().then(function (answer) {
          return { ok: response.ok, answer: answer };
        });
      })
      .then(function (reply) {
        if (input.getAttribute("data-asked") !== asked) {
          return; // a newer question is on its way
        }
        if (!reply.ok) {
          show(output, reply.answer.error || WORDS.line_unreadable, false);
        } else {
          show(output, reply.answer.verdict, reply.answer.legal);
        }
      })
      .catch(function () {
        if (input.getAttribute("data-asked") !== asked) {
          return;
        }
        // Offline: the same engine on the phone gives the API's own answer, worded alike
        // (offline-engine.js); without it the line stays blank and draft.js says when the
        // verdict will come.
        var engine = window.scorekeeperOfflineEngine;
        if (!engine) {
          show(output, "", null);
          return;
        }
        show(output, "", null);
        engine.verdict(body).then(function (answer) {
          if (input.getAttribute("data-asked") !== asked) {
            return;
          }
          if (answer.error !== undefined) {
            show(output, answer.error || WORDS.line_unreadable, false);
          } else {
            show(output, answer.verdict, answer.legal);
          }
        }, function () {});
      });
  }

  function watch(input) {
    var timer = null;
    input.addEventListener("input", function () {
      window.clearTimeout(timer);
      timer = window.setTimeout(function () {
        check(input);
      }, TYPING_PAUSE_MS);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault(); // Enter goes to the next meld instead of sending the form
        nextRow(input.closest("[data-meld-list]"), input).querySelector("input").focus();
      }
    });
  }

  form.querySelectorAll("[data-meld]").forEach(function (input) {
    watch(input);
    var output = input.parentNode.querySelector("[data-verdict]");
    if (input.value.trim() && output && !output.textContent.trim()) {
      check(input);
    }
  });

  form.querySelectorAll("[data-kozi]").forEach(function (radio) {
    radio.addEventListener("change", function () {
      form.querySelectorAll("[data-meld]").forEach(function (input) {
        if (input.value.trim()) {
          check(input);
        }
      });
    });
  });

  /* --- meld rows: show the filled ones and one empty row; "Add meld" shows more ----------- */

  function nextRow(list, after) {
    var rows = Array.prototype.slice.call(list.querySelectorAll("[data-meld-row]"));
    var from = after ? rows.indexOf(after.closest("[data-meld-row]")) + 1 : 0;
    for (var i = from; i < rows.length; i += 1) {
      if (rows[i].hidden || !rows[i].querySelector("input").value.trim()) {
        rows[i].hidden = false;
        return rows[i];
      }
    }
    var last = rows[rows.length - 1];
    var row = last.cloneNode(true);
    var input = row.querySelector("input");
    var mark = row.querySelector("[data-opening-mark]");
    if (mark) {
      mark.checked = false;
    }
    var label = row.querySelector("label");
    unmark(row);
    rowCount += 1;
    input.id = input.name + "-more-" + rowCount;
    input.value = "";
    input.removeAttribute("placeholder");
    input.removeAttribute("data-asked");
    label.setAttribute("for", input.id);
    label.textContent = label.textContent.replace(/\d+$/, String(rows.length + 1));
    show(row.querySelector("[data-verdict]"), "", null);
    row.hidden = false;
    list.appendChild(row);
    watch(input);
    numberMarks(list);
    return row;
  }

  /* Each opening mark posts its row's position among the side's meld rows. */
  function numberMarks(list) {
    list.querySelectorAll("[data-meld-row]").forEach(function (row, position) {
      var mark = row.querySelector("[data-opening-mark]");
      if (mark) {
        mark.value = String(position);
      }
    });
  }

  form.querySelectorAll("[data-meld-list]").forEach(function (list) {
    var emptyShown = false;
    numberMarks(list);
    list.querySelectorAll("[data-meld-row]").forEach(function (row) {
      if (!row.querySelector("input").value.trim()) {
        row.hidden = emptyShown;
        emptyShown = true;
      }
    });
    var add = list.parentNode.querySelector("[data-add-meld]");
    if (add) {
      add.hidden = false;
      add.addEventListener("click", function () {
        var rows = list.querySelectorAll("[data-meld-row]:not([hidden])");
        var lastShown = rows[rows.length - 1];
        var row = lastShown && !lastShown.querySelector("input").value.trim()
          ? lastShown
          : nextRow(list, lastShown && lastShown.querySelector("input"));
        row.querySelector("input").focus();
      });
    }
  });

  /* --- the card picker opens for the card field in use ----------------------------------- */

  // card-picker.js (loaded first) makes the picker ready and leaves it folded; it opens
  // when a card field is in use: in its dock, or right under that field.
  var picker = form.querySelector("[data-card-picker]");
  if (picker) {
    var pickerReady = picker.hasAttribute("data-picker-ready");
    picker.hidden = true;
    var openFor = function (input) {
      if (!pickerReady || !input || !input.matches || !input.matches("[data-card-input]")) {
        return;
      }
      var holder = input.closest("[data-meld-row]") || input.closest(".field") || input;
      // A docked picker stays in its dock (static/js/entry-dock.js).
      if (!picker.closest("[data-entry-dock]") && holder.nextSibling !== picker) {
        holder.parentNode.insertBefore(picker, holder.nextSibling);
      }
      picker.hidden = false;
    };
    form.addEventListener("focusin", function (event) {
      openFor(event.target);
    });
    // A field tapped while the page was still loading (a slow phone) had its focus before
    // this script listened: its picker opens now, not only with the next field.
    if (form.contains(document.activeElement)) {
      openFor(document.activeElement);
    }
  }

  /* --- no Save or Preview before the kózi, where every hand has one ----------------------- */

  var koziRequired = form.hasAttribute("data-kozi-required");
  var koziHint = form.querySelector("[data-kozi-hint]");

  function gate() {
    var blocked = koziRequired && !kozi();
    form.querySelectorAll("button[type=submit]").forEach(function (button) {
      button.disabled = blocked;
    });
    if (koziHint) {
      koziHint.hidden = !blocked;
    }
  }

  /* --- one flag implies another: going out needs the biribaki taken ---------------------- */

  function setBox(box, on) {
    if (box && box.checked !== on) {
      box.checked = on;
      box.dispatchEvent(new Event("change", { bubbles: true })); // drafts and others hear it
    }
  }

  form.addEventListener("change", function (event) {
    var box = event.target;
    if (box.type !== "checkbox") {
      return;
    }
    var implied = box.getAttribute("data-implies");
    if (implied && box.checked) {
      setBox(form.querySelector('[name="' + implied + '"]'), true);
    }
    if (!box.checked && box.name) {
      form.querySelectorAll('[data-implies="' + box.name + '"]').forEach(function (source) {
        setBox(source, false);
      });
    }
  });

  /* --- the live preview: stale words go at once, the current ones follow ----------------- */

  var previewUrl = form.getAttribute("data-preview-url");
  var LIVE = JSON.parse(form.getAttribute("data-live-words") || "{}");
  var element = window.scorekeeperHelpers.element;
  var panel = form.querySelector("[data-preview]");
  var previewTimer = null;
  var previewAsked = 0;
  var touched = false; // changed since the page came

  function part(name) {
    return panel ? panel.querySelector("[data-" + name + "]") : null;
  }

  /* What was said about the form before this change no longer holds: take it away. */
  function clearStale() {
    var banner = document.querySelector("[data-hand-errors]");
    if (banner) {
      banner.remove();
      unmark(form);
    }
    if (panel) {
      // Out of sight and out of the reading order at once, but holding its place until the
      // new answer comes, so the buttons below do not jump under a thumb.
      panel.classList.add("is-stale");
      panel.setAttribute("aria-busy", "true");
    }
  }

  function renderSides(teams) {
    var sides = part("preview-sides");
    sides.textContent = "";
    teams.forEach(function (team) {
      var score = element("strong", "", String(team.score), { "data-preview-score": "" });
      var title = element("p", "score-lines-title", [element("span", "", team.name), " ", score]);
      var lines = team.lines.length ? team.lines : [{ label: LIVE.nothing, points: "0" }];
      var rows = lines.map(function (line) {
        return element("tr", "", [
          element("td", "", line.label),
          element("td", "num", String(line.points)),
        ]);
      });
      var table = element("table", "", [element("tbody", "", rows)]);
      sides.appendChild(element("div", "score-lines", [title, table]));
    });
  }

  function render(answer) {
    form.querySelectorAll("[data-side]").forEach(function (section) {
      var team = answer.teams[Number(section.getAttribute("data-side"))];
      var line = section.querySelector("[data-opening-line]");
      if (line && team && team.opening_line) {
        line.textContent = team.opening_line;
      }
    });
    if (!panel) {
      return;
    }
    panel.removeAttribute("aria-busy");
    panel.classList.remove("is-stale");
    if (touched) {
      panel.querySelector("h2").textContent = LIVE.title; // no longer "As saved"
    }
    var errors = part("live-errors");
    errors.textContent = "";
    answer.errors.forEach(function (text) {
      errors.appendChild(element("p", "", text));
    });
    errors.hidden = !answer.errors.length;
    renderSides(answer.teams);
    var totals = part("preview-totals");
    totals.textContent = "";
    if (answer.totals.length) {
      totals.appendChild(element("p", "preview-totals-title", LIVE.totals));
      var items = answer.totals.map(function (side) {
        var total = element("strong", "", String(side.total), { "data-preview-total": "" });
        return element("li", "", [element("span", "", side.name), " ", total]);
      });
      totals.appendChild(element("ul", "preview-totals-list", items));
    }
    totals.hidden = !answer.totals.length;
    var problems = answer.problems || [];
    var list2 = part("problem-list");
    list2.textContent = "";
    problems.forEach(function (text) {
      list2.appendChild(element("li", "", text));
    });
    part("problems-title").textContent = answer.problems_title || "";
    part("problems").hidden = !problems.length;
    var reason = part("reason");
    reason.hidden = !problems.length && !reason.querySelector("textarea").value.trim();
    panel.hidden = false;
  }

  function askPreview() {
    if (!window.fetch || !previewUrl) {
      return;
    }
    previewAsked += 1;
    var asked = previewAsked;
    fetch(previewUrl, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) {
        return response.json();
      })
      .then(function (answer) {
        if (asked !== previewAsked) {
          return; // a newer preview is on its way
        }
        render(answer);
        form.dispatchEvent(new CustomEvent("hand:preview", { bubbles: true, detail: answer }));
      })
      .catch(function () {
        // Offline: the same engine on the phone (offline-engine.js), where the page has it.
        var engine = window.scorekeeperOfflineEngine;
        if (asked === previewAsked && engine) {
          engine.preview(form).then(function (answer) {
            if (asked === previewAsked) {
              render(answer);
              form.dispatchEvent(new CustomEvent("hand:preview", { bubbles: true, detail: answer }));
            }
          }, function () {
            if (panel) {
              panel.removeAttribute("aria-busy");
            }
          });
          return;
        }
        if (asked === previewAsked && panel) {
          // Offline: the stale words stay hidden; Save still works and the server judges.
          panel.removeAttribute("aria-busy");
        }
      });
  }

  function changed(event) {
    if (event.target.closest && event.target.closest("[data-no-preview]")) {
      return; // the reason for accepting problems changes no score
    }
    touched = true;
    gate();
    clearStale();
    window.clearTimeout(previewTimer);
    // Offline, nothing goes to a server: no pause to save it requests.
    var offline = window.scorekeeperOfflineEngine && navigator.onLine === false;
    previewTimer = window.setTimeout(askPreview, offline ? 0 : PREVIEW_PAUSE_MS);
  }

  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  gate();
  // A form that opens with something in it (a correction, a restored draft) shows its
  // opening lines at once; the banner and scores the server sent stay until a change.
  var filled = Array.prototype.some.call(form.querySelectorAll("[data-meld]"), function (input) {
    return input.value.trim() !== "";
  });
  if (filled) {
    askPreview();
  }

  /* --- a refused hand opens at its problem -------------------------------------------------
     The server's banner links each problem to its field (templates/play/hand.html, from
     scorekeeper/play/hand_refusals.py); the page opens with the first one's field in sight and
     focused, and a link tapped does the same for its own (a bare jump would leave the focus
     behind, and could land under the phone's keyboard). */

  function goTo(id) {
    var target = id && document.getElementById(id);
    if (!target) {
      return false;
    }
    var field = target.matches("input, select, textarea")
      ? target
      : target.querySelector("input:not([type=hidden]), select, textarea");
    var closed = target.closest("details:not([open])");
    if (closed) {
      closed.open = true;
    }
    var row = target.closest("[data-meld-row]");
    if (row) {
      row.hidden = false;
    }
    target.scrollIntoView({ block: "center" });
    if (field) {
      field.focus({ preventScroll: true }); // a card field brings the picker under it
    }
    // Once the picker has settled under the field (card-picker.js, in the next frame), what
    // says what is wrong above the field (a side's name and its failed opening line) comes
    // into sight too, as long as the field stays on the screen.
    // The screen ends at the keys where they are docked (entry-dock.js): the field comes
    // above them first.
    var said = field && field.getAttribute("aria-describedby");
    var line = said && document.getElementById(said.split(" ")[0]);
    var heading = line && line.matches(".opening-line") ? line.previousElementSibling : null;
    var top = heading && heading.matches("h2") ? heading : line;
    window.requestAnimationFrame(function () {
      if (!field) {
        return;
      }
      var dock = form.querySelector("[data-entry-dock]:not([hidden])");
      var floor = dock ? dock.getBoundingClientRect().top : window.innerHeight;
      var under = field.getBoundingClientRect().bottom + 8 - floor;
      if (under > 0) {
        window.scrollBy(0, under);
      }
      if (top && line.matches(".opening-line")) {
        var above = top.getBoundingClientRect().top - 8;
        var room = floor - field.getBoundingClientRect().bottom - 8;
        if (above < 0) {
          window.scrollBy(0, Math.max(above, -room));
        }
      }
    });
    return true;
  }

  /* The marks of the problems the banner named: gone with the banner. */
  function unmark(within) {
    within.querySelectorAll("[data-problem-mark]").forEach(function (field) {
      field.removeAttribute("aria-invalid");
      field.removeAttribute("aria-describedby");
      field.removeAttribute("data-problem-mark");
    });
    within.querySelectorAll(".opening-line.is-failed").forEach(function (line) {
      line.classList.remove("is-failed");
    });
  }

  var refused = document.querySelector("[data-hand-errors]");
  if (refused) {
    refused.addEventListener("click", function (event) {
      var link = event.target.closest("a[data-problem-link]");
      if (link && goTo(link.getAttribute("href").slice(1))) {
        event.preventDefault();
      }
    });
    goTo(refused.getAttribute("data-first-problem"));
  }

  /* --- one tap, one hand: a second submit while the first is on its way is dropped -------- */

  var sending = false;
  form.addEventListener("submit", function (event) {
    if (sending) {
      event.preventDefault();
      return;
    }
    sending = true;
    window.setTimeout(function () {
      sending = false;
    }, 4000);
  });
})();
