#!/usr/bin/env python3
"""Independent reference implementation of Pagan Chess (Python 3.11, standard library only).

Written from protocol-docs/rules.md (a copy of the project's binding rules), section "3. Pagan Chess (`pagan`)" and the "Conventions for all
games" at its top (the original Pagan document where rules.md is silent),
without looking at the engine under test.  It is deliberately plain: the board is a dict
{square: piece letter} holding only occupied squares, a square is (file, rank) with file 0..6
(= a..g) and rank 1..11 (= the FRAME rank), and a move is legal exactly when its text is one of the
generated legal move tokens.

Frame (what every dialect sends on the wire), 7 files x 11 ranks:
    ranks 7..11  game board, files a..g      (seed x1 = frame x7 ... seed x5 = frame x11)
    ranks 5..6   the bridge: holes            (no piece may stop there)
    ranks 1..4   dead board, files b..f      (seed x-1 = frame x4 ... seed x-4 = frame x1)
                 files a and g of ranks 1..4 are holes

Command line:
  pagan_ref.py FEN|startpos [MOVE ...]   apply moves, print `Fen: <fen>` (and `Result: <r>` if over);
                                         a bad move prints `Error: <0-based index> <token>`, stops
  pagan_ref.py perft FEN|startpos DEPTH  `MOVE: n` per root move (sorted), `Nodes searched: N`
  pagan_ref.py legal FEN|startpos        sorted legal move tokens, then `Total: N`
  pagan_ref.py serve                     JSON lines (see serve())

Decisions that rules.md and the seed leave open are listed in RULINGS below (and in the report).
"""

import json
import sys

RULINGS = """
R1  A finished game (checkmate, stalemate or bare kings) has no legal moves: `legal` is empty,
    perft counts no children, and any further move is an Error.
R2  Legality is judged on the final position, i.e. after the mover has landed AND the victim has
    been reincarnated.  So a reincarnated victim may also BLOCK an attack on the mover's dead king
    (fill a Wazir's middle square or a Pagan's withdrawal square), not only create one.
R3  A Pagan next to the ENEMY king on the dead board may still make the move that withdraws from it;
    the king (royal there) is simply not captured.  This can only arise from a FEN in which the
    side not to move is in check (after legal play that king is never attacked on our turn).
    Likewise no piece may land on a king standing on the dead board.
R4  Whether a captured piece reincarnates depends on where the VICTIM stood: captured on the game
    board (frame ranks 7-11) -> dead board; captured on the dead board (ranks 1-4) -> out of the
    game, whoever (live or dead) captured it.
R5  "Attacked" for the dead king uses each enemy piece's capture pattern in the final position:
    K one step (dead king), W 1 or 2 orthogonal with an empty middle, A ferz or alfil leap, P the
    same file one rank up or down (either colour), Pagan: adjacent (bridge adjacency included, so
    a LIVE Pagan on frame rank 7 attacks a king on frame rank 4 across the bridge) with the square
    one step directly away existing (holes and off-frame do not) and empty.  Non-Pagan pieces never
    reach across the bridge, so only dead non-Pagans and any Pagan can attack.
R6  Pawn promotion squares (frame): White a8 a9 a10 a11 (seed a2-a5), Black g7 g8 g9 g10
    (seed g1-g4).  A White pawn on a7 / Black pawn on g11 is stuck but captures sideways.
R7  The halfmove field counts plies since the last capture (any capture: landing, withdrawal,
    on either board) or pawn move (dead pawns included); it never ends the game.
R8  FEN: exactly 11 rows of exactly 7 columns; `*` must stand on exactly the holes (a digit may
    not cover a hole); fields after the board may be omitted (defaults `w - - 0 1`); castling and
    en passant must be `-`.  Each side must have exactly one king and at most 9 pieces (kings can
    never leave the game and promotion never adds pieces, so the dead board can never overflow).
    A White pawn standing on a8-a11 / Black pawn on g7-g10 in a FEN is accepted and left as it
    is (it promotes only by arriving there).  A FEN where the side not to move is in check is
    accepted (see R3).
R9  Bare kings (nothing but the two kings anywhere) is tested before checkmate/stalemate.
R10 Move tokens are case-sensitive lower case (`g8f8`, promotion suffix `w`/`a`/`g`); a
    promotion move without a suffix, or a suffix on a non-promotion, is illegal.
R11 Kings never capture kings on either board (and, on the dead board, no king is capturable at
    all); a king on the game board may be captured by any enemy piece except the enemy king,
    including a dead Pagan withdrawing across the bridge, and it then reincarnates.
"""

