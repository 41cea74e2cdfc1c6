// Landmarks and the page title: roles for the app's header, tabs and page area (plain divs in ipywidgets).
function render({ model, el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
  const roles = () => [
    [model.get("banner"), "banner", null],
    [model.get("navigation"), "navigation", "Pages"],
    [model.get("main"), "main", null],
  ];
  const apply = () => {
    let all = true;
    for (const [cls, role, label] of roles()) {
      const node = document.querySelector("." + cls);
      if (!node) { all = false; continue; }
      if (node.getAttribute("role") !== role) node.setAttribute("role", role);
      if (label && node.getAttribute("aria-label") !== label) node.setAttribute("aria-label", label);
    }
    return all;
  };
  const title = () => { document.title = model.get("title"); };
  title();
  // the boxes are drawn after this hidden widget: wait for them
  const observer = new MutationObserver(() => { if (apply()) observer.disconnect(); });
  if (!apply()) observer.observe(document.body, { childList: true, subtree: true });
  model.on("change:title", title);
  return () => { observer.disconnect(); model.off("change:title", title); };
}
export default { render };
