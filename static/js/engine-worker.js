/*
 * The rules engine's own thread (a module worker started by offline-engine.js): Pyodide is
 * started here, so the seconds it takes to compile and unpack never hold up a tap, a scroll
 * or a verdict on the page. Pyodide refuses classic workers, hence a module worker.
 *
 * Each message: {id, setup, call, args} where call is "start" or a function of
 * scorekeeper/play/offline_score.py by its short name; the answer is {id, result} (the
 * function's text) or {id, error}.
 */
var starting = null;

function start(setup) {
  if (starting) {
    return starting;
  }
  var base = setup.runtime.replace(/[^/]+$/, "");
  // pyodide.js sets globalThis.loadPyodide when it runs; imported, it runs once.
  starting = import(setup.runtime).then(function () {
    return Promise.all([
      self.loadPyodide({ indexURL: base, fullStdLib: false }),
      fetch(setup.engine, { credentials: "same-origin" }).then(function (response) {
        if (!response.ok) {
          throw new Error("engine " + response.status);
        }
        return response.arrayBuffer();
      }),
    ]);
  }).then(function (both) {
    var pyodide = both[0];
    pyodide.unpackArchive(both[1], "zip", { extractDir: "/engine" });
    // The engine speaks the page's language, from the same catalog as the server's pages.
    pyodide.runPython(
      "import sys, gettext\n" +
      "sys.path.insert(0, '/engine')\n" +
      "from scorekeeper.rules.i18n import set_translations\n" +
      "from scorekeeper.play import offline_score\n" +
      "try:\n" +
      "    with open('/engine/catalogs/' + LANGUAGE + '.mo', 'rb') as mo:\n" +
      "        set_translations(gettext.GNUTranslations(mo), LANGUAGE)\n" +
      "except OSError:\n" +
      "    set_translations(None)\n",
      { globals: pyodide.toPy({ LANGUAGE: setup.language }) }
    );
    var module = pyodide.pyimport("scorekeeper.play.offline_score");
    return {
      preview: module.preview_json,
      score: module.score_json,
      check: module.meld_check_json,
      progress: module.progress_json,
    };
  });
  starting.catch(function () {
    starting = null; // a failure lets the next call try again
  });
  return starting;
}

self.onmessage = function (event) {
  var asked = event.data;
  start(asked.setup).then(function (engine) {
    return asked.call === "start" ? null : engine[asked.call].apply(null, asked.args);
  }).then(function (result) {
    self.postMessage({ id: asked.id, result: result });
  }, function (error) {
    self.postMessage({ id: asked.id, error: String(error) });
  });
};
