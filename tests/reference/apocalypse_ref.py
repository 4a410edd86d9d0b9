#!/usr/bin/env python3
"""Independent reference implementation of Apocalypse (Python 3.11, standard library only).

Written from protocol-docs/rules.md (a copy of the project's binding rules), section "1. Apocalypse", without looking at the engine
under test.  It is deliberately plain: the board is a dict {square: (colour, kind)}, legality is
"the move text is in the list of generated legal moves", and resolution follows the numbered
steps of the rules text one by one.  Quotations from rules.md are marked "rules: ...".

Two rule sets:
  apocalypse          - the seed rules (footman promoting with 2 horsemen stays on the far rank;
                        a player with no legal move passes `0000`; both stuck -> draw)
  apocalypse-classic  - Elliott's rules (redeploy leg `d4d5,d5b3`; either stuck -> draw)

Command line:
  apocalypse_ref.py RULES FEN|startpos [TURN ...]   apply joint turns `W|B`, print Fen/Penalties/Result
  apocalypse_ref.py perft RULES FEN|startpos DEPTH  divide lines `W|B: n`, then `Nodes searched: N`
  apocalypse_ref.py legal RULES FEN|startpos        sorted legal moves of White, then of Black
  apocalypse_ref.py serve                           JSON lines in, JSON lines out (see serve())

FEN (7 fields): `<board> w - - Q T W/B`; Q = quiet turns, T = turn number, W/B = penalty points.
"""

import json
import re
import sys

# ----------------------------------------------------------------------------------------------
# Board geometry.  Squares are (file, rank) with file 0..4 (= a..e) and rank 1..5.
# rules: "Board 5x5 (a-e, 1-5)."
# ----------------------------------------------------------------------------------------------
FILES = "abcde"
SIZE = 5
ALL_SQUARES = [(f, r) for r in range(1, SIZE + 1) for f in range(SIZE)]

WHITE, BLACK = "w", "b"
HORSEMAN, FOOTMAN = "N", "P"
SEED, CLASSIC = "apocalypse", "apocalypse-classic"
RULE_SETS = (SEED, CLASSIC)

START_FEN = "npppn/p3p/5/P3P/NPPPN w - - 0 1 0/0"
PASS = "0000"

# rules: "Horseman N (moves and captures as a chess knight, jumps)"
KNIGHT_STEPS = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]


def on_board(sq):
    f, r = sq
    return 0 <= f < SIZE and 1 <= r <= SIZE


def sq_name(sq):
    return FILES[sq[0]] + str(sq[1])


def sq_parse(text):
    """Parses a canonical square name of this board ('a1'..'e5'); raises ValueError otherwise."""
    for sq in ALL_SQUARES:
        if sq_name(sq) == text:
            return sq
    raise ValueError("not a square of the board: " + text)


def other(side):
    return BLACK if side == WHITE else WHITE


def forward(side):
    # rules: "White moves up the board, Black down."
    return 1 if side == WHITE else -1


def far_rank(side):
    # The rank a footman promotes on: rank 5 for White, rank 1 for Black.
    return SIZE if side == WHITE else 1


# ----------------------------------------------------------------------------------------------
# Position and FEN.
# ----------------------------------------------------------------------------------------------
class Position:
    """A position: board dict, quiet-turn counter Q, turn number T, penalty points."""

    def __init__(self, board, quiet=0, turn=1, penalties=None):
        self.board = dict(board)  # {(f, r): (colour, kind)}
        self.quiet = quiet
        self.turn = turn
        self.penalties = dict(penalties) if penalties else {WHITE: 0, BLACK: 0}

    def copy(self):
        return Position(self.board, self.quiet, self.turn, self.penalties)

    def count(self, side, kind):
        return sum(1 for piece in self.board.values() if piece == (side, kind))


