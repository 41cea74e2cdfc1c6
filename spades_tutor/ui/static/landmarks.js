// Landmarks, live regions and the page title, which ipywidgets' plain divs cannot carry themselves:
// roles for the app's header, tabs and page area; aria-live on every box with the class `live`
// (polite: a screen reader reads what it says once the reader is idle); each plot a figure named by
// the reading above it; document.title naming the page.
function render({ model, el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
  const roles = () => [
    [model.get("banner"), "banner", null],
    [model.get("navigation"), "navigation", "Pages"],
    [model.get("main"), "main", null],
  ];
  const apply = () => {
    for (const [cls, role, label] of roles()) {
      const node = document.querySelector("." + cls);
      if (!node) continue;
      if (node.getAttribute("role") !== role) node.setAttribute("role", role);
      if (label && node.getAttribute("aria-label") !== label) node.setAttribute("aria-label", label);
    }
    // a plot is a figure named by the one-line reading drawn just above it
    for (const node of document.querySelectorAll("." + model.get("figure"))) {
      const label = (node.previousElementSibling?.textContent || "").trim();
      if (node.getAttribute("role") !== "figure") node.setAttribute("role", "figure");
      if (label && node.getAttribute("aria-label") !== label) node.setAttribute("aria-label", label);
    }
    // the region must exist before its text changes, or nothing is read: mark the box, not its content
    for (const node of document.querySelectorAll("." + model.get("live") + ":not([aria-live])")) {
      node.setAttribute("aria-live", "polite");
    }
  };
  const title = () => { document.title = model.get("title"); };
  title();
  apply();
  // pages are drawn after this hidden widget, and their boxes are made as the learner goes
  const observer = new MutationObserver(apply);
  observer.observe(document.body, { childList: true, subtree: true });
  model.on("change:title", title);
  return () => { observer.disconnect(); model.off("change:title", title); };
}
export default { render };