FILES = "abcdefg"
WHITE, BLACK = "w", "b"
START_FEN = "kp4P/ap4W/gp3PG/w4PA/p4PK/*******/*******/*5*/*5*/*5*/*5* w - - 0 1"
N_FILES, N_RANKS = 7, 11

# --------------------------------------------------------------------------------------------
# Geometry
# --------------------------------------------------------------------------------------------


def is_game_square(f, r):
    """rules: frame ranks 7-11 are the game board, files a-g."""
    return 0 <= f <= 6 and 7 <= r <= 11


def is_dead_square(f, r):
    """rules: frame ranks 1-4 are the dead board on files b-f."""
    return 1 <= f <= 5 and 1 <= r <= 4


def exists(sq):
    f, r = sq
    return is_game_square(f, r) or is_dead_square(f, r)


def on_dead(sq):
    return sq[1] <= 4


ALL_SQUARES = [(f, r) for r in range(1, N_RANKS + 1) for f in range(N_FILES) if exists((f, r))]
assert len(ALL_SQUARES) == 35 + 20


def sq_name(sq):
    return FILES[sq[0]] + str(sq[1])


def parse_sq(text):
    if len(text) < 2 or text[0] not in FILES or not text[1:].isdigit() or text[1] == "0":
        return None
    sq = (FILES.index(text[0]), int(text[1:]))
    return sq if exists(sq) else None


def seed_to_frame(name):
    """Seed square name (e.g. 'f-1', 'g3') -> frame square.  seed x1..x5 = frame x7..x11,
    seed x-1..x-4 = frame x4..x1."""
    f = FILES.index(name[0])
    n = int(name[1:])
    r = n + 6 if n > 0 else n + 5
    assert exists((f, r)), name
    return (f, r)


ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
ALL_DIRS = ORTH + DIAG


def plain_step(sq, d):
    """One step for every piece but the Pagan: no bridge; holes and off-frame squares fail."""
    t = (sq[0] + d[0], sq[1] + d[1])
    return t if exists(t) else None


def pagan_step(sq, d):
    """One step of a Pagan.  rules: 'for the Pagan [the bridge] has zero width: seed rank 1 and
    seed rank -1 count as adjacent on files b-f (straight or diagonal steps, both ends on files
    b-f), in both directions'.  Frame: rank 7 <-> rank 4."""
    f, r = sq
    df, dr = d
    nf = f + df
    if (r == 7 and dr == -1) or (r == 4 and dr == 1):
        if 1 <= f <= 5 and 1 <= nf <= 5:
            return (nf, 4 if r == 7 else 7)
        return None
    return plain_step(sq, d)


# rules (reincarnation order, seed names): White f-1, f-2, e-1, e-2, d-1, d-2, c-1, c-2, b-1, b-2,
# then f-3, f-4, e-3, ... b-4; Black b-1, b-2, c-1, c-2, ... f-2, then b-3, b-4, ... f-4.
WHITE_ORDER_SEED = ["f-1", "f-2", "e-1", "e-2", "d-1", "d-2", "c-1", "c-2", "b-1", "b-2",
                    "f-3", "f-4", "e-3", "e-4", "d-3", "d-4", "c-3", "c-4", "b-3", "b-4"]
