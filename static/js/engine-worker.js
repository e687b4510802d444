/*
 * The rules engine's own thread (a module worker started by offline-engine.js): Pyodide is
 * started here, so the seconds it takes to compile and unpack never hold up a tap, a scroll
 * or a verdict on the page. Pyodide refuses classic workers, hence a module worker.
 *
 * Starting Pyodide from scratch runs Python's and Pyodide's own start (some 190 modules:
 * asyncio, ssl, inspect...) and then the engine's imports: seconds on a phone, which the
 * first preview after the network drops would wait. So the first start also takes a memory
 * snapshot of the interpreter with the engine imported (Pyodide's makeMemorySnapshot) and
 * keeps it, gzip-compressed, in the "scorekeeper-snapshot" cache; later starts restore it
 * (loadPyodide's _loadSnapshot) and skip all of that. The snapshot is named by Pyodide's
 * version and the engine's digest, so a new one of either makes a new snapshot; one that
 * will not restore is dropped and the engine starts from scratch.
 *
 * Each message: {id, setup, call, args} where call is "start" or a function of
 * scorekeeper/play/offline_score.py by its short name; the answer is {id, result} (the
 * function's text) or {id, error}.
 */
var SNAPSHOTS = "scorekeeper-snapshot";
var IMPORTS =
  "import sys\n" +
  "sys.path.insert(0, '/engine')\n" +
  "import gettext\n" +
  "import scorekeeper.rules.i18n\n" +
  "import scorekeeper.play.offline_score\n";
// The engine speaks the page's language, from the same catalog as the server's pages.
var LANGUAGE =
  "import gettext\n" +
  "from scorekeeper.rules.i18n import set_translations\n" +
  "try:\n" +
  "    with open('/engine/catalogs/' + LANGUAGE + '.mo', 'rb') as mo:\n" +
  "        set_translations(gettext.GNUTranslations(mo), LANGUAGE)\n" +
  "except OSError:\n" +
  "    set_translations(None)\n";
var starting = null;

/* The kept snapshot for this runtime and engine (its bytes), or null. */
function keptSnapshot(name) {
  if (!self.caches || !self.DecompressionStream) {
    return Promise.resolve(null);
  }
  return caches.open(SNAPSHOTS).then(function (cache) {
    return cache.match(name);
  }).then(function (response) {
    if (!response) {
      return null;
    }
    var plain = response.body.pipeThrough(new DecompressionStream("gzip"));
    return new Response(plain).arrayBuffer();
  }).catch(function () {
    return null;
  });
}

/* Keeps the snapshot (in place of any older one), compressed: 30 MB of interpreter memory
   is some 6 MB gzipped. */
function keep(name, bytes) {
  if (!self.caches || !self.CompressionStream) {
    return Promise.resolve();
  }
  var packed = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(packed).blob().then(function (blob) {
    return caches.open(SNAPSHOTS).then(function (cache) {
      return cache.keys().then(function (old) {
        return Promise.all(old.map(function (request) {
          return cache.delete(request);
        }));
      }).then(function () {
        return cache.put(name, new Response(blob));
      });
    });
  }).catch(function () {});
}

function boot(setup, snapshot) {
  var base = setup.runtime.replace(/[^/]+$/, "");
  var options = { indexURL: base, fullStdLib: false };
  if (snapshot) {
    options._loadSnapshot = snapshot;
  } else {
    options._makeSnapshot = true;
  }
  return self.loadPyodide(options);
}

function start(setup) {
  if (starting) {
    return starting;
  }
  // Named like the engine's zip (its digest) under the runtime's folder (its version).
  var name = setup.runtime.replace(/[^/]+$/, "") +
    setup.engine.replace(/^.*\//, "").replace(/\.zip$/, ".snapshot");
  var snapshotted = false;
  // pyodide.js sets globalThis.loadPyodide when it runs; imported, it runs once. The engine
  // and the snapshot are read meanwhile.
  starting = Promise.all([
    import(setup.runtime),
    fetch(setup.engine, { credentials: "same-origin" }).then(function (response) {
      if (!response.ok) {
        throw new Error("engine " + response.status);
      }
      return response.arrayBuffer();
    }),
    keptSnapshot(name),
  ]).then(function (all) {
    var engine = all[1];
    var snapshot = all[2];
    return (snapshot ? boot(setup, snapshot).catch(function () {
      // A snapshot that does not restore (a damaged copy): dropped, and started afresh.
      snapshot = null;
      return caches.open(SNAPSHOTS).then(function (cache) {
        return cache.delete(name);
      }).then(function () {
        return boot(setup, null);
      });
    }) : boot(setup, null)).then(function (pyodide) {
      // The engine's files: not part of a snapshot (it holds the interpreter's memory only).
      pyodide.unpackArchive(engine, "zip", { extractDir: "/engine" });
      if (!snapshot) {
        pyodide.runPython(IMPORTS);
        snapshotted = pyodide.makeMemorySnapshot();
      }
      pyodide.runPython(LANGUAGE, { globals: pyodide.toPy({ LANGUAGE: setup.language }) });
      var module = pyodide.pyimport("scorekeeper.play.offline_score");
      return {
        preview: module.preview_json,
        score: module.score_json,
        check: module.meld_check_json,
        progress: module.progress_json,
      };
    });
  });
  starting.then(function () {
    if (snapshotted) {
      keep(name, snapshotted); // after the start's answer: the snapshot is for next time
    }
  }, function () {
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