def parse_fen(text):
    """Parses `board [w - - Q T W/B]`; fields 2..7 may be omitted. Raises ValueError."""
    if text == "startpos":
        text = START_FEN
    fields = text.split()
    if not fields or len(fields) > 7:
        raise ValueError("bad FEN field count")
    defaults = START_FEN.split()
    fields = fields + defaults[len(fields):]
    rows = fields[0].split("/")
    if len(rows) != SIZE:
        raise ValueError("FEN board needs 5 rows")
    board = {}
    for i, row in enumerate(rows):
        rank = SIZE - i  # rules: "FEN rows run from the highest rank down"
        f = 0
        for ch in row:
            if ch in "12345":
                f += int(ch)
            elif ch in "NPnp":
                if f >= SIZE:
                    raise ValueError("FEN row too long")
                colour = WHITE if ch.isupper() else BLACK
                board[(f, rank)] = (colour, ch.upper())
                f += 1
            else:
                raise ValueError("bad FEN character " + repr(ch))
        if f != SIZE:
            raise ValueError("FEN row does not have 5 squares")
    if fields[1] != "w":
        raise ValueError("FEN side field must be 'w'")
    quiet = int(fields[4])
    turn = int(fields[5])
    m = re.fullmatch(r"([0-2])/([0-2])", fields[6])
    if not m or quiet < 0 or turn < 1:
        raise ValueError("bad FEN counters")
    return Position(board, quiet, turn, {WHITE: int(m.group(1)), BLACK: int(m.group(2))})


def to_fen(pos):
    rows = []
    for rank in range(SIZE, 0, -1):
        row, empty = "", 0
        for f in range(SIZE):
            piece = pos.board.get((f, rank))
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            colour, kind = piece
            row += kind if colour == WHITE else kind.lower()
        if empty:
            row += str(empty)
        rows.append(row)
    return "%s w - - %d %d %d/%d" % ("/".join(rows), pos.quiet, pos.turn,
                                     pos.penalties[WHITE], pos.penalties[BLACK])


# ----------------------------------------------------------------------------------------------
# Move texts.
# rules (Notation): "A move is `from` `to` (`b1c3`), a pass `0000`; classic redeploys as above
# [`d4d5,d5b3`]."  Fine points: "Any `[a-z]<rank>[a-z]<rank>` text is a move, even off the board
# (`z9a1`, `a0a1`): it is illegal and costs a penalty. A token of three or more legs is not a move
# (protocol error)."
# ----------------------------------------------------------------------------------------------
LEG_RE = r"[a-z][0-9]+[a-z][0-9]+"
MOVE_TOKEN_RE = re.compile(r"0000|%s(,%s)?" % (LEG_RE, LEG_RE))


def is_move_text(token):
    """True if the token is a move text (legal or not); False means protocol error."""
    return MOVE_TOKEN_RE.fullmatch(token) is not None


def split_joint(token):
    """Splits `WHITE|BLACK`; returns (w, b) or None on a protocol error."""
    parts = token.split("|")
    if len(parts) != 2 or not is_move_text(parts[0]) or not is_move_text(parts[1]):
        return None
    return parts[0], parts[1]


class Move:
    """A legal move: from-square, first-leg destination, optional redeploy square."""

    def __init__(self, frm, to, redeploy=None):
        self.frm, self.to, self.redeploy = frm, to, redeploy

    def final(self):
        # rules: "Collisions are judged on the redeploy square."
        return self.redeploy if self.redeploy is not None else self.to

    def text(self):
        s = sq_name(self.frm) + sq_name(self.to)
        if self.redeploy is not None:
            s += "," + sq_name(self.to) + sq_name(self.redeploy)
        return s


def parse_legal_text(text):
    """Turns a text already known to be legal (and not a pass) back into a Move."""
    legs = text.split(",")
    frm, to = sq_parse(legs[0][:2]), sq_parse(legs[0][2:])
    redeploy = sq_parse(legs[1][2:]) if len(legs) == 2 else None
    return Move(frm, to, redeploy)