BLACK_ORDER_SEED = ["b-1", "b-2", "c-1", "c-2", "d-1", "d-2", "e-1", "e-2", "f-1", "f-2",
                    "b-3", "b-4", "c-3", "c-4", "d-3", "d-4", "e-3", "e-4", "f-3", "f-4"]
REINCARNATION_ORDER = {
    WHITE: [seed_to_frame(n) for n in WHITE_ORDER_SEED],
    BLACK: [seed_to_frame(n) for n in BLACK_ORDER_SEED],
}
assert [sq_name(s) for s in REINCARNATION_ORDER[WHITE][:4]] == ["f4", "f3", "e4", "e3"]
assert [sq_name(s) for s in REINCARNATION_ORDER[BLACK][:4]] == ["b4", "b3", "c4", "c3"]
assert all(len(set(o)) == 20 for o in REINCARNATION_ORDER.values())

# rules: promotion on 'an enemy's original K/A/G/W square (White: seed a2-a5; Black: seed g1-g4)'
PROMOTION_SQUARES = {
    WHITE: {seed_to_frame(n) for n in ("a2", "a3", "a4", "a5")},   # a8 a9 a10 a11
    BLACK: {seed_to_frame(n) for n in ("g1", "g2", "g3", "g4")},   # g7 g8 g9 g10
}
PROMOTION_CHOICES = "wag"  # Wazir, Alchemist, Pagan

# rules: pawns step 'toward the enemy's home file (White toward file a, Black toward file g)'
PAWN_DIR = {WHITE: -1, BLACK: 1}


def colour(piece):
    return WHITE if piece.isupper() else BLACK


def other(side):
    return BLACK if side == WHITE else WHITE


def kind(piece):
    return piece.upper()


def with_colour(k, side):
    return k.upper() if side == WHITE else k.lower()


# --------------------------------------------------------------------------------------------
# Position and FEN
# --------------------------------------------------------------------------------------------


class Position:
    def __init__(self, board, side, halfmove=0, fullmove=1):
        self.board = board      # {(f, r): piece letter}, occupied squares only
        self.side = side
        self.halfmove = halfmove
        self.fullmove = fullmove


def parse_fen(text):
    """Parses `board [side - - halfmove fullmove]` or `startpos`; raises ValueError."""
    if text.strip() == "startpos":
        text = START_FEN
    fields = text.split()
    if not fields or len(fields) > 6:
        raise ValueError("bad FEN field count")
    fields = fields + START_FEN.split()[len(fields):]
    rows = fields[0].split("/")
    if len(rows) != N_RANKS:
        raise ValueError("FEN board needs 11 rows")
    board = {}
    for i, row in enumerate(rows):
        r = N_RANKS - i
        f = 0
        for ch in row:
            if ch in "1234567":
                for _ in range(int(ch)):
                    if f >= N_FILES or not exists((f, r)):
                        raise ValueError("FEN digit covers a hole or runs off row %d" % r)
                    f += 1
            elif ch == "*":
                if f >= N_FILES or exists((f, r)):
                    raise ValueError("FEN '*' on a real square in row %d" % r)
                f += 1
            elif ch in "KWAGPkwagp":
                if f >= N_FILES or not exists((f, r)):
                    raise ValueError("FEN piece on a hole in row %d" % r)
                board[(f, r)] = ch
                f += 1
            else:
                raise ValueError("bad FEN character %r" % ch)
        if f != N_FILES:
            raise ValueError("FEN row %d does not have 7 columns" % r)
    if fields[1] not in (WHITE, BLACK):
        raise ValueError("FEN side must be 'w' or 'b'")
    if fields[2] != "-" or fields[3] != "-":
        raise ValueError("FEN castling and en passant fields must be '-'")
    if not (fields[4].isdigit() and fields[5].isdigit()) or int(fields[5]) < 1:
        raise ValueError("bad FEN counters")
    for side in (WHITE, BLACK):
        pieces = [p for p in board.values() if colour(p) == side]
        if sum(1 for p in pieces if kind(p) == "K") != 1:
            raise ValueError("each side needs exactly one king")
        if len(pieces) > 9:
            raise ValueError("more than 9 pieces of one colour")
    return Position(board, fields[1], int(fields[4]), int(fields[5]))


