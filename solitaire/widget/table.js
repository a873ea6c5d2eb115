// The card table's front end (anywidget ES module, no build step).
//
// Python owns the game. This module draws the synced `state` (plain data: counts for face-down cards,
// card names for face-up ones) and sends back what the player did: {action: "click", pile: "t3", depth: 2},
// {action: "drop", source: "t3", depth: 2, target: "t5"}, {action: "double_click", pile: "waste"}, button actions.
// Piles are named as Python names them: `state.piles` lists each pile's name, kind and index (never computed here).
// Everything shown is set as text (textContent, attributes), never parsed as HTML.
// States that arrive in a burst (a cell playing a whole solution) are drawn once per animation frame, so the
// page's layout runs once per frame, not once per move.
// Each message carries a request id. The state names the request it answers and the request its message
// answers, so the status line always shows an answer with its own action (data-request, data-action);
// a request left unanswered for NO_ANSWER_MS is reported on the line under it, truthfully: the kernel is
// busy (with an earlier action of this table, or something else such as a running cell), or it has no
// model for this table any more (sending failed, or the kernel took the message and answered nothing).

const SUITS = { "♣": ["clubs", "c"], "♦": ["diamonds", "d"], "♥": ["hearts", "h"], "♠": ["spades", "s"] };
const RANK_WORDS = { A: "ace", J: "jack", Q: "queen", K: "king" };
const COURTS = { J: "♝", Q: "♛", K: "♚" };
const DOUBLE_CLICK_MS = 400;
const FLIGHT_MS = 260; // one card's flight home at Auto-finish
const FLIGHTS_MS = 520; // the last card leaves by then, however many go home (at most 45 ms apart)
const NO_ANSWER_MS = 3000; // a request unanswered by then is reported under the status line
const LOST_AFTER_IDLE_MS = 1500; // the kernel went idle after taking a request: its answer would be here by then
const NO_MODEL = "✗ The kernel has no model for this table (it was restarted, or the notebook was just opened): " +
  "run this cell again to play.";
const ACTION_WORDS = { click: "your click", drop: "your move", double_click: "your double-click",
  deselect: "Escape", new_game: "the new game" };
const actionWords = (action) => ACTION_WORDS[action] || (action.charAt(0).toUpperCase() + action.slice(1).replace(/_/g, " "));
// What a request kept waiting waits for: the first request still unanswered (the kernel answers in order).
function waitingWords(first, late, place) {
  const [now, then] = [actionWords(first.action), actionWords(late.action)];
  if (!first.started) {
    const which = first === late ? then : `${now}, then ${then},`;
    return `Waiting for the kernel: it is busy (running a cell, perhaps) and takes ${which} when it is free.`;
  }
  if (first === late) return `The kernel is still working on ${now}…`;
  return `Waiting for the kernel: it is still working on ${now}; ${then} ${place === 1 ? "comes next" : "waits its turn"}.`;
}
let views = 0; // request ids are unique across the views of a page: "view:count"

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
  const draw = state.variant.draw > 1 ? 0.58 * (state.variant.draw - 1) : 0; // the waste fan, as in draw()
  const top = 2 + draw + state.foundations.length + 0.4;
  const slots = Math.max(state.columns.length, top);
  const width = Math.floor((available - 20) / (slots * 1.14));
  return { cw: Math.max(34, Math.min(84, width)), slots };
}

function columnSteps(column, ch, maxHeight) {
  let down = 0.12 * ch, up = 0.27 * ch;
  const upCount = Math.max(column.up.length - 1, 0);
  const needed = column.hidden * down + upCount * up + ch;
  // squeezed, a covered card still shows its whole rank and suit (the corner index is 0.2 of a card's height)
  if (needed > maxHeight && upCount) up = Math.max(0.21 * ch, (maxHeight - ch - column.hidden * down) / upCount);
  return { down, up };
}

// --- words for screen readers -----------------------------------------------------------------
const cardsWord = (n) => (n === 1 ? "1 card" : `${n} cards`);

