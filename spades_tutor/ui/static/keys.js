// Arrow keys step a projector view: Left = back, Right = next (not while typing in a field).
function render({ model, el }) {
  el.setAttribute("aria-hidden", "true");
  el.style.display = "none";
  const onKey = (ev) => {
    const t = ev.target;
    const tag = t && t.tagName ? t.tagName.toLowerCase() : "";
    if (tag === "input" || tag === "select" || tag === "textarea") return;
    if (t && t.getAttribute && t.getAttribute("role") === "checkbox") return; // card pickers use arrows
    if (!model.get("active")) return;
    if (ev.key === "ArrowRight") model.send({ key: "next" });
    else if (ev.key === "ArrowLeft") model.send({ key: "back" });
    else return;
    ev.preventDefault();
  };
  document.addEventListener("keydown", onKey);
  return () => document.removeEventListener("keydown", onKey);
}
export default { render };
