/*
 * Points pad: adds up the points left in a side's hands. Markup and usage are documented at
 * points_pad() in templates/macros/cards.html.
 *
 * One pad per page, moved under whichever of its fields has focus (like the card picker, and
 * the card picker folds away meanwhile: one set of keys on the screen at a time). Every change
 * fires a bubbling "input" event on the field, so live previews and drafts hear it.
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
    current.dispatchEvent(new Event("input", { bubbles: true }));
  }

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
      // The field (its running sum) and every key in sight together.
      window.requestAnimationFrame(function () {
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
      });
    } else if (input.matches("[data-card-input]")) {
      pad.hidden = true;
    }
  });

  pad.addEventListener("click", function (event) {
    var button = event.target.closest("button");
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
})();
