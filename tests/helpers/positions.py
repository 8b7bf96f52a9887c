"""Typed positions shared by the advisor's tests (issue 28)."""

# S0, the dealer, has drawn 9p: 30 tiles left, a dozen discards each, nobody has melded
TURN = """rules classic
seat 0 dealer 0 wall 30
hand 11223344556m79p +9p
S0 void s discards 1s 2s 3s 4sd 5s 6sd 7sd
S1 void m discards 1m 9m 9s 1p 2p 3p
S2 void p discards 9p 8p 9s 7s 2s 1s
S3 void s discards 2s 3s 4s 5s 1p 8m
decision turn"""

# the same table a moment later: S3 has thrown 9p after S0's 8s
ON_DISCARD = (TURN.replace(" +9p", "")
              .replace("discards 2s 3s 4s 5s 1p 8m", "discards 2s 3s 4s 5s 1p 8m 9p")
              .replace("S0 void s discards 1s 2s 3s 4sd 5s 6sd 7sd",
                       "S0 void s discards 1s 2s 3s 4sd 5s 6sd 7sd 8s")
              .replace("decision turn", "decision on-discard 9p from S3")
              .replace("wall 30", "wall 29"))
