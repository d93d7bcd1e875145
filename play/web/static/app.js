// MeepleZoo in the browser: a thin page over the server's JSON API (play/web/server.py).
// Everything the rules decide (legal moves, scores, results) comes from the server; the
// page only draws views and sends what was clicked.
"use strict";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
// A bot's move stays on screen a moment before the next one (?delay=MS changes it).
const BOT_DELAY_MS = Number(new URLSearchParams(location.search).get("delay") ?? 250);
let setup = null;                 // GET /api/setup
let current = null;               // the view on screen (a game or a replay)
let pending = 0;                  // requests in flight: body[data-busy]
let botDue = false;               // a bot's move is scheduled: body[data-ready] stays 0
let warmup = null;                // GET /api/warmup: each game's compile-ahead state
// Polling the warm-up: 1 s, then each wait half as long again, up to 5 s (starting a
// game asks at once); it stops once every game is ready (or failed), or at once when
// the server does not warm.
const WARMUP_POLL_MS = [1000, 5000];
// A new game still unanswered after this long says why it takes long.
const SLOW_START_MS = 1500;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
}

function showError(message) {
  const box = $("error");
  box.textContent = message || "";
  box.hidden = !message;
}

async function api(method, path, body) {
  document.body.dataset.ready = "0";
  pending += 1;
  document.body.dataset.busy = "1";
  try {
    const response = await fetch(path, {
      // The server refuses a POST not sent as JSON, even an empty one (guard.py).
      method, headers: method === "GET" ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : (typeof body === "string" ? body : JSON.stringify(body)),
    });
    let data;
    try { data = await response.json(); } catch (e) { data = { error: `the server answered ${response.status}` }; }
    if (!response.ok) throw new Error(data.error || `the server answered ${response.status}`);
    return data;
  } finally {
    pending -= 1;
    if (pending === 0) document.body.dataset.busy = "0";
  }
}

// Every user action runs here: its error goes on the page; afterwards body[data-ready]
// tells scripts driving the page (the browser tests) whether a person may act now.
async function attempt(action) {
  try { showError(""); await action(); } catch (err) { showError(err.message); } finally {
    if (pending === 0) document.body.dataset.ready = botDue ? "0" : "1";
  }
}

// --- setting up ------------------------------------------------------------------------

function gameInfo() { return setup.games.find((g) => g.name === $("game").value); }

function fillSeats() {
  const info = gameInfo();
  const players = $("players");
  players.min = info.min_players; players.max = info.max_players;
  let n = Number(players.value) || 2;
  n = Math.min(Math.max(n, info.min_players), info.max_players);
  players.value = n;
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let s = 0; s < n; s++) {
    const label = el("label", {}, `P${s} `);
    const input = el("input", { id: `seat-${s}`, list: "agent-specs", size: "14" });
    input.value = old[s] || (s === 0 ? "human" : "random");
    label.appendChild(input);
    box.appendChild(label);
  }
}

// An option's input: a checkbox, a number, text, or JSON for a list or null (the page
// sends only the options changed from their defaults).
function optionKind(value) {
  return ["boolean", "number", "string"].includes(typeof value) ? typeof value : "json";
}

function fillOptions() {
  const box = $("options");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const [name, value] of Object.entries(gameInfo().options)) {
    const kind = optionKind(value);
    const label = el("label", {}, `${name} `);
    const input = el("input", { "data-option": name, "data-kind": kind });
    if (kind === "boolean") { input.type = "checkbox"; input.checked = value; }
    else if (kind === "number") { input.type = "number"; input.value = value; }
    else { input.type = "text"; input.value = kind === "json" ? JSON.stringify(value) : value; }
    label.appendChild(input);
    box.appendChild(label);
  }
}

function chosenOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("input")) {
    const name = input.dataset.option, kind = input.dataset.kind;
    let value = input.value;
    if (kind === "boolean") value = input.checked;
    else if (kind === "number") value = Number(input.value);
    else if (kind === "json") {
      try { value = JSON.parse(input.value); } catch (e) { throw new Error(`option ${name}: not valid JSON`); }
    }
    if (JSON.stringify(value) !== JSON.stringify(gameInfo().options[name])) options[name] = value;
  }
  return options;
}

