/*
 * The helpers every page script shares, kept in one place instead of a copy in each script.
 * base.html loads this first, before every other script of the page (all are deferred, so
 * they run in document order), and each script takes what it needs from
 * window.scorekeeperHelpers.
 *
 * element(tag, className, content, attributes)
 *   A new element: its class (none when empty), then its content, either text (set as
 *   textContent, never parsed as HTML: words from the server or a player stay words) or a
 *   list of children (nodes and strings; null and undefined are skipped, so a child may be
 *   left out with a condition), then its attributes ({name: value}).
 *
 * fill(template, values)
 *   The page's words with their fields filled in. Scripts get their words, in the page's
 *   language, from data-words attributes the server writes: gettext templates whose
 *   %(name)s and %(name)d fields are filled here from `values`. A field without a value stays
 *   as written, so a missing value shows rather than vanishing.
 *
 * whenLifted(task)
 *   Runs `task`, something that scrolls the page by itself (keeping the field in use in
 *   view), now or, while a finger or the mouse is pressed on the page, once it is lifted and
 *   its tap has landed. A page that moves under a pressed finger has the release land on
 *   another line, and the tap is lost: a toggle pressed as the live preview answered (the
 *   dock then grew and kept the field above it) stayed unticked. A task asked for again
 *   while it waits runs once.
 */
(function () {
  "use strict";

  function element(tag, className, content, attributes) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (Array.isArray(content)) {
      content.forEach(function (child) {
        if (child !== null && child !== undefined) {
          node.append(child);
        }
      });
    } else if (content !== undefined) {
      node.textContent = content;
    }
    Object.keys(attributes || {}).forEach(function (name) {
      node.setAttribute(name, attributes[name]);
    });
    return node;
  }

  function fill(template, values) {
    return String(template || "").replace(/%\((\w+)\)[sd]/g, function (match, name) {
      return name in values ? String(values[name]) : match;
    });
  }

  // A tap's click comes after the lift (a finger's in a task of its own, once the browser
  // has seen it was no scroll): a lift with no click after it (a long press) frees the page
  // this long after.
  var NO_CLICK_MS = 300;
  var pressed = false;
  var waiting = [];
  var freeing = null;

  function free() {
    pressed = false;
    window.clearTimeout(freeing);
    var tasks = waiting;
    waiting = [];
    tasks.forEach(function (task) {
      task();
    });
  }

  function whenLifted(task) {
    if (!pressed) {
      task();
    } else if (waiting.indexOf(task) < 0) {
      waiting.push(task);
    }
  }

  // Capture, on the window: before any handler of the page has moved it.
  window.addEventListener(
    "pointerdown",
    function () {
      pressed = true;
      window.clearTimeout(freeing);
    },
    true
  );
  window.addEventListener(
    "pointerup",
    function () {
      window.clearTimeout(freeing);
      freeing = window.setTimeout(free, NO_CLICK_MS);
    },
    true
  );
  // The browser took the finger for a scroll of its own, or the window went away under it
  // (a call, another app): nothing to land.
  window.addEventListener("pointercancel", free, true);
  window.addEventListener("blur", free);
  window.addEventListener(
    "click",
    function () {
      if (pressed) {
        // After the click's own handlers, which may move the page themselves.
        window.clearTimeout(freeing);
        freeing = window.setTimeout(free, 0);
      }
    },
    true
  );

  window.scorekeeperHelpers = { element: element, fill: fill, whenLifted: whenLifted };
})();
