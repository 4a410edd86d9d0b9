#!/usr/bin/env python3
"""Replays XBoard's saved game (PGN, short SAN, one XBoard ply per move) through Quill's rules.

  pgn_replay.py QUILL GAME.pgn

XBoard writes its own SAN (`Rh2`, `c2xc7`, `--` for a null, `N@h3` for a drop); only its
coordinates reach an engine. Each SAN move is resolved against Quill itself: the candidate
pieces are the mover's pieces of that kind that fit the SAN's from-file/rank, and a candidate
counts when Quill's `lift FROM` answer (the legal targets, following the turn so far) marks the
destination; when several do, XBoard's SAN meant the one its own FIDE move generator finds.
The move must resolve to exactly one ply, which is then played with `usermove` in
force mode; Quill must accept it. Prints one line per ply (`SAN COORDINATES`), then `Fen: …`
from Quill's `d`. Exits 1 on the first move that does not resolve or that Quill refuses.
"""
import re
import subprocess
import sys

SAN = re.compile(r"^([KQRBN])?([a-h])?(1[01]|[1-9])?(x)?([a-h](?:1[01]|[1-9]))(?:=?([A-Za-z]))?[+#]?$")


def fail(message):
    print("FAIL: " + message)
    sys.exit(1)


class Quill:
    """A Quill process in CECP force mode, asked one command at a time."""

    def __init__(self, binary, variant, fen):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True, bufsize=1)
        self.n = 0
        self.ask("xboard\nprotover 2\nrejected sealed\nvariant %s\nforce" % variant)
        if fen:
            self.ask("setboard " + fen)

    def ask(self, text):
        """Sends lines and returns what came back before the matching pong."""
        self.n += 1
        self.p.stdin.write("%s\nping %d\n" % (text, self.n))
        self.p.stdin.flush()
        lines = []
        for line in self.p.stdout:
            line = line.rstrip("\n")
            if line == "pong %d" % self.n:
                return lines
            lines.append(line)
        fail("quill ended while answering %r" % text)

    def quit(self):
        self.p.stdin.write("quit\n")
        self.p.stdin.close()
        self.p.wait(10)


def parse_board(fen):
    """{square: piece} and (files, ranks) of a FEN board field (holes `*` count as squares)."""
    rows = re.sub(r"\[.*", "", fen.split()[0]).split("/")
    board, files = {}, 0
    for r, row in enumerate(rows):
        f = 0
        for t in re.findall(r"\d+|.", row):
            if t.isdigit():
                f += int(t)
            else:
                if t != "*":
                    board["%s%d" % ("abcdefghijk"[f], len(rows) - r)] = t
                f += 1
        files = max(files, f)
    return board, (files, len(rows))


def marked(highlight):
    """The squares a `highlight COLOURFEN` answer marks."""
    board, _ = parse_board(highlight.split()[1])
    return set(board)


def fide_reach(board, piece, frm, to):
    """Whether `piece` on `frm` reaches `to` by its FIDE move on `board` (sliders blocked)."""
    fx, fy, tx, ty = ord(frm[0]), int(frm[1:]), ord(to[0]), int(to[1:])
    dx, dy = tx - fx, ty - fy
    kind = piece.upper()
    if kind == "N":
        return sorted((abs(dx), abs(dy))) == [1, 2]
    if kind == "K":
        return max(abs(dx), abs(dy)) == 1
    straight, diagonal = dx == 0 or dy == 0, abs(dx) == abs(dy)
    if not (kind == "R" and straight or kind == "B" and diagonal
            or kind == "Q" and (straight or diagonal)) or (dx, dy) == (0, 0):
        return False
    n = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return all("%s%d" % (chr(fx + i * sx), fy + i * sy) not in board for i in range(1, n))


def main():
    quill_bin, pgn_path = sys.argv[1], sys.argv[2]
    pgn = open(pgn_path).read()
    tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', pgn, re.M))
    variant = tags.get("Variant", "")
    fen = tags.get("FEN", "")
    movetext = re.sub(r"^\[.*\]$", "", pgn, flags=re.M)
    movetext = re.sub(r"\{[^}]*\}", " ", movetext)
    tokens = [t for t in movetext.split()
              if not re.match(r"^(\d+\.+|\.\.\.|\*|1-0|0-1|1/2-1/2)$", t)]
    tokens = [re.sub(r"^\d+\.+", "", t) for t in tokens]
    quill = Quill(quill_bin, variant, fen)
    board, dims = parse_board(fen or quill.ask("d")[-1].split(" ", 1)[1])
    white = not fen or fen.split()[1] == "w"
    for san in tokens:
        if san == "--":
            ply = "@@@@"
        elif re.match(r"^[A-Z]@[a-k]\d+[+#]?$", san):
            ply = san.rstrip("+#")
        else:
            castle = san.rstrip("+#") in ("O-O", "O-O-O")
            m = SAN.match(san)
            if not castle and not m:
                fail("%s: not a SAN move" % san)
            kind = "K" if castle else (m.group(1) or "P")
            piece = kind if white else kind.lower()
            froms = [sq for sq, p in board.items() if p == piece
                     and (castle or not m.group(2) or sq[0] == m.group(2))
                     and (castle or not m.group(3) or sq[1:] == m.group(3))]
            found = []
            for frm in froms:
                answer = [l for l in quill.ask("lift " + frm) if l.startswith("highlight ")]
                targets = marked(answer[0]) if answer else set()
                if castle:
                    rank = frm[1:]
                    step = 1 if san.startswith("O-O") and not san.startswith("O-O-O") else -1
                    targets = {t for t in targets if t[1:] == rank
                               and (ord(t[0]) - ord(frm[0])) * step >= 2}
                    found += [(frm, t) for t in sorted(targets)]
                elif m.group(5) in targets:
                    found.append((frm, m.group(5)))
            if len(found) > 1:
                # Several pieces may make the move under Quill's rules (a supporter jumps to
                # any vacant border square); XBoard's SAN names a piece by its own FIDE move
                # generator, and adds a disambiguator only when that finds several.
                found = [(f, t) for f, t in found if fide_reach(board, piece, f, t)]
            if len(found) != 1:
                fail("%s: %d plies fit it under Quill's rules: %s" % (san, len(found), found))
            frm, to = found[0]
            ply = frm + to
        refused = [l for l in quill.ask("usermove " + ply) if l.startswith(("Illegal", "Error"))]
        if refused:
            fail("%s (%s): %s" % (san, ply, refused[0]))
        print(san, ply)
        # XBoard's own effect of the ply on its board.
        if ply == "@@@@":
            pass
        elif "@" in ply:
            board[ply[2:]] = ply[0] if white else ply[0].lower()
        else:
            frm, to = re.findall(r"[a-k]\d+", ply)
            board[to] = board.pop(frm)
        white = not white
    fen_line = [l for l in quill.ask("d") if l.startswith("Fen: ")]
    quill.quit()
    if not fen_line:
        fail("no Fen line from d")
    print(fen_line[0])


if __name__ == "__main__":
    main()
