/*
 * New-match form: choosing another preset or table refreshes the form at once (the same POST
 * "refresh" that the "Change preset or table" button sends without JavaScript: nothing is
 * created, and no field lands in the URL), so the teams and the house rules match the choice.
 *
 * Changing a seat, the first dealer or the deal's direction asks the server for the form
 * again in the background and takes only its line on the order of the deal: the server (the
 * rules engine) decides that order, this script only shows it.
 */
(function () {
  "use strict";

  var form = document.querySelector("[data-new-match]");
  if (!form) {
    return;
  }
  var reload = form.querySelector("[data-reload-button]");
  var line = form.querySelector("[data-deal-order]");
  var asked = 0;

  function refreshDealOrder() {
    if (!line || !window.fetch || !window.DOMParser) {
      return;
    }
    var body = new FormData(form);
    body.append("refresh", "1");
    var mine = ++asked;
    fetch(form.getAttribute("action") || window.location.href, {
      method: "POST",
      body: body,
      credentials: "same-origin"
    })
      .then(function (response) {
        return response.ok ? response.text() : null;
      })
      .then(function (html) {
        if (html === null || mine !== asked) {
          return; // an older answer, or a refusal: keep what is shown
        }
        var page = new DOMParser().parseFromString(html, "text/html");
        var fresh = page.querySelector("[data-deal-order]");
        if (fresh) {
          line.textContent = fresh.textContent;
        }
      })
      .catch(function () {
        /* offline: the line is filled again with the next answer */
      });
  }

  form.addEventListener("change", function (event) {
    var field = event.target;
    if (field.hasAttribute("data-reload")) {
      if (form.requestSubmit) {
        form.requestSubmit(reload);
      } else {
        reload.click();
      }
    } else if (field.hasAttribute("data-deal-field") || /deal_direction$/.test(field.name)) {
      refreshDealOrder();
    }
  });
})();
