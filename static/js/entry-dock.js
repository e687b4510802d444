/*
 * The hand form's dock (templates/play/hand.html, [data-entry-dock]): fixed at the foot of the
 * screen like a phone's keyboard, so a hand goes in without scrolling (issue 19).
 *
 * - Always there: this hand's score for each team and the match total after it (from the live
 *   preview's "hand:preview" event, documented in hand-entry.js) and a Save button.
 * - While a field is in use: the card picker (a card field) or the points pad (a points
 *   field), which card-picker.js, hand-entry.js and points-pad.js leave in the dock rather
 *   than under the field; and three one-tap steps: the next meld of the team in use, the next
 *   team (the same kind of field there: its melds, or its cards left), and the team's cards
 *   left (its points in total first, then, tap by tap, each player's cards: the step names
 *   the field it goes to). In a meld the picker's set keys are steps too: its set key (+♠♦♣)
 *   in the place of "Add meld" while the meld holds one or two cards of a set, and while it
 *   holds one natural card its three-card set keys (+♠♦ +♠♣ +♦♣) in the places of the next
 *   team and the cards left. While no team has gone out, in a meld of a team with a "went out"
 *   on the page, one step does that fact and the move after it: "‹team› went out ›" ticks the
 *   team's toggle (as a tap on it would: what it implies, the draft, the preview) and moves
 *   on, from a team before the last to the next team's first meld (in the place of the cards
 *   left), from the last team to its cards left (in the place of the next team: going back
 *   is rare). The set keys keep their places over it; once a team has gone out (by the step
 *   or the toggle) the usual steps are back, and unticking the toggle brings it back. What it
 *   did shows on the dock's status line, naming the team.
 *   The field in use is kept just above the dock, with room under a meld for its card faces
 *   and verdict, and what belongs with it above (the team's "went out" when it is the first
 *   meld, the team's other cards-left fields) when that fits too.
 * - With the phone's own keyboard (⌨), the keys fold and the dock rides on top of that
 *   keyboard (the visual viewport), so the field, the steps and Save stay in sight.
 *
 * Page scrolls made here cost the player nothing; the page gets room at its foot for the
 * dock (body padding), so its last lines can still come above it.
 */