function pileWords(state, pile, cursor) {
  if (pile.kind === "stock") {
    if (state.stock) return `stock: ${cardsWord(state.stock)}, press Enter to draw`;
    return state.recycle ? "stock: empty, press Enter to turn the waste over" : "stock: empty";
  }
  if (pile.kind === "waste") {
    const top = state.waste.shown[state.waste.shown.length - 1];
    return top ? `waste: ${cardsWord(state.waste.count)}, top ${cardWords(top)}` : "waste: empty";
  }
  if (pile.kind === "foundation") {
    const f = state.foundations[pile.index];
    const where = `foundation ${pile.index + 1}`;
    return f.top ? `${where}: ${cardWords(f.top)}, ${cardsWord(f.count)}` : `${where}: empty, starts with ${state.variant.first_rank}`;
  }
  const column = state.columns[pile.index];
  const where = `column ${pile.index + 1}`;
  const down = column.hidden ? `${column.hidden} face-down card${column.hidden > 1 ? "s" : ""}` : "";
  if (!column.up.length) return down ? `${where}: ${down}` : `${where}: empty, ${state.variant.empty_rule}`;
  const up = column.up.slice().reverse().map(cardWords).join(" on ");
  const pick = cursor > 1 ? `; Enter picks up ${cursor} cards from ${cardWords(column.up[column.up.length - cursor])}` : "";
  return `${where}: ${up}${down ? ", " + down : ""}${pick}`;
}

// --- the felt: piles drawn from the state, and short move animations -------------------------------
class Felt {
  constructor(view) {
    this.view = view;
    this.node = el("div", "sol-felt", { role: "application", "aria-label": "card table; Tab or the arrow keys move between piles, Up and Down choose cards in a column, Enter picks up and puts down, D draws, U undoes, H hints, F sends to a foundation" });
    this.topRow = el("div", "sol-row sol-top");
    this.columnsRow = el("div", "sol-row sol-columns");
    this.node.append(this.topRow, this.columnsRow);
    this.piles = new Map(); // pile name -> its node
    this.kinds = new Map(); // pile name -> {name, kind, index}, as the state names them
    this.cursor = {};
    this.layoutKey = "";
  }

  ensureLayout(state) {
    const key = `${state.piles.map((p) => p.name).join(",")}/${state.variant.draw}`;
    if (key === this.layoutKey) return;
    this.layoutKey = key;
    this.piles.clear();
    this.kinds.clear();
    this.topRow.replaceChildren();
    this.columnsRow.replaceChildren();
    const foundations = el("div", "sol-foundations");
    const parents = { stock: this.topRow, waste: this.topRow, foundation: foundations, column: this.columnsRow };
    for (const pile of state.piles) {
      const node = el("div", `sol-pile sol-${pile.name}`, { tabindex: "0", role: "button" });
      node.dataset.pile = pile.name;
      const box = el("div", "sol-pile-box");
      box.append(el("div", "sol-pile-label", { text: pile.name, "aria-hidden": "true" }), node);
      parents[pile.kind].append(box);
      this.piles.set(pile.name, node);
      this.kinds.set(pile.name, pile);
    }
    this.topRow.append(el("div", "sol-spacer"), foundations);
    this.cursor = {};
  }

  sizes(state) {
    const root = this.view.root;
    const style = getComputedStyle(root);
    const padding = (parseFloat(style.paddingLeft) || 0) + (parseFloat(style.paddingRight) || 0);
    const available = Math.max(root.clientWidth - padding, 280);
    const { cw, slots } = cardWidth(state, available);
    root.style.setProperty("--cw", `${cw}px`);
    this.node.style.width = `${Math.min(available, Math.ceil(slots * cw * 1.14) + 20)}px`;
    return { cw, ch: Math.round(cw * 1.4) };
  }

