"""The kinds of ids a rule set's vocabulary lists (the keys of its table), and the kinds a
table adds to what `vocabulary.vocabulary` derives: a leaf module, so that every rule set's
`vocabulary.py` can import it while the registry is still loading."""

# Vocabulary kinds.
PHASE, MOVE, FACT, CONTRACT, BONUS, KONTRA = "phase", "move", "fact", "contract", "bonus", "kontra"
LINE, GROUP, DECLARATION, COMBINATION = "line", "group", "declaration", "combination"
CHOICE, PARAM, REASON, CARD = "choice", "param", "reason", "card"
SETTLEMENT = "settlement"  # what a hand or the match end credited a seat (SettledLine.id)
WORD = "word"  # table words a UI shows beside the rules: radelc, žid, contatori ...
# Table-only keys: announceable items a bonus table does not list; line ids listed after the
# contracts, bonuses and `LINE` entries (not turned into ids).
EXTRA_BONUS, EXTRA_LINE = "extra bonus", "extra line"