# ----------------------------------------------------------------------------------------------
# Legal move generation, judged on the start-of-turn position.
# rules 1: "A move is legal when it names the mover's own piece on its from-square and the piece
# could make it in that position: a footman's forward square must be empty; a footman's diagonal
# square must hold an enemy piece; a horseman may not land on a friendly piece."
# ----------------------------------------------------------------------------------------------
def piece_moves(pos, side, rules):
    """All legal non-pass moves of `side` (list of Move)."""
    classic = rules == CLASSIC
    board = pos.board
    moves = []
    for sq, (colour, kind) in board.items():
        if colour != side:
            continue
        f, r = sq
        if kind == HORSEMAN:
            for df, dr in KNIGHT_STEPS:
                t = (f + df, r + dr)
                if on_board(t) and not (t in board and board[t][0] == side):
                    moves.append(Move(sq, t))
            continue
        # Footman: one step forward onto an empty square, or diagonally forward onto an enemy.
        targets = []
        ahead = (f, r + forward(side))
        if on_board(ahead) and ahead not in board:
            targets.append(ahead)
        for df in (-1, 1):
            diag = (f + df, r + forward(side))
            if on_board(diag) and diag in board and board[diag][0] != side:
                targets.append(diag)
        for t in targets:
            if t[1] != far_rank(side) or not classic:
                # Ordinary step; in the seed rules also every step onto the far rank (rules 4:
                # it promotes with <2 horsemen, otherwise "it stays a footman on the far rank").
                moves.append(Move(sq, t))
                continue
            # apocalypse-classic, a step onto the far rank (rules 4, Elliott's rule).
            if pos.count(side, HORSEMAN) < 2:
                # It will promote.  rules: "Advancing your only footman to the far rank while you
                # have fewer than 2 horsemen is illegal."  Fine point: "'Your only footman' means
                # exactly one footman at the start of the turn; a diagonal advance counts."
                if pos.count(side, FOOTMAN) == 1:
                    continue
                moves.append(Move(sq, t))  # no redeploy leg allowed (fine point)
            else:
                # rules: "the move must also name a redeploy square, any square that is vacant
                # once the footman has left (its origin included) and not on the far rank".
                # Fine point: judged on the start-of-turn position after the footman has left.
                for q in ALL_SQUARES:
                    if q[1] != far_rank(side) and (q not in board or q == sq):
                        moves.append(Move(sq, t, q))
    return moves


def legal_moves(pos, side, rules):
    """Sorted legal move texts, with the forced pass `0000` of the seed rules.

    rules 5 (seed): "a player with no legal move passes, written `0000`, with no penalty."
    Fine point: "In `apocalypse-classic` a pass is never legal".
    """
    texts = sorted(m.text() for m in piece_moves(pos, side, rules))
    if not texts and rules == SEED:
        texts = [PASS]
    return texts


# ----------------------------------------------------------------------------------------------
# End of game.
# rules 6: "a player with no footmen on the board has lost ...; a player with 2 penalty points has
# lost. If both players meet a losing condition in the same turn, the game is drawn."
# rules 5: seed "If neither player has a legal move the game is drawn"; classic "if either player
# has no legal move, the game is drawn."
# Fine point: "End conditions come before the no-legal-move draws ... The no-legal-move rules also
# apply to a position set up by FEN."  So the result is a function of the position alone.
# ----------------------------------------------------------------------------------------------
def result(pos, rules):
    """'1-0', '0-1', '1/2-1/2', or None while the game goes on."""
    lost = {}
    for side in (WHITE, BLACK):
        lost[side] = pos.count(side, FOOTMAN) == 0 or pos.penalties[side] >= 2
    if lost[WHITE] and lost[BLACK]:
        return "1/2-1/2"
    if lost[WHITE]:
        return "0-1"
    if lost[BLACK]:
        return "1-0"
    w_stuck = not piece_moves(pos, WHITE, rules)
    b_stuck = not piece_moves(pos, BLACK, rules)
    if rules == SEED and w_stuck and b_stuck:
        return "1/2-1/2"
    if rules == CLASSIC and (w_stuck or b_stuck):
        return "1/2-1/2"
    return None