async function startGame() {
  const seats = [...$("seats").querySelectorAll("input")].map((i) => i.value.trim());
  const body = { game: $("game").value, seats, options: chosenOptions() };
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  // A game whose code is not compiled yet takes a while to start: say so, not a frozen page.
  const starting = $("starting"), game = body.game;
  const compiling = `starting the game… (compiling ${game}: its first game on this server)`;
  const known = warmState(game);
  starting.textContent = known && known.state !== "ready" ? compiling : "starting the game…";
  starting.hidden = false;
  $("start").disabled = true;
  const slow = setTimeout(() => {       // ready (warmed) and still slow: a busy machine
    const now = warmState(game);
    starting.textContent = now && now.state === "ready" ?
      "starting the game… (the server is busy)" : compiling;
  }, SLOW_START_MS);
  if (warmup && !warmup.done) setTimeout(() => pollWarmup(0), 300);  // it moved up the queue
  try {
    show(await api("POST", "/api/games", body));
  } finally {
    clearTimeout(slow);
    starting.hidden = true;
    $("start").disabled = false;
  }
}

// --- the warm-up: "preparing <game>…" until the game's code is compiled -------------------

function warmState(game) { return warmup && warmup.games.find((g) => g.game === game); }

function showWarmup() {
  const box = $("warmup"), game = $("game").value, state = warmState(game);
  box.hidden = !state || state.state === "ready";
  $("start").title = box.hidden ? "" : "you may start now: the game waits while its code compiles";
  if (box.hidden) { box.dataset.state = state ? state.state : "off"; return; }
  box.dataset.state = state.state;
  const ready = warmup.games.filter((g) => g.state === "ready").length;
  const count = `${ready} of ${warmup.games.length} games ready`;
  if (state.state === "failed") {
    box.textContent = `${game} could not be prepared (${state.reason}); its first game compiles what it needs`;
  } else if (state.state === "preparing") {
    box.textContent = `preparing ${game}… (compiling ${state.stage || "its code"}; ${count})`;
  } else {
    box.textContent = `preparing ${game}… (waiting for the games before it; ${count})`;
  }
}

async function pollWarmup(wait) {
  const next = Math.min(Math.max(wait * 1.5, WARMUP_POLL_MS[0]), WARMUP_POLL_MS[1]);
  try {
    const response = await fetch("/api/warmup");     // not api(): the page stays ready
    if (response.ok) {
      warmup = await response.json();
      showWarmup();
      if (!warmup.enabled || warmup.done) return;
    }
  } catch (e) { /* the server is busy or restarting: ask again later */ }
  clearTimeout(pollWarmup.timer);
  pollWarmup.timer = setTimeout(() => pollWarmup(next), next);
}

// --- drawing a view ----------------------------------------------------------------------

