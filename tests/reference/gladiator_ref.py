#!/usr/bin/env python3
"""Independent reference implementation of Gladiator Chess and Brawl Chess (Python 3.11, stdlib).

Written from protocol-docs/rules.md (a copy of the project's binding rules), section "2. Gladiator Chess (`gladiator`) and Brawl Chess
(`brawl`)" and the "Conventions for all games" at its top, without looking at the engine under
test.  It is deliberately plain: the board is an 8x8 list of lists of one-character strings, a turn
is legal exactly when its text is one of the generated legal turn tokens, and every rule is a small
function quoting the rules text ("rules: ...").

Variants:
  gladiator - pawns stay in the arena b2-g7, supporters on the border; the optional second part
              of a turn is a jump of one own supporter to any vacant border square.
  brawl     - no arena; a pawn may land on an enemy supporter, which the mover then places on a
              vacant square (extra leg `d4e5,e5h3`); the optional second part is an ordinary
              non-capturing FIDE move of one own supporter.

Command line:
  gladiator_ref.py VARIANT FEN|startpos [TURN ...]   apply turns, print `Fen:` (and `Result:`)
  gladiator_ref.py perft VARIANT FEN|startpos DEPTH  `TURN: n` per root turn, `Nodes searched: N`
  gladiator_ref.py legal VARIANT FEN|startpos        sorted legal turn tokens, then `Total: N`
  gladiator_ref.py serve                             JSON lines in, JSON lines out (see serve())

FEN: `<board> <w|b> - - <halfmove> <fullmove>`; the halfmove clock counts consecutive turns
without a pawn move (rules: "the FEN's halfmove-clock field counts the consecutive turns without a
pawn move"); the fullmove number grows after Black's turn, as in chess.

Decisions the rules text leaves open (kept visible here so a cross-check can find them):
  * FEN fields after the board may be omitted (defaults `w - - 0 1`); castling and en passant must
    be `-`.  Any arrangement of pieces is accepted (a Gladiator FEN with a pawn on the border or a
    supporter in the arena is not refused; the movement rules are applied as written: a pawn may
    never END on the border, a jump always goes TO a vacant border square).
  * "A player with no legal turn at all (possible only in Brawl) draws" is applied in both
    variants: in Gladiator it can arise only from a FEN (e.g. a side without supporters and without
    pawn moves, or no vacant border square).
  * If a FEN has no pawns of either colour the game is scored a draw (cannot arise in play).
"""

import json
import sys

# ------------------------------------------------------------------------------------------------
# Board geometry.  A square is (file, rank) with file 0..7 (= a..h) and rank 0..7 (= ranks 1..8).
# The board is board[rank][file]; '.' is an empty square, 'PNBRQK' White, 'pnbrqk' Black.
# rules: "Board 8x8. The arena is the inner 6x6 (b2-g7); the border is the other 28 squares."
# ------------------------------------------------------------------------------------------------
FILES = "abcdefgh"
SIZE = 8
EMPTY = "."
ALL_SQUARES = [(f, r) for r in range(SIZE) for f in range(SIZE)]

GLADIATOR, BRAWL = "gladiator", "brawl"
VARIANTS = (GLADIATOR, BRAWL)
WHITE, BLACK = "w", "b"

# rules: "Start ... `rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR` (8 pawns a side)."
START_FEN = "rnbqkbnr/1pppppp1/1p4p1/8/8/1P4P1/1PPPPPP1/RNBQKBNR w - - 0 1"

# Directions of the FIDE pieces.
ORTHOGONAL = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAGONAL = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_JUMPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
SLIDER_DIRECTIONS = {"B": DIAGONAL, "R": ORTHOGONAL, "Q": ORTHOGONAL + DIAGONAL}
SUPPORTER_KINDS = "NBRQK"  # rules: "here the non-pawns are supporters"


def on_board(f, r):
    return 0 <= f < SIZE and 0 <= r < SIZE


def is_border(f, r):
    """rules: the border is the 28 squares outside the arena b2-g7 (files a/h, ranks 1/8)."""
    return f == 0 or f == SIZE - 1 or r == 0 or r == SIZE - 1


def in_arena(f, r):
    return on_board(f, r) and not is_border(f, r)


BORDER_SQUARES = [sq for sq in ALL_SQUARES if is_border(*sq)]
assert len(BORDER_SQUARES) == 28


