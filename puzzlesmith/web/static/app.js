// puzzlesmith's play pages: the picture the server draws, made interactive. No framework, no build step:
// the server answers every question of the rules (/api/...), this file only keeps the player's state.
// Everything a request can set (saved progress, puzzle text, a game's grid) is data: the page is built of DOM
// nodes and textContent, never of HTML text, and the server's pictures are parsed as SVG, not
// HTML, with anything active dropped; the server's Content-Security-Policy forbids inline script besides.
"use strict";

(function () {
  // -- the new-puzzle control (home and play pages): the chosen type's levels and size, from the server's list
  const makersHolder = document.getElementById("ps-makers");
  const newForm = document.querySelector('[data-role="new"]');
  if (makersHolder && newForm) {
    const M = JSON.parse(makersHolder.textContent);
    const pick = newForm.querySelector('[data-role="new-type"]');
    const level = newForm.querySelector('[data-role="new-level"]');
    const size = newForm.querySelector('[data-role="new-size"]');
    pick.addEventListener("change", () => {
      const t = M.types.find((x) => x.type === pick.value);
      const g = M.games.find((x) => x.game === pick.value);
      level.replaceChildren(new Option("any", ""), ...(t ? t.levels : []).map((v) => new Option(v, v)));
      newForm.querySelector('[data-role="new-level-box"]').hidden = !(t && t.levels.length);
      const box = t ? t.size : g ? { default: String(g.sizes[g.sizes.length - 1]), help: "the board's side" } : null;
      newForm.querySelector('[data-role="new-size-box"]').hidden = !box;
      size.value = "";
      size.placeholder = box && box.default ? box.default : "default";
      size.title = box ? box.help : "";
      newForm.querySelector('[data-action="new"]').textContent = g ? "new game" : "new puzzle";
    });
  }
  const holder = document.getElementById("ps-state");
  if (!holder) return;
  const S = JSON.parse(holder.textContent);
  const board = document.getElementById("ps-board");
  const role = (name) => document.querySelector(`[data-role="${name}"]`);
  const button = (action) => document.querySelector(`[data-action="${action}"]`);
  const puzzleBody = () => ({ type: S.type, puzzle: S.puzzle, params: S.params });
  const SVG = "http://www.w3.org/2000/svg";

  // the server's SVG picture (its text) put into ``el`` as parsed SVG: scripts, foreign objects, event handlers
  // and script links dropped, so that even a picture that somehow held them would only be drawn
  function showSvg(el, text) {
    const doc = new DOMParser().parseFromString(text, "image/svg+xml");
    const root = doc.documentElement;
    if (root.namespaceURI !== SVG || root.localName !== "svg") { el.replaceChildren(); return; }
    root.querySelectorAll("script, foreignObject, iframe, a").forEach((node) => node.remove());
    for (const node of [root, ...root.querySelectorAll("*")]) {
      for (const attr of [...node.attributes]) {
        const name = attr.name.toLowerCase(), value = attr.value.replace(/\s/g, "").toLowerCase();
        if (name.startsWith("on") || (name.endsWith("href") && !value.startsWith("#"))) node.removeAttribute(attr.name);
      }
    }
    el.replaceChildren(document.importNode(root, true));
  }
  function svgNode(name, attrs) {
    const node = document.createElementNS(SVG, name);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
    return node;
  }

  function say(text, kind) {
    const status = role("status");
    status.textContent = text;
    status.className = "ps-status" + (kind ? " ps-" + kind : "");
  }

  // Each change asks the server whether the board is solved; answers can come back out of order, and an older
  // one ("not solved") must not undo the newer one's "solved": only the answer to the last question asked counts.
  let asked = 0;
  async function latest(path, body) {
    const mine = ++asked;
    const answer = await post(path, body);
    return mine === asked ? answer : null;
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    if (!response.ok) {
      say(answer.error || `HTTP ${response.status}`, "error");
      throw new Error(answer.error);
    }
    return answer;
  }

  // -- timer and progress, kept in the library -------------------------------------------------------------
  let saved = (S.library && S.library.progress) || {};
  let seconds = (S.library && S.library.seconds) || 0;
  let solved = !!(S.library && S.library.solved);
  let actions = saved.actions || 0; // the player's moves so far (each change; an undo is one too)
  let started = false; // the timer waits for the choice of resuming or starting again
  let saveTimer = null;
  function showClock() {
    const t = role("timer");
    if (t) t.textContent = `${Math.floor(seconds / 60)}:${String(Math.floor(seconds) % 60).padStart(2, "0")}`;
  }
  setInterval(() => {
    if (started && !solved && document.visibilityState === "visible") { seconds += 1; showClock(); }
  }, 1000);
  showClock();
  let progressOf = () => ({});
  function save(now) {
    clearTimeout(saveTimer);
    const send = () => {
      if (!S.library) return;
      post("/api/progress", { id: S.library.id, progress: Object.assign(progressOf(), { actions }), seconds, solved })
        .catch(() => {});
    };
    if (now === true) send(); else saveTimer = setTimeout(send, 400);
  }
  setInterval(() => save(), 15000);
  // the time and moves as the player leaves (a reload, another page): a request that outlives the page
  window.addEventListener("pagehide", () => {
    if (!S.library || !started || !actions) return; // a puzzle only looked at is not "played before"
    fetch("/api/progress", {
      method: "POST", headers: { "content-type": "application/json" }, keepalive: true,
      body: JSON.stringify({ id: S.library.id, progress: Object.assign(progressOf(), { actions }), seconds, solved }),
    }).catch(() => {});
  });
  const clock = (t) => `${Math.floor(t / 60)}:${String(Math.floor(t) % 60).padStart(2, "0")}`;
  // the link that makes another puzzle as this one was made: its type, level and size, a fresh seed
  function nextLink() {
    const lib = S.library || {}, q = new URLSearchParams({ type: S.game || S.type });
    if (S.game) q.set("size", String(S.size));
    else {
      if (lib.difficulty) q.set("difficulty", lib.difficulty);
      if (lib.seed !== null && lib.seed !== undefined && S.params && S.params.size) q.set("size", S.params.size);
    }
    return "/new?" + q.toString();
  }
  function clearHint() {
    role("hint").textContent = "";
    document.querySelectorAll(".ps-hinted").forEach((el) => el.classList.remove("ps-hinted", "ps-hint-place", "ps-hint-wrong"));
  }
  // solved: a banner with the time and moves and what to do next; the last hint and the checks' marks go
  function won(text, moves) {
    solved = true;
    clearHint();
    document.querySelectorAll(".ps-clash, .ps-wrong").forEach((el) => el.classList.remove("ps-clash", "ps-wrong"));
    say(text, "solved");
    const n = moves === undefined ? actions : moves;
    const banner = role("solved");
    if (banner) {
      role("solved-text").textContent = (S.game ? text : `Solved in ${clock(seconds)}`) +
        ` · ${n} move${n === 1 ? "" : "s"}`;
      const next = banner.querySelector('[data-action="next"]');
      const makes = document.getElementById("ps-makers");
      const M = makes ? JSON.parse(makes.textContent) : { types: [], games: [] };
      const generates = M.types.some((t) => t.type === S.type) || M.games.some((g) => g.game === S.game);
      next.hidden = !generates;
      next.href = nextLink();
      next.textContent = S.game ? "new game, same size" : "new puzzle, same settings";
      banner.hidden = false;
    }
    document.querySelectorAll(".ps-selected").forEach((el) => el.classList.remove("ps-selected"));
    save(true); // at once: a reload right after solving finds it solved
  }
  function unwon() {
    solved = false;
    say("");
    const banner = role("solved");
    if (banner) banner.hidden = true;
  }

  // -- undo and redo ---------------------------------------------------------------------------------------
  const done = [], undone = [];
  function act(step) { actions += 1; step.redo(); done.push(step); undone.length = 0; save(); }
  function undo() { const s = done.pop(); if (s) { actions += 1; s.undo(); undone.push(s); save(); } }
  function redo() { const s = undone.pop(); if (s) { actions += 1; s.redo(); done.push(s); save(); } }
  const on = (action, handler) => { const b = button(action); if (b) b.addEventListener("click", handler); };
  on("undo", () => undo());
  on("redo", () => redo());
  document.addEventListener("keydown", (e) => {
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") { e.preventDefault(); undo(); }
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "y") { e.preventDefault(); redo(); }
  });

  function showHint(answer) {
    const box = role("hint");
    clearHint();
    if (answer.status !== "hint" && answer.status !== "wrong") { box.textContent = answer.message; return; }
    box.replaceChildren();
    const name = document.createElement("b");
    name.className = "ps-technique";
    name.textContent = answer.technique;
    const words = document.createElement("span");
    words.textContent = ": " + answer.text;
    box.append(name, words);
    // a cell, an edge, or (queens) the row's cells; the step's placement on the cell of its value
    const of = (v) => board.querySelectorAll(`[data-var="${v}"]`);
    for (const step of answer.steps) {
      for (const v of step.cells) {
        of(v).forEach((el) => el.classList.add("ps-hinted", ...(answer.status === "wrong" ? ["ps-hint-wrong"] : [])));
      }
      if (step.place) {
        of(step.place.var).forEach((el) => {
          if (el.dataset.value === undefined || S.kind !== "queens" || Number(el.dataset.value) === step.place.value) {
            el.classList.add("ps-hinted", "ps-hint-place");
          }
        });
      }
    }
  }

  function playView() {
    on("reveal", async () => {
      const answer = await post("/api/reveal", puzzleBody());
      if (answer.status !== "solved") { say(answer.message, "error"); return; }
      showSvg(board, answer.svg);
      say("the solution");
    });
  }

  // check (clashes and differences marked on ``where(v)``'s elements, out of ``all``) and hint, for the
  // player's ``entries``: the same on a board of cells or lines and on lists
  function checkAndHint(entries, all, where) {
    on("check", async () => {
      const answer = await post("/api/check", Object.assign(puzzleBody(), { entries }));
      all.forEach((el) => el.classList.remove("ps-clash", "ps-wrong"));
      answer.clashes.forEach((v) => where(v).forEach((el) => el.classList.add("ps-clash")));
      answer.wrong.forEach((v) => where(v).forEach((el) => el.classList.add("ps-wrong")));
      if (answer.solved) won("solved");
      else say(answer.message + (answer.wrong.length ? `; ${answer.wrong.length} differ from the solution` : ""),
               answer.clashes.length ? "error" : "");
    });
    on("hint", async () => {
      role("hint").textContent = "thinking…";
      showHint(await post("/api/hint", Object.assign(puzzleBody(), { entries })));
    });
  }

  // -- answers chosen from lists under the picture (a seating's guests, each given a seat) ------------------
  function playList() {
    const entries = Object.assign({}, saved.entries || {});
    progressOf = () => ({ entries, marks: {} });
    const selects = new Map();
    board.querySelectorAll("select[data-var]").forEach((el) => selects.set(Number(el.dataset.var), el));
    const open = [...selects.keys()].filter((v) => !selects.get(v).disabled);
    const row = (v) => selects.get(v).closest(".ps-cell");
    function draw(v) {
      selects.get(v).value = entries[v] === undefined ? "" : String(entries[v]);
      row(v).classList.remove("ps-clash", "ps-wrong");
    }
    open.forEach(draw);
    async function maybeDone() {
      if (!open.every((v) => entries[v] !== undefined)) return;
      const answer = await latest("/api/check", Object.assign(puzzleBody(), { entries }));
      if (!answer) return;
      if (answer.solved) won("solved");
      else if (solved) unwon();
    }
    function set(v, x) {
      const before = entries[v];
      const put = (y) => { if (y === undefined) delete entries[v]; else entries[v] = y; draw(v); };
      act({ redo: () => put(x), undo: () => put(before) });
      clearHint();
      maybeDone();
    }
    open.forEach((v) => selects.get(v).addEventListener("change", (e) => {
      set(v, e.target.value === "" ? undefined : Number(e.target.value));
    }));
    checkAndHint(entries, open.map(row), (v) => [row(v)]);
    on("reveal", async () => {
      const answer = await post("/api/reveal", puzzleBody());
      if (answer.status !== "solved") { say(answer.message, "error"); return; }
      showSvg(board.querySelector(".ps-figure"), answer.svg);
      const before = Object.assign({}, entries);
      const after = {};
      open.forEach((v) => { after[v] = answer.values[v]; });
      const put = (vals) => {
        open.forEach((v) => { if (vals[v] === undefined) delete entries[v]; else entries[v] = vals[v]; draw(v); });
      };
      act({ redo: () => put(after), undo: () => put(before) });
      say("revealed");
    });
    if (solved) won("solved");
  }

  // -- share: the puzzle as a puzz.link URL (or the one line saying why it cannot be written) ---------------
  on("share", async () => {
    const box = role("share");
    const response = await fetch("/api/share", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(puzzleBody()),
    });
    const answer = await response.json().catch(() => ({ error: `HTTP ${response.status}` }));
    box.hidden = false;
    if (!response.ok) { box.textContent = `no puzz.link URL: ${answer.error}`; return; }
    const field = document.createElement("input");
    field.readOnly = true;
    field.size = 60;
    field.value = answer.url;
    field.dataset.role = "share-url";
    const copy = document.createElement("button");
    copy.textContent = "copy";
    copy.addEventListener("click", () => {
      field.select();
      (navigator.clipboard ? navigator.clipboard.writeText(answer.url) : Promise.reject(new Error("no clipboard")))
        .then(() => { copy.textContent = "copied"; }, () => { document.execCommand("copy"); copy.textContent = "copied"; });
    });
    box.replaceChildren("puzz.link URL: ", field, " ", copy);
    field.select();
  });

  const kinds = { view: playView, list: playList, grid: playGrid, nonogram: playGrid, cells: playGrid, edges: playGrid,
                  queens: playGrid, lightsout: playLights, life: playLife, moves: playMoves, game: playGame };
  const bar = [...document.querySelectorAll(".ps-bar button")];
  function begin() { bar.forEach((b) => { b.disabled = false; }); started = true; kinds[S.kind](); }
  // progress saved before (a solved board included): the player chooses to resume it or to start again
  const offer = role("resume");
  // saved before this page counted moves: any entry, mark or press in it
  const filled = (v) => (Array.isArray(v) ? v.length > 0 : v && typeof v === "object" ? Object.values(v).some(filled) : !!v);
  const before = solved || actions > 0 || (!("actions" in saved) && Object.values(saved).some(filled));
  if (offer && before && S.kind !== "view") {
    const what = [...(seconds >= 1 ? [clock(seconds)] : []), ...(solved ? [S.game ? "game over" : "solved"] : [])];
    role("resume-text").textContent = `You have played this ${S.game ? "game" : "puzzle"} before` +
      (what.length ? ` (${what.join(", ")}).` : ".");
    offer.hidden = false;
    bar.forEach((b) => { b.disabled = true; }); // nothing to act on until the player chooses
    offer.querySelector('[data-action="resume"]').addEventListener("click", () => { offer.hidden = true; begin(); });
    offer.querySelector('[data-action="restart"]').addEventListener("click", () => {
      offer.hidden = true;
      saved = {}; seconds = 0; solved = false; actions = 0;
      showClock();
      post("/api/progress", { id: S.library.id, progress: {}, seconds: 0, solved: false, restart: true }).catch(() => {});
      begin();
    });
    offer.querySelector('[data-action="resume"]').focus();
  } else begin();

  // -- boards whose answer is values: typed into cells (sudoku ...), clicked through (nonograms, tents,
  // Light Up's bulbs), lines clicked on (loops, bridges) or a queen a row ----------------------------------
  function playGrid() {
    const kind = S.kind, nonogram = kind === "nonogram", queens = kind === "queens";
    const clicked = kind === "cells" || kind === "edges"; // a few states, clicked through
    const cells = new Map(S.cells.map((c) => [c.var, c]));
    const given = (v) => (queens ? S.cells.some((c) => c.var === v && c.given) : !!(cells.get(v) || {}).given);
    const els = new Map(); // variable -> its elements (queens: the row's cells)
    board.querySelectorAll(kind === "edges" ? ".ps-edge" : ".ps-cell").forEach((el) => {
      const v = Number(el.dataset.var);
      if (!els.has(v)) els.set(v, []);
      els.get(v).push(el);
    });
    // the order a click goes through: each value drawn (a line, two bridges, a tent), "none" (0), unset
    const cycle = clicked ? [...S.cycle, undefined] : [];
    const blank = S.blank === null || S.blank === undefined ? undefined : S.blank; // the value drawn as a dot
    const entries = Object.assign({}, saved.entries || {});
    const marks = Object.assign({}, saved.marks || {});
    let selected = null, pencil = false;
    progressOf = () => ({ entries, marks });
    const shown = (v, x) => {
      if (nonogram) return x === 0 ? "×" : "";
      const pair = ((cells.get(v) || {}).values || []).find((p) => p[0] === x);
      return pair ? pair[1] : String(x);
    };
    function draw(v) {
      const x = entries[v];
      for (const el of els.get(v) || []) {
        el.classList.remove("ps-clash", "ps-wrong");
        if (clicked) {
          el.querySelectorAll(".ps-val").forEach((g) => g.classList.toggle("ps-on", Number(g.dataset.value) === x));
          el.classList.toggle("ps-set", x !== undefined);
          // a value the picture draws nothing for, and no dot stands for, is named in the cell
          const plain = x !== undefined && !el.querySelector(`.ps-val[data-value="${x}"]`);
          const text = el.querySelector(".ps-value");
          if (text) text.textContent = plain ? shown(v, x).slice(0, 1) : "";
        } else if (queens) {
          el.querySelector(".ps-value").textContent = x === Number(el.dataset.value) && !el.dataset.given ? "♛" : "";
          el.classList.toggle("ps-queen", x === Number(el.dataset.value));
        } else {
          el.querySelector(".ps-value").textContent = x === undefined ? "" : shown(v, x);
          el.querySelector(".ps-marks").textContent = x === undefined ? (marks[v] || []).map((m) => shown(v, m)).join("") : "";
          el.classList.toggle("ps-filled", nonogram && x !== undefined && x > 0);
        }
      }
    }
    els.forEach((_, v) => draw(v));
    function select(el) {
      if (selected) selected.classList.remove("ps-selected");
      selected = el;
      if (el) el.classList.add("ps-selected");
      board.focus();
    }
    function set(v, x, mark) {
      if (given(v)) return;
      const before = { x: entries[v], m: (marks[v] || []).slice() };
      let after;
      if (mark) {
        const m = (marks[v] || []).slice();
        const i = m.indexOf(x);
        if (i >= 0) m.splice(i, 1); else { m.push(x); m.sort((a, b) => a - b); }
        after = { x: entries[v], m };
      } else {
        after = { x, m: before.m };
      }
      const put = (s) => { if (s.x === undefined) delete entries[v]; else entries[v] = s.x; marks[v] = s.m; draw(v); };
      act({ redo: () => put(after), undo: () => put(before) });
      clearHint();
      if (!mark) maybeDone();
    }
    const next = (v) => cycle[(cycle.indexOf(entries[v]) + 1) % cycle.length];
    function complete() { // unset is "not there" on a nonogram, a loop or a camp: each change may finish it
      if (nonogram || clicked && blank !== undefined) return true;
      return [...els.keys()].every((v) => given(v) || entries[v] !== undefined);
    }
    async function maybeDone() {
      if (!complete()) return;
      const sent = nonogram ? filledOut() : entries;
      const answer = await latest("/api/check", Object.assign(puzzleBody(), { entries: sent }));
      if (!answer) return;
      if (answer.solved) won("solved");
      else if (solved) unwon();
    }
    function filledOut() { // a nonogram's cells left blank are blank: what a finished picture means
      const out = {};
      S.cells.forEach((c) => { if (!c.given) out[c.var] = entries[c.var] === 1 ? 1 : 0; });
      return out;
    }
    // lines, nonogram cells and cells clicked through are also drawn by dragging: the press sets the first one
    // (as a click does) and every other the pointer passes over while held takes the same value
    const part = kind === "edges" ? ".ps-edge" : ".ps-cell";
    let stroke = null; // {value, seen} while the button is held
    if (nonogram || clicked) {
      board.addEventListener("pointerdown", (e) => {
        const el = e.button === 0 && e.target.closest(part);
        if (!el) return;
        e.preventDefault();
        select(el);
        const v = Number(el.dataset.var);
        const x = nonogram ? (entries[v] === undefined ? 1 : entries[v] === 1 ? 0 : undefined) : next(v);
        stroke = { value: x, seen: new Set([v]) };
        set(v, x, false);
      });
      board.addEventListener("pointermove", (e) => {
        if (!stroke || !(e.buttons & 1)) { stroke = null; return; }
        const under = document.elementFromPoint(e.clientX, e.clientY);
        const el = under && under.closest(part);
        if (!el || !board.contains(el)) return;
        const v = Number(el.dataset.var);
        if (stroke.seen.has(v)) return;
        stroke.seen.add(v);
        if (entries[v] !== stroke.value) set(v, stroke.value, false);
      });
      const end = () => { stroke = null; };
      board.addEventListener("pointerup", end);
      board.addEventListener("pointercancel", end);
    }
    board.addEventListener("click", (e) => {
      const el = e.target.closest(part);
      if (!el || nonogram || clicked) return; // those are set on the press (above)
      select(el);
      const v = Number(el.dataset.var);
      if (queens) {
        const c = Number(el.dataset.value);
        set(v, entries[v] === c ? undefined : c, false);
      }
    });
    board.addEventListener("contextmenu", (e) => {
      const el = e.target.closest(kind === "edges" ? ".ps-edge" : ".ps-cell");
      if (!el || !(nonogram || clicked)) return;
      e.preventDefault();
      select(el);
      const v = Number(el.dataset.var), none = nonogram ? 0 : blank;
      if (none !== undefined) set(v, entries[v] === none ? undefined : none, false);
    });
    const step = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    board.addEventListener("keydown", (e) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      if (step[e.key] && kind !== "edges") {
        e.preventDefault();
        const [dr, dc] = step[e.key];
        if (!selected) { select(board.querySelector(".ps-cell")); return; }
        let r = Number(selected.dataset.row), c = Number(selected.dataset.col);
        for (let k = 0; k < 64; k++) {
          r += dr; c += dc;
          const found = board.querySelector(`.ps-cell[data-row="${r}"][data-col="${c}"]`);
          if (found) { select(found); return; }
        }
        return;
      }
      if (!selected) return;
      const v = Number(selected.dataset.var);
      if (e.key === "Backspace" || e.key === "Delete" || e.key === "0" && !(nonogram || clicked)) {
        e.preventDefault(); set(v, undefined, false); return;
      }
      if (queens) {
        if (e.key === " " || e.key === "Enter") {
          e.preventDefault();
          const c = Number(selected.dataset.value);
          set(v, entries[v] === c ? undefined : c, false);
        }
        return;
      }
      if (clicked) {
        if (e.key === " " || e.key === "Enter") { e.preventDefault(); set(v, next(v), false); }
        if ((e.key === "x" || e.key === "X") && blank !== undefined) set(v, entries[v] === blank ? undefined : blank, false);
        return;
      }
      if (e.key === "p" || e.key === "P") { togglePencil(); return; }
      if (nonogram) {
        if (e.key === " " || e.key === "Enter") { e.preventDefault(); set(v, entries[v] === 1 ? undefined : 1, false); }
        if (e.key === "x" || e.key === "X") set(v, entries[v] === 0 ? undefined : 0, false);
        return;
      }
      const pair = (cells.get(v).values || []).find((p) => p[1].toLowerCase() === e.key.toLowerCase());
      if (pair) { e.preventDefault(); set(v, pair[0], pencil); }
    });
    function togglePencil() {
      pencil = !pencil;
      const b = button("pencil");
      if (b) b.textContent = "pencil: " + (pencil ? "on" : "off");
    }
    on("pencil", togglePencil);
    const where = (v) => (queens ? (els.get(v) || []).filter((el) => Number(el.dataset.value) === entries[v]) : els.get(v) || []);
    checkAndHint(entries, [...els.values()].flat(), where);
    on("reveal", async () => {
      const answer = await post("/api/reveal", puzzleBody());
      if (answer.status !== "solved") { say(answer.message, "error"); return; }
      const before = Object.assign({}, entries);
      const after = {};
      for (const [v, x] of Object.entries(answer.values)) {
        if (!given(Number(v)) && !(clicked && x === blank)) after[v] = x; // the lines and tents, not every dot
      }
      const put = (vals) => {
        Object.keys(entries).forEach((k) => delete entries[k]);
        Object.assign(entries, vals);
        els.forEach((_, v) => draw(v));
      };
      act({ redo: () => put(after), undo: () => put(before) });
      say("revealed");
    });
    if (solved) won("solved");
  }

  // -- lights-out --------------------------------------------------------------------------------------
  function playLights() {
    const presses = Object.assign({}, saved.presses || {});
    const els = new Map();
    board.querySelectorAll(".ps-cell").forEach((el) => els.set(Number(el.dataset.var), el));
    progressOf = () => ({ presses });
    function light(lights) {
      lights.forEach((x, i) => {
        const el = els.get(i);
        el.classList.toggle("ps-lit", x > 0);
        el.classList.toggle("ps-dark", x === 0);
        el.querySelector(".ps-value").textContent = S.states > 2 && x > 0 ? String(x) : "";
        el.querySelector(".ps-marks").textContent = presses[i] ? "•".repeat(presses[i]) : "";
      });
    }
    async function refresh() {
      const answer = await latest("/api/press", Object.assign(puzzleBody(), { presses }));
      if (!answer) return;
      light(answer.lights);
      if (answer.solved) won(`solved in ${answer.presses} press${answer.presses === 1 ? "" : "es"}`, answer.presses);
      else if (solved) unwon();
      else say(`${answer.message}; ${answer.presses} cell${answer.presses === 1 ? "" : "s"} pressed`);
    }
    function pressAt(v, by) {
      const was = presses[v] || 0;
      const put = (x) => { if (x) presses[v] = x; else delete presses[v]; refresh(); };
      act({ redo: () => put((was + by + S.states) % S.states), undo: () => put(was) });
    }
    board.addEventListener("click", (e) => {
      const el = e.target.closest(".ps-cell");
      if (el) pressAt(Number(el.dataset.var), 1);
    });
    on("check", refresh);
    on("reveal", async () => {
      const answer = await post("/api/reveal", puzzleBody());
      els.forEach((el) => el.classList.remove("ps-hinted"));
      if (answer.status !== "solved") { say(answer.message, "error"); return; }
      const cells = Object.entries(answer.values).filter(([, x]) => x > 0);
      cells.forEach(([v]) => els.get(Number(v)).classList.add("ps-hinted"));
      role("hint").textContent = `The fewest presses from the start: ${answer.presses} (marked). ` +
        "Press the marked cells, in any order.";
    });
    light(S.lights);
    if (Object.keys(presses).length) refresh();
  }

  // -- Life predecessors -------------------------------------------------------------------------------
  function playLife() {
    const alive = new Array(S.rows * S.cols).fill(0);
    (saved.alive || []).forEach((v) => { alive[v] = 1; });
    const els = new Map();
    board.querySelectorAll(".ps-cell").forEach((el) => els.set(Number(el.dataset.var), el));
    progressOf = () => ({ alive: alive.flatMap((x, i) => (x ? [i] : [])) });
    const next = document.getElementById("ps-next");
    function drawNext(grid) {
      const s = 18, pad = 2;
      const svg = svgNode("svg", { width: S.cols * s + 2 * pad, height: S.rows * s + 2 * pad });
      grid.forEach((row, r) => row.forEach((x, c) => {
        const inside = r >= S.margin && r < S.rows - S.margin && c >= S.margin && c < S.cols - S.margin;
        svg.append(svgNode("rect", { x: pad + c * s, y: pad + r * s, width: s, height: s, stroke: "#999",
                                     fill: x ? "#222" : inside ? "#fff8e0" : "#fff" }));
      }));
      next.replaceChildren(svg);
    }
    async function refresh() {
      alive.forEach((x, v) => els.get(v).classList.toggle("ps-filled", x === 1));
      const answer = await latest("/api/life", Object.assign(puzzleBody(), { cells: alive }));
      if (!answer) return;
      drawNext(answer.next);
      if (answer.solved) won(answer.message); else { if (solved) unwon(); say(answer.message); }
    }
    board.addEventListener("click", (e) => {
      const el = e.target.closest(".ps-cell");
      if (!el) return;
      const v = Number(el.dataset.var);
      act({ redo: () => { alive[v] ^= 1; refresh(); }, undo: () => { alive[v] ^= 1; refresh(); } });
    });
    on("check", refresh);
    on("reveal", async () => {
      const answer = await post("/api/reveal", puzzleBody());
      if (answer.status !== "solved") { say(answer.message, "error"); return; }
      const before = alive.slice();
      const after = alive.map((_, v) => answer.values[v] || 0);
      const put = (vals) => { vals.forEach((x, v) => { alive[v] = x; }); refresh(); };
      act({ redo: () => put(after), undo: () => put(before) });
    });
    refresh();
  }

  // -- move puzzles: sliding blocks, tiles, Rush Hour, permutation puzzles -------------------------------
  // The server counts the moves in the puzzle's metric from the player's path of boards (steps that make one
  // move of the metric, the same piece again in `moves` or pieces moving together in the super metrics, count
  // once), so the page keeps the path and each board's count.
  function playMoves() {
    const start = S.position, most = 1000; // the boards of the path a request carries (play.MAX_PATH)
    let position = saved.position || S.position, count = saved.moves || 0;
    let path = saved.path || [position], counts = saved.counts || [count];
    let selected = null, shortest = null, playing = false;
    progressOf = () => ({ position, moves: count, path, counts });
    const key = (r, c) => `${r},${c}`;
    function pieceAt(r, c) {
      const rect = board.querySelector(`.ps-piece rect[data-row="${r}"][data-col="${c}"]`);
      return rect ? rect.parentNode : null;
    }
    function mark() {
      board.querySelectorAll(".ps-selected").forEach((g) => g.classList.remove("ps-selected"));
      if (selected) { const g = pieceAt(selected[0], selected[1]); if (g) g.classList.add("ps-selected"); }
    }
    const named = document.getElementById("ps-moves");
    function moveButtons(state) { // a puzzle whose moves are not pieces moving: one button a move
      if (!named || state.pieces) return;
      named.replaceChildren();
      for (const name of state.moves_here) {
        const b = document.createElement("button");
        b.dataset.move = name;
        b.textContent = name;
        b.addEventListener("click", () => go(name, null).catch(() => {}));
        named.append(b);
      }
    }
    function show(state) {
      position = state.position;
      showSvg(board, state.svg);
      moveButtons(state);
      mark();
      role("moves").textContent = String(count);
      if (state.solved) won(`solved in ${count} move${count === 1 ? "" : "s"}`, count);
      else if (solved) unwon();
      else if (!playing) say("");
    }
    async function optimal() {
      const asked = position;
      shortest = null; // the next optimal move waits for this board's (the last one's first move is played)
      role("optimal").textContent = "…";
      const answer = await post("/api/optimal", Object.assign(puzzleBody(), { position: asked }));
      if (asked !== position) return;
      shortest = answer.status === "solved" ? answer : null;
      role("optimal").textContent = answer.optimal === null ? answer.status : String(answer.optimal);
      if (answer.status !== "solved") say(answer.message, "error");
      role("hint").textContent = shortest && shortest.moves.length ?
        `A shortest solution from here starts: ${shortest.moves.slice(0, 3).join(", ")}` +
        (shortest.moves.length > 3 ? ", …" : "") : "";
    }
    const drawn = new Map([[S.position, S]]); // every board drawn so far, to go back to
    function put(at) {
      count = at.count; path = at.path; counts = at.counts;
      show(drawn.get(at.position));
      optimal();
      save();
    }
    async function go(piece, direction) {
      const before = { position, count, path, counts };
      const state = await post("/api/move", Object.assign(puzzleBody(), { position, piece, direction, path, counts }));
      drawn.set(state.position, state);
      const after = { position: state.position, count: state.count, path: path.concat([state.position]).slice(-most),
                      counts: counts.concat([state.count]).slice(-most) };
      act({ redo: () => put(after), undo: () => put(before) });
      return state;
    }
    async function restore(at) { // a position saved in the library
      if (!drawn.has(at.position)) {
        // drawn in the start's colours (as a puzzle of its own, its pieces would be coloured in another order)
        drawn.set(at.position, await post("/api/position", Object.assign(puzzleBody(), { position: at.position })));
      }
      put(at);
    }
    async function stepPiece(direction) {
      if (!selected) { say("click a piece first"); return; }
      const g = pieceAt(selected[0], selected[1]);
      if (!g) { say("that cell is empty: click a piece"); return; }
      const d = { up: [-1, 0], down: [1, 0], left: [0, -1], right: [0, 1] }[direction];
      const moved = [selected[0] + d[0], selected[1] + d[1]];
      try { await go(g.dataset.piece, direction); } catch (e) { return; }
      selected = moved;
      mark();
    }
    const arrows = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
    board.addEventListener("keydown", (e) => {
      if (arrows[e.key] && !e.ctrlKey) { e.preventDefault(); stepPiece(arrows[e.key]); }
    });
    let drag = null;
    board.addEventListener("pointerdown", (e) => {
      const rect = e.target.closest(".ps-piece rect");
      if (!rect) return;
      selected = [Number(rect.dataset.row), Number(rect.dataset.col)];
      mark();
      board.focus();
      drag = { x: e.clientX, y: e.clientY, size: rect.getBoundingClientRect().width };
    });
    board.addEventListener("pointerup", async (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y, size = drag.size;
      drag = null;
      const steps = Math.round(Math.max(Math.abs(dx), Math.abs(dy)) / size);
      const direction = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up");
      for (let k = 0; k < steps; k++) await stepPiece(direction);
    });
    async function stepOptimal() {
      if (!shortest || !shortest.moves.length) return false;
      selected = null;
      await go(shortest.moves[0], null);
      return true;
    }
    on("step", () => stepOptimal());
    on("reveal", async () => {
      playing = !playing;
      button("reveal").textContent = playing ? "stop" : "play the shortest solution";
      while (playing && !solved) {
        if (!shortest) await new Promise((r) => setTimeout(r, 200));
        else if (!(await stepOptimal())) break;
        await new Promise((r) => setTimeout(r, 350));
      }
      playing = false;
      button("reveal").textContent = "play the shortest solution";
    });
    on("reset", () => {
      const before = { position, count, path, counts };
      act({ redo: () => put({ position: start, count: 0, path: [start], counts: [0] }), undo: () => put(before) });
    });
    if (position !== S.position) restore({ position, count, path, counts });
    else { role("moves").textContent = String(count); moveButtons(S); optimal(); }
  }

  // -- 2048 and Threes ---------------------------------------------------------------------------------
  function playGame() {
    let g = saved.game && saved.game.game === S.game ? saved.game : S;
    let auto = false;
    progressOf = () => ({ game: g });
    function draw() {
      const size = g.size;
      const tiles = document.createElement("div");
      tiles.className = `ps-tiles ps-${S.game}`;
      tiles.style.gridTemplateColumns = `repeat(${Number(size) || 4}, 1fr)`;
      g.grid.forEach((row, r) => row.forEach((x, c) => {
        const tile = document.createElement("div");
        const value = Number.isInteger(x) ? x : 0; // a saved grid is data: only whole numbers are tiles
        tile.className = `ps-tile v${value}`;
        tile.dataset.row = String(r);
        tile.dataset.col = String(c);
        tile.textContent = value ? String(value) : "";
        tiles.append(tile);
      }));
      board.replaceChildren(tiles);
      role("score").textContent = g.score.toLocaleString("en");
      role("moves").textContent = String(g.moves);
      role("next").textContent = g.next ? "· " + g.next : "";
      if (g.over) won(`Game over: score ${g.score.toLocaleString("en")}, largest ${g.max}`, g.moves);
    }
    const body = () => ({ game: S.game, size: g.size, key: g.key, state: g.state, points: g.points || 0,
                          moves: g.moves, seed: g.seed });
    async function move(direction) {
      const before = g;
      const after = await post("/api/game/move", Object.assign(body(), { direction }));
      if (!after.over) say(""); // a key refused before (a move that moves nothing) is no longer news
      act({ redo: () => { g = after; draw(); }, undo: () => { g = before; unwon(); draw(); } });
      clearHint();
      return after;
    }
    async function suggest() {
      const answer = await post("/api/game/suggest", body());
      const box = role("hint");
      if (!answer.best) { box.textContent = answer.message; return null; }
      const arrows = { U: "↑", D: "↓", L: "←", R: "→" };
      const name = document.createElement("b");
      name.className = "ps-technique";
      name.textContent = `suggested move ${arrows[answer.best]}`;
      const words = document.createElement("span");
      words.textContent = answer.advice;
      box.replaceChildren(name, " ", words);
      return answer.best;
    }
    const keys = { ArrowUp: "U", ArrowDown: "D", ArrowLeft: "L", ArrowRight: "R" };
    document.addEventListener("keydown", (e) => {
      if (keys[e.key] && !e.ctrlKey && !g.over) { e.preventDefault(); move(keys[e.key]).catch(() => {}); }
    });
    let touch = null;
    board.addEventListener("pointerdown", (e) => { touch = { x: e.clientX, y: e.clientY }; });
    board.addEventListener("pointerup", (e) => {
      if (!touch) return;
      const dx = e.clientX - touch.x, dy = e.clientY - touch.y;
      touch = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 20) return;
      move(Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "R" : "L") : (dy > 0 ? "D" : "U")).catch(() => {});
    });
    on("suggest", () => suggest());
    on("auto", async () => {
      auto = !auto;
      button("auto").textContent = auto ? "stop" : "let expectimax play";
      while (auto && !g.over) {
        const best = await suggest();
        if (!best) break;
        await move(best);
      }
      auto = false;
      button("auto").textContent = "let expectimax play";
    });
    draw();
    board.focus();
  }
})();
