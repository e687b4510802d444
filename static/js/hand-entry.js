/*
 * Hand entry, quicker with JavaScript. Without this script the form works as it is: every
 * meld row is shown, and Preview asks the server for the verdicts and the scores.
 *
 * With it: each meld is judged while it is typed or tapped (POST /api/v1/melds/check), empty
 * meld rows stay folded until "Add meld", Enter in a meld moves to the next one, the card
 * picker follows the card field in use, and a second tap on Save sends nothing twice.
 *
 * The verdict words mirror verdict_text() in scorekeeper/web/hand_forms.py: change both.
 * They come, in the page's language, from the form's data-words (script_words() in
 * scorekeeper/web/verdict_words.py): templates whose %(name)s fields fill() fills in.
 */
(function () {
  "use strict";

  var form = document.querySelector("[data-hand-entry]");
  if (!form) {
    return;
  }
  var variant = form.getAttribute("data-variant");
  var tableFormat = form.getAttribute("data-format");
  var biribaWord = form.getAttribute("data-biriba-word") || "biriba";
  var options = JSON.parse(form.getAttribute("data-options") || "{}");
  var WORDS = JSON.parse(form.getAttribute("data-words") || "{}");
  var KINDS = WORDS.kinds || {};
  var TYPING_PAUSE_MS = 250;
  var rowCount = 0;

  /* A template with %(name)s or %(name)d fields, filled in from `values`. */
  function fill(template, values) {
    return String(template).replace(/%\((\w+)\)[sd]/g, function (match, name) {
      return name in values ? String(values[name]) : match;
    });
  }

  function kozi() {
    var checked = form.querySelector("[data-kozi]:checked");
    return checked && checked.value ? checked.value : null;
  }

  /* --- the verdict on each meld ---------------------------------------------------------- */

  function tags(answer) {
    var words = [KINDS[answer.kind] || answer.kind];
    if (answer.clean === true) {
      words.push(WORDS.clean);
    } else if (answer.semiclean) {
      words.push(WORDS.semiclean);
    } else if (answer.clean === false) {
      words.push(WORDS.dirty);
    }
    if (answer.full) {
      words.push(fill(WORDS.full, { word: biribaWord }));
    } else if (answer.biriba) {
      words.push(biribaWord);
    }
    if (answer.kozi) {
      words.push(WORDS.kozi);
    }
    return words;
  }

  function verdictText(answer) {
    if (!answer.legal) {
      return fill(WORDS.line_not_legal, { problems: answer.problems.join(" ") });
    }
    var text = fill(WORDS.line_legal, { tags: tags(answer).join(", "), points: answer.card_points });
    if (answer.biriba && answer.bonus) {
      text += fill(WORDS.line_bonus, { bonus: answer.bonus });
    }
    return text;
  }

  function show(output, text, ok) {
    output.textContent = text;
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
          show(output, verdictText(reply.answer), reply.answer.legal);
        }
      })
      .catch(function () {
        if (input.getAttribute("data-asked") === asked) {
          show(output, "", null); // offline: Preview still judges every meld
        }
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
    var label = row.querySelector("label");
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
    return row;
  }

  form.querySelectorAll("[data-meld-list]").forEach(function (list) {
    var emptyShown = false;
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

  /* --- the card picker sits under the card field in use ----------------------------------- */

  // card-picker.js (loaded first) shows the picker; it waits here, folded, until a card
  // field is in use, then opens right under that field.
  var picker = form.querySelector("[data-card-picker]");
  if (picker) {
    var pickerReady = !picker.hidden;
    picker.hidden = true;
    form.addEventListener("focusin", function (event) {
      var input = event.target;
      if (!pickerReady || !input.matches || !input.matches("[data-card-input]")) {
        return;
      }
      var holder = input.closest("[data-meld-row]") || input.closest(".field") || input;
      if (holder.nextSibling !== picker) {
        holder.parentNode.insertBefore(picker, holder.nextSibling);
      }
      picker.hidden = false;
    });
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