def sq_name(sq):
    return FILES[sq[0]] + str(sq[1] + 1)


def colour_of(piece):
    return WHITE if piece.isupper() else BLACK


def is_pawn(piece):
    return piece in ("P", "p")


def is_supporter(piece):
    return piece != EMPTY and piece.upper() in SUPPORTER_KINDS


def other(side):
    return BLACK if side == WHITE else WHITE


def copy_board(board):
    return [row[:] for row in board]


# ------------------------------------------------------------------------------------------------
# Positions and FEN.
# ------------------------------------------------------------------------------------------------
class Position:
    def __init__(self, board, side, halfmove, fullmove):
        self.board = board          # board[rank][file]
        self.side = side            # side to move, 'w' or 'b'
        self.halfmove = halfmove    # consecutive turns without a pawn move
        self.fullmove = fullmove    # grows after Black's turn

    def at(self, sq):
        return self.board[sq[1]][sq[0]]

    def pawn_count(self, side):
        want = "P" if side == WHITE else "p"
        return sum(row.count(want) for row in self.board)


def parse_fen(text):
    """Parses `board [side - - halfmove fullmove]` or `startpos`; raises ValueError."""
    if text.strip() == "startpos":
        text = START_FEN
    fields = text.split()
    if not fields or len(fields) > 6:
        raise ValueError("bad FEN field count")
    fields = fields + START_FEN.split()[len(fields):]
    rows = fields[0].split("/")
    if len(rows) != SIZE:
        raise ValueError("FEN board needs 8 rows")
    board = [[EMPTY] * SIZE for _ in range(SIZE)]
    for i, row in enumerate(rows):
        rank = SIZE - 1 - i  # rules: "FEN rows run from the highest rank down"
        f = 0
        for ch in row:
            if ch in "12345678":
                f += int(ch)
            elif ch in "PNBRQKpnbrqk":
                if f >= SIZE:
                    raise ValueError("FEN row too long")
                board[rank][f] = ch
                f += 1
            else:
                raise ValueError("bad FEN character " + repr(ch))
        if f != SIZE:
            raise ValueError("FEN row does not have 8 squares")
    if fields[1] not in (WHITE, BLACK):
        raise ValueError("FEN side must be 'w' or 'b'")
    # rules: "No game here has ... castling, en passant"
    if fields[2] != "-" or fields[3] != "-":
        raise ValueError("FEN castling and en passant fields must be '-'")
    if not (fields[4].isdigit() and fields[5].isdigit()) or int(fields[5]) < 1:
        raise ValueError("bad FEN counters")
    return Position(board, fields[1], int(fields[4]), int(fields[5]))


def to_fen(pos):
    rows = []
    for rank in range(SIZE - 1, -1, -1):
        row, empty = "", 0
        for f in range(SIZE):
            piece = pos.board[rank][f]
            if piece == EMPTY:
                empty += 1
            else:
                if empty:
                    row += str(empty)
                    empty = 0
                row += piece
        if empty:
            row += str(empty)
        rows.append(row)
    return "%s %s - - %d %d" % ("/".join(rows), pos.side, pos.halfmove, pos.fullmove)


# ------------------------------------------------------------------------------------------------
# FIDE movement geometry, shared by pawns (which borrow it) and by Brawl supporter moves.
# ------------------------------------------------------------------------------------------------
def fide_reach(board, sq, kind):
    """Squares a FIDE piece of `kind` on `sq` could move to, whatever stands on the destination.

    rules: "sliders are blocked by any piece": a slide stops at the first occupied square, which is
    included (the caller decides whether it may land there).  A knight leaps; a king steps once.
    """
    f, r = sq
    out = []
    if kind == "N":
        for df, dr in KNIGHT_JUMPS:
            if on_board(f + df, r + dr):
                out.append((f + df, r + dr))
    elif kind == "K":
        for df, dr in ORTHOGONAL + DIAGONAL:
            if on_board(f + df, r + dr):
                out.append((f + df, r + dr))
    else:
        for df, dr in SLIDER_DIRECTIONS[kind]:
            tf, tr = f + df, r + dr
            while on_board(tf, tr):
                out.append((tf, tr))
                if board[tr][tf] != EMPTY:
                    break  # blocked by any piece
                tf, tr = tf + df, tr + dr
    return out


