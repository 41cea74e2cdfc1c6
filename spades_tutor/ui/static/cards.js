// Card faces for spades_tutor: a hand, a row of choices, or a trick around the table.
// Thin by design: it draws what the Python model says and reports clicks and keys as
// a new `selected` list; Python validates every value it receives.

const SUIT_CLASS = { "♠": "spades", "♥": "hearts", "♦": "diamonds", "♣": "clubs" };
const SEAT_NAMES = { N: "North", E: "East", S: "South", W: "West" };

function faceParts(text) {
  if (text === "BJ" || text === "LJ") return { joker: text };
  const suit = text.slice(-1);
  return { rank: text.slice(0, -1), suit };
}

function makeFace(text, name) {
  const parts = faceParts(text);
  const face = document.createElement("span");
  face.className = "st-face";
  if (parts.joker) {
    const big = parts.joker === "BJ";
    face.classList.add(big ? "st-big" : "st-little");
    face.innerHTML =
      `<span class="st-joker-size" aria-hidden="true">${big ? "BIG" : "LITTLE"}</span>` +
      `<span class="st-joker-mark" aria-hidden="true">${big ? "★" : "☆"}</span>` +
      `<span class="st-joker-word" aria-hidden="true">JOKER</span>`;
  } else {
    face.classList.add("st-" + (SUIT_CLASS[parts.suit] || "spades"));
    face.innerHTML =
      `<span class="st-corner" aria-hidden="true"><b>${parts.rank}</b><i>${parts.suit}</i></span>` +
      `<span class="st-pip" aria-hidden="true">${parts.suit}</span>` +
      `<span class="st-corner st-corner-low" aria-hidden="true"><b>${parts.rank}</b><i>${parts.suit}</i></span>`;
  }
  face.setAttribute("title", name || text);
  return face;
}

