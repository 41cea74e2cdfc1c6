// Keeps one JSON value in the browser's localStorage, so progress survives a reload
// and a restarted kernel. On start it sends the stored value (or ""), the browser's time zone,
// whether the page was reloaded, and sets loaded.
//
// With `merge` on, the learner's other tabs write the same key: this page never writes over a value
// another tab wrote since it last read it. It sends that value to the kernel instead ({theirs}),
// which merges it into its record and writes the result. With `aside_key` set, a value too large for
// the kernel (or one the kernel could not read) is moved under that key, once, and never erased
// silently. The merging and the checks are the kernel's; this file only reads, writes and reports.
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

function wasReloaded() {
  try {
    const entry = performance.getEntriesByType("navigation")[0];
    return Boolean(entry && entry.type === "reload");
  } catch (e) {
    return false;
  }
}

function initialize({ model }) {
  const store = storageFor(model);
  const key = keyFor(model.get("key"));
  const merging = model.get("merge");
  const limit = model.get("limit") || Infinity;
  const asideKey = model.get("aside_key") ? keyFor(model.get("aside_key")) : "";
  const read = () => {
    if (!store) return "";
    try {
      return store.getItem(key) || "";
    } catch (e) {
      return "";
    }
  };
  // `text` moved under the aside key, if nothing was set aside there before: "moved", "occupied" or "failed"
  const setAside = (text) => {
    if (!store || !asideKey) return "failed";
    try {
      if (store.getItem(asideKey)) return "occupied";
      store.removeItem(key); // first, so a value that fitted once fits again under the other key
      try {
        store.setItem(asideKey, text);
      } catch (e) {
        store.setItem(key, text);
        return "failed";
      }
      return "moved";
    } catch (e) {
      return "failed";
    }
  };
  // what this page last read or wrote under the key: a different value stored means another tab wrote
  let seen = read();
  let aside = null;
  if (seen.length > limit) {
    aside = { aside: setAside(seen), why: "large", size: seen.length };
    seen = read();
  }
  model.set("value", seen.length > limit ? "" : seen);
  // the learner's time zone, so the Progress page counts days and sessions by their clock, not UTC's
  let zone = "";
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  } catch (e) {
    zone = "";
  }
  model.set("time_zone", zone);
  model.set("reloaded", wasReloaded());
  model.set("loaded", true);
  model.save_changes();
  if (aside) model.send(aside);

  // another tab's value, to the kernel to merge in; false if it was too large and set aside instead
  const hand = (text) => {
    if (text.length > limit) {
      model.send({ aside: setAside(text), why: "large", size: text.length });
      seen = read();
      return false;
    }
    model.send({ theirs: text });
    return true;
  };
  const write = () => {
    if (!store) return;
    const value = model.get("value");
    if (merging) {
      const now = read();
      if (now !== seen) {
        seen = now;
        if (hand(now)) return; // the kernel writes the merged record
      }
      if (value === seen) return;
    }
    try {
      store.setItem(key, value);
      seen = value;
    } catch (e) {
      /* storage full or blocked: progress lives in the page until it closes */
    }
  };
  model.on("change:value", write);
  const onMessage = (msg) => {
    if (!msg || typeof msg !== "object") return;
    if (msg.write) write();
    if (msg.set_aside && read() === seen && seen) {
      const size = seen.length;
      const outcome = setAside(seen);
      seen = read();
      model.send({ aside: outcome, why: "unreadable", size });
    }
  };
  model.on("msg:custom", onMessage);
  // another tab wrote: merged here at once, so this page shows it and never writes an older record
  const onStorage = (event) => {
    if (event.storageArea !== store || event.key !== key) return;
    const now = event.newValue || "";
    if (now === seen) return;
    seen = now;
    if (!hand(now)) write();
  };
  if (merging) window.addEventListener("storage", onStorage);
  return () => {
    model.off("change:value", write);
    model.off("msg:custom", onMessage);
    window.removeEventListener("storage", onStorage);
  };
}

function render({ model, el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
}

export default { initialize, render };