  draw(state) {
    this.ensureLayout(state);
    const { cw, ch } = this.sizes(state);
    const shown = state.waste.shown;
    const fan = Math.round(0.58 * cw); // a covered waste card shows its whole corner, "10♦" too
    let tallest = ch;
    for (const pile of state.piles) {
      if (pile.kind === "stock") {
        this.fill(pile.name, [state.stock ? this.stockCard(state.stock) :
          slot(state.recycle ? "↻" : "", state.recycle ? "empty stock: turn the waste over" : "empty stock")]);
      } else if (pile.kind === "waste") {
        this.piles.get(pile.name).style.width = `${cw + fan * Math.max(state.variant.draw - 1, 0)}px`;
        this.fill(pile.name, shown.length ? shown.map((c, i) => place(cardFace(c), i * fan, 0, i === shown.length - 1 ? 1 : 0))
          : [slot("", "empty waste")]);
      } else if (pile.kind === "foundation") {
        const f = state.foundations[pile.index];
        this.fill(pile.name, [f.top ? place(cardFace(f.top), 0, 0, 1) : slot(state.variant.first_rank, "empty foundation")]);
      } else {
        tallest = Math.max(tallest, this.drawColumn(state, state.columns[pile.index], pile.name, ch));
      }
    }
    this.columnsRow.style.minHeight = `${tallest + 22}px`;
    for (const [name, node] of this.piles) this.markPile(name, node, state.marks[name]);
  }

  drawColumn(state, column, name, ch) {
    const { down, up } = columnSteps(column, ch, Math.max(5.2 * ch, 360));
    const cards = [];
    let y = 0;
    for (let j = 0; j < column.hidden; j++, y += down) cards.push(place(cardBack(), 0, y, 0));
    column.up.forEach((c, j) => { cards.push(place(cardFace(c), 0, y, column.up.length - j)); y += up; });
    if (!cards.length) cards.push(slot(state.variant.empty_column, `empty column: ${state.variant.empty_rule}`));
    const height = parseFloat(cards[cards.length - 1].style.top || "0") + ch;
    this.fill(name, cards);
    this.piles.get(name).style.height = `${height}px`;
    return height;
  }

  stockCard(count) {
    const back = cardBack();
    back.append(el("span", "sol-count", { text: String(count), "aria-hidden": "true" }));
    return back;
  }

  fill(name, children) {
    const node = this.piles.get(name);
    node.replaceChildren(...children);
    const cursor = Math.min(this.cursor[name] || 1, Math.max(this.faceUp(name), 1));
    this.cursor[name] = cursor;
    node.setAttribute("aria-label", pileWords(this.view.state, this.kinds.get(name), cursor));
    const target = node.querySelector(`[data-depth="${cursor}"]`);
    if (target && this.isColumn(name)) target.classList.add("sol-cursor");
  }

  isColumn(name) {
    return this.kinds.get(name).kind === "column";
  }

  faceUp(name) {
    return this.isColumn(name) ? this.view.state.columns[this.kinds.get(name).index].up.length : 1;
  }

  moveCursor(name, depth) {
    this.cursor[name] = depth;
    const node = this.piles.get(name);
    for (const c of node.querySelectorAll(".sol-cursor")) c.classList.remove("sol-cursor");
    this.fill(name, [...node.children]);
    this.markPile(name, node, this.view.state.marks[name]);
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
    if (this.kinds.get(name).kind === "stock" && node.firstChild) node.firstChild.classList.add(`sol-${role}`);
  }

  positions() {
    const seen = new Map();
    for (const card of this.node.querySelectorAll(".sol-face")) seen.set(cardKey(card, seen), card.getBoundingClientRect());
    return seen;
  }

  fly(before, previous, state, rowHeight) {
    const reduce = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    for (const ghost of this.node.querySelectorAll(".sol-flying")) ghost.remove();
    if (!this.node.animate || reduce) return;
    const settled = this.columnsRow.style.minHeight;
    if (rowHeight > parseFloat(settled)) this.columnsRow.style.minHeight = `${rowHeight}px`; // until the last lands
    flyHome(this, before, previous, state).then(() => {
      if (this.view.state === state) this.columnsRow.style.minHeight = settled;
    });
  }