# ----------------------------------------------------------------------------------------------
# One turn: both moves, resolved together.
# ----------------------------------------------------------------------------------------------
def play_turn(pos, rules, w_text, b_text):
    """Returns the position after the joint turn (the texts must already be move texts)."""
    start = pos.board  # the start-of-turn position; never modified
    new = pos.copy()
    texts = {WHITE: w_text, BLACK: b_text}

    # Steps 1 and 2: legality on the start position; an illegal move is void and costs a point.
    moves = {}  # side -> Move, only for legal non-pass moves
    for side in (WHITE, BLACK):
        if texts[side] in legal_moves(pos, side, rules):
            if texts[side] != PASS:
                moves[side] = parse_legal_text(texts[side])
        else:
            new.penalties[side] += 1

    # Step 3: resolution ("all pieces move at once").
    board = new.board
    removed_any = False
    movers = {}  # side -> kind of the moving piece (its type before promotion)
    for side, m in moves.items():
        movers[side] = start[m.frm][1]
        del board[m.frm]  # lift the moving pieces off their origins

    # Captures.  rules: "A capture happens only if the piece standing on the destination at the
    # start of the turn is still there, i.e. did not itself move this turn. ... A piece
    # 'captured' on the square it just left escapes."  A diagonal promotion with a redeploy
    # "still captures on the far-rank square (if its piece stayed)", so the target is the
    # first-leg destination `to`.  A void (illegal) move did not move its piece.
    for side, m in moves.items():
        enemy = other(side)
        target = start.get(m.to)
        if target is not None and target[0] == enemy:
            enemy_move = moves.get(enemy)
            stayed = enemy_move is None or enemy_move.frm != m.to
            if stayed:
                del board[m.to]
                removed_any = True

    # Placement and collisions.  rules: "if both moves end on the same square, a horseman beats a
    # footman (the footman is removed); two pieces of the same type are both removed. Types are
    # taken before promotion."  Moves end on final() (the redeploy square when there is one; "an
    # enemy arriving on that far-rank square does not collide").
    arrived = {}  # side -> square the piece now stands on (absent if removed)
    if len(moves) == 2 and moves[WHITE].final() == moves[BLACK].final():
        sq = moves[WHITE].final()
        removed_any = True
        assert sq not in board, "collision square must be free after lifting/captures"
        if movers[WHITE] == movers[BLACK]:
            pass  # both removed
        else:
            winner = WHITE if movers[WHITE] == HORSEMAN else BLACK
            board[sq] = (winner, HORSEMAN)
            arrived[winner] = sq
    else:
        for side, m in moves.items():
            sq = m.final()
            assert sq not in board, "destination must be free after lifting/captures"
            board[sq] = (side, movers[side])
            arrived[side] = sq

    # Step 4: promotion.  rules: "A footman that reaches the far rank (forward or diagonally)
    # becomes a horseman if its owner had fewer than 2 horsemen at the start of the turn."
    # Otherwise (seed) it stays a footman on the far rank; (classic) it was redeployed and stays a
    # footman -- such a move has a redeploy leg and does not end on the far rank.
    for side, sq in arrived.items():
        m = moves[side]
        if (movers[side] == FOOTMAN and m.redeploy is None and m.to[1] == far_rank(side)
                and pos.count(side, HORSEMAN) < 2):
            board[sq] = (side, HORSEMAN)

    # Counters (FEN fields 5 and 6): Q resets after a turn in which a footman made a legal
    # (non-pass) move or any piece was removed, else grows by 1; T counts every turn played.
    footman_moved = any(kind == FOOTMAN for kind in movers.values())
    new.quiet = 0 if (footman_moved or removed_any) else pos.quiet + 1
    new.turn = pos.turn + 1
    return new


# ----------------------------------------------------------------------------------------------
# perft.  rules: "The children of a turn are all pairs (legal White move, legal Black move), a
# forced pass counting as the one legal move; a finished game has no children. `perft N` counts
# the sequences of N turns."
# ----------------------------------------------------------------------------------------------
def children(pos, rules):
    """List of (joint token, child position); empty for a finished game."""
    if result(pos, rules) is not None:
        return []
    out = []
    for w in legal_moves(pos, WHITE, rules):
        for b in legal_moves(pos, BLACK, rules):
            out.append((w + "|" + b, play_turn(pos, rules, w, b)))
    return out


