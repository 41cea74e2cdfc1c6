// Keeps one JSON value in the browser's localStorage, so progress survives a reload
// and a restarted kernel. On start it sends the stored value (or ""), the browser's time zone, and
// sets loaded.
function storageFor(model) {
  try {
    return window.localStorage;
  } catch (e) {
    return null;
  }
}

// Under JupyterHub every learner's page shares the hub's origin, and so one localStorage: a
// learner's pages live under /user/<name>/, so that prefix goes in front of the key and two
// learners on one computer keep their own progress. The plain app's key stays as it was.
function keyFor(key) {
  const match = /^(.*?\/user\/[^/]+\/)voila\//.exec(window.location.pathname);
  return match ? match[1] + key : key;
}

function initialize({ model }) {
  const store = storageFor(model);
  const key = keyFor(model.get("key"));
  let stored = "";
  if (store) {
    try {
      stored = store.getItem(key) || "";
    } catch (e) {
      stored = "";
    }
  }
  model.set("value", stored);
  // the learner's time zone, so the Progress page counts days and sessions by their clock, not UTC's
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    zone = "";
  }
  model.set("time_zone", zone);
  model.set("loaded", true);
  model.save_changes();
  model.on("change:value", () => {
    if (!store) return;
    try {
      store.setItem(keyFor(model.get("key")), model.get("value"));
    } catch (e) {
      /* storage full or blocked: progress lives in the page until it closes */
    }
  });
}

function render({ model, el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
}

export default { initialize, render };