  animate(before) {
    const reduce = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
    if (!before.size || !this.node.animate || reduce) return;
    const seen = new Map();
    for (const card of this.node.querySelectorAll(".sol-face")) {
      const key = cardKey(card, seen);
      const now = card.getBoundingClientRect();
      seen.set(key, now);
      const old = before.get(key);
      if (!old || (Math.abs(old.left - now.left) < 1 && Math.abs(old.top - now.top) < 1)) continue;
      card.style.zIndex = "20"; // a moving card passes over the piles it crosses
      card.animate([{ transform: `translate(${old.left - now.left}px, ${old.top - now.top}px)` }, { transform: "none" }],
        { duration: 160, easing: "ease-out" }).onfinish = () => { card.style.zIndex = ""; };
    }
  }
}

// Auto-finish: the cards it sent home fly there one after another, each from where it was drawn before (a card
// drawn from the stock on the way, from the stock); each foundation shows the card that last landed on it.
function flyHome(felt, before, previous, state) {
  const box = felt.node.getBoundingClientRect();
  const [left, top] = [box.left + felt.node.clientLeft, box.top + felt.node.clientTop]; // the ghosts' origin
  const gap = Math.min(45, FLIGHTS_MS / state.flight.length);
  const used = new Map();
  for (const [, , to] of state.flight) {
    const f = previous.foundations[felt.kinds.get(to).index];
    felt.piles.get(to).replaceChildren(f.top ? place(cardFace(f.top), 0, 0, 1) : slot(state.variant.first_rank, "empty foundation"));
  }
  return Promise.all(state.flight.map(([card, from, to], i) => {
    const n = used.get(card) || 0;
    used.set(card, n + 1);
    const start = before.get(`${card}#${n}`) || felt.piles.get(from).getBoundingClientRect();
    const end = felt.piles.get(to).getBoundingClientRect();
    const ghost = place(cardFace(card), start.left - left, start.top - top, 0);
    ghost.classList.add("sol-flying");
    felt.node.append(ghost);
    const flight = ghost.animate([{ transform: "none" }, { transform: `translate(${end.left - start.left}px, ${end.top - start.top}px)` }],
      { duration: FLIGHT_MS, delay: i * gap, easing: "ease-in-out", fill: "both" });
    return flight.finished.catch(() => null).then(() => {
      ghost.remove();
      if (felt.view.state === state) felt.piles.get(to).replaceChildren(place(cardFace(card), 0, 0, 1));
    });
  }));
}

function place(card, x, y, depth) {
  card.style.left = `${x}px`;
  card.style.top = `${y}px`;
  if (depth) card.dataset.depth = String(depth);
  return card;
}

function cardKey(card, seen) {
  let n = 0;
  while (seen.has(`${card.dataset.card}#${n}`)) n++;
  return `${card.dataset.card}#${n}`;
}

// --- the controls around the felt: header, buttons, options, status, moves, replay, panels ------------
function button(text, action, tip) {
  const b = el("button", `sol-button sol-${action.replace(/_/g, "-")}`, { type: "button", title: tip, text });
  b.dataset.action = action;
  return b;
}

function labelled(text, control, after = false) {
  const label = el("label", "sol-label");
  const words = el("span", "", { text });
  if (after) label.append(control, words); else label.append(words, control);
  return label;
}

