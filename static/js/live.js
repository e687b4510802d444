/*
 * Live pages: a scoreboard (or the club's big screen) follows hands saved on other phones.
 *
 *   <div data-live-poll="/matches/7/live.json" data-live-etag='"m7-3-4"'
 *        data-live-every="2000" data-live-gone="…">
 *     <div data-live-region="summary">…</div>   parts the server draws again
 *     <ol data-live-keyed> <li id="hand-3">…     children matched by id
 *
 * Every `every` ms, while the page is visible, it asks the poll URL with If-None-Match: a 304
 * (nothing changed) costs the server one small query. Any other answer means something
 * changed: the page (or its data-live-page, just the regions) is fetched again and each
 * region swapped for its new self. Children of a
 * [data-live-keyed] list that did not change stay the very same nodes, so an open hand's
 * details stay open and the scroll position holds; a changed one keeps its details open.
 * 404 (the match deleted, the shared link withdrawn) stops the polling and says so, and hides
 * what promised it would follow ([data-live-only]: "it follows the table live"). Without
 * JavaScript the page is the same page, brought up to date by reloading it.
 */
(function () {
  "use strict";

  var root = document.querySelector("[data-live-poll]");
  if (!root || !window.fetch || !window.DOMParser) {
    return;
  }
  var element = window.scorekeeperHelpers.element;
  var pollUrl = root.getAttribute("data-live-poll");
  // Where the changed parts come from: the scoreboard's own drawing of them (one per
  // revision for every viewer), or else the page itself.
  var pageUrl = root.getAttribute("data-live-page") ||
    window.location.pathname + window.location.search;
  var etag = root.getAttribute("data-live-etag") || "";
  var every = parseInt(root.getAttribute("data-live-every"), 10) || 2000;
  var timer = null;
  var busy = false;
  var failures = 0;
  var stopped = false;
  // What the server sent for each keyed child, to tell a changed one from an opened one
  // (an open <details> changes a node's own outerHTML).
  var sources = {};

  function keyedChildren(list) {
    return Array.prototype.filter.call(list.children, function (child) {
      return child.id;
    });
  }

  function remember(scope) {
    scope.querySelectorAll("[data-live-keyed]").forEach(function (list) {
      keyedChildren(list).forEach(function (child) {
        sources[child.id] = child.outerHTML;
      });
    });
  }

  function keepOpen(from, to) {
    var open = {};
    from.querySelectorAll("details").forEach(function (details, index) {
      open[index] = details.open;
    });
    to.querySelectorAll("details").forEach(function (details, index) {
      if (open[index]) {
        details.open = true;
      }
    });
  }

  function patchList(list, fresh) {
    var kept = {};
    keyedChildren(list).forEach(function (child) {
      kept[child.id] = child;
    });
    var before = null;
    keyedChildren(fresh).forEach(function (child) {
      var source = child.outerHTML;
      var old = kept[child.id];
      var node = old;
      if (!old || sources[child.id] !== source) {
        node = document.importNode(child, true);
        if (old) {
          keepOpen(old, node);
          list.replaceChild(node, old);
        }
        sources[child.id] = source;
      }
      delete kept[child.id];
      // In the new order: right after the one placed before it (or first).
      var wanted = before ? before.nextSibling : list.firstChild;
      if (node !== wanted) {
        list.insertBefore(node, wanted);
      }
      before = node;
    });
    Object.keys(kept).forEach(function (id) {
      list.removeChild(kept[id]);
      delete sources[id];
    });
  }

  function patchRegion(region, fresh) {
    var list = region.querySelector("[data-live-keyed]");
    var freshList = fresh.querySelector("[data-live-keyed]");
    if (list && freshList && list.id === freshList.id) {
      // Only the list changes in place; anything around it is drawn again.
      var listIsAll = region.children.length === 1 && fresh.children.length === 1;
      if (listIsAll) {
        patchList(list, freshList);
        return;
      }
    }
    if (region.innerHTML !== fresh.innerHTML) {
      region.innerHTML = fresh.innerHTML;
      remember(region);
    }
  }

  function refresh() {
    return fetch(pageUrl, { credentials: "same-origin", cache: "no-store" }).then(function (response) {
      if (response.status === 404) {
        return "gone";
      }
      if (!response.ok) {
        throw new Error("page " + response.status);
      }
      return response.text().then(function (text) {
        var page = new DOMParser().parseFromString(text, "text/html");
        document.querySelectorAll("[data-live-region]").forEach(function (region) {
          var name = region.getAttribute("data-live-region");
          var fresh = page.querySelector('[data-live-region="' + name + '"]');
          if (fresh) {
            patchRegion(region, fresh);
          }
        });
        var freshRoot = page.querySelector("[data-live-poll]");
        if (freshRoot) {
          etag = freshRoot.getAttribute("data-live-etag") || etag;
        }
        root.setAttribute("data-live-etag", etag);
        root.setAttribute("data-live-updated", String(Date.now()));
        // Scripts that draw over a region (outbox.js: the phone's totals) draw again.
        document.dispatchEvent(new CustomEvent("live:updated"));
        return "ok";
      });
    });
  }

  function gone() {
    stopped = true;
    clearTimeout(timer);
    document.querySelectorAll("[data-live-only]").forEach(function (promise) {
      promise.hidden = true; // it follows nothing any more
    });
    if (document.querySelector("[data-live-gone-note]")) {
      return;
    }
    var note = element("p", "flash flash-error live-gone", root.getAttribute("data-live-gone") || "", {
      role: "alert",
      "data-live-gone-note": "",
    });
    root.insertBefore(note, root.firstChild);
  }

  function schedule(wait) {
    clearTimeout(timer);
    if (!stopped && document.visibilityState !== "hidden") {
      timer = setTimeout(poll, wait);
    }
  }

  /* The next ask `every` ms after this one began, not after it ended: what a viewer sees is at
     most one period behind, however long the answer took (a TV's poll and its page are two
     answers). Never sooner than half a period after an answer, so a slow server is not asked
     back to back. */
  function next(began) {
    return Math.max(every / 2, every - (Date.now() - began));
  }

  function poll() {
    if (busy || stopped || document.visibilityState === "hidden") {
      return;
    }
    busy = true;
    var began = Date.now();
    var headers = { Accept: "application/json" };
    if (etag) {
      headers["If-None-Match"] = etag;
    }
    fetch(pollUrl, { headers: headers, credentials: "same-origin", cache: "no-store" })
      .then(function (response) {
        if (response.status === 304) {
          return "same";
        }
        if (response.status === 404) {
          return "gone";
        }
        if (!response.ok) {
          throw new Error("poll " + response.status);
        }
        return refresh();
      })
      .then(function (outcome) {
        busy = false;
        failures = 0;
        if (outcome === "gone") {
          gone();
        } else {
          schedule(next(began));
        }
      })
      .catch(function () {
        // Offline or a server hiccup: ask again, less often each time (at most every 30 s).
        busy = false;
        failures += 1;
        schedule(Math.min(every * Math.pow(2, failures), 30000));
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") {
      clearTimeout(timer); // a hidden page asks nothing
    } else {
      schedule(0); // shown again: catch up at once
    }
  });
  window.addEventListener("online", function () {
    failures = 0;
    schedule(0);
  });

  remember(document);
  schedule(every);
})();
