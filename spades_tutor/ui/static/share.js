// A link to share, whole: the app's own address (the page knows it, the kernel does not) with
// `?param=value`, in a read-only box, and a button that copies it. Everything is written as text.
function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "st-share";
  const label = document.createElement("label");
  label.className = "st-share-label";
  const text = document.createElement("span");
  const box = document.createElement("input");
  box.type = "text";
  box.readOnly = true;
  box.className = "st-share-link";
  box.spellcheck = false;
  label.append(text, box);
  const button = document.createElement("button");
  button.type = "button";
  button.className = "st-share-copy jupyter-button";
  button.textContent = "Copy link";
  const said = document.createElement("span");
  said.className = "st-share-said";
  said.setAttribute("role", "status");
  root.append(label, button, said);
  el.appendChild(root);

  const link = () => {
    const value = model.get("value");
    if (!value) return "";
    const url = new URL(window.location.href);
    url.search = "";
    url.hash = "";
    url.searchParams.set(model.get("param"), value);
    return url.toString();
  };
  const show = () => {
    text.textContent = model.get("label") + " ";
    box.value = link();
    box.setAttribute("aria-label", model.get("label") + " link");
    root.style.display = box.value ? "" : "none";
    said.textContent = "";
  };
  const copy = async () => {
    const url = link();
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      said.textContent = "Link copied.";
    } catch (e) {
      box.focus();
      box.select();
      said.textContent = "Select the link and copy it (the browser did not allow copying).";
    }
  };
  box.addEventListener("focus", () => box.select());
  button.addEventListener("click", copy);
  show();
  model.on("change:value", show);
  model.on("change:label", show);
  return () => {
    model.off("change:value", show);
    model.off("change:label", show);
  };
}
export default { render };
