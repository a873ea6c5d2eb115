// The card table's front end (anywidget ES module, no build step).
//
// Python owns the game. This module draws the synced `state` (plain data: counts for face-down cards,
// card names for face-up ones) and sends back what the player did: {action: "click", pile: "t3", depth: 2},
// {action: "drop", source: "t3:2", target: "t5"}, {action: "double_click", pile: "waste"}, button actions.
// Everything shown is set as text (textContent, attributes), never parsed as HTML.

const SUITS = { "♣": ["clubs", "c"], "♦": ["diamonds", "d"], "♥": ["hearts", "h"], "♠": ["spades", "s"] };
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };
const COURTS = { J: "♝", Q: "♛", K: "♚" };
const DOUBLE_CLICK_MS = 400;
const AUTO_STEP_MS = 170;

function el(tag, className, props = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [key, value] of Object.entries(props)) {
    if (key === "text") node.textContent = value;
    else if (key === "style") Object.assign(node.style, value);
    else node.setAttribute(key, value);
  }
  return node;
}

function parseCard(text) {
  const suit = text.slice(-1);
  return { rank: text.slice(0, -1), suit, letter: (SUITS[suit] || ["", "x"])[1] };
}

function cardWords(text) {
  const { rank, suit } = parseCard(text);
  return `${RANK_WORDS[rank] || rank} of ${(SUITS[suit] || [suit])[0]}`;
}

function cardFace(text) {
  const { rank, suit, letter } = parseCard(text);
  const card = el("div", `sol-card sol-face suit-${letter}`, { role: "img", "aria-label": cardWords(text) });
  card.dataset.card = text;
  for (const corner of ["tl", "br"]) {
    const index = el("div", `sol-index sol-${corner}`, { "aria-hidden": "true" });
    index.append(el("span", "sol-rank", { text: rank }), el("span", "sol-suit", { text: suit }));
    card.append(index);
  }
  if (COURTS[rank]) {
    const court = el("div", "sol-court", { "aria-hidden": "true" });
    court.append(el("span", "sol-court-rank", { text: rank }), el("span", "sol-court-mark", { text: suit }));
    card.append(court);
  } else {
    card.append(el("div", rank === "A" ? "sol-pip sol-ace" : "sol-pip", { text: suit, "aria-hidden": "true" }));
  }
  return card;
}

function cardBack() {
  return el("div", "sol-card sol-back", { role: "img", "aria-label": "face-down card" });
}

function slot(text, label) {
  const node = el("div", "sol-slot", { role: "img", "aria-label": label });
  if (text) node.append(el("span", "sol-slot-mark", { text, "aria-hidden": "true" }));
  return node;
}

// --- sizes: cards follow the width of the output cell ------------------------------------------
function cardWidth(state, available) {
  const draw = state.variant.draw > 1 ? 0.35 * (state.variant.draw - 1) : 0;
  const top = 2 + draw + state.foundations.length + 0.4;
  const slots = Math.max(state.columns.length, top);
  const width = Math.floor((available - 20) / (slots * 1.14));
  return { cw: Math.max(34, Math.min(84, width)), slots };
}

function columnSteps(column, ch, maxHeight) {
  let down = 0.12 * ch, up = 0.27 * ch;
  const upCount = Math.max(column.up.length - 1, 0);
  const needed = column.hidden * down + upCount * up + ch;
  if (needed > maxHeight && upCount) up = Math.max(0.15 * ch, (maxHeight - ch - column.hidden * down) / upCount);
  return { down, up };
}

// --- words for screen readers -----------------------------------------------------------------
function pileWords(state, name, cursor) {
  if (name === "stock") {
    if (state.stock) return `stock: ${state.stock} cards, press Enter to draw`;
    return state.recycle ? "stock: empty, press Enter to turn the waste over" : "stock: empty";
  }
  if (name === "waste") {
    const top = state.waste.shown[state.waste.shown.length - 1];
    return top ? `waste: ${state.waste.count} cards, top ${cardWords(top)}` : "waste: empty";
  }
  if (name[0] === "f") {
    const f = state.foundations[Number(name.slice(1)) - 1];
    const where = `foundation ${name.slice(1)}`;
    return f.top ? `${where}: ${cardWords(f.top)}, ${f.count} cards` : `${where}: empty, starts with ${state.variant.first_rank}`;
  }
  const column = state.columns[Number(name.slice(1)) - 1];
  const where = `column ${name.slice(1)}`;
  const down = column.hidden ? `${column.hidden} face-down card${column.hidden > 1 ? "s" : ""}` : "";
  if (!column.up.length) return down ? `${where}: ${down}` : `${where}: empty, ${state.variant.empty_rule}`;
  const up = column.up.slice().reverse().map(cardWords).join(" on ");
  const pick = cursor > 1 ? `; Enter picks up ${cursor} cards from ${cardWords(column.up[column.up.length - cursor])}` : "";
  return `${where}: ${up}${down ? ", " + down : ""}${pick}`;
}