def board_fen(board):
    rows = []
    for r in range(N_RANKS, 0, -1):
        row, empty = "", 0
        for f in range(N_FILES):
            sq = (f, r)
            if not exists(sq) or sq in board:
                if empty:
                    row += str(empty)
                    empty = 0
                row += board[sq] if sq in board else "*"
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def to_fen(pos):
    return "%s %s - - %d %d" % (board_fen(pos.board), pos.side, pos.halfmove, pos.fullmove)


# --------------------------------------------------------------------------------------------
# Move generation.  A pseudo move is (frm, to, promo, victim_square_or_None).
# --------------------------------------------------------------------------------------------


def can_take(board, mover_sq, victim_sq):
    """May the piece on mover_sq capture the piece on victim_sq?
    rules: enemy only; 'Kings never capture kings'; 'On the dead board a king is royal: it cannot
    be captured'."""
    mover, victim = board[mover_sq], board.get(victim_sq)
    if victim is None or colour(victim) == colour(mover):
        return False
    if kind(victim) == "K" and (kind(mover) == "K" or on_dead(victim_sq)):
        return False
    return True


def landing_targets(board, sq):
    """Destinations of a non-Pagan piece; each is (to, is_capture).  These pieces capture by
    landing and never leave their own board (they cannot cross the bridge)."""
    piece = board[sq]
    k = kind(piece)
    out = []

    def add(t):
        if t is None:
            return
        if t not in board:
            out.append((t, False))
        elif can_take(board, sq, t):
            out.append((t, True))

    if k == "K":            # one step any direction
        for d in ALL_DIRS:
            add(plain_step(sq, d))
    elif k == "W":          # 1 or 2 orthogonal, the middle square must be empty
        for d in ORTH:
            t1 = plain_step(sq, d)
            if t1 is None:
                continue
            add(t1)
            if t1 not in board:
                add(plain_step(t1, d))
    elif k == "A":          # ferz step, or alfil leap over anything
        for d in DIAG:
            add(plain_step(sq, d))
            add(plain_step(sq, (2 * d[0], 2 * d[1])))
    elif k == "P":          # step toward the enemy home file onto an EMPTY square
        t = plain_step(sq, (PAWN_DIR[colour(piece)], 0))
        if t is not None and t not in board:
            out.append((t, False))
        for dr in (1, -1):  # capture sideways: same file, one rank up or down
            t = plain_step(sq, (0, dr))
            if t is not None and can_take(board, sq, t):
                out.append((t, True))
    return out


def pseudo_moves(board, side):
    moves = []
    for sq in sorted(board):
        piece = board[sq]
        if colour(piece) != side:
            continue
        if kind(piece) == "G":
            # rules: 'slides 1 or 2 squares in any of 8 directions' (middle empty), lands only on
            # an empty square; withdraws: the enemy on the square one step in the opposite
            # direction is captured.  Bridge adjacency applies to both the move and the withdrawal.
            for d in ALL_DIRS:
                back = pagan_step(sq, (-d[0], -d[1]))
                victim = back if back is not None and can_take(board, sq, back) else None
                t1 = pagan_step(sq, d)
                if t1 is None or t1 in board:
                    continue
                moves.append((sq, t1, "", victim))
                t2 = pagan_step(t1, d)
                if t2 is not None and t2 not in board:
                    moves.append((sq, t2, "", victim))
        else:
            for to, is_cap in landing_targets(board, sq):
                victim = to if is_cap else None
                # rules: a pawn 'arriving (by either kind of move)' on a promotion square promotes
                if kind(piece) == "P" and to in PROMOTION_SQUARES[side]:
                    for p in PROMOTION_CHOICES:
                        moves.append((sq, to, p, victim))
                else:
                    moves.append((sq, to, "", victim))
    return moves