# ------------------------------------------------------------------------------------------------
# Pawn power and pawn moves.
# ------------------------------------------------------------------------------------------------
def pawn_supporters(board, sq, side):
    """Kinds of the friendly supporters that empower the pawn on `sq`.

    rules: "A pawn may move only when a friendly supporter stands on one of its diagonals with every
    square between them empty": walk each diagonal to the first piece; it counts when it is a
    supporter of the pawn's own colour.
    """
    f, r = sq
    kinds = []
    for df, dr in DIAGONAL:
        tf, tr = f + df, r + dr
        while on_board(tf, tr):
            piece = board[tr][tf]
            if piece != EMPTY:
                if is_supporter(piece) and colour_of(piece) == side:
                    kinds.append(piece.upper())
                break
            tf, tr = tf + df, tr + dr
    return kinds


def pawn_may_land(board, dest, side, variant):
    """Whether a pawn of `side` may end its move on `dest`.

    rules (Gladiator 3): "It captures enemy pawns by landing on them ... It may never end on the
    border"; (Gladiator 1) "Supporters never capture and are never captured" - so no supporter may be
    landed on.  rules (Brawl 1, 3): "No arena"; "A pawn may land on an enemy supporter".  A pawn never
    lands on a friendly piece.
    """
    piece = board[dest[1]][dest[0]]
    if variant == GLADIATOR and not in_arena(*dest):
        return False
    if piece == EMPTY:
        return True
    if colour_of(piece) == side:
        return False
    if is_pawn(piece):
        return True
    return variant == BRAWL  # an enemy supporter


def pawn_moves(board, side, variant):
    """Sorted list of (from, to) pawn moves for `side`.

    rules: "Exactly as such a supporter moves in FIDE chess, in every direction that piece has ...
    With several supporters it may use any of their moves."  "A target a pawn can reach through
    several supporters is one turn, not several" - hence a set of destinations per pawn.
    """
    want = "P" if side == WHITE else "p"
    moves = []
    for sq in ALL_SQUARES:
        if board[sq[1]][sq[0]] != want:
            continue
        dests = set()
        for kind in pawn_supporters(board, sq, side):
            for dest in fide_reach(board, sq, kind):
                if pawn_may_land(board, dest, side, variant):
                    dests.add(dest)
        moves.extend((sq, dest) for dest in dests)
    return sorted(moves)


# ------------------------------------------------------------------------------------------------
# Supporter moves (the second part of a turn).
# ------------------------------------------------------------------------------------------------
def supporter_squares(board, side):
    return [sq for sq in ALL_SQUARES
            if is_supporter(board[sq[1]][sq[0]]) and colour_of(board[sq[1]][sq[0]]) == side]


def supporter_moves(board, side, variant):
    """List of (from, to) moves of the second part.

    Gladiator - rules: "one own supporter jumps to any vacant border square".
    Brawl - rules: "an ordinary FIDE move of one own supporter that captures nothing (sliders
    blocked, no castling)"; there is no check, so a king may step anywhere that is empty.
    """
    moves = []
    vacant_border = [t for t in BORDER_SQUARES if board[t[1]][t[0]] == EMPTY]
    for sq in supporter_squares(board, side):
        if variant == GLADIATOR:
            targets = vacant_border
        else:
            kind = board[sq[1]][sq[0]].upper()
            targets = [t for t in fide_reach(board, sq, kind) if board[t[1]][t[0]] == EMPTY]
        moves.extend((sq, t) for t in targets)
    return moves


def move_piece(board, frm, to):
    """Returns a new board with the piece on `frm` moved to `to` (whatever was there is replaced)."""
    b = copy_board(board)
    b[to[1]][to[0]] = b[frm[1]][frm[0]]
    b[frm[1]][frm[0]] = EMPTY
    return b


def leg(frm, to):
    return sq_name(frm) + sq_name(to)