// --- the view ---------------------------------------------------------------------------------
class TableView {
  constructor(model, root) {
    this.model = model;
    this.root = root;
    this.piles = new Map();
    this.cursor = {};
    this.layoutKey = "";
    this.lastClick = { pile: "", time: 0 };
    this.pending = 0;
    this.build();
  }

  send(message) {
    this.sentAt = performance.now();
    this.model.send(message);
  }

  build() {
    const r = this.root;
    r.classList.add("sol-root");
    r.setAttribute("data-lm-suppress-shortcuts", "true"); // JupyterLab's command-mode keys (A, D D, Enter ...) stay out
    this.header = el("div", "sol-header");
    this.title = el("span", "sol-title");
    this.variantSelect = el("select", "sol-variant", { "aria-label": "variant" });
    this.seedInput = el("input", "sol-seed", { type: "number", "aria-label": "seed", min: "0", step: "1" });
    this.header.append(this.title, this.labelled("Variant", this.variantSelect), this.labelled("Seed", this.seedInput),
      this.button("New deal", "new_deal", "deal the next seed"));
    this.felt = el("div", "sol-felt", { role: "application", "aria-label": "card table; Tab moves between piles, arrows move too, Enter picks up and puts down, D draws, U undoes, H hints, F sends to a foundation" });
    this.topRow = el("div", "sol-row sol-top");
    this.columnsRow = el("div", "sol-row sol-columns");
    this.felt.append(this.topRow, this.columnsRow);
    this.actions = el("div", "sol-actions");
    this.actions.append(this.button("Undo", "undo", "take back the last move (U)"),
      this.button("Redo", "redo", "play again the move taken back (R)"),
      this.button("Restart", "restart", "take every move back (Redo plays them again)"),
      this.button("To foundation", "to_foundation", "send the selected card to its foundation (F)"),
      this.button("Hint", "hint", "suggest a move (H)"),
      this.button("Auto-finish", "auto_finish", "play the solver's winning line, or safe foundation moves, one by one (A)"),
      this.button("Solution", "solution", "ask the solver for a winning line and step through it"),
      this.button("Win chance", "win_chance", "estimate the chance to win from here"),
      this.button("Legal moves", "legal_moves", "show every legal move"),
      this.button("Position text", "position_text", "the position in the kit's notation (face-down cards too)"));
    this.options = el("div", "sol-options");
    this.themeSelect = el("select", "sol-theme", { "aria-label": "theme" });
    for (const t of ["auto", "light", "dark"]) this.themeSelect.append(el("option", "", { value: t, text: t }));
    this.fourColour = el("input", "sol-four", { type: "checkbox" });
    this.options.append(this.labelled("Theme", this.themeSelect), this.labelled("Four-colour deck", this.fourColour, true));
    this.actions.append(this.options);
    this.banner = el("div", "sol-banner", { role: "alert" });
    this.status = el("div", "sol-status", { role: "status", "aria-live": "polite" });
    this.moves = el("div", "sol-moves");
    this.movesTitle = el("div", "sol-moves-title");
    this.moveList = el("ol", "sol-move-list", { "aria-label": "moves played" });
    this.moves.append(this.movesTitle, this.moveList);
    this.replayBar = el("div", "sol-replay");
    this.replayLabel = el("span", "sol-replay-label");
    this.replayBar.append(this.button("Previous", "replay_prev", "take back the last replayed move"),
      this.button("Next", "replay_next", "play the next move of the replay"), this.replayLabel,
      this.button("End replay", "end_replay", "close the replay"));
    this.legal = el("div", "sol-legal");
    this.text = el("pre", "sol-text");
    r.append(this.header, this.felt, this.actions, this.banner, this.status, this.replayBar, this.moves, this.legal, this.text);
    this.listen();
  }

  labelled(text, control, after = false) {
    const label = el("label", "sol-label");
    const words = el("span", "", { text });
    if (after) label.append(control, words); else label.append(words, control);
    return label;
  }

