// Brings a part of the page into view when the kernel asks (each new `seq`): the element with the
// class `target`, its top at the top of the window. It waits for the element to be drawn (the page
// is redrawn just before it asks), smoothly unless the learner prefers reduced motion.
function render({ model, el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
  let timer = null;
  const bring = () => {
    if (timer !== null) clearTimeout(timer);
    const started = Date.now();
    const attempt = () => {
      timer = null;
      const node = document.querySelector("." + model.get("target"));
      if (node && node.getClientRects().length) {
        const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
        node.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
      } else if (Date.now() - started < 3000) {
        timer = setTimeout(attempt, 50);
      }
    };
    attempt();
  };
  model.on("change:seq", bring);
  return () => { model.off("change:seq", bring); if (timer !== null) clearTimeout(timer); };
}
export default { render };
