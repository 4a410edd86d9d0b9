// Quill's page. It draws what the server sends (the board from the rules' own geometry, the
// pieces, the legal next legs of the move being entered) and sends the person's moves; it never
// decides what is legal. It checks every opened commitment itself with WebCrypto SHA-256 over
// the bytes `quill-sealed-v1:MOVE:NONCE` (protocol-docs/sealed.md), so the check does not
// rely on the server.

const token = new URLSearchParams(location.search).get('token') || '';
const SVGNS = 'http://www.w3.org/2000/svg';
const S = 64; // pixels of a square
const BRIDGE = 22; // pixels of a rank of Pagan's bridge (nothing stands there)
const $ = (id) => document.getElementById(id);

let ws = null;
let me = 0; // this socket's client number
let controller = -1;
let engines = [];
let variants = [];
let state = null;
let flipped = false;
let flipChosen = false;
// The move being entered: legs so far, the server's options after them, the lifted square.
let entry = { legs: [], next: [], complete: false, promotions: [], lifted: null, version: -1 };
let lastError = '';
let verdicts = {}; // "turn:seat" -> {ok, text}
let revealStage = { turn: 0, showBefore: false };
let handedOver = ''; // the side that pressed "I am ready" for the current sealing
let lastSealing = '';
let drag = null;
let receivedAt = performance.now();

const MAX_MESSAGE = 16 * 1024; // the server's bound on a message (bytes); it closes the socket past it

function send(obj) {
  const text = JSON.stringify(obj);
  if (new TextEncoder().encode(text).length > MAX_MESSAGE) notice('that is too long to send');
  else if (ws && ws.readyState === WebSocket.OPEN) ws.send(text);
  else notice('not connected to the server (reconnecting): try again in a moment');
}

function el(tag, attrs = {}, parent = null, svg = false) {
  const e = svg ? document.createElementNS(SVGNS, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'text') e.textContent = v; else e.setAttribute(k, v);
  }
  if (parent) parent.appendChild(e);
  return e;
}
const sel = (tag, attrs, parent) => el(tag, attrs, parent, true);

function notice(text) {
  lastError = text;
  const n = $('notice');
  n.textContent = text;
  n.dataset.text = text;
  clearTimeout(notice.timer);
  notice.timer = setTimeout(clearNotice, 6000);
}

// The notice line is emptied, not removed: its height is kept, so the board does not move.
function clearNotice() {
  clearTimeout(notice.timer);
  const n = $('notice');
  n.textContent = '';
  n.dataset.text = '';
}

// ---------------------------------------------------------------------------------------------
// Pieces as SVG: one silhouette per kind, in a 100x100 box, with its letter in the corner.

const SHAPES = {
  P: 'M50 18a13 13 0 1 1 0 26a13 13 0 1 1 0-26zM38 46h24l6 26h-36zM24 74h52v12h-52z',
  N: 'M30 86h46c0-18-3-40-12-54c-4-6-10-10-18-12l-3-6l-4 8c-8 4-15 12-17 22l8 6l9-4c1 6-3 12-9 20z',
  K: 'M46 8h8v10h10v8h-10v8h-8v-8h-10v-8h10zM30 40h40l-6 32h-28zM24 74h52v12h-52z',
  Q: 'M18 30l12 36h40l12-36l-16 16l-16-30l-16 30zM26 70h48v6h-48zM24 78h52v10h-52z',
  R: 'M26 20h10v8h8v-8h12v8h8v-8h10v18h-48zM32 40h36v32h-36zM24 74h52v12h-52z',
  B: 'M50 12c12 10 20 22 20 34c0 12-9 20-20 20s-20-8-20-20c0-12 8-24 20-34zM48 26h4v24h-4zM36 68h28v6h-28zM24 76h52v10h-52z',
  W: 'M28 22h44v50h-44zM46 30h8v12h12v8h-12v12h-8v-12h-12v-8h12zM22 74h56v12h-56z',
  A: 'M42 12h16v20l18 40c2 6-2 12-8 12h-36c-6 0-10-6-8-12l18-40z',
  G: 'M50 10l9 24l26-2l-20 16l9 25l-24-14l-24 14l9-25l-20-16l26 2z',
};

function pieceGroup(letter, parent, x, y, size) {
  const white = letter === letter.toUpperCase();
  const kind = letter.toUpperCase();
  const g = sel('g', { class: 'piece', 'data-piece': letter,
    transform: `translate(${x},${y}) scale(${size / 100})` }, parent);
  sel('path', { d: SHAPES[kind] || 'M50 15a35 35 0 1 1 0 70a35 35 0 1 1 0-70z',
    fill: white ? '#fbfbf7' : '#26262b', stroke: white ? '#1d1d1f' : '#f0f0f0',
    'stroke-width': 3.5, 'stroke-linejoin': 'round' }, g);
  sel('text', { x: 88, y: 98, 'text-anchor': 'end', 'font-size': 22, 'font-weight': 700,
    fill: white ? '#1d1d1f' : '#f6f6f6', stroke: white ? '#fff' : '#000', 'stroke-width': 0.8,
    text: letter }, g);
  return g;
}