# ------------------------------------------------------------------------------------------------
# Whole turns.
# ------------------------------------------------------------------------------------------------
def turn_groups(pos, variant):
    """The legal turns of `pos`, ignoring whether the game is already over.

    Returns (pawn_moved, groups); each group is (prefix_legs, board, seconds):
      * pawn_moved=True: prefix_legs is the pawn leg (plus the Brawl placement leg) and `board` the
        position after them; the turns of the group are the prefix alone (rules: the second part is
        "optionally") and the prefix followed by each move of `seconds`.
      * pawn_moved=False: one group with no prefix, the original board, and the allowed compulsory
        supporter moves; each is a one-leg turn (the empty turn is not a turn).
    """
    board, side = pos.board, pos.side
    pmoves = pawn_moves(board, side, variant)
    if pmoves:
        # rules: "A turn is a pawn move (compulsory whenever one exists), then optionally ..."
        groups = []
        for frm, to in pmoves:
            landed_on = board[to[1]][to[0]]
            after = move_piece(board, frm, to)
            if variant == BRAWL and is_supporter(landed_on):
                # rules (Brawl 3): "the supporter is not removed; the capturing player puts it on any
                # vacant square of the whole board (judged after the pawn has landed, so the square
                # the pawn left is allowed) ... the optional own supporter move comes after and sees
                # the placed piece."  Written `d4e5,e5h3`.
                for place in ALL_SQUARES:
                    if after[place[1]][place[0]] == EMPTY:
                        placed = copy_board(after)
                        placed[place[1]][place[0]] = landed_on
                        groups.append(([leg(frm, to), leg(to, place)], placed,
                                       supporter_moves(placed, side, variant)))
            else:
                groups.append(([leg(frm, to)], after, supporter_moves(after, side, variant)))
        return True, groups
    # rules (Gladiator 5): "the pawn part is skipped and the supporter jump is compulsory; it must
    # leave the player at least one pawn move in the resulting position (judged with the same player
    # to move, ignoring the opponent's reply), if any jump can. If no jump can, any jump is allowed."
    # rules (Brawl 4): "the supporter move is compulsory and must give a pawn move if any can."
    seconds = supporter_moves(board, side, variant)
    helpful = [(frm, to) for frm, to in seconds
               if pawn_moves(move_piece(board, frm, to), side, variant)]
    return False, [([], board, helpful if helpful else seconds)]


def make_child(pos, board, pawn_moved):
    """The position after a turn: other side to move, clocks updated."""
    return Position(board, other(pos.side),
                    0 if pawn_moved else pos.halfmove + 1,
                    pos.fullmove + (1 if pos.side == BLACK else 0))


def has_legal_turn(pos, variant):
    """Whether turn_groups() would offer at least one turn: a pawn move, or else a supporter move
    (the "must give a pawn move" filter falls back to all supporter moves, so it never empties a
    non-empty list)."""
    return bool(pawn_moves(pos.board, pos.side, variant)
                or supporter_moves(pos.board, pos.side, variant))


def result(pos, variant):
    """'1-0', '0-1', '1/2-1/2' or None.  rules (Gladiator 6), checked in this order:
    "a player whose last pawn is captured has lost"; "When four consecutive turns (two of each
    player) contained no pawn move, the game is drawn"; "A player with no legal turn at all ... draws".
    """
    white, black = pos.pawn_count(WHITE), pos.pawn_count(BLACK)
    if white == 0 and black == 0:
        return "1/2-1/2"  # only from a FEN; see the module docstring
    if white == 0:
        return "0-1"
    if black == 0:
        return "1-0"
    if pos.halfmove >= 4:
        return "1/2-1/2"
    if not has_legal_turn(pos, variant):
        return "1/2-1/2"
    return None


def legal_turns(pos, variant):
    """List of (token, child position) for every legal turn; none once the game is over."""
    if result(pos, variant) is not None:
        return []
    pawn_moved, groups = turn_groups(pos, variant)
    out = []
    for prefix, board, seconds in groups:
        if pawn_moved:
            out.append((",".join(prefix), make_child(pos, board, True)))
        for frm, to in seconds:
            token = ",".join(prefix + [leg(frm, to)])
            out.append((token, make_child(pos, move_piece(board, frm, to), pawn_moved)))
    return out


def count_turns(pos, variant):
    """len(legal_turns(pos, variant)) without building the children (used at perft's last ply)."""
    if result(pos, variant) is not None:
        return 0
    pawn_moved, groups = turn_groups(pos, variant)
    return sum((1 if pawn_moved else 0) + len(seconds) for _, _, seconds in groups)


def legal_tokens(pos, variant):
    return sorted(token for token, _ in legal_turns(pos, variant))


