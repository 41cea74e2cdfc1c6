// Glossary terms in lesson prose: each is a button just before its hidden definition. A click (or
// Enter/Space) shows or hides the definition in place, so the learner never leaves the step;
// Escape hides it and returns focus to the term. One listener on the document serves every term,
// however many of these hidden widgets are on the page. A link to a term of the Glossary page
// (?page=glossary#glossary-bags) scrolls to it once the page has drawn it.
const TERM = "button.st-term";

function toggle(button, open) {
  const def = document.getElementById(button.getAttribute("aria-controls"));
  if (!def) return;
  const show = open ?? button.getAttribute("aria-expanded") !== "true";
  button.setAttribute("aria-expanded", show ? "true" : "false");
  def.hidden = !show;
}

function onClick(ev) {
  const button = ev.target.closest && ev.target.closest(TERM);
  if (button) toggle(button);
}

function onKey(ev) {
  if (ev.key !== "Escape") return;
  const t = ev.target;
  const button = t.closest && (t.closest(TERM) || t.closest(".st-term-def")?.previousElementSibling);
  if (!button || !button.matches(TERM) || button.getAttribute("aria-expanded") !== "true") return;
  toggle(button, false);
  button.focus();
  ev.preventDefault();
}

function scrollToTerm() {
  // the link's fragment is untrusted: only a glossary entry's own id is looked up
  const id = location.hash.slice(1);
  if (!/^glossary-[a-z0-9-]+$/.test(id)) return () => {};
  const found = () => {
    const entry = document.getElementById(id);
    if (!entry) return false;
    entry.scrollIntoView({ block: "start" });
    return true;
  };
  if (found()) return () => {};
  const observer = new MutationObserver(() => { if (found()) observer.disconnect(); });
  observer.observe(document.body, { childList: true, subtree: true });
  const stop = setTimeout(() => observer.disconnect(), 60000);
  return () => { observer.disconnect(); clearTimeout(stop); };
}

function render({ el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
  const stopScrolling = scrollToTerm();
  // the listeners live on window, so a second copy of this module adds none of its own
  const shared = (window.stGlossaryTerms ??= { users: 0, onClick, onKey });
  shared.users += 1;
  if (shared.users === 1) {
    document.addEventListener("click", shared.onClick);
    document.addEventListener("keydown", shared.onKey);
  }
  return () => {
    stopScrolling();
    shared.users -= 1;
    if (shared.users === 0) {
      document.removeEventListener("click", shared.onClick);
      document.removeEventListener("keydown", shared.onKey);
    }
  };
}
export default { render };