// ---------------------------------------------------------------------------------------------
// The board.

function sqName(f, r) { return String.fromCharCode(97 + f) + r; }
function parseSq(s) { return { file: s.charCodeAt(0) - 97, rank: parseInt(s.slice(1), 10) }; }
function parseLeg(l) {
  const m = /^([a-z]\d+)([a-z]\d+)$/.exec(l);
  return m ? { from: m[1], to: m[2] } : null;
}

function mySide() {
  // The side this page enters a move for now, if it may.
  if (!state || controller !== me || !state.entering) return null;
  if (state.paused || state.suspended || state.result) return null;
  return state.entering;
}

// The rank shown on row `row` (0: the top row), and the rows' tops and heights in pixels: a
// rank of the bridge is drawn thin, so that a tall frame keeps its squares large.
function rankOfRow(row) {
  const g = state.geometry;
  return flipped ? row + 1 : g.ranks - row;
}
function rows() {
  const g = state.geometry;
  const out = [];
  let top = 8;
  for (let row = 0; row < g.ranks; row++) {
    const h = g.bridge.includes(rankOfRow(row)) ? BRIDGE : S;
    out.push({ top, h });
    top += h;
  }
  return out;
}

function xy(file, rank) {
  const g = state.geometry;
  const col = flipped ? g.files - 1 - file : file;
  const row = flipped ? rank - 1 : g.ranks - rank;
  return { x: 24 + col * S, y: rows()[row].top };
}

function squareAt(clientX, clientY) {
  const svg = $('board');
  const pt = svg.createSVGPoint();
  pt.x = clientX; pt.y = clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  const g = state.geometry;
  const col = Math.floor((p.x - 24) / S);
  const row = rows().findIndex((r) => p.y >= r.top && p.y < r.top + r.h);
  if (col < 0 || row < 0 || col >= g.files) return null;
  const file = flipped ? g.files - 1 - col : col;
  const rank = rankOfRow(row);
  const name = sqName(file, rank);
  return g.squares.some((s) => s.sq === name) ? name : null;
}

// The pieces as they stand with the legs entered so far: a leg that lands on a piece keeps
// it aside, and a later leg from that square moves the piece kept aside (Brawl's relocation
// of a captured supporter); a leg from an empty square moves the previous leg's piece (a
// redeploy). This is display only: what may be entered comes from the server.
function shownPieces() {
  const pieces = Object.assign({}, revealStage.showBefore && state.reveal ? state.reveal.before : state.pieces);
  const aside = {};
  let lastPiece = null;
  for (const l of entry.legs) {
    const leg = parseLeg(l);
    if (!leg) continue;
    let p;
    if (aside[leg.from]) { p = aside[leg.from]; delete aside[leg.from]; }
    else { p = pieces[leg.from] || lastPiece; delete pieces[leg.from]; }
    if (pieces[leg.to]) aside[leg.to] = pieces[leg.to];
    if (p) pieces[leg.to] = p;
    lastPiece = p;
  }
  return pieces;
}

function targetsOf(from) {
  return entry.next.map(parseLeg).filter((l) => l && l.from === from).map((l) => l.to);
}

