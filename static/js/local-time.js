/*
 * <time datetime="…" data-local-time> elements: the server writes the time in UTC (what is
 * shown without JavaScript); this shows it in the phone's own time zone, in the page's
 * language, and keeps the UTC text as the element's title.
 */
(function () {
  "use strict";

  var lang = document.documentElement.lang || undefined;
  var options = {
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit"
  };
  document.querySelectorAll("time[data-local-time]").forEach(function (element) {
    var when = new Date(element.getAttribute("datetime"));
    if (isNaN(when.getTime())) {
      return;
    }
    try {
      element.title = element.textContent;
      element.textContent = when.toLocaleString(lang, options);
      element.setAttribute("data-local", "1");
    } catch (error) {
      /* an unknown locale: the UTC text stays */
    }
  });
})();
