/*
 * New-match form: choosing another preset or table reloads the form at once (the same GET
 * that the "Change preset or table" button sends without JavaScript), so the teams and the
 * house rules always match the choice.
 */
(function () {
  "use strict";

  var form = document.querySelector("[data-new-match]");
  if (!form) {
    return;
  }
  var reload = form.querySelector("[data-reload-button]");
  form.querySelectorAll("[data-reload]").forEach(function (select) {
    select.addEventListener("change", function () {
      if (form.requestSubmit) {
        form.requestSubmit(reload);
      } else {
        reload.click();
      }
    });
  });
})();