def perft(pos, rules, depth):
    if depth == 0:
        return 1
    if result(pos, rules) is not None:
        return 0
    if depth == 1:  # bulk count: every pair is one child
        return len(legal_moves(pos, WHITE, rules)) * len(legal_moves(pos, BLACK, rules))
    return sum(perft(child, rules, depth - 1) for _, child in children(pos, rules))


def perft_divide(pos, rules, depth):
    """Returns ({joint token: count}, total nodes)."""
    if depth == 0:
        return {}, 1
    divide = {tok: perft(child, rules, depth - 1) for tok, child in children(pos, rules)}
    return divide, sum(divide.values())


# ----------------------------------------------------------------------------------------------
# Applying a list of joint turns (shared by the CLI and the server).
# ----------------------------------------------------------------------------------------------
def apply_turns(pos, rules, turns):
    """Returns (position, error); error is '<0-based turn index> <token>' or None."""
    for i, token in enumerate(turns):
        pair = split_joint(token)
        if pair is None or result(pos, rules) is not None:
            return pos, "%d %s" % (i, token)
        pos = play_turn(pos, rules, pair[0], pair[1])
    return pos, None


def check_rules(rules):
    if rules not in RULE_SETS:
        raise ValueError("unknown rules: %s (want %s)" % (rules, " or ".join(RULE_SETS)))


def serve(inp, out):
    """JSON lines: {"rules", "fen", "turns": [...], "perft": N?, "legal": bool?} ->
    {"fen", "penalties": [w, b], "result", "error", "perft": {"divide", "nodes"} | null,
     "legal": [[white...], [black...]] | null}.  On an error `fen` is the position reached."""
    for line in inp:
        line = line.strip()
        if not line:
            continue
        reply = {"fen": None, "penalties": None, "result": None, "error": None,
                 "perft": None, "legal": None}
        try:
            req = json.loads(line)
            rules = req["rules"]
            check_rules(rules)
            pos = parse_fen(req.get("fen", "startpos"))
            pos, err = apply_turns(pos, rules, req.get("turns", []))
            reply["fen"] = to_fen(pos)
            reply["penalties"] = [pos.penalties[WHITE], pos.penalties[BLACK]]
            reply["result"] = result(pos, rules)
            reply["error"] = err
            if err is None and req.get("perft") is not None:
                divide, nodes = perft_divide(pos, rules, int(req["perft"]))
                reply["perft"] = {"divide": divide, "nodes": nodes}
            if err is None and req.get("legal"):
                reply["legal"] = [legal_moves(pos, WHITE, rules), legal_moves(pos, BLACK, rules)]
        except Exception as exc:  # report, never die
            reply["error"] = "request: %s" % exc
        out.write(json.dumps(reply) + "\n")
        out.flush()


def main(argv):
    if argv and argv[0] in ("serve", "--jsonl"):
        serve(sys.stdin, sys.stdout)
        return 0
    try:
        if argv and argv[0] == "perft":
            rules, fen, depth = argv[1], argv[2], int(argv[3])
            check_rules(rules)
            divide, nodes = perft_divide(parse_fen(fen), rules, depth)
            for tok in sorted(divide):
                print("%s: %d" % (tok, divide[tok]))
            print("Nodes searched: %d" % nodes)
            return 0
        if argv and argv[0] == "legal":
            rules, fen = argv[1], argv[2]
            check_rules(rules)
            pos = parse_fen(fen)
            print(" ".join(legal_moves(pos, WHITE, rules)))
            print(" ".join(legal_moves(pos, BLACK, rules)))
            return 0
        rules, fen, turns = argv[0], argv[1], argv[2:]
        check_rules(rules)
        pos = parse_fen(fen)
    except (IndexError, ValueError) as exc:
        print("usage: apocalypse_ref.py [perft|legal] RULES FEN|startpos [TURN...|DEPTH] | serve"
              "\nError: %s" % exc, file=sys.stderr)
        return 2
    pos, err = apply_turns(pos, rules, turns)
    if err is not None:
        print("Error: " + err)
        return 0
    print("Fen: " + to_fen(pos))
    print("Penalties: %d %d" % (pos.penalties[WHITE], pos.penalties[BLACK]))
    res = result(pos, rules)
    if res is not None:
        print("Result: " + res)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
