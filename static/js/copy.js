// Copy and share buttons for links and tokens shown in a read-only input (invitation links,
// API tokens). Loaded as a file because the Content-Security-Policy forbids inline scripts.
//
//   <input id="x" readonly data-select-on-focus>   selects all of its text when tapped
//   <button data-copy="x">                         copies input #x to the clipboard
//   <button data-share="x" data-share-title="…" hidden>  shown only where the phone can share
//   <p role="status" data-copy-status>             says what happened, for everyone
//   <div class="copy-box" data-copied="…" data-copy-by-hand="…">  those words, in the page's language
"use strict";

(() => {
  const say = (button, message) => {
    const box = button.closest(".copy-box");
    const status = box && box.querySelector("[data-copy-status]");
    if (status) status.textContent = message;
  };

  const copy = async (input) => {
    try {
      // Only secure pages (https, localhost) have the asynchronous clipboard.
      await navigator.clipboard.writeText(input.value);
      return true;
    } catch {
      input.focus();
      input.select();
      return document.execCommand && document.execCommand("copy");
    }
  };

  document.querySelectorAll("[data-select-on-focus]").forEach((input) => {
    input.addEventListener("focus", () => input.select());
    input.addEventListener("click", () => input.select());
  });

  document.querySelectorAll("[data-copy]").forEach((button) => {
    button.addEventListener("click", async () => {
      const input = document.getElementById(button.dataset.copy);
      if (!input) return;
      const copied = await copy(input);
      const box = button.closest(".copy-box");
      const words = box ? box.dataset : {};
      say(
        button,
        copied
          ? words.copied || "Copied."
          : words.copyByHand || "Select the text and copy it by hand.",
      );
    });
  });

  document.querySelectorAll("[data-share]").forEach((button) => {
    if (typeof navigator.share !== "function") return;
    button.hidden = false;
    button.addEventListener("click", async () => {
      const input = document.getElementById(button.dataset.share);
      if (!input) return;
      try {
        await navigator.share({ title: button.dataset.shareTitle || document.title, url: input.value });
      } catch {
        // The person closed the share sheet: nothing to report.
      }
    });
  });
})();
