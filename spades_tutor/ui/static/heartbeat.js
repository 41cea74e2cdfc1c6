// The page's side of the heartbeat: ping the kernel every few seconds; when nothing has come
// back for timeout_ms, or the page's kernel connection says the kernel restarted, died or is
// unreachable, show a banner with a Reload button. Progress, the game and the page the learner
// was on live in the browser, so the reload brings them back where they were.
const LOST_TEXT = "The tutor lost its connection. Reload — your progress is kept.";

function showLost(reason) {
  if (document.querySelector(".st-lost")) return;
  const veil = document.createElement("div");
  veil.className = "st-lost-veil";
  const banner = document.createElement("div");
  banner.className = "st-lost";
  banner.setAttribute("role", "alertdialog");
  banner.setAttribute("aria-label", "Connection lost");
  banner.dataset.reason = reason;
  const text = document.createElement("span");
  text.className = "st-lost-text";
  text.textContent = LOST_TEXT;
  const button = document.createElement("button");
  button.className = "st-lost-reload";
  button.type = "button";
  button.textContent = "Reload";
  button.addEventListener("click", () => window.location.reload());
  banner.append(text, button);
  document.body.append(veil, banner);
  button.focus();
}

// The widget manager's kernel connection (Voilà's and JupyterLab's), when it has one: a restart,
// a dead kernel or a closed connection is said at once. `busy()` is true while the connection is
// up and the kernel is running a callback: then a late answer means a long callback (the Joker
// lab's runs; a server busy with a whole class), not a lost kernel.
function watchKernel(model, lost) {
  let kernel = null;
  try {
    kernel = model.widget_manager && model.widget_manager.kernel;
  } catch (e) {
    kernel = null;
  }
  const none = { busy: () => false, stop: () => {} };
  if (!kernel) return none;
  const onStatus = (_k, status) => {
    if (status === "restarting" || status === "autorestarting" || status === "dead") lost("kernel " + status);
  };
  const onConnection = (_k, status) => {
    if (status === "disconnected") lost("disconnected");
  };
  try {
    kernel.statusChanged.connect(onStatus);
    kernel.connectionStatusChanged.connect(onConnection);
  } catch (e) {
    return none;
  }
  return {
    busy: () => kernel.connectionStatus === "connected" && kernel.status === "busy",
    stop: () => {
      try {
        kernel.statusChanged.disconnect(onStatus);
        kernel.connectionStatusChanged.disconnect(onConnection);
      } catch (e) {
        /* already gone */
      }
    },
  };
}

function initialize({ model }) {
  const interval = Math.max(500, model.get("interval_ms") || 5000);
  const timeout = Math.max(2 * interval, model.get("timeout_ms") || 20000);
  const maxBusy = Math.max(timeout, model.get("max_busy_ms") || 600000);
  const idleAfter = model.get("idle_ms") || 600000;
  let lastHeard = Date.now();
  let lastTick = Date.now();
  let pings = 0;
  let gone = false;
  const lost = (reason) => {
    if (gone) return;
    gone = true;
    showLost(reason);
  };
  const heard = () => {
    lastHeard = Date.now();
  };
  model.on("msg:custom", heard);
  // No pings from a hidden tab or a page left alone: they would keep an unused kernel (and a
  // Binder session) busy forever. The kernel's status and the connection are still watched.
  let lastUsed = Date.now();
  const used = () => {
    lastUsed = Date.now();
  };
  const events = ["pointerdown", "keydown", "wheel", "touchstart", "visibilitychange"];
  for (const e of events) document.addEventListener(e, used, { passive: true, capture: true });
  const watch = watchKernel(model, lost);
  const timer = window.setInterval(() => {
    if (gone) return;
    const now = Date.now();
    // a timer that fired late (a sleeping laptop, a throttled tab) gives the kernel a fresh chance
    if (now - lastTick > 3 * interval) lastHeard = now;
    lastTick = now;
    if (document.hidden || now - lastUsed > idleAfter) {
      lastHeard = now; // resting: the clock starts again when the learner is back
      return;
    }
    if (now - lastHeard > timeout && !(watch.busy() && now - lastHeard < maxBusy)) {
      lost("no answer for " + Math.round((now - lastHeard) / 1000) + " s");
      return;
    }
    try {
      model.send({ ping: ++pings });
    } catch (e) {
      /* the socket is closed: the timeout says so */
    }
  }, interval);
  return () => {
    window.clearInterval(timer);
    model.off("msg:custom", heard);
    for (const e of events) document.removeEventListener(e, used, { capture: true });
    watch.stop();
  };
}

function render({ el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
}

export default { initialize, render };
