/*
 * Points pad: adds up the points left in a side's hands. Markup and usage are documented at
 * points_pad() in templates/macros/cards.html.
 *
 * One pad per page, moved under whichever of its fields has focus (like the card picker, and
 * the card picker folds away meanwhile: one set of keys on the screen at a time). Every change
 * fires a bubbling "input" event on the field, so live previews and drafts hear it.
 *
 * With a column of keys per side ([data-pad-for], the hand form's dock), a key adds to its own
 * column's field and makes it the field in use (for ⌫ and Clear): every side's cards left go
 * in without a tap to move between fields. Each column's heading shows its field's points.
 */
(function () {
  "use strict";

  var pad = document.querySelector("[data-points-pad]");
  if (!pad) {
    return;
  }
  var fields = pad.getAttribute("data-points-pad");
  var keyboardButton = pad.querySelector("[data-pad-keyboard]");
  var current = null;
  var added = []; // the keys tapped into the current field, for ⌫
  var padding = false; // a write of the pad's own, not typing

  /* A column's field, shown as its heading's points. */
  function showSums() {
    Array.prototype.forEach.call(pad.querySelectorAll("[data-pad-for]"), function (column) {
      var field = document.getElementById(column.getAttribute("data-pad-for"));
      var sum = column.querySelector("[data-pad-sum]");
      if (sum) {
        sum.textContent = field && field.value ? field.value : "–";
      }
      column.classList.toggle("is-current", Boolean(field) && field === current);
    });
  }

  function inputs() {
    return Array.prototype.slice.call(document.querySelectorAll(fields));
  }

  function setTyping(on) {
    inputs().forEach(function (input) {
      input.setAttribute("inputmode", on ? "numeric" : "none");
    });
    keyboardButton.setAttribute("aria-pressed", on ? "true" : "false");
  }

  function write(value) {
    current.value = value > 0 ? String(value) : "";
    padding = true;
    current.dispatchEvent(new Event("input", { bubbles: true }));
    padding = false;
    showSums();
  }

  // Typed by hand: the keys tapped before no longer say what ⌫ takes back.
  document.addEventListener("input", function (event) {
    if (!padding && event.target.matches && event.target.matches(fields)) {
      if (event.target === current) {
        added = [];
      }
      showSums();
    }
  });

  document.addEventListener("focusin", function (event) {
    var input = event.target;
    if (!input.matches) {
      return;
    }
    if (input.matches(fields)) {
      if (input !== current) {
        added = [];
      }
      current = input;
      showSums();
      var holder = input.closest(".field") || input;
      // A docked pad stays in its dock, which keeps the field in sight (static/js/entry-dock.js).
      var docked = Boolean(pad.closest("[data-entry-dock]"));
      if (!docked && holder.nextSibling !== pad) {
        holder.parentNode.insertBefore(pad, holder.nextSibling);
      }
      pad.hidden = false;
      var picker = document.querySelector("[data-card-picker='']"); // the shared one
      if (picker) {
        picker.hidden = true; // the card picker opens again with the next card field
      }
      // The field (its running sum) and every key in sight together, once the tap has landed.
      var showPad = function () {
        if (docked) {
          return;
        }
        var top = holder.getBoundingClientRect().top - 8;
        var bottom = pad.getBoundingClientRect().bottom + 8;
        if (bottom > window.innerHeight) {
          window.scrollBy(0, Math.min(bottom - window.innerHeight, top));
        } else if (top < 0) {
          window.scrollBy(0, top);
        }
      };
      window.requestAnimationFrame(function () {
        window.scorekeeperHelpers.whenLifted(showPad);
      });
    } else if (input.matches("[data-card-input]")) {
      pad.hidden = true;
    }
  });

  pad.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    // A key of a side's column: that side's field is the one in use from now on.
    var column = button && button.closest("[data-pad-for]");
    var own = column && document.getElementById(column.getAttribute("data-pad-for"));
    if (own && own !== current) {
      own.focus({ preventScroll: true }); // focusin above makes it current
      current = own;
      added = [];
      showSums();
    }
    if (!button || !current) {
      return;
    }
    var now = Number(current.value) || 0;
    if (button.hasAttribute("data-add")) {
      var value = Number(button.getAttribute("data-add"));
      added.push(value);
      write(now + value);
    } else if (button.hasAttribute("data-pad-back")) {
      // The last key taken back; a number typed or saved earlier loses its last digit.
      write(added.length ? now - added.pop() : Math.floor(now / 10));
    } else if (button.hasAttribute("data-pad-clear")) {
      added = [];
      write(0);
    } else if (button === keyboardButton) {
      setTyping(keyboardButton.getAttribute("aria-pressed") !== "true");
      current.blur();
      current.focus({ preventScroll: true });
    }
  });

  setTyping(false);
  showSums();
})();