function drawBoard(view) {
  const svg = $("board"), board = view.board;
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${board.width} ${board.height}`);
  const image = document.createElementNS(SVG, "image");
  image.setAttribute("href", `data:image/png;base64,${board.png}`);
  image.setAttribute("width", board.width);
  image.setAttribute("height", board.height);
  svg.appendChild(image);
  board.targets.forEach(([y, x, h, w], index) => {
    const rect = document.createElementNS(SVG, "rect");
    Object.entries({ x, y, width: w, height: h, class: "target", "data-target": index })
      .forEach(([k, v]) => rect.setAttribute(k, v));
    const moves = (view.moves || []).filter((m) => m.target === index);
    const title = document.createElementNS(SVG, "title");
    title.textContent = moves.map((m) => m.move).join(" / ");
    rect.appendChild(title);
    rect.addEventListener("click", () => chooseAmong(moves));
    svg.appendChild(rect);
  });
  $("choices").hidden = true;
}

function chooseAmong(moves) {
  if (moves.length === 1) return attempt(() => play(moves[0].action));
  const box = $("choices");
  box.replaceChildren(el("div", {}, "which one?"));
  for (const m of moves) box.appendChild(moveButton(m));
  const cancel = el("button", { type: "button" }, "cancel");
  cancel.addEventListener("click", () => { box.hidden = true; });
  box.appendChild(cancel);
  box.hidden = false;
}

function moveButton(m) {
  const button = el("button", { type: "button", class: "move", "data-action": m.action }, m.move);
  button.addEventListener("click", () => attempt(() => play(m.action)));
  return button;
}

function drawSide(view) {
  const live = view.kind === "game";
  const who = (s) => `P${s} (${view.seats[s]})`;
  $("status").textContent = view.over ? "game over" :
    `${view.game} · move ${view.ply + 1} · ${who(view.to_move)} to move · ${view.phase}`;
  const result = $("result");
  result.hidden = !view.over;
  result.textContent = view.result || "";
  result.dataset.scores = JSON.stringify(view.scores);
  // env.scores(): the end-game scoring applied to this position until the game is over
  // (the drawn board labels its own running score "score now"), then the final score.
  const scores = $("scores");
  scores.replaceChildren(el("tr", {}, ""));
  const label = !view.over ? "if the game ended now" : view.cut_off ? "final (cut off)" : "final";
  scores.firstChild.append(el("th", {}, "seat"), el("th", { id: "score-label" }, label));
  view.scores.forEach((score, s) => {
    const row = el("tr", { class: s === view.to_move ? "to-move" : "" });
    row.append(el("td", {}, who(s)), el("td", { class: "score" }, String(score)));
    scores.appendChild(row);
  });
  const moves = $("moves");
  moves.replaceChildren(...(live ? view.moves.map(moveButton) : []));
  if (live && !view.over && !view.human_to_move) moves.textContent = "a bot is to move";
  const log = $("log");
  log.replaceChildren(...view.log.map((e, i) => el("li", { class: i === view.ply - 1 ? "current" : "" },
    `P${e.seat} ${e.move}`)));
  if (log.lastChild && live) log.lastChild.scrollIntoView({ block: "nearest" });
  $("game-controls").hidden = !live;
  $("typed").hidden = !live || !view.human_to_move;
  $("replay-controls").hidden = live;
  $("undo").disabled = !live || !view.can_undo;
  $("hint").disabled = !live || !view.human_to_move;
  $("step").disabled = !live || view.over || view.human_to_move;
  $("hint-text").textContent = "";
  $("analysis").replaceChildren();
  if (!live) {
    $("ply-label").textContent = `${view.ply} / ${view.plies}`;
    $("jump").max = view.plies;
    $("play-on").hidden = !view.playable;
    const e = view.next_evaluation;
    $("evaluation").textContent = e ? `next move's search: value ${e.value}, ${e.visits} visits; ` +
      e.moves.map((m) => `${m.move} ${m.visits}`).join(", ") : "";
  }
}

function show(view) {
  current = view;
  $("setup").hidden = true; $("loader").hidden = true; $("table").hidden = false;
  drawBoard(view);
  drawSide(view);
  document.body.dataset.session = view.id;
  botDue = view.kind === "game" && !view.over && !view.human_to_move && $("auto").checked;
  if (botDue) setTimeout(() => attempt(botMove), BOT_DELAY_MS);
}

// --- acting ------------------------------------------------------------------------------

async function play(action) { show(await api("POST", `/api/games/${current.id}/move`, { action })); }

async function botMove() {
  botDue = false;
  if (!current || current.kind !== "game" || current.over || current.human_to_move) return;
  show(await api("POST", `/api/games/${current.id}/step`));
}

async function hint() {
  const h = await api("POST", `/api/games/${current.id}/hint`);
  $("hint-text").textContent = `hint (search, ${h.simulations} simulations): ${h.move}`;
  document.querySelectorAll("button.move").forEach((b) =>
    b.classList.toggle("hinted", Number(b.dataset.action) === h.action));
}

