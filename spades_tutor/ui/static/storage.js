// Keeps one JSON value in the browser's localStorage, so progress survives a reload
// and a restarted kernel. On start it sends the stored value (or "") and sets loaded.
function storageFor(model) {
  try {
    return window.localStorage;
  } catch (e) {
    return null;
  }
}

function initialize({ model }) {
  const store = storageFor(model);
  const key = model.get("key");
  let stored = "";
  if (store) {
    try {
      stored = store.getItem(key) || "";
    } catch (e) {
      stored = "";
    }
  }
  model.set("value", stored);
  model.set("loaded", true);
  model.save_changes();
  model.on("change:value", () => {
    if (!store) return;
    try {
      store.setItem(model.get("key"), model.get("value"));
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