  button(text, action, tip) {
    const b = el("button", `sol-button sol-${action.replace(/_/g, "-")}`, { type: "button", title: tip, text });
    b.dataset.action = action;
    return b;
  }

  listen() {
    this.root.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-action]");
      if (b && this.root.contains(b)) this.send({ action: b.dataset.action === "auto_finish" && this.state.auto ? "auto_stop" : b.dataset.action });
    });
    this.variantSelect.addEventListener("change", () => this.newGame());
    this.seedInput.addEventListener("change", () => this.newGame());
    this.seedInput.addEventListener("keydown", (e) => { if (e.key === "Enter") this.seedInput.blur(); });
    this.themeSelect.addEventListener("change", () => { this.model.set("theme", this.themeSelect.value); this.model.save_changes(); });
    this.fourColour.addEventListener("change", () => { this.model.set("four_colour", this.fourColour.checked); this.model.save_changes(); });
    this.felt.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.felt.addEventListener("keydown", (e) => this.keyDown(e));
  }

  newGame() {
    const seed = Number(this.seedInput.value);
    if (!Number.isInteger(seed) || seed < 0) {
      this.status.textContent = "✗ The seed must be a whole number (0, 1, 2 ...).";
      return;
    }
    this.send({ action: "new_game", variant: this.variantSelect.value, seed });
  }

  // --- drawing -------------------------------------------------------------------------------
  update(state) {
    const start = performance.now();
    const before = this.positions();
    this.state = state;
    this.applyOptions();
    this.ensureLayout(state);
    this.drawPiles(state);
    this.drawPanels(state);
    this.animate(before);
    this.root.dataset.seq = String(state.seq);
    this.root.dataset.drawMs = (performance.now() - start).toFixed(1); // read by benchmarks/bench_widget.py
    if (this.sentAt !== undefined) this.root.dataset.roundTripMs = (performance.now() - this.sentAt).toFixed(1);
    if (state.auto) {
      clearTimeout(this.autoTimer);
      this.autoTimer = setTimeout(() => this.send({ action: "auto_step", seq: state.seq }), AUTO_STEP_MS);
    }
  }

  applyOptions() {
    const theme = this.model.get("theme");
    const dark = theme === "dark" || (theme === "auto" && (document.body.dataset.jpThemeLight === "false" ||
      (document.body.dataset.jpThemeLight === undefined && window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches)));
    this.root.classList.toggle("sol-dark", dark);
    this.root.classList.toggle("sol-four-colour", !!this.model.get("four_colour"));
    this.themeSelect.value = theme;
    this.fourColour.checked = !!this.model.get("four_colour");
  }

  ensureLayout(state) {
    const key = `${state.columns.length}/${state.foundations.length}/${state.variant.draw}`;
    if (key === this.layoutKey) return;
    this.layoutKey = key;
    this.piles.clear();
    this.topRow.replaceChildren();
    this.columnsRow.replaceChildren();
    const pile = (name, label, parent) => {
      const node = el("div", `sol-pile sol-${name}`, { tabindex: "0", role: "button" });
      node.dataset.pile = name;
      const box = el("div", "sol-pile-box");
      box.append(el("div", "sol-pile-label", { text: label, "aria-hidden": "true" }), node);
      parent.append(box);
      this.piles.set(name, node);
      return box;
    };
    pile("stock", "stock", this.topRow);
    pile("waste", "waste", this.topRow).classList.add("sol-waste-box");
    const foundations = el("div", "sol-foundations");
    state.foundations.forEach((_, i) => pile(`f${i + 1}`, `f${i + 1}`, foundations));
    this.topRow.append(el("div", "sol-spacer"), foundations);
    state.columns.forEach((_, i) => pile(`t${i + 1}`, `t${i + 1}`, this.columnsRow));
    this.cursor = {};
  }

  sizes(state) {
    const available = Math.max(this.root.clientWidth, 280);
    const { cw, slots } = cardWidth(state, available);
    this.root.style.setProperty("--cw", `${cw}px`);
    this.felt.style.width = `${Math.min(available, Math.ceil(slots * cw * 1.14) + 20)}px`;
    return { cw, ch: Math.round(cw * 1.4) };
  }

  drawPiles(state) {
    const { cw, ch } = this.sizes(state);
    const marks = state.marks;
    this.fill("stock", state.stock ? [this.stockCard(state.stock)] : [slot(state.recycle ? "↻" : "", state.recycle ? "empty stock: turn the waste over" : "empty stock")]);
    const shown = state.waste.shown;
    const fan = Math.round(0.35 * cw);
    this.piles.get("waste").style.width = `${cw + fan * Math.max(state.variant.draw - 1, 0)}px`;
    this.fill("waste", shown.length ? shown.map((c, i) => this.place(cardFace(c), i * fan, 0, i === shown.length - 1 ? 1 : 0)) : [slot("", "empty waste")]);
    state.foundations.forEach((f, i) => this.fill(`f${i + 1}`, [f.top ? this.place(cardFace(f.top), 0, 0, 1) : slot(state.variant.first_rank, "empty foundation")]));
    const maxHeight = Math.max(5.2 * ch, 360);
    let tallest = ch;
    state.columns.forEach((column, i) => {
      const name = `t${i + 1}`;
      const { down, up } = columnSteps(column, ch, maxHeight);
      const cards = [];
      let y = 0;
      for (let j = 0; j < column.hidden; j++, y += down) cards.push(this.place(cardBack(), 0, y, 0));
      column.up.forEach((c, j) => { cards.push(this.place(cardFace(c), 0, y, column.up.length - j)); y += up; });
      if (!cards.length) cards.push(slot(state.variant.empty_column, `empty column: ${state.variant.empty_rule}`));
      const height = cards.length ? parseFloat(cards[cards.length - 1].style.top || "0") + ch : ch;
      tallest = Math.max(tallest, height);
      this.fill(name, cards);
      this.piles.get(name).style.height = `${height}px`;
    });
    this.columnsRow.style.minHeight = `${tallest + 22}px`;
    for (const [name, node] of this.piles) this.markPile(name, node, marks[name]);
  }

  stockCard(count) {
    const back = cardBack();
    back.append(el("span", "sol-count", { text: String(count), "aria-hidden": "true" }));
    return back;
  }

  place(card, x, y, depth) {
    card.style.left = `${x}px`;
    card.style.top = `${y}px`;
    if (depth) card.dataset.depth = String(depth);
    return card;
  }

  fill(name, children) {
    const node = this.piles.get(name);
    node.replaceChildren(...children);
    const cursor = Math.min(this.cursor[name] || 1, Math.max(this.faceUp(name), 1));
    this.cursor[name] = cursor;
    node.setAttribute("aria-label", pileWords(this.state, name, cursor));
    const target = node.querySelector(`[data-depth="${cursor}"]`);
    if (target && name[0] === "t") target.classList.add("sol-cursor");
  }

  faceUp(name) {
    if (name[0] !== "t") return 1;
    return this.state.columns[Number(name.slice(1)) - 1].up.length;
  }

  markPile(name, node, mark) {
    node.classList.remove("sol-mark-selected", "sol-mark-source", "sol-mark-target");
    if (!mark) return;
    const [count, role] = mark;
    node.classList.add(`sol-mark-${role}`);
    if (count === 0) return;
    for (const card of node.querySelectorAll(".sol-card[data-depth]")) {
      if (Number(card.dataset.depth) <= count) card.classList.add(`sol-${role}`);
    }
    if (name === "stock") node.firstChild && node.firstChild.classList.add(`sol-${role}`);
  }

  drawPanels(state) {
    this.title.textContent = state.variant.name + (state.seed === null ? "" : ` · seed ${state.seed}`);
    this.variantSelect.replaceChildren(...state.variants.map(([key, name]) => el("option", "", { value: key, text: name })));
    if (!state.variant.key) this.variantSelect.prepend(el("option", "", { value: "", text: `${state.variant.name} (custom)` }));
    this.variantSelect.value = state.variant.key || "";
    if (document.activeElement !== this.seedInput) this.seedInput.value = state.seed === null ? "" : String(state.seed);
    const enable = { undo: state.can_undo, redo: state.can_redo, restart: state.can_undo };
    for (const b of this.root.querySelectorAll("button[data-action]")) {
      if (b.dataset.action in enable) b.disabled = !enable[b.dataset.action];
    }
    const auto = this.root.querySelector(".sol-auto-finish");
    auto.textContent = state.auto ? "Stop" : "Auto-finish";
    auto.classList.toggle("sol-running", state.auto);
    this.root.querySelector(".sol-legal-moves").setAttribute("aria-pressed", String(state.legal !== null));
    this.root.querySelector(".sol-position-text").setAttribute("aria-pressed", String(state.text !== null));
    this.banner.textContent = state.banner;
    this.banner.className = `sol-banner ${state.over ? "sol-" + state.over : ""}`;
    this.banner.hidden = !state.banner;
    this.status.textContent = ({ error: "✗ ", ok: "✓ " }[state.kind] || "") + state.message;
    this.status.className = `sol-status sol-${state.kind}`;
    this.drawMoves(state.moves);
    this.drawReplay(state.replay);
    this.legal.hidden = state.legal === null;
    this.legal.textContent = state.legal === null ? "" : `Legal moves (${state.legal.length}): ${state.legal.join(", ") || "none"}`;
    this.text.hidden = state.text === null;
    this.text.textContent = state.text || "";
  }

  drawMoves(moves) {
    const shown = moves.total > moves.last.length ? ` (the last ${moves.last.length} shown)` : "";
    this.movesTitle.textContent = `Moves: ${moves.total}${shown}`;
    this.moveList.start = moves.first;
    this.moveList.replaceChildren(...moves.last.map((m) => el("li", "", { text: m })));
    this.moveList.scrollTop = this.moveList.scrollHeight;
    requestAnimationFrame(() => { this.moveList.scrollTop = this.moveList.scrollHeight; }); // once it is on the page
  }

  drawReplay(replay) {
    this.replayBar.hidden = !replay;
    if (!replay) return;
    this.replayLabel.textContent = `Replay step ${replay.step}/${replay.total}` + (replay.next ? ` — next: ${replay.next}` : " — end of the replay");
    this.replayBar.querySelector(".sol-replay-prev").disabled = replay.step === 0;
    this.replayBar.querySelector(".sol-replay-next").disabled = replay.step >= replay.total;
  }

  // --- short animations: a card that moved slides from where it was ----------------------------
  positions() {
    const seen = new Map();
    for (const card of this.felt.querySelectorAll(".sol-face")) {
      const key = this.cardKey(card, seen);
      seen.set(key, card.getBoundingClientRect());
    }
    return seen;
  }

  cardKey(card, seen) {
    let n = 0;
    while (seen.has(`${card.dataset.card}#${n}`)) n++;
    return `${card.dataset.card}#${n}`;
  }

  animate(before) {
    if (!before.size || !this.felt.animate || (window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches)) return;
    const seen = new Map();
    for (const card of this.felt.querySelectorAll(".sol-face")) {
      const key = this.cardKey(card, seen);
      const now = card.getBoundingClientRect();
      seen.set(key, now);
      const old = before.get(key);
      if (!old || (Math.abs(old.left - now.left) < 1 && Math.abs(old.top - now.top) < 1)) continue;
      card.animate([{ transform: `translate(${old.left - now.left}px, ${old.top - now.top}px)` }, { transform: "none" }],
        { duration: 160, easing: "ease-out" });
    }
  }

  // --- mouse and touch: click, click-click, double-click, drag and drop --------------------------
  pointerDown(e) {
    const pileNode = e.target.closest("[data-pile]");
    if (!pileNode || e.button !== 0) return;
    const card = e.target.closest(".sol-card[data-depth]");
    const start = { pile: pileNode.dataset.pile, depth: card ? Number(card.dataset.depth) : 1, x: e.clientX, y: e.clientY, card, pileNode, dragging: false };
    const move = (ev) => this.pointerMove(start, ev);
    const up = (ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      this.pointerUp(start, ev);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  }

  pointerMove(start, e) {
    if (!start.dragging) {
      if (!start.card || start.pile === "stock" || Math.hypot(e.clientX - start.x, e.clientY - start.y) < 6) return;
      start.dragging = true;
      start.ghost = this.ghost(start);
    }
    start.ghost.style.transform = `translate(${e.clientX - start.x}px, ${e.clientY - start.y}px)`;
    const over = this.pileAt(e.clientX, e.clientY);
    for (const node of this.piles.values()) node.classList.toggle("sol-drop-over", node === over && node !== start.pileNode);
  }

  ghost(start) {
    const ghost = el("div", "sol-ghost", { "aria-hidden": "true" });
    const cards = [...start.pileNode.querySelectorAll(".sol-card[data-depth]")].filter((c) => Number(c.dataset.depth) <= start.depth);
    const origin = start.card.getBoundingClientRect();
    ghost.style.left = `${origin.left}px`;
    ghost.style.top = `${origin.top}px`;
    for (const c of cards) {
      const r = c.getBoundingClientRect();
      const copy = c.cloneNode(true);
      copy.style.left = `${r.left - origin.left}px`;
      copy.style.top = `${r.top - origin.top}px`;
      copy.classList.remove("sol-cursor");
      ghost.append(copy);
      c.classList.add("sol-lifted");
    }
    this.root.append(ghost);
    return ghost;
  }

  pileAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const node = hit && hit.closest("[data-pile]");
    return node && this.felt.contains(node) ? node : null;
  }

  pointerUp(start, e) {
    if (start.dragging) {
      start.ghost.remove();
      for (const node of this.piles.values()) node.classList.remove("sol-drop-over");
      for (const c of this.felt.querySelectorAll(".sol-lifted")) c.classList.remove("sol-lifted");
      const target = this.pileAt(e.clientX, e.clientY);
      if (target && target !== start.pileNode) {
        const source = start.pile[0] === "t" ? `${start.pile}:${start.depth}` : start.pile;
        this.send({ action: "drop", source, target: target.dataset.pile });
      }
      return;
    }
    if (this.pileAt(e.clientX, e.clientY) !== start.pileNode) return;
    this.clickPile(start.pile, start.depth);
  }

  clickPile(pile, depth) {
    const now = performance.now();
    const again = this.lastClick.pile === pile && now - this.lastClick.time < DOUBLE_CLICK_MS;
    this.lastClick = again ? { pile: "", time: 0 } : { pile, time: now };
    if (again && depth === 1 && (pile === "waste" || pile[0] === "t")) this.send({ action: "double_click", pile });
    else this.send({ action: "click", pile, depth });
  }

  // --- keyboard: one tab stop per pile, arrows, Enter/Space, letters --------------------------------
  keyDown(e) {
    const node = e.target.closest("[data-pile]");
    if (!node || e.ctrlKey || e.metaKey || e.altKey) return;
    const name = node.dataset.pile;
    const letters = { d: "draw", u: "undo", r: "redo", h: "hint", a: "auto_finish" };
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (key === "Enter" || key === " ") this.send({ action: "click", pile: name, depth: this.cursor[name] || 1 });
    else if (key === "ArrowLeft" || key === "ArrowRight") this.focusNext(name, key === "ArrowLeft" ? -1 : 1);
    else if (key === "ArrowUp" || key === "ArrowDown") this.upDown(name, key === "ArrowUp" ? 1 : -1);
    else if (key === "Escape") this.send({ action: "deselect" });
    else if (key === "f") this.send(this.state.marks && Object.values(this.state.marks).some((m) => m[1] === "selected") ? { action: "to_foundation" } : { action: "double_click", pile: name });
    else if (letters[key] === "draw") this.send({ action: "click", pile: "stock" });
    else if (letters[key]) this.send({ action: letters[key] === "auto_finish" && this.state.auto ? "auto_stop" : letters[key] });
    else return;
    e.preventDefault();
  }

  focusNext(name, step) {
    const names = [...this.piles.keys()];
    const next = names[(names.indexOf(name) + step + names.length) % names.length];
    this.piles.get(next).focus();
  }

  upDown(name, step) {
    const names = [...this.piles.keys()];
    const columns = names.filter((n) => n[0] === "t");
    const top = names.filter((n) => n[0] !== "t");
    if (name[0] !== "t") {
      if (step < 0) this.piles.get(columns[Math.min(top.indexOf(name), columns.length - 1)]).focus();
      return;
    }
    const depth = (this.cursor[name] || 1) + step;
    if (depth > this.faceUp(name)) {
      this.piles.get(top[Math.min(columns.indexOf(name), top.length - 1)]).focus();
      return;
    }
    this.cursor[name] = Math.max(depth, 1);
    this.fill(name, [...this.piles.get(name).children].map((c) => { c.classList.remove("sol-cursor"); return c; }));
    this.markPile(name, this.piles.get(name), this.state.marks[name]);
  }
}

export default {
  render({ model, el: root }) {
    const view = new TableView(model, root);
    const draw = () => view.update(model.get("state"));
    model.on("change:state", draw);
    model.on("change:theme", () => view.applyOptions());
    model.on("change:four_colour", () => view.applyOptions());
    draw();
    let width = 0;
    const resize = new ResizeObserver(() => {
      const now = root.clientWidth;
      if (now && Math.abs(now - width) > 4) { width = now; view.drawPiles(view.state); }
    });
    resize.observe(root);
    return () => {
      resize.disconnect();
      clearTimeout(view.autoTimer);
      model.off("change:state", draw);
    };
  },
};