async function analyse() {
  const body = { simulations: Number($("sims").value) || 400, network: $("network").value.trim() };
  const path = current.kind === "game" ? `/api/games/${current.id}/analysis` : `/api/replays/${current.id}/analysis`;
  if (current.kind === "replay") body.ply = current.ply;
  const a = await api("POST", path, body);
  const box = $("analysis");
  const table = el("table");
  const head = el("tr");
  head.append(el("th", {}, "move"), el("th", {}, "visits"), el("th", {}, "value"));
  const priors = a.network ? Object.fromEntries(a.network.policy.map((p) => [p.action, p.prior])) : null;
  if (priors) head.append(el("th", {}, "prior"));
  table.appendChild(head);
  for (const m of a.moves) {
    const row = el("tr");
    row.append(el("td", {}, m.move), el("td", {}, String(m.visits)), el("td", {}, m.value.toFixed(3)));
    if (priors) row.append(el("td", {}, (priors[m.action] ?? 0).toFixed(3)));
    table.appendChild(row);
  }
  box.replaceChildren(el("div", {}, `search: ${a.simulations} simulations, best ${a.best}` +
    (a.network ? `; ${a.network.spec} value per seat ${a.network.value.join(", ")}` : "")), table);
}

async function download() {
  const record = await api("GET", `/api/games/${current.id}/record`);
  const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
  const link = el("a", { href: URL.createObjectURL(blob), download: `${current.game}_${current.seed}.json` });
  link.click();
}

async function openReplay(file) {
  const text = await file.text();
  let record;
  try { record = JSON.parse(text); } catch (e) { throw new Error(`${file.name} is not a replay (not valid JSON)`); }
  show(await api("POST", "/api/replays", { name: file.name, record }));
}

async function goTo(ply) {
  const target = Math.min(Math.max(ply, 0), current.plies);
  show(await api("GET", `/api/replays/${current.id}?ply=${target}`));
}

function tab(which) {
  $("tab-play").classList.toggle("active", which === "play");
  $("tab-watch").classList.toggle("active", which === "watch");
  $("setup").hidden = which !== "play";
  $("loader").hidden = which !== "watch";
  $("table").hidden = true;
  showError("");
}

async function init() {
  setup = await api("GET", "/api/setup");
  $("game").replaceChildren(...setup.games.map((g) => el("option", { value: g.name }, g.name)));
  $("agent-specs").replaceChildren(...setup.seat_examples.map((s) => el("option", { value: s })));
  $("game").addEventListener("change", () => { fillSeats(); fillOptions(); showWarmup(); });
  $("players").addEventListener("change", fillSeats);
  fillSeats(); fillOptions();
  pollWarmup(0);
  $("start").addEventListener("click", () => attempt(startGame));
  $("tab-play").addEventListener("click", () => tab("play"));
  $("tab-watch").addEventListener("click", () => tab("watch"));
  $("undo").addEventListener("click", () => attempt(async () =>
    show(await api("POST", `/api/games/${current.id}/undo`))));
  $("hint").addEventListener("click", () => attempt(hint));
  $("typed").addEventListener("submit", (e) => {
    e.preventDefault();
    attempt(async () => {
      show(await api("POST", `/api/games/${current.id}/move`, { move: $("move-text").value }));
      $("move-text").value = "";
    });
  });
  $("step").addEventListener("click", () => attempt(botMove));
  $("auto").addEventListener("change", () => { if ($("auto").checked) attempt(botMove); });
  $("download").addEventListener("click", () => attempt(download));
  $("analyse").addEventListener("click", () => attempt(analyse));
  $("replay-file").addEventListener("change", (e) => {
    const file = e.target.files[0];
    if (file) attempt(() => openReplay(file));
    e.target.value = "";
  });
  $("first").addEventListener("click", () => attempt(() => goTo(0)));
  $("prev").addEventListener("click", () => attempt(() => goTo(current.ply - 1)));
  $("next").addEventListener("click", () => attempt(() => goTo(current.ply + 1)));
  $("last").addEventListener("click", () => attempt(() => goTo(current.plies)));
  $("go").addEventListener("click", () => attempt(() => goTo(Number($("jump").value))));
  $("play-on").addEventListener("click", () => attempt(async () =>
    show(await api("POST", `/api/replays/${current.id}/play`))));
  document.addEventListener("keydown", (e) => {
    if (!current || current.kind !== "replay" || e.target.tagName === "INPUT") return;
    if (e.key === "ArrowRight") attempt(() => goTo(current.ply + 1));
    if (e.key === "ArrowLeft") attempt(() => goTo(current.ply - 1));
  });
}

attempt(init);
