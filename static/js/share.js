/*
 * The share page's form: a link that "stops working at midnight tonight" means the phone's
 * midnight, so the phone's offset from UTC goes with the form (<input data-tz-offset>).
 * Without JavaScript the server takes UTC's midnight.
 */
(function () {
  "use strict";

  document.querySelectorAll("input[data-tz-offset]").forEach(function (input) {
    input.value = String(new Date().getTimezoneOffset());
  });
})();
