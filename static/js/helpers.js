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

  window.scorekeeperHelpers = { element: element, fill: fill };
})();