function render({ model, el }) {
  const root = document.createElement("div");
  el.appendChild(root);

  let sent = 0; // choices sent by this page
  let mine = null; // the last of them, shown until the kernel has read it

  function selectedList() {
    // an answer to an older choice, arriving after the learner clicked on, must not undo the newer one
    if (mine !== null && (model.get("seq") || 0) < sent) return mine;
    mine = null;
    return model.get("selected") || [];
  }

  function choose(card) {
    if (model.get("disabled")) return;
    const mode = model.get("selectable");
    let sel = selectedList().slice();
    if (mode === "one") {
      sel = sel.length === 1 && sel[0] === card ? [] : [card];
    } else if (mode === "many" || mode === "order") {
      const i = sel.indexOf(card);
      if (i >= 0) sel.splice(i, 1);
      else sel.push(card);
    } else {
      return;
    }
    // shown at once; sent as a message, not a state sync: ipywidgets holds back state syncs while
    // one is in flight, and a "Check answer" click (a message) could then overtake the choice
    sent += 1;
    mine = sel;
    model.set("selected", sel);
    model.send({ selected: sel, seq: sent });
  }

  function cardButton(text, index, name, interactive) {
    const marks = model.get("marks") || {};
    const sel = selectedList();
    const mode = model.get("selectable");
    const el = document.createElement(interactive ? "button" : "span");
    el.className = "st-card";
    el.dataset.card = text;
    const label = name || text;
    if (interactive) {
      el.type = "button";
      const picked = sel.indexOf(text);
      if (mode === "one") el.setAttribute("role", "radio");
      else el.setAttribute("role", "checkbox");
      el.setAttribute("aria-checked", picked >= 0 ? "true" : "false");
      let extra = "";
      if (mode === "order" && picked >= 0) extra = `, placed ${picked + 1}`;
      if (marks[text]) extra += `, ${marks[text]}`;
      el.setAttribute("aria-label", label + extra);
      el.tabIndex = -1;
      if (picked >= 0) el.classList.add("st-selected");
      if (model.get("disabled")) el.setAttribute("aria-disabled", "true");
      el.addEventListener("click", () => choose(text));
    } else {
      el.setAttribute("role", "img");
      el.setAttribute("aria-label", label + (marks[text] ? `, ${marks[text]}` : ""));
    }
    if (marks[text]) el.classList.add("st-mark-" + marks[text].split(" ")[0]);
    el.appendChild(makeFace(text, label));
    if (mode === "order") {
      const picked = sel.indexOf(text);
      if (picked >= 0) {
        const badge = document.createElement("span");
        badge.className = "st-order-badge";
        badge.textContent = String(picked + 1);
        badge.setAttribute("aria-hidden", "true");
        el.appendChild(badge);
      }
    }
    return el;
  }

  let drawn = null; // what the cards on screen show

  function draw() {
    // a redraw that would change nothing is skipped: the kernel reading back a choice already shown
    // must not replace the buttons, or a click whose press and release straddle it is lost
    const shown = JSON.stringify([
      "cards", "names", "groups", "marks", "disabled", "four_colour", "large", "arrangement",
      "seats", "leader", "winner", "selectable", "label",
    ].map((n) => model.get(n)).concat([selectedList()]));
    if (shown === drawn) return;
    drawn = shown;
    const active = document.activeElement;
    const focusedCard = active && root.contains(active) ? active.dataset.card : null;
    root.innerHTML = "";
    root.className = "st-cards";
    if (model.get("four_colour")) root.classList.add("st-four-colour");
    if (model.get("large")) root.classList.add("st-large");
    const cards = model.get("cards") || [];
    const names = model.get("names") || [];
    const groups = model.get("groups") || [];
    const interactive = model.get("selectable") !== "none";
    const layout = model.get("arrangement");

    if (layout === "table") {
      const seats = model.get("seats") || [];
      const grid = document.createElement("div");
      grid.className = "st-table";
      grid.setAttribute("role", "group");
      grid.setAttribute("aria-label", model.get("label") || "trick");
      for (const seat of ["N", "W", "E", "S"]) {
        const cell = document.createElement("div");
        cell.className = "st-seat st-seat-" + seat;
        const tag = document.createElement("div");
        tag.className = "st-seat-name";
        let tagText = SEAT_NAMES[seat];
        if (seat === model.get("leader") && cards.length) tagText += " · led";
        if (seat === model.get("winner")) tagText += " · wins";
        tag.textContent = tagText;
        cell.appendChild(tag);
        const i = seats.indexOf(seat);
        if (i >= 0) {
          const c = cardButton(cards[i], i, names[i], interactive);
          if (seat === model.get("winner")) c.classList.add("st-winner");
          cell.appendChild(c);
        } else {
          const empty = document.createElement("span");
          empty.className = "st-empty";
          empty.setAttribute("role", "img");
          empty.setAttribute("aria-label", SEAT_NAMES[seat] + ": no card yet");
          cell.appendChild(empty);
        }
        grid.appendChild(cell);
      }
      const centre = document.createElement("div");
      centre.className = "st-table-centre";
      centre.setAttribute("aria-hidden", "true");
      grid.appendChild(centre);
      root.appendChild(grid);
    } else {
      const row = document.createElement("div");
      row.className = "st-row";
      row.setAttribute("role", interactive ? (model.get("selectable") === "one" ? "radiogroup" : "group") : "list");
      row.setAttribute("aria-label", model.get("label") || "cards");
      if (!cards.length) {
        const none = document.createElement("span");
        none.className = "st-none";
        none.textContent = "no cards";
        row.appendChild(none);
      }
      cards.forEach((text, i) => {
        if (i > 0 && groups[i] !== groups[i - 1]) {
          const gap = document.createElement("span");
          gap.className = "st-gap";
          gap.setAttribute("aria-hidden", "true");
          row.appendChild(gap);
        }
        const c = cardButton(text, i, names[i], interactive);
        if (!interactive) c.setAttribute("role", "listitem");
        row.appendChild(c);
      });
      root.appendChild(row);
    }

    // roving tabindex: one tab stop per group, arrows move between cards
    const buttons = Array.from(root.querySelectorAll("button.st-card"));
    if (buttons.length) {
      let current = buttons.findIndex((b) => b.dataset.card === focusedCard);
      const start = current >= 0 ? current : 0;
      buttons[start].tabIndex = 0;
      buttons.forEach((b, i) => {
        b.addEventListener("keydown", (ev) => {
          let next = null;
          if (ev.key === "ArrowRight" || ev.key === "ArrowDown") next = (i + 1) % buttons.length;
          else if (ev.key === "ArrowLeft" || ev.key === "ArrowUp") next = (i - 1 + buttons.length) % buttons.length;
          else if (ev.key === "Home") next = 0;
          else if (ev.key === "End") next = buttons.length - 1;
          else if (ev.key === " " || ev.key === "Enter") {
            // chosen on the key press itself: a button's own click for Space comes on the key's
            // release, and is lost if a redraw (the kernel reading an earlier choice) replaced the
            // button in between
            ev.preventDefault();
            if (!ev.repeat) choose(b.dataset.card);
            return;
          }
          if (next !== null) {
            ev.preventDefault();
            buttons.forEach((x) => (x.tabIndex = -1));
            buttons[next].tabIndex = 0;
            buttons[next].focus();
          }
        });
      });
      if (current >= 0) buttons[current].focus();
    }
  }

  draw();
  const names = ["cards", "names", "groups", "selected", "marks", "disabled", "four_colour",
    "large", "arrangement", "seats", "leader", "winner", "selectable", "label", "seq"];
  for (const n of names) model.on("change:" + n, draw);
}

export default { render };