# ------------------------------------------------------------------------------------------------
# perft: "perft counts whole turns"; a finished game has no children.
# ------------------------------------------------------------------------------------------------
def perft(pos, variant, depth):
    if depth == 0:
        return 1
    if depth == 1:
        return count_turns(pos, variant)
    return sum(perft(child, variant, depth - 1) for _, child in legal_turns(pos, variant))


def perft_divide(pos, variant, depth):
    """Returns ({token: count}, total).  Depth 0 is the position itself: ({}, 1)."""
    if depth == 0:
        return {}, 1
    divide = {tok: perft(child, variant, depth - 1) for tok, child in legal_turns(pos, variant)}
    return divide, sum(divide.values())


# ------------------------------------------------------------------------------------------------
# Applying a list of turns (shared by the CLI and the server).
# ------------------------------------------------------------------------------------------------
def apply_turns(pos, variant, turns):
    """Returns (position, error); error is '<0-based index> <token>' or None.  A token is legal
    exactly when it is one of the generated legal turn tokens (so malformed text is illegal too)."""
    for i, token in enumerate(turns):
        children = dict(legal_turns(pos, variant))
        if not isinstance(token, str) or token not in children:
            return pos, "%d %s" % (i, token)
        pos = children[token]
    return pos, None


def check_variant(variant):
    if variant not in VARIANTS:
        raise ValueError("unknown variant: %s (want %s)" % (variant, " or ".join(VARIANTS)))


def serve(inp, out):
    """JSON lines: {"variant", "fen", "turns": [...], "perft": N?, "legal": bool?} ->
    {"fen", "result", "error", "perft": {"divide", "nodes"} | null, "legal": [...] | null}.
    On a turn error `fen` and `result` describe the position reached before the bad turn."""
    for line in inp:
        line = line.strip()
        if not line:
            continue
        reply = {"fen": None, "result": None, "error": None, "perft": None, "legal": None}
        try:
            req = json.loads(line)
            variant = req["variant"]
            check_variant(variant)
            pos = parse_fen(req.get("fen") or "startpos")
            pos, err = apply_turns(pos, variant, req.get("turns") or [])
            reply["fen"] = to_fen(pos)
            reply["result"] = result(pos, variant)
            reply["error"] = err
            if err is None and req.get("perft") is not None:
                divide, nodes = perft_divide(pos, variant, int(req["perft"]))
                reply["perft"] = {"divide": divide, "nodes": nodes}
            if err is None and req.get("legal"):
                reply["legal"] = legal_tokens(pos, variant)
        except Exception as exc:  # report, never die
            reply["error"] = "request: %s" % exc
        out.write(json.dumps(reply, sort_keys=True) + "\n")
        out.flush()


USAGE = ("usage: gladiator_ref.py VARIANT FEN|startpos [TURN ...]\n"
         "       gladiator_ref.py perft VARIANT FEN|startpos DEPTH\n"
         "       gladiator_ref.py legal VARIANT FEN|startpos\n"
         "       gladiator_ref.py serve")


def main(argv):
    if argv and argv[0] == "serve":
        serve(sys.stdin, sys.stdout)
        return 0
    try:
        if argv and argv[0] == "perft":
            if len(argv) != 4:
                raise ValueError("perft takes VARIANT FEN DEPTH")
            variant, fen, depth = argv[1], argv[2], int(argv[3])
            check_variant(variant)
            if depth < 0:
                raise ValueError("negative depth")
            divide, nodes = perft_divide(parse_fen(fen), variant, depth)
            for tok in sorted(divide):
                print("%s: %d" % (tok, divide[tok]))
            print("Nodes searched: %d" % nodes)
            return 0
        if argv and argv[0] == "legal":
            if len(argv) != 3:
                raise ValueError("legal takes VARIANT FEN")
            variant, fen = argv[1], argv[2]
            check_variant(variant)
            tokens = legal_tokens(parse_fen(fen), variant)
            for tok in tokens:
                print(tok)
            print("Total: %d" % len(tokens))
            return 0
        variant, fen, turns = argv[0], argv[1], argv[2:]
        check_variant(variant)
        pos = parse_fen(fen)
    except (IndexError, ValueError) as exc:
        print(USAGE + "\nError: %s" % exc, file=sys.stderr)
        return 2
    pos, err = apply_turns(pos, variant, turns)
    if err is not None:
        print("Error: " + err)
        return 0
    print("Fen: " + to_fen(pos))
    res = result(pos, variant)
    if res is not None:
        print("Result: " + res)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