def apply_pseudo(pos, move):
    frm, to, promo, victim_sq = move
    board = dict(pos.board)
    piece = board.pop(frm)
    victim = board.pop(victim_sq) if victim_sq is not None else None
    board[to] = with_colour(promo, pos.side) if promo else piece
    if victim is not None and not on_dead(victim_sq):
        # rules: 'A piece captured on the game board goes to the dead board, on the first empty
        # square in its colour's order ... placed after the mover has landed'.  A piece captured
        # on the dead board simply leaves the game.
        for sq in REINCARNATION_ORDER[colour(victim)]:
            if sq not in board:
                board[sq] = victim          # a promoted piece reincarnates as that piece
                break
        else:  # cannot happen with <= 9 pieces a side (enforced by parse_fen)
            raise AssertionError("dead board overflow")
    halfmove = 0 if (victim is not None or kind(piece) == "P") else pos.halfmove + 1
    fullmove = pos.fullmove + (1 if pos.side == BLACK else 0)
    return Position(board, other(pos.side), halfmove, fullmove)


def move_token(move):
    frm, to, promo, _ = move
    return sq_name(frm) + sq_name(to) + promo


# --------------------------------------------------------------------------------------------
# Attacks, check, legality
# --------------------------------------------------------------------------------------------


def attacks(board, sq, target):
    """Does the piece on sq attack square `target` (pseudo-legally, ignoring royalty)?"""
    piece = board[sq]
    k = kind(piece)
    if k == "G":
        for d in ALL_DIRS:
            if pagan_step(sq, d) == target:
                away = pagan_step(sq, (-d[0], -d[1]))
                if away is not None and away not in board:
                    return True
        return False
    if k == "K":
        return any(plain_step(sq, d) == target for d in ALL_DIRS)
    if k == "W":
        for d in ORTH:
            t1 = plain_step(sq, d)
            if t1 is None:
                continue
            if t1 == target:
                return True
            if t1 not in board and plain_step(t1, d) == target:
                return True
        return False
    if k == "A":
        return any(plain_step(sq, d) == target or plain_step(sq, (2 * d[0], 2 * d[1])) == target
                   for d in DIAG)
    if k == "P":
        return target in (plain_step(sq, (0, 1)), plain_step(sq, (0, -1)))
    raise AssertionError(piece)


def king_square(board, side):
    for sq, p in board.items():
        if p == with_colour("K", side):
            return sq
    return None


def in_check(board, side):
    """rules: 'Only a king on the dead board can be in check.'"""
    ksq = king_square(board, side)
    if ksq is None or not on_dead(ksq):
        return False
    return any(colour(p) != side and attacks(board, sq, ksq) for sq, p in board.items())


def bare_kings(board):
    """rules: 'Both players reduced to a bare king (no other piece anywhere, dead board
    included): draw.'"""
    return all(kind(p) == "K" for p in board.values())


def legal_children(pos):
    """[(token, child)] for every legal move; none once the game is over (bare kings; mate and
    stalemate have none anyway)."""
    if bare_kings(pos.board):
        return []
    out = []
    for m in pseudo_moves(pos.board, pos.side):
        child = apply_pseudo(pos, m)
        # rules: 'no move may leave one's own dead-board king attacked ... including a capture
        # whose victim reincarnates next to it' -> judged on the final position.
        if not in_check(child.board, pos.side):
            out.append((move_token(m), child))
    return out


def legal_tokens(pos):
    return sorted(tok for tok, _ in legal_children(pos))


