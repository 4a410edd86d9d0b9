#!/usr/bin/env python3
"""A Pagan and a king against a lone live king on the game board of Pagan Chess
(protocol-docs/variants/pagan.md, "Which endings can be won"): can the Pagan capture the king?
Solved by value iteration, written from the rules. The game board only (7 files, 5 ranks; the
Pagan does not cross the bridge); the Pagan's side wins by capturing the king (a withdrawal:
the Pagan next to it steps 1 or 2 squares straight away from it, over empty squares); the lone
king draws by taking the Pagan (it lands on it) or by having no move. Kings never take kings,
and the lone king has nothing else to move. With `pass` the lone side may also pass (it has
other pieces elsewhere).

Prints how many placements are won: with the king to move, 48 of 39,270 (none with `pass`).
Run: python3 tests/reference/pagan_kgk_ref.py [pass]
"""
import sys
F,R=7,5
sqs=[(f,r) for f in range(F) for r in range(R)]
D=[(dx,dy) for dx in (-1,0,1) for dy in (-1,0,1) if (dx,dy)!=(0,0)]
def on(f,r): return 0<=f<F and 0<=r<R
PASS = len(sys.argv)>1  # black may pass (has other pieces)
def wmoves(K,G,k):
    # yields ('win') or new (K,G)
    out=[]
    occ={K,G,k}
    for dx,dy in D:
        # king
        t=(K[0]+dx,K[1]+dy)
        if on(*t) and t!=G and t!=k: out.append((t,G))
    for dx,dy in D:
        m=(G[0]+dx,G[1]+dy)
        if not on(*m) or m in occ: continue
        behind=(G[0]-dx,G[1]-dy)
        cap = behind==k
        out.append('win' if cap else (K,m))
        m2=(G[0]+2*dx,G[1]+2*dy)
        if on(*m2) and m2 not in occ:
            out.append('win' if cap else (K,m2))
    return out
def bmoves(K,G,k):
    out=[]
    for dx,dy in D:
        t=(k[0]+dx,k[1]+dy)
        if not on(*t) or t==K: continue
        out.append('draw' if t==G else t)
    if PASS: out.append(k)
    return out
win_w={}  # (K,G,k) white to move -> plies
win_b={}
states=[(K,G,k) for K in sqs for G in sqs for k in sqs if len({K,G,k})==3]
for it in range(1,200):
    ch=0
    nw={};nb={}
    for s in states:
        K,G,k=s
        if s not in win_w:
            for m in wmoves(K,G,k):
                if m=='win' or (m[0],m[1],k) in win_b:
                    nw[s]=it; break
        if s not in win_b:
            ms=bmoves(K,G,k)
            if ms and all(m!='draw' and (K,G,m) in win_w for m in ms):
                nb[s]=it
    if not nw and not nb: break
    win_w.update(nw); win_b.update(nb)
print('white-to-move won', len(win_w), 'of', len(states), 'max', max(win_w.values()))
print('black-to-move won', len(win_b))