(function () {
  "use strict";

  var dock = document.querySelector("[data-entry-dock]");
  var form = dock && dock.closest("form");
  if (!form) {
    return;
  }
  var FIELDS = "[data-card-input], [name$='-points']";
  var GAP = 4;
  var STATUS_MS = 4000; // what a shortcut did covers the scores this long, or until the next tap
  var GROW = 44; // room under a meld row for the card faces and the verdict that come with cards
  var picker = dock.querySelector("[data-card-picker]");
  var pad = dock.querySelector("[data-points-pad]");
  var steps = {
    meld: dock.querySelector("[data-dock-step='meld']"),
    team: dock.querySelector("[data-dock-step='team']"),
    left: dock.querySelector("[data-dock-step='left']"),
    out: dock.querySelector("[data-dock-step='out']"),
  };
  var WORDS = JSON.parse(dock.getAttribute("data-dock-words") || "{}");
  var fill = window.scorekeeperHelpers.fill;
  var outName = dock.querySelector("[data-dock-out-name]");
  // The picker's set key (card-picker.js), shown here as a step in the place of "Add meld".
  var suitsKey = picker && picker.querySelector("[data-picker-suits]");
  var suitsStep = dock.querySelector("[data-dock-step='suits']");
  // Its three-card set keys (while the meld is one natural card), as steps beside it.
  var setKeys = picker ? Array.prototype.slice.call(picker.querySelectorAll("[data-picker-set]")) : [];
  var setSteps = Array.prototype.slice.call(dock.querySelectorAll("[data-dock-step='set']"));
  var stepsOn = false; // the steps are up (a field is in use)
  var teamName = dock.querySelector("[data-dock-team-name]");
  var LEFT = steps.left.textContent.trim();
  var current = null; // the field in use while the keys are up

  function sides() {
    return Array.prototype.slice.call(form.querySelectorAll("[data-side]"));
  }

  function visibleInputs(within, selector) {
    return Array.prototype.filter.call(within.querySelectorAll(selector), function (input) {
      return !input.closest("[hidden]") && input.type !== "hidden";
    });
  }

  /* --- room: the page ends above the dock; the dock sits on the phone's keyboard ---------- */

  // The room only grows: were it to shrink with the dock (the pad for the picker), a page
  // scrolled to its end would drop by as much and take the field under the keys.
  var room = 0;

  function fitPage() {
    var height = Math.ceil(dock.getBoundingClientRect().height);
    // Whatever the browser scrolls into view (a field reached by Tab, a problem's link, a
    // checkbox tapped under the picker) stops above the dock as it is now, not under it.
    document.documentElement.style.scrollPaddingBottom = height + "px";
    if (height > room) {
      room = height;
      document.body.style.paddingBottom = room + "px";
    }
  }

  function lift() {
    var view = window.visualViewport;
    var below = view ? window.innerHeight - view.height - view.offsetTop : 0;
    dock.style.bottom = Math.max(0, Math.round(below)) + "px";
  }

  function screenTop() {
    return (window.visualViewport ? Math.max(0, window.visualViewport.offsetTop) : 0) + GAP;
  }

  /* --- the field in use, just above the dock --------------------------------------------- */

  function holderOf(input) {
    return input.closest("[data-meld-row]") || input.closest(".field") || input;
  }

  /* What may come into sight with the field, when it fits: the team's toggles and heading
     above its first meld, all of a team's cards left around one of them. */
  function contextOf(input) {
    if (input.hasAttribute("data-meld")) {
      var side = input.closest("[data-side]");
      var first = side && visibleInputs(side, "[data-meld]")[0];
      return first === input ? side.querySelector(".toggles") : null;
    }
    return input.closest("fieldset.hands") || input.closest(".player-row");
  }

  function place(fresh) {
    if (!current || dock.hidden) {
      return;
    }
    var box = holderOf(current).getBoundingClientRect();
    var top = box.top;
    var bottom = box.bottom;
    var highest = screenTop();
    var keys = dock.getBoundingClientRect().top - GAP;
    var lowest = keys;
    if (fresh && current.hasAttribute("data-meld")) {
      lowest -= Math.max(0, GROW - (box.bottom - current.getBoundingClientRect().bottom));
    }
    var context = fresh && contextOf(current);
    var from = top;
    if (context) {
      var around = context.getBoundingClientRect();
      from = Math.min(top, around.top);
      var to = Math.max(bottom, around.bottom);
      if (to - from <= lowest - highest) {
        top = from;
        bottom = to;
      } else if (to - from <= keys - highest) {
        // Its "went out" before the room for the faces: the cards that come scroll it away.
        lowest = keys;
        top = from;
        bottom = to;
      } else if (!current.hasAttribute("data-meld")) {
        // A team's cards left that do not fit whole: the field at the top, and as many of
        // the fields after it (the points) as fit under it.
        bottom = Math.min(to, top + lowest - highest);
      }
    }
    var by = 0;
    if (bottom > lowest) {
      by = bottom - lowest;
    } else if (top < highest) {
      by = top - highest;
    }
    if (top - by < highest) {
      by = top - highest; // taller than the room: its top (the field itself) wins
    }
    if (Math.abs(by) > 1) {
      window.scrollBy(0, by);
    }
  }

  // Never under a pressed finger (helpers.js): the page moves once the tap has landed.
  var placeFresh = place.bind(null, true);
  var placeStill = place.bind(null, false);

  function keepInView(fresh) {
    window.scorekeeperHelpers.whenLifted(fresh ? placeFresh : placeStill);
  }

  // Cards going in grow the row (faces, a verdict): it stays above the keys. So does a
  // change above it (a verdict or an opening line come late), which grows the form.
  var growth = window.ResizeObserver
    ? new window.ResizeObserver(function () {
        keepInView(false);
      })
    : null;
  if (growth) {
    growth.observe(form);
  }
  var watched = null;

  function watch(input) {
    var holder = input ? holderOf(input) : null;
    if (!growth || holder === watched) {
      return;
    }
    if (watched && watched !== form) {
      growth.unobserve(watched);
    }
    watched = holder;
    if (holder) {
      growth.observe(holder);
    }
  }

  /* --- the steps ------------------------------------------------------------------------- */

  function sideOf(input) {
    return (input && input.closest("[data-side]")) || null;
  }

  function nextSide(side) {
    var all = sides();
    return all[(all.indexOf(side) + 1) % all.length];
  }

  function lastSide(side) {
    var all = sides();
    return all.indexOf(side) === all.length - 1;
  }

  /* A team's "went out" on the page (none where the variant has no such fact). */
  function outBox(side) {
    return side.querySelector(".toggles input[type=checkbox][name$='-out']");
  }

  function someoneOut() {
    return sides().some(function (side) {
      var box = outBox(side);
      return Boolean(box) && box.checked;
    });
  }

  /* "‹team› went out ›" while nobody has gone out and a meld of a team that can is in use:
     the fact and the move on in one tap. In the place of the cards left for a team before
     the last (its cards left come after the last team's melds), of the next team for the
     last team (going back to an earlier team is rare). */
  function showOut(meld, sets) {
    var side = meld && !sets ? sideOf(current) : null;
    var on = Boolean(steps.out) && Boolean(side) && Boolean(outBox(side)) && !someoneOut();
    if (steps.out) {
      steps.out.hidden = !on;
    }
    if (!on) {
      return null;
    }
    var team = side.getAttribute("data-side-label") || "";
    var last = lastSide(side);
    if (outName) {
      outName.textContent = team;
    }
    steps.out.setAttribute(
      "aria-label",
      last
        ? fill(WORDS.out_left, { team: team })
        : fill(WORDS.out_next, { team: team, next: nextSide(side).getAttribute("data-side-label") })
    );
    return last ? "team" : "left";
  }

  /* A picker key as a step: its words (the suits in their colours) and its spoken name. */
  function asStep(step, key, on) {
    step.hidden = !on;
    if (on) {
      step.replaceChildren.apply(step, Array.prototype.map.call(key.childNodes, function (node) {
        return node.cloneNode(true);
      }));
      step.setAttribute("aria-label", key.getAttribute("aria-label") || "");
      step.setAttribute("data-cards", key.getAttribute("data-cards") || "");
    }
  }

  /* The set key as a step while it is on, in a meld; "Add meld" in its place otherwise. While
     the meld is one natural card, the three-card set keys too, in the places of the next team
     and the cards left: nobody leaves a meld of one card, and Save stays where it is. */
  function showSuits() {
    var meld = stepsOn && Boolean(current) && current.hasAttribute("data-meld");
    var on = meld && Boolean(suitsKey) && !suitsKey.disabled;
    var sets = meld && setKeys.length === setSteps.length && setKeys.length > 0 &&
      setKeys.every(function (key) {
        return !key.disabled;
      });
    if (suitsStep) {
      asStep(suitsStep, suitsKey, on);
    }
    setSteps.forEach(function (step, i) {
      asStep(step, setKeys[i], sets);
    });
    var replaced = showOut(meld, sets);
    steps.meld.hidden = !stepsOn || on;
    steps.team.hidden = !stepsOn || sides().length < 2 || sets || replaced === "team";
    steps.left.hidden = !stepsOn || sets || replaced === "left";
  }

  if (suitsKey && suitsStep) {
    if (window.MutationObserver) {
      var watchKeys = new window.MutationObserver(showSuits);
      [suitsKey].concat(setKeys).forEach(function (key) {
        watchKeys.observe(key, {
          attributes: true,
          childList: true,
          characterData: true,
          subtree: true,
        });
      });
    }
    suitsStep.addEventListener("click", function () {
      suitsKey.click(); // the picker writes, and ⌫ takes it back, as from its own key
    });
    setSteps.forEach(function (step, i) {
      step.addEventListener("click", function () {
        if (setKeys[i]) {
          setKeys[i].click();
        }
      });
    });
  }

  function showSteps(on) {
    var side = sideOf(current);
    stepsOn = on; // which steps show is showSuits's, below
    if (on && teamName) {
      var next = side ? nextSide(side) : sides()[0];
      teamName.textContent = next ? next.getAttribute("data-side-label") : "";
    }
    // "Cards left", or, in them, the name of the one the step goes to next.
    var group = on && side ? visibleInputs(side, "fieldset.hands input") : [];
    var at = group.indexOf(current);
    var then = at < 0 ? null : group[(at + 1) % group.length];
    steps.left.textContent = then ? (then.getAttribute("data-dock-name") || LEFT) + " ›" : LEFT;
    dock.classList.toggle("has-keys", on);
    showSuits();
  }

  function go(input) {
    if (input) {
      input.focus({ preventScroll: true });
    }
  }

  /* A team's first empty meld row in sight, or a new one from its "Add meld". */
  function emptyMeld(side) {
    var empty = visibleInputs(side, "[data-meld]").filter(function (input) {
      return !input.value.trim();
    })[0];
    if (empty) {
      go(empty);
      return;
    }
    var add = side.querySelector("[data-add-meld]");
    if (add) {
      add.click(); // hand-entry.js opens the row and focuses it
    }
  }

  /* A team's cards left, the way most tables count them: its points in total (the points
     pad), then each player's cards (the picker) by the same step. */
  function cardsLeft(side) {
    var group = visibleInputs(side, "fieldset.hands input");
    var points = group.filter(function (input) {
      return input.matches("[name$='-points']");
    })[0];
    return points || group[0] || visibleInputs(form, ".player-row [data-card-input]")[0];
  }

  var step = {
    meld: function (side) {
      var add = side.querySelector("[data-add-meld]");
      if (add) {
        add.click();
      }
    },
    team: function (side) {
      var next = nextSide(side);
      var mine = visibleInputs(side, "fieldset.hands input");
      var at = current ? mine.indexOf(current) : -1;
      if (at < 0) {
        emptyMeld(next);
        return;
      }
      var theirs = visibleInputs(next, "fieldset.hands input");
      go(theirs[Math.min(at, theirs.length - 1)]);
    },
    left: function (side) {
      // In a team's cards left, the next of them (a player's cards, then the points).
      var group = visibleInputs(side, "fieldset.hands input");
      var at = group.indexOf(current);
      go(at < 0 ? cardsLeft(side) : group[(at + 1) % group.length]);
    },
    out: function (side) {
      var box = outBox(side);
      if (!box) {
        return;
      }
      if (!box.checked) {
        // As a tap on the toggle: its change goes to what it implies, the draft and the preview.
        box.click();
      }
      if (lastSide(side)) {
        go(cardsLeft(side));
      } else {
        emptyMeld(nextSide(side)); // its "Add meld" may be clicked: said after that click
      }
      say(fill(WORDS.out_done, { team: side.getAttribute("data-side-label") || "" }));
    },
  };

  // A team's "went out" ticked or unticked on the page: the joined step goes or comes back.
  form.addEventListener("change", function (event) {
    var box = event.target;
    if (box.type === "checkbox" && /-out$/.test(box.name || "")) {
      if (!box.checked) {
        say(""); // taken back: what the step did no longer holds
      }
      showSuits();
    }
  });

  Object.keys(steps).forEach(function (name) {
    if (!steps[name]) {
      return;
    }
    steps[name].addEventListener("click", function () {
      step[name](sideOf(current) || sides()[0]);
    });
  });

  /* --- Save: the form's own, pressed from here ------------------------------------------- */

  // The form's Save (its outbox, its kózi gate, its one-send guard) is the one that sends;
  // the dock's mirrors whether it may be pressed.
  var save = form.querySelector("button[data-save]");
  var dockSave = dock.querySelector("[data-dock-save]");
  if (save && dockSave) {
    var mirror = function () {
      dockSave.disabled = save.disabled;
    };
    mirror();
    if (window.MutationObserver) {
      new window.MutationObserver(mirror).observe(save, { attributes: true });
    }
    dockSave.addEventListener("click", function () {
      if (!save.disabled) {
        save.click();
      }
    });
  }

  /* --- keys up and down ------------------------------------------------------------------ */

  form.addEventListener("focusin", function (event) {
    var target = event.target;
    if (!target.matches || dock.contains(target)) {
      return;
    }
    if (target.matches(FIELDS)) {
      current = target;
      showSteps(true);
      watch(target);
      // The picker or pad has taken its place in the dock by the next frame.
      window.requestAnimationFrame(function () {
        fitPage();
        keepInView(true);
      });
    } else if (target.matches("textarea, select, input[type=text], input[type=number]")) {
      // A field typed on the phone's keyboard (the reason, a count): the keys fold away.
      current = null;
      watch(null);
      if (picker) {
        picker.hidden = true;
      }
      if (pad) {
        pad.hidden = true;
      }
      showSteps(false);
      window.requestAnimationFrame(fitPage);
    }
  });

  // ⌨: the keys fold while the phone's keyboard types, and come back with the next ⌨.
  dock.addEventListener("click", function (event) {
    var key = event.target.closest("[data-picker-keyboard], [data-pad-keyboard]");
    if (key) {
      dock.classList.toggle("is-typing", key.getAttribute("aria-pressed") === "true");
      window.requestAnimationFrame(function () {
        fitPage();
        keepInView(false);
      });
    }
  });

  if (window.visualViewport) {
    var onView = function () {
      lift();
      window.requestAnimationFrame(function () {
        keepInView(false);
      });
    };
    window.visualViewport.addEventListener("resize", onView);
    window.visualViewport.addEventListener("scroll", lift);
  }
  if (window.ResizeObserver) {
    // The dock grows (a line of status, the pad for the picker): the field stays above it.
    new window.ResizeObserver(function () {
      fitPage();
      keepInView(false);
    }).observe(dock);
  }

  /* --- what a shortcut did: over the scores for a moment, then the scores again ---------- */

  // The picker's line (its shortcuts) and the dock's own (its joined step): one at a time.
  var status = picker && picker.querySelector("[data-picker-status]");
  var dockStatus = dock.querySelector("[data-dock-status]");

  function fades(line, other) {
    var timer = null;
    new window.MutationObserver(function () {
      window.clearTimeout(timer);
      if (line.textContent) {
        if (other) {
          other.textContent = "";
        }
        timer = window.setTimeout(function () {
          line.textContent = "";
        }, STATUS_MS);
      }
    }).observe(line, { childList: true, characterData: true, subtree: true });
  }

  if (window.MutationObserver) {
    if (status) {
      fades(status, dockStatus);
    }
    if (dockStatus) {
      fades(dockStatus, status);
    }
  }

  function say(text) {
    if (dockStatus) {
      dockStatus.textContent = text;
    }
  }

  // The dock's line stays until the next tap (its own step's tap sets it, after the toggle's).
  form.addEventListener("click", function (event) {
    if (!(steps.out && steps.out.contains(event.target))) {
      say("");
    }
  });

  /* --- the scores ------------------------------------------------------------------------ */

  var scores = dock.querySelectorAll("[data-dock-score]");
  var totals = dock.querySelectorAll("[data-dock-total]");

  function showScores(teams, after) {
    Array.prototype.forEach.call(scores, function (score, i) {
      score.textContent = teams[i] !== undefined && teams[i] !== null ? String(teams[i]) : "–";
    });
    Array.prototype.forEach.call(totals, function (total, i) {
      total.textContent = after[i] !== undefined && after[i] !== null ? String(after[i]) : "";
      total.hidden = !total.textContent;
    });
  }

  // What the server drew (a correction, a refused hand), then every live preview.
  function drawn(selector) {
    return Array.prototype.map.call(form.querySelectorAll(selector), function (one) {
      return one.textContent.trim();
    });
  }
  showScores(drawn("[data-preview] [data-preview-score]"), drawn("[data-preview] [data-preview-total]"));
  form.addEventListener("hand:preview", function (event) {
    var answer = event.detail || {};
    showScores(
      (answer.teams || []).map(function (team) {
        return team.score;
      }),
      (answer.totals || []).map(function (side) {
        return side.total;
      })
    );
  });

  dock.hidden = false;
  lift();
  fitPage();
  // A field focused before this script ran (a refused hand opens at its problem): its keys
  // and steps, and the field above them.
  var focused = document.activeElement;
  if (focused && form.contains(focused) && focused.matches(FIELDS)) {
    current = focused;
    showSteps(true);
    watch(focused);
    window.requestAnimationFrame(function () {
      fitPage();
      keepInView(false);
    });
  } else {
    showSteps(false);
  }
})();
