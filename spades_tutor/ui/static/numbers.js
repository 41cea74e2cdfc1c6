// Whole-number answer fields for the quizzes (points, bags, sure tricks).
// Each edit is sent to Python as a message, not a state sync: ipywidgets holds back a state
// sync while another is in flight, and a "Check answer" click (a message) could then overtake
// the last number typed. Python validates every value and sends the accepted `values` back,
// with the edit count (`seq`) it has read: the fields show the kernel's values only once it has
// read the page's last edit, so an answer to an older edit never writes an old number back.

function render({ model, el }) {
  const root = document.createElement("div");
  root.className = "st-numbers";
  el.appendChild(root);
  let inputs = {};
  let sent = 0; // edits sent by this page

  function send() {
    const values = {};
    for (const [key, input] of Object.entries(inputs)) values[key] = input.value;
    sent += 1;
    model.send({ values, seq: sent });
  }

  function build() {
    root.replaceChildren();
    inputs = {};
    const values = model.get("values") || {};
    let row = null;
    let rowId = null;
    for (const field of model.get("fields") || []) {
      if (row === null || field.row !== rowId) {
        row = document.createElement("div");
        row.className = "st-numbers-row";
        root.appendChild(row);
        rowId = field.row;
      }
      const label = document.createElement("label");
      label.className = "st-number";
      const text = document.createElement("span");
      text.textContent = field.label;
      const input = document.createElement("input");
      input.type = "number";
      input.step = "1";
      input.inputMode = "numeric";
      if (field.min !== null && field.min !== undefined) input.min = String(field.min);
      if (field.max !== null && field.max !== undefined) input.max = String(field.max);
      input.style.width = `${field.width || 6}em`;
      input.value = String(values[field.key] ?? "");
      input.disabled = !!model.get("disabled");
      input.addEventListener("input", send);
      input.addEventListener("change", send);
      label.append(text, input);
      row.appendChild(label);
      inputs[field.key] = input;
    }
  }

  function refresh() {
    // the accepted values: shown in every field but the one being typed in
    const values = model.get("values") || {};
    const current = (model.get("seq") || 0) >= sent; // the kernel has read every edit sent
    for (const [key, input] of Object.entries(inputs)) {
      const shown = String(values[key] ?? ""); // an empty field stays empty
      if (current && document.activeElement !== input && key in values && input.value !== shown) {
        input.value = shown;
      }
      input.disabled = !!model.get("disabled");
    }
  }

  build();
  model.on("change:fields", build);
  model.on("change:values", refresh);
  model.on("change:seq", refresh);
  model.on("change:disabled", refresh);
  return () => {
    model.off("change:fields", build);
    model.off("change:values", refresh);
    model.off("change:seq", refresh);
    model.off("change:disabled", refresh);
  };
}

export default { render };