class Controls {
  constructor(view) {
    this.view = view;
    this.title = el("span", "sol-title");
    this.variantSelect = el("select", "sol-variant", { "aria-label": "variant" });
    this.seedInput = el("input", "sol-seed", { type: "number", "aria-label": "seed", min: "0", step: "1" });
    this.header = el("div", "sol-header");
    this.header.append(this.title, labelled("Variant", this.variantSelect), labelled("Seed", this.seedInput),
      button("New deal", "new_deal", "deal the next seed"));
    this.themeSelect = el("select", "sol-theme", { "aria-label": "theme" });
    for (const t of ["auto", "light", "dark"]) this.themeSelect.append(el("option", "", { value: t, text: t }));
    this.fourColour = el("input", "sol-four", { type: "checkbox" });
    const options = el("div", "sol-options");
    options.append(labelled("Theme", this.themeSelect), labelled("Four-colour deck", this.fourColour, true));
    this.actions = el("div", "sol-actions");
    this.actions.append(button("Undo", "undo", "take back the last move (U)"),
      button("Redo", "redo", "play again the move taken back (R)"),
      button("Restart", "restart", "take every move back (Redo plays them again)"),
      button("To foundation", "to_foundation", "send the selected card to its foundation (F)"),
      button("Hint", "hint", "suggest a move (H)"),
      button("Auto-finish", "auto_finish", "send every card home once nothing is left to decide: no card face down, the stock played out by drawing (A)"),
      button("Solution", "solution", "ask the solver for a winning line and step through it"),
      button("Win chance", "win_chance", "estimate the chance to win from here"),
      button("Legal moves", "legal_moves", "show every legal move"),
      button("Position text", "position_text", "the position in the kit's notation (face-down cards too)"), options);
    this.buildPanels();
    this.listen();
  }

  buildPanels() {
    this.banner = el("div", "sol-banner", { role: "alert" });
    this.status = el("div", "sol-status", { role: "status", "aria-live": "polite" });
    this.waiting = el("div", "sol-waiting", { role: "status", "aria-live": "polite" });
    this.waiting.hidden = true;
    this.moves = el("div", "sol-moves");
    this.movesTitle = el("div", "sol-moves-title");
    this.moveList = el("ol", "sol-move-list", { "aria-label": "moves played" });
    this.moves.append(this.movesTitle, this.moveList);
    this.replayBar = el("div", "sol-replay");
    this.replayLabel = el("span", "sol-replay-label");
    this.replayBar.append(button("Previous", "replay_prev", "take back the last replayed move"),
      button("Next", "replay_next", "play the next move of the replay"), this.replayLabel,
      button("End replay", "end_replay", "close the replay"));
    this.legal = el("div", "sol-legal");
    this.text = el("pre", "sol-text");
  }

  listen() {
    const view = this.view;
    for (const part of [this.header, this.actions, this.replayBar]) {
      part.addEventListener("click", (e) => {
        const b = e.target.closest("button[data-action]");
        if (b) view.send({ action: b.dataset.action });
      });
    }
    this.variantSelect.addEventListener("change", () => this.newGame());
    this.seedInput.addEventListener("change", () => this.newGame());
    this.seedInput.addEventListener("keydown", (e) => { if (e.key === "Enter") this.seedInput.blur(); });
    this.themeSelect.addEventListener("change", () => { view.model.set("theme", this.themeSelect.value); view.model.save_changes(); });
    this.fourColour.addEventListener("change", () => { view.model.set("four_colour", this.fourColour.checked); view.model.save_changes(); });
  }

  newGame() {
    const seed = Number(this.seedInput.value);
    if (!Number.isInteger(seed) || seed < 0) {
      this.status.textContent = "✗ The seed must be a whole number (0, 1, 2 ...).";
      return;
    }
    this.view.send({ action: "new_game", variant: this.variantSelect.value, seed });
  }

  showWaiting(text, request, why) {
    this.waiting.hidden = !text;
    this.waiting.textContent = text;
    this.waiting.className = `sol-waiting${why === "no-model" ? " sol-error" : ""}`;
    this.waiting.dataset.request = request ? request.id : "";
    this.waiting.dataset.action = request ? request.action : "";
    this.waiting.dataset.why = why || "";
  }

