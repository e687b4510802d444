// Forms marked data-auto-submit (the leaderboard's season and order pickers) show the new
// choice at once; their button stays for keyboards and for browsers without scripts.
"use strict";
document.querySelectorAll("form[data-auto-submit]").forEach((form) => {
  form.addEventListener("change", () => form.requestSubmit());
});