function drawBoard() {
  const svg = $('board');
  svg.replaceChildren();
  const g = state.geometry;
  const W = 24 + g.files * S + 8;
  const last = rows()[g.ranks - 1];
  const boardBottom = last.top + last.h;
  const H = boardBottom + 24;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.dataset.variant = state.variant;
  const variant = state.variant;
  // Regions.
  const colours = {
    board: ['--light', '--dark'], arena: ['--arena-light', '--arena-dark'],
    border: ['--border-light', '--border-dark'], game: ['--light', '--dark'],
    dead: ['--dead-light', '--dead-dark'],
  };
  const css = getComputedStyle(document.documentElement);
  for (const s of g.squares) {
    const { x, y } = xy(s.file, s.rank);
    const dark = (s.file + s.rank) % 2 === 0;
    const [l, d] = colours[s.region] || colours.board;
    sel('rect', { x, y, width: S, height: S, fill: css.getPropertyValue(dark ? d : l).trim(),
      'data-sq': s.sq, 'data-region': s.region, class: 'square' }, svg);
  }
  if (variant === 'gladiator') {
    // The arena: b2-g7, outlined.
    const a = xy(flipped ? 6 : 1, flipped ? 2 : 7);
    sel('rect', { x: a.x, y: a.y, width: 6 * S, height: 6 * S, fill: 'none', stroke: '#5b3a12',
      'stroke-width': 4, 'stroke-dasharray': '10 5', id: 'arena', 'pointer-events': 'none' }, svg);
  }
  if (g.bridge.length) {
    const top = Math.max(...g.bridge);
    const bottom = Math.min(...g.bridge);
    const a = xy(flipped ? 5 : 1, flipped ? bottom : top);
    sel('rect', { x: a.x, y: a.y, width: 5 * S, height: g.bridge.length * BRIDGE, fill: '#c9b28a',
      stroke: '#6d5533', 'stroke-width': 2, rx: 6, id: 'bridge', 'pointer-events': 'none' }, svg);
    sel('text', { x: a.x + 2.5 * S, y: a.y + g.bridge.length * BRIDGE / 2 + 5, 'text-anchor': 'middle',
      class: 'bridge-label', text: 'bridge (the Pagan crosses; nothing stops here)' }, svg);
  }
  // Coordinates.
  for (let f = 0; f < g.files; f++) {
    const { x } = xy(f, 1);
    sel('text', { x: x + S / 2, y: boardBottom + 16, 'text-anchor': 'middle', class: 'sq-label',
      'font-size': 12, text: String.fromCharCode(97 + f) }, svg);
  }
  for (let r = 1; r <= g.ranks; r++) {
    if (g.bridge.includes(r)) continue;
    const { y } = xy(0, r);
    sel('text', { x: 12, y: y + S / 2 + 4, 'text-anchor': 'middle', class: 'sq-label',
      'font-size': 12, text: String(r) }, svg);
  }
  // The last move, or the revealed pair.
  const marks = new Set(entry.legs.length ? [] : state.last);
  for (const sq of marks) {
    const s = parseSq(sq);
    const { x, y } = xy(s.file, s.rank);
    sel('rect', { x, y, width: S, height: S, fill: 'rgba(255, 214, 0, .55)', class: 'last', 'data-sq': sq,
      'pointer-events': 'none' }, svg);
  }
  const side = mySide();
  const pieces = shownPieces();
  const movable = new Set(entry.next.map(parseLeg).filter(Boolean).map((l) => l.from));
  if (side && entry.lifted) {
    const s = parseSq(entry.lifted);
    const { x, y } = xy(s.file, s.rank);
    sel('rect', { x: x + 2, y: y + 2, width: S - 4, height: S - 4, fill: 'none', stroke: '#0d47a1',
      'stroke-width': 4, class: 'lifted', 'pointer-events': 'none' }, svg);
  }
  for (const [sq, letter] of Object.entries(pieces)) {
    const s = parseSq(sq);
    const { x, y } = xy(s.file, s.rank);
    const pg = pieceGroup(letter, svg, x + 4, y + 4, S - 8);
    pg.dataset.sq = sq;
    if (side && movable.has(sq)) pg.classList.add('movable');
  }
  if (side) {
    for (const sq of movable) {
      if (pieces[sq]) continue;
      // A leg from an empty square (a redeploy, a relocation): mark where it starts.
      const s = parseSq(sq);
      const { x, y } = xy(s.file, s.rank);
      sel('circle', { cx: x + S / 2, cy: y + S / 2, r: 8, fill: '#0d47a1', class: 'from-dot',
        'pointer-events': 'none' }, svg);
    }
    if (entry.lifted) {
      for (const t of targetsOf(entry.lifted)) {
        const s = parseSq(t);
        const { x, y } = xy(s.file, s.rank);
        sel('circle', { cx: x + S / 2, cy: y + S / 2, r: pieces[t] ? S / 2 - 3 : 10,
          fill: pieces[t] ? 'none' : 'rgba(20, 110, 40, .7)', stroke: 'rgba(20, 110, 40, .7)', 'stroke-width': 4,
          class: 'target', 'data-sq': t, 'pointer-events': 'none' }, svg);
      }
    }
  }
  // Arrows of the revealed pair while it is being revealed.
  if (state.reveal && state.reveal.moves && state.reveal.moves[0] && revealStage.showBefore) {
    state.reveal.moves.forEach((m, i) => {
      for (const l of m.split(',')) {
        const leg = parseLeg(l.replace(/[a-z]$/, (c) => (/\d$/.test(l) ? c : '')));
        if (!leg) continue;
        const a = parseSq(leg.from); const b = parseSq(leg.to);
        const p = xy(a.file, a.rank); const q = xy(b.file, b.rank);
        sel('line', { x1: p.x + S / 2, y1: p.y + S / 2, x2: q.x + S / 2, y2: q.y + S / 2,
          stroke: i === 0 ? '#1565c0' : '#c62828', 'stroke-width': 6, 'stroke-linecap': 'round',
          opacity: 0.8, class: 'reveal-arrow', 'pointer-events': 'none' }, svg);
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Entering a move, one leg at a time.

function resetEntry() {
  entry = { legs: [], next: [], complete: false, promotions: [], lifted: null, version: state ? state.version : -1 };
  if (mySide()) send({ t: 'legs', legs: [] });
}

function onLegs(m) {
  if (JSON.stringify(m.legs) !== JSON.stringify(entry.legs)) return; // an old answer
  // An answer about an earlier position (asked just before a new state came) is dropped.
  if (!state || m.fen !== state.fen || m.side !== state.entering) return;
  if (entry.legs.length && !m.next.length && !m.complete && !m.promotions.length) {
    // The legs lead nowhere (the position changed under them): start the turn again.
    notice(`${entry.legs.join(',')} is not a move here: start the turn again`);
    resetEntry();
    render();
    return;
  }
  entry.next = m.next;
  entry.complete = m.complete;
  entry.promotions = m.promotions;
  if (entry.legs.length && !entry.next.length && entry.complete && !entry.promotions.length) {
    submit(entry.legs.join(','));
    return;
  }
  // A next leg with only one possible start is lifted for the person.
  const froms = [...new Set(entry.next.map(parseLeg).filter(Boolean).map((l) => l.from))];
  entry.lifted = entry.legs.length && froms.length === 1 ? froms[0] : null;
  render();
}

function submit(text) {
  send({ t: 'move', move: text });
  entry = { legs: [], next: [], complete: false, promotions: [], lifted: null, version: state.version };
  $('choices').replaceChildren();
  render();
}

function chooseLeg(leg) {
  entry.legs.push(leg);
  entry.lifted = null;
  entry.next = [];
  entry.complete = false; // until the server answers for the new legs
  entry.promotions = [];
  send({ t: 'legs', legs: entry.legs });
  render();
}

function clickSquare(sq) {
  const side = mySide();
  if (!side) {
    if (state && !state.result) notice(state.entering && controller !== me
      ? 'this game is being played in another tab'
      : 'it is not your turn');
    return;
  }
  if (entry.lifted && targetsOf(entry.lifted).includes(sq)) {
    chooseLeg(entry.lifted + sq);
    return;
  }
  const froms = new Set(entry.next.map(parseLeg).filter(Boolean).map((l) => l.from));
  if (froms.has(sq)) {
    entry.lifted = entry.lifted === sq && entry.legs.length === 0 ? null : sq;
    render();
    return;
  }
  if (entry.lifted) {
    notice(`not a legal move: ${entry.lifted}-${sq}`);
    if (!entry.legs.length) entry.lifted = null;
    render();
  } else {
    notice(entry.legs.length ? `${sq}: choose one of the marked squares` : `${sq}: no move of yours starts here`);
  }
}

// The choices of the turn being entered. Built aside and put in place only when they
// differ from what is shown: a state message re-renders the page, and a button replaced
// between a person's press and release would lose the click.
function describeNext() {
  const shown = $('choices');
  const box = document.createElement('div');
  fillChoices(box);
  if (box.innerHTML !== shown.innerHTML) shown.replaceChildren(...box.childNodes);
}

function fillChoices(box) {
  if (!mySide()) return;
  const part = entry.legs.length + 1;
  if (entry.legs.length) {
    el('span', { text: `Part ${part} of the turn ${entry.legs.join(',')}: ` }, box);
  }
  if (entry.next.length && entry.legs.length) {
    el('span', { text: `${nextPartText()}. ` }, box);
    if (shownAside()) {
      // The piece being placed is off the board until it lands: show it here.
      const last = parseLeg(entry.legs[entry.legs.length - 1]);
      const icon = sel('svg', { viewBox: '0 0 100 100', class: 'aside-piece' }, box);
      pieceGroup(state.pieces[last.to], icon, 0, 0, 100);
    }
  }
  if (entry.promotions.length) {
    el('span', { text: entry.complete ? 'the pawn may promote: ' : 'the pawn must promote: choose the piece ' }, box);
  }
  if (entry.legs.length && entry.next.length && entry.next.length <= 12) {
    for (const l of entry.next) {
      el('button', { type: 'button', class: 'leg-choice', 'data-leg': l, text: l }, box)
        .addEventListener('click', () => chooseLeg(l));
    }
  }
  if (!entry.legs.length && entry.next.includes('0000')) {
    // A forced pass (Apocalypse): the rules list it as the one move.
    el('button', { type: 'button', id: 'pass', text: 'Pass (0000): you have no legal move' }, box)
      .addEventListener('click', () => submit('0000'));
  }
  if (entry.complete && entry.legs.length && entry.next.length) {
    el('button', { type: 'button', id: 'finish', text: `End the turn: ${entry.legs.join(',')}` }, box)
      .addEventListener('click', () => submit(entry.legs.join(',')));
  }
  for (const p of entry.promotions) {
    const names = Object.fromEntries(state.legend.map(([c, n]) => [c.toLowerCase(), n]));
    el('button', { type: 'button', class: 'promotion', 'data-piece': p,
      text: `promote to ${names[p] || p}` }, box)
      .addEventListener('click', () => submit(entry.legs.join(',') + p));
  }
  if (entry.legs.length) {
    el('button', { type: 'button', id: 'cancel', text: 'Start the turn again' }, box)
      .addEventListener('click', () => { resetEntry(); render(); });
  }
}

// The part of the turn the marked squares are for.
function nextPartText() {
  if (shownAside()) {
    const last = parseLeg(entry.legs[entry.legs.length - 1]);
    return `place the captured ${pieceName(state.pieces[last.to])} on any marked square`;
  }
  if (state.variant === 'apocalypse-classic' && !entry.complete) {
    return 'redeploy the footman: you have two horsemen, so it goes back to a marked square'
      + ' (any vacant square off the far rank)';
  }
  if (entry.complete) {
    return state.variant === 'gladiator'
      ? 'optionally jump a supporter to a marked border square'
      : 'optionally move a supporter (the marked squares)';
  }
  return 'choose the next leg';
}

function pieceName(letter) {
  const names = Object.fromEntries(state.legend.map(([c, n]) => [c, n]));
  return (letter && names[letter.toUpperCase()]) || 'piece';
}

function shownAside() {
  // Whether the last leg entered landed on a piece that a next leg moves from that square.
  if (!entry.legs.length) return false;
  const last = parseLeg(entry.legs[entry.legs.length - 1]);
  if (!last || !state.pieces[last.to]) return false;
  return entry.next.some((l) => { const p = parseLeg(l); return p && p.from === last.to; })
    && state.variant === 'brawl';
}

// Click and drag.
function setupPointer() {
  const svg = $('board');
  svg.addEventListener('pointerdown', (ev) => {
    if (!state) return;
    const sq = squareAt(ev.clientX, ev.clientY);
    if (!sq) return;
    const side = mySide();
    if (side && revealStage.showBefore) {
      // The board still shows the revealed pair before it resolved, but a move is entered on
      // the position after it: from the first touch on, that is the board drawn.
      revealStage.showBefore = false;
      render();
    }
    const froms = new Set(entry.next.map(parseLeg).filter(Boolean).map((l) => l.from));
    if (side && froms.has(sq) && !(entry.lifted && targetsOf(entry.lifted).includes(sq))) {
      entry.lifted = sq;
      render();
      const piece = svg.querySelector(`g.piece[data-sq="${sq}"]`);
      drag = { from: sq, x: ev.clientX, y: ev.clientY, moved: false, piece };
      svg.setPointerCapture(ev.pointerId);
      return;
    }
    clickSquare(sq);
  });
  svg.addEventListener('pointermove', (ev) => {
    if (!drag || !drag.piece) return;
    const dx = ev.clientX - drag.x; const dy = ev.clientY - drag.y;
    if (Math.abs(dx) + Math.abs(dy) > 6) drag.moved = true;
    if (drag.moved) {
      const ctm = svg.getScreenCTM();
      const sx = dx / ctm.a; const sy = dy / ctm.d;
      const s = parseSq(drag.from); const { x, y } = xy(s.file, s.rank);
      drag.piece.classList.add('dragging');
      drag.piece.setAttribute('transform', `translate(${x + 4 + sx},${y + 4 + sy}) scale(${(S - 8) / 100})`);
    }
  });
  svg.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    const d = drag; drag = null;
    if (!d.moved) return; // a click: the piece stays lifted
    const sq = squareAt(ev.clientX, ev.clientY);
    if (sq && sq !== d.from && targetsOf(d.from).includes(sq)) {
      chooseLeg(d.from + sq);
    } else {
      if (sq !== d.from) notice(`not a legal move: ${d.from}-${sq || 'off the board'}`);
      render();
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Commit–reveal, checked here.

// A verdict belongs to one opening: a later game's turn with the same number is checked anew.
function verdictKey(turn, seat, opening) {
  return `${turn}:${seat}:${opening.digest}:${opening.nonce}`;
}

function hex(buf) {
  return [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

async function verifyOpening(turn, seat, opening, revealed) {
  const key = verdictKey(turn, seat, opening);
  if (verdicts[key]) return;
  verdicts[key] = { ok: null, text: 'checking…' };
  if (!(window.crypto && crypto.subtle)) {
    verdicts[key] = { ok: false, text: 'cannot check: this page has no WebCrypto (not a secure context)' };
    render();
    return;
  }
  const message = `quill-sealed-v1:${opening.move}:${opening.nonce}`;
  const digest = hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(message)));
  const name = state.seats[seat].name;
  const sameMove = revealed == null || revealed === opening.move;
  const ok = digest === String(opening.digest).toLowerCase() && sameMove
    && /^[0-9a-f]{64}$/.test(opening.nonce);
  verdicts[key] = ok
    ? { ok, text: `${name}'s commitment is verified in this browser: SHA-256("${message}") = ${digest}` }
    : { ok, text: `TAMPERED: ${name}'s opening does not match its commitment ${opening.digest}`
        + ` (SHA-256("${message}") = ${digest}${sameMove ? '' : `; it played ${revealed}`})` };
  render();
}

// A score as the server sends it: `{cp: N}` (centipawns) or `{mate: N}` (N > 0: the engine
// mates in N; N < 0: it is mated in -N).
function scoreText(score) {
  if (score == null) return '';
  if (score.mate != null) {
    const n = Math.abs(score.mate);
    return score.mate > 0 ? `mate in ${n}` : `mated in ${n}`;
  }
  return `${score.cp >= 0 ? '+' : ''}${(score.cp / 100).toFixed(2)}`;
}

function thinkingText(t) {
  return [t.depth != null ? `depth ${t.depth}` : '', t.score != null ? `score ${scoreText(t.score)}` : '',
    t.pv ? `line ${t.pv}` : ''].filter(Boolean).join(', ');
}

function drawSealed() {
  const panel = $('sealed-panel');
  panel.hidden = !state.sealed;
  if (!state.sealed) return;
  const c = $('commitments');
  c.replaceChildren();
  state.seats.forEach((s, i) => {
    const side = i === 0 ? 'White' : 'Black';
    const row = el('div', { class: 'half', id: `half-${i}`, 'data-state': s.half ? s.half.state : '' }, c);
    if (!s.half) return;
    const you = s.name === 'You';
    if (s.half.state === 'committed') {
      row.textContent = `${s.name} (${side}) has sealed its move: `;
      el('span', { class: 'digest', 'data-digest': s.half.digest, text: s.half.digest }, row);
    } else if (s.half.state === 'sealed') {
      row.textContent = you ? `You (${side}) have sealed your move.`
        : `${s.name} (${side}) has sealed ${s.kind === 'person' ? 'a' : 'its'} move.`;
    } else if (state.result) {
      row.textContent = `${s.name} (${side}): the game is over.`;
    } else {
      row.textContent = `${s.name} (${side}) ${you ? 'are' : 'is'} choosing…`;
    }
  });
  const r = $('reveal');
  r.replaceChildren();
  const rv = state.reveal;
  if (!rv) return;
  el('h2', { text: `WireTurn ${rv.turn} revealed` }, r);
  if (rv.moves && rv.moves[0]) {
    el('div', { id: 'revealed-moves', text: `White ${rv.moves[0]} · Black ${rv.moves[1]}` }, r);
  }
  (rv.openings || []).forEach((o, i) => {
    if (!o) return;
    verifyOpening(rv.turn, i, o, rv.moves ? rv.moves[i] : null);
    const v = verdicts[verdictKey(rv.turn, i, o)];
    const d = el('div', { id: `verify-${i}`, 'data-turn': rv.turn,
      'data-verified': v && v.ok !== null ? String(v.ok) : 'pending',
      class: v && v.ok === false ? 'tampered' : 'verified' }, r);
    d.textContent = v ? v.text : 'checking…';
  });
  const ul = el('ul', { id: 'resolution' }, r);
  for (const w of rv.words || []) el('li', { text: w }, ul);
  if (rv.thinking) {
    rv.thinking.forEach((lines, i) => {
      if (!lines.length) return;
      const t = lines[lines.length - 1];
      el('div', { class: 'revealed-thinking', text: `${state.seats[i].name} thought: ${thinkingText(t)}` }, r);
    });
  }
}

// ---------------------------------------------------------------------------------------------
// The rest of the page.

function clockText(ms) {
  if (ms == null) return '';
  const s = Math.max(0, ms) / 1000;
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, '0')}`;
}

function drawSeat(box, i) {
  const s = state.seats[i];
  box.replaceChildren();
  box.classList.toggle('running', !!s.running);
  box.dataset.seat = i;
  const side = i === 0 ? 'White' : 'Black';
  const tc = s.kind === 'engine' || s.clock_ms != null ? ` (${s.time_control})` : '';
  el('span', { class: 'name', text: `${side}: ${s.name}${tc}` }, box);
  if (state.sealed) el('span', { class: 'pen', text: `penalties ${state.penalties[i]}` }, box);
  const c = el('span', { class: 'clock', 'data-ms': s.clock_ms ?? '' }, box);
  c.textContent = clockText(s.clock_ms);
}

function tickClocks() {
  if (!state || state.result || state.paused) return;
  state.seats.forEach((s, i) => {
    if (!s.running || s.clock_ms == null) return;
    const box = document.querySelector(`.seat[data-seat="${i}"] .clock`);
    if (box) box.textContent = clockText(s.clock_ms - (performance.now() - receivedAt));
  });
}

// Who won, in words ("You win", "quill (Black) wins", "Draw").
function winnerText() {
  const i = { '1-0': 0, '0-1': 1 }[state.result.result];
  if (i === undefined) return state.result.result === '1/2-1/2' ? 'draw' : 'unfinished';
  const s = state.seats[i];
  return s.name === 'You' ? 'you win' : `${s.name} (${i === 0 ? 'White' : 'Black'}) wins`;
}

function drawStatus() {
  const st = $('status');
  if (state.result) {
    st.textContent = `${state.result.result} — ${winnerText()}: ${state.result.reason}`;
  } else if (state.suspended) {
    st.textContent = 'No page was open for a while: the engines were stopped. They restart now.';
  } else if (state.paused) {
    st.textContent = 'Paused.';
  } else if (mySide()) {
    const s = state.seats[state.entering === 'white' ? 0 : 1];
    st.textContent = state.sealed
      ? `${state.entering === 'white' ? 'White' : 'Black'} (${s.name}): choose your sealed move`
      : `${state.entering === 'white' ? 'White' : 'Black'} (${s.name}) to move`;
  } else if (state.entering && controller !== me) {
    st.textContent = 'Played in another tab.';
  } else {
    const thinking = state.seats.filter((s) => s.running).map((s) => s.name);
    st.textContent = thinking.length ? `${thinking.join(' and ')} thinking…` : '…';
  }
  st.dataset.entering = mySide() || '';
  const res = $('result');
  res.hidden = !state.result;
  if (state.result) {
    res.textContent = `Result ${state.result.result}, ${winnerText()}: ${state.result.reason}`;
    res.dataset.result = state.result.result;
  }
}

function drawMoves() {
  const ol = $('moves');
  ol.replaceChildren();
  state.moves.forEach((m, k) => {
    const li = el('li', { 'data-turn': m.turn }, ol);
    el('span', { class: 'turn', text: m.turn }, li);
    el('div', { class: 'words', text: m.words.join('; ') }, li);
    if (k === state.moves.length - 1) li.classList.add('last');
  });
  ol.scrollTop = ol.scrollHeight;
}

function drawThinking() {
  const t = $('thinking');
  t.replaceChildren();
  state.seats.forEach((s) => {
    if (s.kind !== 'engine') return;
    const lines = s.thinking.map(thinkingText);
    const hidden = state.sealed && !state.reveal;
    el('div', { class: 'engine-thinking', text: `${s.name}:\n` + (lines.length ? lines.slice(-4).join('\n')
      : (state.sealed ? '(hidden until the reveal)' : (hidden ? '' : '—'))) }, t);
  });
}

function drawLegend() {
  const box = $('legend');
  box.replaceChildren();
  for (const [c, name] of state.legend) {
    const item = el('span', { class: 'item' }, box);
    const svg = sel('svg', { viewBox: '0 0 200 100' }, item);
    svg.style.width = '52px';
    pieceGroup(c, svg, 0, 0, 100);
    pieceGroup(c.toLowerCase(), svg, 100, 0, 100);
    el('span', { text: `${c} / ${c.toLowerCase()} ${name}` }, item);
  }
  const note = {
    gladiator: 'Pawns stay in the arena (dashed), supporters on the border.',
    brawl: 'No arena: every piece may use all 64 squares.',
    pagan: flipped ? 'Bottom: the game board; top: the dead board; between them the bridge.'
      : 'Top: the game board; bottom: the dead board; between them the bridge.',
    apocalypse: 'Both players move at once; a void move costs a penalty point.',
    'apocalypse-classic': 'Both move at once; Elliott\'s rules (redeploy on the far rank).',
  }[state.variant];
  if (note) el('div', { class: 'note', text: note }, box);
}

function drawHandover() {
  // Two people at one screen in a sealed game: a hand-over screen between the sealings.
  const ov = $('handover');
  const people = state.seats.every((s) => s.kind === 'person');
  const sealing = state.sealed && people && !state.result ? (state.entering || '') : '';
  if (sealing !== lastSealing) { handedOver = ''; lastSealing = sealing; }
  const show = sealing && handedOver !== sealing && controller === me;
  ov.hidden = !show;
  if (show) {
    const who = sealing === 'white' ? 'White' : 'Black';
    $('handover-title').textContent = `Hand over to ${who}`;
    $('handover-text').textContent = `${who}: make sure the other player is not looking, then seal your move.`
      + (sealing === 'black' ? ' White has sealed a move; it stays hidden until both are in.' : '');
    ov.dataset.side = sealing;
  }
}

function render() {
  if (!state || !state.geometry) return;
  if (!flipChosen) {
    const people = state.seats.map((s) => s.kind === 'person');
    flipped = people[1] && !people[0];
  }
  $('title').textContent = `${state.variant} · ${state.seats[0].name} vs ${state.seats[1].name}`;
  drawBoard();
  drawSeat($(flipped ? 'seat-bottom' : 'seat-top'), 1);
  drawSeat($(flipped ? 'seat-top' : 'seat-bottom'), 0);
  drawStatus();
  drawSealed();
  drawMoves();
  drawThinking();
  drawLegend();
  describeNext();
  drawHandover();
  $('takeover').hidden = controller === me;
  $('undo').disabled = !state.can_undo;
  const watching = state.seats.every((s) => s.kind === 'engine');
  $('pause').hidden = !watching;
  $('pause').textContent = state.paused ? 'Resume' : 'Pause';
  $('resign').disabled = !mySide();
  document.body.dataset.version = state.version;
  document.body.dataset.variant = state.variant;
  const form = $('new-variant');
  if (document.activeElement !== form && form.dataset.shown !== state.variant) {
    form.value = state.variant;
    form.dataset.shown = state.variant;
  }
}

// What a move being entered belongs to: the game, the position, the side entering and whether
// this page enters it. A state that changes none of these (an engine's thinking, a clock, a
// seat's status) keeps the legs entered and the piece lifted, so a person's click is not lost
// to a state that arrives just then.
function turnKey() {
  return state ? JSON.stringify([state.game, state.fen, state.entering, mySide()]) : null;
}

function onState(s) {
  const prevKey = turnKey();
  const prevTurn = state && state.reveal ? state.reveal.turn : 0;
  // A new game: the last game's notice goes at once.
  if (state && s.game !== state.game) clearNotice();
  state = s;
  receivedAt = performance.now();
  if (s.reveal && s.reveal.turn !== prevTurn && s.reveal.before && s.reveal.moves[0]) {
    // Show the pair on the board before it is resolved, then the result.
    revealStage = { turn: s.reveal.turn, showBefore: true };
    setTimeout(() => { if (revealStage.turn === s.reveal.turn) { revealStage.showBefore = false; render(); } }, 1500);
  }
  if (s.notice) notice(s.notice);
  if (turnKey() !== prevKey) {
    entry = { legs: [], next: [], complete: false, promotions: [], lifted: null, version: s.version };
    if (mySide()) send({ t: 'legs', legs: [] });
  } else {
    entry.version = s.version;
  }
  scheduleRender();
}

// States can come faster than the page draws (two fast engines): only the latest is drawn,
// once a frame, so the page never falls behind the game.
let renderPending = false;
function scheduleRender() {
  if (renderPending) return;
  renderPending = true;
  requestAnimationFrame(() => { renderPending = false; render(); });
}

function fillForm() {
  const v = $('new-variant');
  v.replaceChildren();
  for (const name of variants) el('option', { value: name, text: name }, v);
  for (const id of ['new-white', 'new-black']) {
    const s = $(id);
    s.replaceChildren();
    el('option', { value: 'person', text: 'a person' }, s);
    engines.forEach((e, i) => el('option', { value: `engine:${i}`, text: `${e.name} (${e.dialect}, ${e.limits})` }, s));
  }
  $('new-black').value = engines.length ? 'engine:0' : 'person';
}

function connect() {
  ws = new WebSocket(`ws://${location.host}/ws?token=${encodeURIComponent(token)}`);
  ws.addEventListener('open', () => { $('connection').textContent = 'connected'; $('connection').className = 'pill ok'; });
  ws.addEventListener('close', () => {
    $('connection').textContent = 'disconnected';
    $('connection').className = 'pill bad';
    setTimeout(connect, 1500);
  });
  ws.addEventListener('message', (ev) => {
    let m;
    try { m = JSON.parse(ev.data); } catch { return; }
    if (m.t === 'hello') { me = m.client; engines = m.engines; variants = m.variants; fillForm(); }
    else if (m.t === 'state') onState(m);
    else if (m.t === 'legs') onLegs(m);
    else if (m.t === 'control') {
      const was = controller; controller = m.client;
      if (was !== controller && controller === me && state && mySide()) resetEntry();
      render();
    } else if (m.t === 'error') { notice(m.text); if (state) { resetEntry(); render(); } }
  });
}

function init() {
  $('pgn').href = `/pgn?token=${encodeURIComponent(token)}`;
  $('flip').addEventListener('click', () => { flipped = !flipped; flipChosen = true; render(); });
  $('undo').addEventListener('click', () => send({ t: 'undo' }));
  $('pause').addEventListener('click', () => send({ t: 'pause', on: !state.paused }));
  $('resign').addEventListener('click', () => send({ t: 'resign' }));
  $('claim').addEventListener('click', () => send({ t: 'claim' }));
  $('handover-ready').addEventListener('click', () => { handedOver = lastSealing; render(); });
  $('new-game').addEventListener('submit', (ev) => {
    ev.preventDefault();
    flipChosen = false;
    verdicts = {};
    send({ t: 'new', variant: $('new-variant').value, fen: $('new-fen').value,
      white: $('new-white').value, black: $('new-black').value, cap: $('new-cap').value });
  });
  setupPointer();
  setInterval(tickClocks, 200);
  connect();
  // For the browser tests: raw messages, as a misbehaving page would send them.
  window.quillTest = { send, get state() { return state; }, get lastError() { return lastError; },
    get verdicts() { return verdicts; }, get me() { return me; }, get entry() { return entry; },
    get controller() { return controller; }, render, clearError() { lastError = ''; },
    get revealStage() { return revealStage; },
    // Draws the last reveal's "before" board again, as in the 1.5 s after it came.
    replayReveal() { revealStage = { turn: state.reveal.turn, showBefore: true }; render(); } };
}

init();