  draw(state) {
    // "== null" below, never "=== null": in JupyterLite (Pyodide's kernel) a Python None arrives as undefined
    this.title.textContent = state.variant.name + (state.seed == null ? "" : ` · seed ${state.seed}`);
    this.variantSelect.replaceChildren(...state.variants.map(([key, name]) => el("option", "", { value: key, text: name })));
    if (!state.variant.key) this.variantSelect.prepend(el("option", "", { value: "", text: `${state.variant.name} (custom)` }));
    this.variantSelect.value = state.variant.key || "";
    if (document.activeElement !== this.seedInput) this.seedInput.value = state.seed == null ? "" : String(state.seed);
    const enable = { undo: state.can_undo, redo: state.can_redo, restart: state.can_undo };
    for (const b of this.actions.querySelectorAll("button[data-action]")) {
      if (b.dataset.action in enable) b.disabled = !enable[b.dataset.action];
      b.hidden = (state.off || []).includes(b.dataset.action); // a table made with aids=False leaves its aids out
    }
    this.actions.querySelector(".sol-legal-moves").setAttribute("aria-pressed", String(state.legal != null));
    this.actions.querySelector(".sol-position-text").setAttribute("aria-pressed", String(state.text != null));
    this.banner.textContent = state.banner;
    this.banner.className = `sol-banner ${state.over ? "sol-" + state.over : ""}`;
    this.banner.hidden = !state.banner;
    this.status.textContent = ({ error: "✗ ", ok: "✓ " }[state.kind] || "") + state.message;
    this.status.className = `sol-status sol-${state.kind}`;
    this.status.dataset.request = state.message_for ? state.message_for.id : ""; // whose answer this is
    this.status.dataset.action = state.message_for ? state.message_for.action : "";
    this.drawMoves(state.moves);
    this.drawReplay(state.replay);
    this.legal.hidden = state.legal == null;
    this.legal.textContent = state.legal == null ? "" : `Legal moves (${state.legal.length}): ${state.legal.join(", ") || "none"}`;
    this.text.hidden = state.text == null;
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

  applyOptions(model, root) {
    const theme = model.get("theme");
    const lab = document.body.dataset.jpThemeLight;
    const systemDark = window.matchMedia && matchMedia("(prefers-color-scheme: dark)").matches;
    const dark = theme === "dark" || (theme === "auto" && (lab === "false" || (lab === undefined && systemDark)));
    root.classList.toggle("sol-dark", dark);
    root.classList.toggle("sol-four-colour", !!model.get("four_colour"));
    this.themeSelect.value = theme;
    this.fourColour.checked = !!model.get("four_colour");
  }
}

// --- mouse and touch: click, click-click, double-click, drag and drop ----------------------------------
class Pointer {
  constructor(view) {
    this.view = view;
    this.lastClick = { pile: "", card: "", time: 0 };
    view.felt.node.addEventListener("pointerdown", (e) => this.down(e));
  }

  down(e) {
    const pileNode = e.target.closest("[data-pile]");
    if (!pileNode || e.button !== 0) return;
    const card = e.target.closest(".sol-card[data-depth]");
    const start = { pile: pileNode.dataset.pile, depth: card ? Number(card.dataset.depth) : 1, x: e.clientX,
      y: e.clientY, card, pileNode, dragging: false };
    const move = (ev) => this.move(start, ev);
    const up = (ev) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      this.up(start, ev);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  }

  move(start, e) {
    if (!start.dragging) {
      if (!start.card || this.view.felt.kinds.get(start.pile).kind === "stock" || Math.hypot(e.clientX - start.x, e.clientY - start.y) < 6) return;
      start.dragging = true;
      start.ghost = this.ghost(start);
    }
    start.ghost.style.transform = `translate(${e.clientX - start.x}px, ${e.clientY - start.y}px)`;
    const over = this.pileAt(e.clientX, e.clientY);
    for (const node of this.view.felt.piles.values()) node.classList.toggle("sol-drop-over", node === over && node !== start.pileNode);
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
    this.view.root.append(ghost);
    return ghost;
  }

  pileAt(x, y) {
    const hit = document.elementFromPoint(x, y);
    const node = hit && hit.closest("[data-pile]");
    return node && this.view.felt.node.contains(node) ? node : null;
  }

  up(start, e) {
    if (start.dragging) {
      start.ghost.remove();
      for (const node of this.view.felt.piles.values()) node.classList.remove("sol-drop-over");
      for (const c of this.view.felt.node.querySelectorAll(".sol-lifted")) c.classList.remove("sol-lifted");
      const target = this.pileAt(e.clientX, e.clientY);
      if (target && target !== start.pileNode) {
        this.view.send({ action: "drop", source: start.pile, depth: start.depth, target: target.dataset.pile });
      }
      return;
    }
    if (this.pileAt(e.clientX, e.clientY) === start.pileNode) this.click(start.pile, start.depth, start.card);
  }