def result(pos):
    if bare_kings(pos.board):
        return "1/2-1/2"
    if legal_children(pos):
        return None
    if in_check(pos.board, pos.side):     # checkmate on the dead board
        return "0-1" if pos.side == WHITE else "1-0"
    return "1/2-1/2"                      # stalemate [ruling in rules.md]


# --------------------------------------------------------------------------------------------
# perft, move application, CLI, server
# --------------------------------------------------------------------------------------------


def perft(pos, depth):
    if depth == 0:
        return 1
    children = legal_children(pos)
    if depth == 1:
        return len(children)
    return sum(perft(c, depth - 1) for _, c in children)


def perft_divide(pos, depth):
    """({token: count}, total); depth 0 is the position itself: ({}, 1)."""
    if depth == 0:
        return {}, 1
    divide = {tok: perft(c, depth - 1) for tok, c in legal_children(pos)}
    return divide, sum(divide.values())


def apply_moves(pos, moves):
    """(position, error); error is '<0-based index> <token>' or None."""
    for i, tok in enumerate(moves):
        children = dict(legal_children(pos))
        if not isinstance(tok, str) or tok not in children:
            return pos, "%d %s" % (i, tok)
        pos = children[tok]
    return pos, None


def serve(inp, out):
    """JSON lines: {"fen", "moves": [...], "perft": N?, "legal": bool?} ->
    {"fen", "result", "error", "perft": {"divide", "nodes"} | null, "legal": [...] | null}.
    On a move error `fen` and `result` describe the position reached before the bad move."""
    for line in inp:
        line = line.strip()
        if not line:
            continue
        reply = {"fen": None, "result": None, "error": None, "perft": None, "legal": None}
        try:
            req = json.loads(line)
            pos = parse_fen(req.get("fen") or "startpos")
            pos, err = apply_moves(pos, req.get("moves") or [])
            reply["fen"] = to_fen(pos)
            reply["result"] = result(pos)
            reply["error"] = err
            if err is None and req.get("perft") is not None:
                divide, nodes = perft_divide(pos, int(req["perft"]))
                reply["perft"] = {"divide": divide, "nodes": nodes}
            if err is None and req.get("legal"):
                reply["legal"] = legal_tokens(pos)
        except Exception as exc:  # report, never die
            reply["error"] = "request: %s" % exc
        out.write(json.dumps(reply, sort_keys=True) + "\n")
        out.flush()


USAGE = ("usage: pagan_ref.py FEN|startpos [MOVE ...]\n"
         "       pagan_ref.py perft FEN|startpos DEPTH\n"
         "       pagan_ref.py legal FEN|startpos\n"
         "       pagan_ref.py serve")


def main(argv):
    if argv and argv[0] == "serve":
        serve(sys.stdin, sys.stdout)
        return 0
    try:
        if argv and argv[0] == "perft":
            if len(argv) != 3:
                raise ValueError("perft takes FEN DEPTH")
            depth = int(argv[2])
            if depth < 0:
                raise ValueError("negative depth")
            divide, nodes = perft_divide(parse_fen(argv[1]), depth)
            for tok in sorted(divide):
                print("%s: %d" % (tok, divide[tok]))
            print("Nodes searched: %d" % nodes)
            return 0
        if argv and argv[0] == "legal":
            if len(argv) != 2:
                raise ValueError("legal takes FEN")
            toks = legal_tokens(parse_fen(argv[1]))
            for tok in toks:
                print(tok)
            print("Total: %d" % len(toks))
            return 0
        if not argv:
            raise ValueError("missing FEN")
        pos = parse_fen(argv[0])
    except (IndexError, ValueError) as exc:
        print(USAGE + "\nError: %s" % exc, file=sys.stderr)
        return 2
    pos, err = apply_moves(pos, argv[1:])
    if err is not None:
        print("Error: " + err)
        return 0
    print("Fen: " + to_fen(pos))
    res = result(pos)
    if res is not None:
        print("Result: " + res)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
