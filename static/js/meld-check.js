/*
 * Meld checker, live. Without this script the form posts and the server draws the verdict;
 * with it, the verdict follows every card typed or tapped, asked of POST /api/v1/melds/check,
 * with no page reload.
 *
 * The ruling comes worded by the API (its "verdict_words", drawn by
 * scorekeeper/words/verdict_words.py as for a posted form) and is inserted as text. The labels
 * and messages come, in the page's language, from the form's data-words
 * (verdict_words.script_words): templates whose %(name)s fields fill() fills in. fill() and
 * element() are helpers.js's (base.html loads it first).
 */
(function () {
  "use strict";

  var form = document.querySelector("[data-meld-check]");
  if (!form || !window.fetch) {
    return; // the form still posts, and the server answers
  }

  var element = window.scorekeeperHelpers.element;
  var fill = window.scorekeeperHelpers.fill;
  var WORDS = JSON.parse(form.getAttribute("data-words") || "{}");
  var TYPING_PAUSE_MS = 200;

  var cards = form.elements.cards;
  var variant = form.elements.variant;
  // A match's house rules (hidden field, JSON); they apply while its preset is chosen.
  function houseRules() {
    var field = form.elements.options;
    if (!field || !field.value || field.getAttribute("data-variant") !== preset().id) {
      return {};
    }
    try {
      return JSON.parse(field.value);
    } catch (error) {
      return {};
    }
  }
  var band = form.elements.opening_band;
  var opening = form.elements.opening;
  var errors = document.getElementById("cards-errors");
  var verdict = document.getElementById("meld-verdict");
  var rulesLink = document.getElementById("rules-link");
  var asked = 0; // numbers the requests, so a slow answer never overwrites a newer one
  var timer = null;

  function preset() {
    var option = variant.options[variant.selectedIndex];
    return {
      id: option.value,
      name: option.textContent,
      kozi: option.getAttribute("data-kozi") === "1",
      table: option.getAttribute("data-opening-table"),
      bands: JSON.parse(option.getAttribute("data-bands") || "[]"),
    };
  }

  /* An API error as the server's form shows it: without the JSON field name, as a sentence. */
  function sentence(message) {
    var text = message.replace(/^'cards': /, "");
    return /[.!?]$/.test(text) ? text : text + ".";
  }

  // --- the opening ----------------------------------------------------------------------------

  /* The opening to check against, as the API takes it: a typed minimum wins over a row of
     the table; the API words the line. */
  function openingAsked() {
    var typed = opening.value.trim();
    if (/^\d+$/.test(typed)) {
      return { points: Number(typed) };
    }
    return band.value === "" ? null : { score: Number(band.value) };
  }

  // --- the verdict ----------------------------------------------------------------------------

  function fact(term, detail, className) {
    var plain = typeof detail === "string" || typeof detail === "number";
    return element("div", className, [
      element("dt", "", term),
      plain ? element("dd", "", String(detail)) : detail,
    ]);
  }

  function list(className, items) {
    return element("ul", className, items.map(function (item) {
      return element("li", "", item);
    }));
  }

  function render(answer) {
    var parts = [];
    // Every word of the ruling comes worded by the API (verdict_words in the request's
    // language), the opening line too: the request says which opening to check against.
    var said = answer.verdict_words;
    var mark = element("span", "verdict-mark", answer.legal ? "✓" : "✗", { "aria-hidden": "true" });
    parts.push(element("h2", "verdict-title", [mark, " " + said.title]));
    parts.push(element("p", "verdict-name", said.name));
    if (said.tags.length) {
      parts.push(list("verdict-tags", said.tags));
    }
    if (answer.problems.length) {
      parts.push(list("verdict-problems", answer.problems));
    }
    var facts = element("dl", "verdict-facts");
    facts.append(fact(WORDS.card_points, answer.card_points));
    if (said.bonus !== null) {
      facts.append(fact(WORDS.bonus, said.bonus));
    }
    if (said.wilds.length) {
      var wilds = said.wilds.map(function (wild) {
        return element("span", "verdict-wild", wild);
      });
      facts.append(fact(WORDS.wild_cards, element("dd", "", wilds)));
    }
    if (said.opening) {
      facts.append(
        fact(WORDS.opening, said.opening.text, said.opening.met ? "opening-met" : "opening-short")
      );
    }
    parts.push(facts);
    verdict.className = "verdict " + (answer.legal ? "verdict-legal" : "verdict-illegal");
    verdict.replaceChildren.apply(verdict, parts);
  }

  function renderEmpty(text) {
    verdict.className = "verdict";
    verdict.replaceChildren(element("p", "verdict-empty", text));
  }

  function showErrors(messages) {
    errors.replaceChildren.apply(
      errors,
      messages.map(function (message) {
        return element("li", "", message);
      })
    );
    errors.hidden = messages.length === 0;
    cards.setAttribute("aria-invalid", messages.length ? "true" : "false");
    cards.closest(".ref-field").classList.toggle("ref-invalid", messages.length > 0);
  }

  // --- asking the referee -----------------------------------------------------------------------

  function check() {
    window.clearTimeout(timer);
    var text = cards.value.trim();
    var number = (asked += 1);
    if (!text) {
      showErrors([]);
      renderEmpty(WORDS.add_cards);
      return;
    }
    var kozi = form.querySelector("input[name=kozi]:checked");
    fetch(form.getAttribute("data-check-url"), {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({
        variant: preset().id,
        options: houseRules(),
        kozi: kozi && kozi.value ? kozi.value : null,
        cards: text,
        opening: openingAsked(),
      }),
    })
      .then(function (response) {
        return response.json().then(function (body) {
          return { ok: response.ok, body: body };
        });
      })
      .then(function (result) {
        if (number !== asked) {
          return;
        }
        if (result.ok) {
          showErrors([]);
          render(result.body);
        } else {
          showErrors([sentence(result.body.error || WORDS.unreadable)]);
          renderEmpty(WORDS.fix_cards);
        }
      })
      .catch(function () {
        if (number === asked) {
          renderEmpty(WORDS.unreachable);
        }
      });
  }

  function checkSoon() {
    window.clearTimeout(timer);
    timer = window.setTimeout(check, TYPING_PAUSE_MS);
  }

  /* The opening changes no ruling, only its last line, which the API words: asked again. */
  function redrawOpening() {
    if (cards.value.trim()) {
      check();
    }
  }

  function showPreset() {
    var rules = preset();
    rulesLink.href = form.getAttribute("data-rules-url") + "/" + encodeURIComponent(rules.id);
    rulesLink.textContent = fill(WORDS.every_rule, { rules: rules.name });
    form.querySelector("[data-no-kozi]").hidden = rules.kozi;
    form.querySelector("[data-opening-rows]").hidden = rules.bands.length === 0;
    form.querySelector("[data-table-id]").textContent = rules.table;
    var kept = band.value;
    var options = [new Option(WORDS.no_table_row, "")].concat(
      rules.bands.map(function (b) {
        return new Option(b.text, String(b.score));
      })
    );
    band.replaceChildren.apply(band, options);
    band.value = kept; // the same score falls in a row of the new table too
    if (band.value !== kept) {
      band.value = "";
    }
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    check();
  });
  form.addEventListener("input", function (event) {
    if (event.target === cards) {
      checkSoon();
    } else if (event.target === opening) {
      band.value = ""; // a typed number replaces a row of the table
      if (cards.value.trim()) {
        checkSoon();
      }
    }
  });
  form.addEventListener("change", function (event) {
    if (event.target === variant) {
      showPreset();
      check();
    } else if (event.target === band) {
      opening.value = ""; // a row of the table replaces a typed number
      redrawOpening();
    } else if (event.target.name === "kozi") {
      check();
    }
  });

  // Every change is answered at once, so the button kept for posting the opening is not needed.
  form.querySelectorAll("[data-without-script]").forEach(function (node) {
    node.hidden = true;
  });
  // A browser going back to this page may restore a preset or cards the server did not draw.
  showPreset();
  if (cards.value.trim() && !verdict.querySelector(".verdict-title")) {
    check();
  }
})();