  // Two clicks on the same face-up card within DOUBLE_CLICK_MS are a double-click (send it home). A click on a
  // face-down card (it turns it up) or on an empty place never starts one: the next click is a click of its own.
  click(pile, depth, card) {
    const now = performance.now();
    const face = card && card.classList.contains("sol-face") ? card.dataset.card : "";
    const again = face !== "" && this.lastClick.pile === pile && this.lastClick.card === face &&
      now - this.lastClick.time < DOUBLE_CLICK_MS;
    this.lastClick = again || !face ? { pile: "", card: "", time: 0 } : { pile, card: face, time: now };
    const kind = this.view.felt.kinds.get(pile).kind;
    if (again && depth === 1 && (kind === "waste" || kind === "column")) this.view.send({ action: "double_click", pile });
    else this.view.send({ action: "click", pile, depth });
  }
}

// --- keyboard: one tab stop per pile, arrows between and inside piles, Enter/Space, letters ------------
const LETTERS = { d: "draw", u: "undo", r: "redo", h: "hint", a: "auto_finish" };

class Keys {
  constructor(view) {
    this.view = view;
    this.felt = view.felt;
    view.felt.node.addEventListener("keydown", (e) => this.down(e));
  }

  down(e) {
    const node = e.target.closest("[data-pile]");
    if (!node || e.ctrlKey || e.metaKey || e.altKey) return;
    const name = node.dataset.pile;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    const state = this.view.state;
    const send = (message) => this.view.send(message);
    if (key === "Enter" || key === " ") send({ action: "click", pile: name, depth: this.felt.cursor[name] || 1 });
    else if (key === "ArrowLeft" || key === "ArrowRight") this.focusNext(name, key === "ArrowLeft" ? -1 : 1);
    else if (key === "ArrowUp" || key === "ArrowDown") this.upDown(name, key === "ArrowUp" ? 1 : -1);
    else if (key === "Escape") send({ action: "deselect" });
    else if (key === "f") {
      const selected = Object.values(state.marks).some((m) => m[1] === "selected");
      send(selected ? { action: "to_foundation" } : { action: "double_click", pile: name });
    } else if (LETTERS[key] === "draw") send({ action: "click", pile: state.piles.find((p) => p.kind === "stock").name });
    else if (LETTERS[key]) send({ action: LETTERS[key] });
    else return;
    e.preventDefault();
  }

  focusNext(name, step) {
    const names = [...this.felt.piles.keys()];
    this.felt.piles.get(names[(names.indexOf(name) + step + names.length) % names.length]).focus();
  }

  upDown(name, step) {
    const names = [...this.felt.piles.keys()];
    const columns = names.filter((n) => this.felt.isColumn(n));
    const top = names.filter((n) => !this.felt.isColumn(n));
    if (!this.felt.isColumn(name)) {
      if (step < 0) this.felt.piles.get(columns[Math.min(top.indexOf(name), columns.length - 1)]).focus();
      return;
    }
    const depth = (this.felt.cursor[name] || 1) + step;
    if (depth > this.felt.faceUp(name)) this.felt.piles.get(top[Math.min(columns.indexOf(name), top.length - 1)]).focus();
    else this.felt.moveCursor(name, Math.max(depth, 1));
  }
}

// --- the view: one per displayed output of the model ------------------------------------------------------
class TableView {
  constructor(model, root) {
    this.model = model;
    this.root = root;
    root.classList.add("sol-root");
    root.setAttribute("data-lm-suppress-shortcuts", "true"); // JupyterLab's command-mode keys (A, D D, Enter ...) stay out
    this.felt = new Felt(this);
    this.controls = new Controls(this);
    const c = this.controls;
    root.append(c.header, this.felt.node, c.actions, c.banner, c.status, c.waiting, c.replayBar, c.moves, c.legal, c.text);
    this.pointer = new Pointer(this);
    this.keys = new Keys(this);
    this.name = `v${++views}`;
    this.sent = 0;
    this.pending = new Map(); // request id -> {id, action, sentAt, started, idleAt, lost}, oldest first
  }

  send(message) {
    const request = { id: `${this.name}:${++this.sent}`, action: message.action, sentAt: performance.now(),
      started: false, idleAt: null, lost: false };
    this.sentAt = request.sentAt;
    this.pending.set(request.id, request);
    const status = (msg) => { // the kernel's busy/idle for this very message
      if (msg.content.execution_state === "busy") request.started = true;
      if (msg.content.execution_state === "idle") request.idleAt = performance.now();
    };
    try {
      this.model.send({ ...message, request: request.id }, { iopub: { status } });
    } catch (error) { // no comm to send on: the kernel side of this table is gone
      request.lost = true;
    }
    if (!this.waitTimer) this.waitTimer = setInterval(() => this.checkWaiting(), 250);
    this.checkWaiting();
  }

  answered(state) {
    // every state is read here (drawing skips states of a burst): it answers a request, or still works on it
    const id = state.request && state.request.id;
    if (!id || !this.pending.has(id)) return;
    if (state.busy) this.pending.get(id).started = true;
    else this.pending.delete(id); // every request gets its own answer, even one the kernel took on another thread
    this.checkWaiting();
  }

  checkWaiting() {
    const now = performance.now();
    for (const r of this.pending.values()) {
      if (!r.lost && r.idleAt !== null && now - r.idleAt > LOST_AFTER_IDLE_MS) r.lost = true;
    }
    const requests = [...this.pending.values()]; // oldest first: the kernel takes them in this order
    const lost = requests.find((r) => r.lost);
    const late = requests.filter((r) => now - r.sentAt >= NO_ANSWER_MS).pop(); // the newest one kept waiting
    const first = requests[0];
    if (lost) this.controls.showWaiting(NO_MODEL, lost, "no-model");
    else if (!late) this.controls.showWaiting("", null, "");
    else this.controls.showWaiting(waitingWords(first, late, requests.indexOf(late)), late, first.started ? "working" : "busy");
    if (!this.pending.size) {
      clearInterval(this.waitTimer);
      this.waitTimer = 0;
    }
  }

  update(state) {
    const start = performance.now();
    const before = this.felt.positions();
    const rowHeight = this.felt.columnsRow.offsetHeight; // the columns' height before: cards leave from there
    const previous = this.state;
    this.state = state;
    this.applyOptions();
    this.felt.draw(state);
    this.controls.draw(state);
    if (state.flight && state.flight.length && previous && previous.seq !== state.seq) this.felt.fly(before, previous, state, rowHeight);
    else this.felt.animate(before);
    this.root.dataset.seq = String(state.seq);
    this.root.dataset.drawMs = (performance.now() - start).toFixed(1); // read by benchmarks/bench_widget.py
    if (this.sentAt !== undefined) this.root.dataset.roundTripMs = (performance.now() - this.sentAt).toFixed(1);
  }

  applyOptions() {
    this.controls.applyOptions(this.model, this.root);
  }
}

export default {
  render({ model, el: root }) {
    const view = new TableView(model, root);
    let frame = 0; // states that arrive in one burst (a cell playing 200 moves) are drawn once per frame
    const draw = () => {
      view.answered(model.get("state"));
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; view.update(model.get("state")); });
    };
    model.on("change:state", draw);
    model.on("change:theme", () => view.applyOptions());
    model.on("change:four_colour", () => view.applyOptions());
    view.update(model.get("state"));
    let width = 0;
    const resize = new ResizeObserver(() => {
      const now = root.clientWidth;
      if (now && Math.abs(now - width) > 4) { width = now; view.felt.draw(view.state); }
    });
    resize.observe(root);
    return () => {
      resize.disconnect();
      clearInterval(view.waitTimer);
      cancelAnimationFrame(frame);
      model.off("change:state", draw);
    };
  },
};
