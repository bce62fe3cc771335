/* A perfect-information ("double dummy") solver for the trick-play phase of every tarok rule
 * set: alpha-beta over the cards still in the hands, a transposition table at trick
 * boundaries, move ordering and cards of equal effect merged.
 *
 * The C code knows no rule set. A `Game` is built from tables the Python side extracts from a
 * deck and a `tricks.TrickRules` (each card's suit, rank, pack and value; the rules' flags),
 * and reproduces `tricks.legal_plays` and `tricks.winning_index` on bitmasks. The value of a
 * position is what the side `team` takes in the rest of the hand: the values of the cards of
 * the tricks it wins plus `trick_bonus` per trick won (the team maximises, the others
 * minimise). `tests/bots/test_solver.py` holds both equal to the Python engine.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 mask_t;

#define MAXC 128
#define MAXP 8
#define MAXS 16
#define MAXTRICK 8
#define INF 1000000
#define PAGAT 1
#define MOND 21
#define SKIS 22

enum { TIE_FIRST = 0, TIE_LEAD_PACK = 1, TIE_LAST = 2 };
enum { EMP_ANY = 0, EMP_PAGAT_LAST = 1, EMP_MOND_SKIS_PAGAT = 2 };

#define BIT(i) (((mask_t)1) << (i))

typedef struct {
    uint64_t key;
    uint32_t gen;
    int32_t lo, hi;
    int8_t best; /* the card that was best here (-1: none) */
} Entry;

typedef struct {
    PyObject_HEAD
    int n, players, nsuits;
    int suit[MAXC], rank[MAXC], pack[MAXC], value[MAXC];
    mask_t suitmask[MAXS];
    int order[MAXS][MAXC]; /* each suit's cards by (rank, pack) */
    int order_len[MAXS];
    int trump, excuse;
    int trumps_win, must_overtake, pagat_last, emperor, emperor_needs_tarok_lead;
    int emperor_order, tie, pagat_last_tarok, mond_not_under_skis, suits_before_trump_lead;
    mask_t pagat, mond, skis, special;
    uint64_t zob[MAXC][MAXP], zlead[MAXP], zhorizon[64];
    Entry *tt;
    uint64_t ttmask;
    uint32_t gen;
    uint64_t sig; /* of the objective and held cards the table's entries are for */
    PyThread_type_lock lock; /* one search at a time (searches run without the GIL) */
} Game;

typedef struct {
    Game *g;
    mask_t hands[MAXP], held[MAXP];
    int trick[MAXTRICK], seats[MAXTRICK], k; /* the trick in play */
    int turn, team, bonus, stop_win, stop_loss;
    int horizon; /* tricks still searched before the estimate; <0: to the end */
    uint64_t hash; /* of the hands */
    long nodes, limit;
    double deadline; /* CLOCK_MONOTONIC seconds; 0: none */
    int aborted;
} Search;

static double monotonic(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int popcount(mask_t m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static inline int lowest(mask_t m) {
    uint64_t lo = (uint64_t)m;
    if (lo) return __builtin_ctzll(lo);
    return 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

/* --- rules: tricks.winning_index and tricks.legal_plays on masks ----------------------- */

static int is_trump(Game *g, int c) { return g->suit[c] == g->trump; }
static int is_pagat(Game *g, int c) { return is_trump(g, c) && g->rank[c] == PAGAT; }

static int is_emperor(Game *g, const int *cards, int n) {
    int ip = -1, im = -1, is = -1, pos = 0;
    for (int i = 0; i < n; i++) {
        int c = cards[i];
        if (!is_trump(g, c)) continue;
        int r = g->rank[c];
        if (r == PAGAT && ip < 0) ip = pos;
        if (r == MOND && im < 0) im = pos;
        if (r == SKIS && is < 0) is = pos;
        pos++;
    }
    if (ip < 0 || im < 0 || is < 0) return 0;
    if (g->emperor_needs_tarok_lead && !is_trump(g, cards[0])) return 0;
    if (g->emperor_order == EMP_PAGAT_LAST) return ip > (is > im ? is : im);
    if (g->emperor_order == EMP_MOND_SKIS_PAGAT) return im < is && is < ip;
    return 1;
}

static int emperor_pagat(Game *g, const int *cards, int n) {
    int first = -1, count = 0;
    for (int i = 0; i < n; i++)
        if (is_pagat(g, cards[i])) {
            if (first < 0) first = i;
            count++;
        }
    if (count == 1) return first;
    for (int i = 0; i < n; i++)
        if (is_pagat(g, cards[i]) && g->pack[cards[i]] == g->pack[cards[0]]) return i;
    return first;
}

static int winning_plain(Game *g, const int *cards, int n) {
    if (g->emperor && !g->trumps_win) {
        for (int i = 0; i < n; i++)
            if (is_pagat(g, cards[i])) {
                if (is_emperor(g, cards, n)) return emperor_pagat(g, cards, n);
                break;
            }
    }
    int led = cards[0], best = cards[0], index = 0;
    for (int i = 1; i < n; i++) {
        int c = cards[i];
        if (g->suit[c] == g->suit[best]) {
            if (g->rank[c] != g->rank[best]) {
                if (g->rank[c] > g->rank[best]) best = c, index = i;
            } else if (g->tie == TIE_LAST ||
                       (g->tie == TIE_LEAD_PACK && g->pack[c] == g->pack[led] &&
                        g->pack[best] != g->pack[led])) {
                best = c, index = i;
            }
        } else if (g->trumps_win && is_trump(g, c)) {
            best = c, index = i;
        }
    }
    if (g->emperor && g->trumps_win && is_trump(g, best) && g->rank[best] == SKIS &&
        is_emperor(g, cards, n))
        return emperor_pagat(g, cards, n);
    return index;
}

static int winning_index(Game *g, const int *cards, int n) {
    if (g->excuse < 0) return winning_plain(g, cards, n);
    int others[MAXTRICK], at[MAXTRICK], m = 0;
    for (int i = 0; i < n; i++)
        if (cards[i] != g->excuse) others[m] = cards[i], at[m++] = i;
    if (!m) return 0;
    return at[winning_plain(g, others, m)];
}

static mask_t without_pagat(Game *g, mask_t cards) {
    if (popcount(cards) <= 1) return cards;
    mask_t rest = cards & ~g->pagat;
    return rest ? rest : cards;
}

static int outranks(Game *g, int c, int best, int led) {
    if (g->rank[c] != g->rank[best]) return g->rank[c] > g->rank[best];
    return g->tie == TIE_LEAD_PACK && g->pack[c] == g->pack[led] && g->pack[best] != g->pack[led];
}

static mask_t candidates(Game *g, mask_t hand, const int *trick, int k) {
    if (!k) {
        mask_t cards = hand;
        if (g->suits_before_trump_lead) {
            mask_t rest = cards & ~g->suitmask[g->trump];
            cards = rest ? rest : cards;
        }
        return g->pagat_last ? without_pagat(g, cards) : cards;
    }
    int led = trick[0], suit;
    if (hand & g->suitmask[g->suit[led]]) suit = g->suit[led];
    else if (hand & g->suitmask[g->trump]) suit = g->trump;
    else return hand;
    mask_t cards = hand & g->suitmask[suit];
    if (!g->must_overtake) return cards;
    if (suit == g->trump && g->emperor && (hand & g->pagat)) {
        int m = 0, s = 0;
        for (int i = 0; i < k; i++) {
            if (!is_trump(g, trick[i])) continue;
            m |= g->rank[trick[i]] == MOND;
            s |= g->rank[trick[i]] == SKIS;
        }
        if (m && s) return cards & g->pagat;
    }
    int trump_in = 0;
    for (int i = 0; i < k; i++) trump_in |= is_trump(g, trick[i]);
    if ((suit != g->trump && trump_in) || (suit == g->trump && !trump_in)) {
        /* nothing to beat */
    } else {
        int best = -1;
        for (int i = 0; i < k; i++)
            if (g->suit[trick[i]] == suit && (best < 0 || g->rank[trick[i]] > g->rank[best]))
                best = trick[i];
        if (best >= 0) {
            mask_t higher = 0, rest = cards;
            while (rest) {
                int c = lowest(rest);
                rest &= rest - 1;
                if (outranks(g, c, best, led)) higher |= BIT(c);
            }
            if (higher) cards = higher;
        }
    }
    return g->pagat_last ? without_pagat(g, cards) : cards;
}

static mask_t legal_core(Game *g, mask_t hand, const int *trick, int k, mask_t held) {
    mask_t cards = candidates(g, hand, trick, k);
    if (g->pagat_last_tarok || g->mond_not_under_skis) {
        mask_t ok = 0, rest = cards;
        int trumps = popcount(hand & g->suitmask[g->trump]);
        int skis_in = 0;
        for (int i = 0; i < k; i++) skis_in |= is_trump(g, trick[i]) && g->rank[trick[i]] == SKIS;
        while (rest) {
            int c = lowest(rest);
            rest &= rest - 1;
            int banned = (g->pagat_last_tarok && is_pagat(g, c) && trumps > 1) ||
                         (g->mond_not_under_skis && is_trump(g, c) && g->rank[c] == MOND && skis_in);
            if (!banned) ok |= BIT(c);
        }
        if (ok) cards = ok;
    }
    if (held && popcount(hand) > 1) {
        mask_t kept = cards & ~held;
        if (kept) cards = kept;
    }
    return cards;
}

static mask_t legal(Game *g, mask_t hand, const int *trick, int k, mask_t held) {
    if (g->excuse < 0) return legal_core(g, hand, trick, k, held);
    mask_t ex = BIT(g->excuse), rest = hand & ~ex, cards = 0;
    int led[MAXTRICK], m = 0;
    for (int i = 0; i < k; i++)
        if (trick[i] != g->excuse) led[m++] = trick[i];
    if (rest) cards = legal_core(g, rest, led, m, held);
    return cards | (hand & ex);
}

/* --- search ---------------------------------------------------------------------------- */

static int in_team(Search *s, int seat) { return (s->team >> seat) & 1; }

/* The cards of `legal` worth trying: of a run of cards of one suit next to each other among the
 * cards still in play (no other card between them in any hand or in the trick), all legal
 * here, of equal value and none special, only the lowest. */
static mask_t merged(Search *s, mask_t legal_cards) {
    Game *g = s->g;
    mask_t live = 0, out = 0;
    for (int p = 0; p < g->players; p++) live |= s->hands[p];
    for (int i = 0; i < s->k; i++) live |= BIT(s->trick[i]);
    mask_t seen_suits = 0;
    mask_t rest = legal_cards;
    while (rest) {
        int c = lowest(rest);
        rest &= rest - 1;
        int su = g->suit[c];
        if (seen_suits & BIT(su)) continue;
        seen_suits |= BIT(su);
        int prev = -1;
        for (int i = 0; i < g->order_len[su]; i++) {
            int d = g->order[su][i];
            if (!(live & BIT(d))) continue;
            if (!(legal_cards & BIT(d))) {
                prev = -1;
                continue;
            }
            int joins = prev >= 0 && !(g->special & BIT(d)) && !(g->special & BIT(prev)) &&
                        g->value[d] == g->value[prev] && g->rank[d] != g->rank[prev] &&
                        !(s->held[s->turn] & (BIT(d) | BIT(prev)));
            if (!joins) out |= BIT(d);
            prev = d;
        }
    }
    return out;
}

/* Cards in the order to try them: a leader its high cards first; a follower, when its side
 * holds the trick, the cards that stay under it by value (smear), else the cheapest winners
 * first, then the cheapest losers. */
static int ordered(Search *s, mask_t cards, int *out) {
    Game *g = s->g;
    int n = 0, key[MAXC];
    int mine = in_team(s, s->turn);
    int ours = 0;
    if (s->k) ours = in_team(s, s->seats[winning_index(g, s->trick, s->k)]) == mine;
    while (cards) {
        int c = lowest(cards);
        cards &= cards - 1;
        int kk;
        if (!s->k) {
            kk = -(g->rank[c] + (is_trump(g, c) ? 100 : 0));
        } else {
            s->trick[s->k] = c;
            int wins = winning_index(g, s->trick, s->k + 1) == s->k;
            if (ours) kk = wins ? 1000 + g->rank[c] : -g->value[c];
            else kk = wins ? g->rank[c] + (is_trump(g, c) ? 100 : 0) : 1000 + g->value[c];
        }
        int i = n++;
        while (i > 0 && key[i - 1] > kk) {
            key[i] = key[i - 1];
            out[i] = out[i - 1];
            i--;
        }
        key[i] = kk;
        out[i] = c;
    }
    return n;
}

/* What the team may expect from the cards still in the hands when the search stops early:
 * their value (and the tricks' bonus) shared out by the sides' trumps and cards. */
static int estimate(Search *s) {
    Game *g = s->g;
    int total = 0, tricks = 0, nt = 0, na = 0, tt = 0, ta = 0;
    for (int p = 0; p < g->players; p++) {
        mask_t h = s->hands[p];
        int cards = popcount(h), trumps = popcount(h & g->suitmask[g->trump]);
        if (cards > tricks) tricks = cards;
        na += cards;
        ta += trumps;
        if (in_team(s, p)) nt += cards, tt += trumps;
        while (h) {
            int c = lowest(h);
            h &= h - 1;
            total += g->value[c];
        }
    }
    total += tricks * s->bonus;
    int weight = 2 * ta + na;
    if (!weight) return 0;
    return total * (2 * tt + nt) / weight;
}

static int search(Search *s, int alpha, int beta);

/* The value after `c` is played by the seat to play (the trick completed if it was the last). */
static int play(Search *s, int c, int alpha, int beta) {
    Game *g = s->g;
    int seat = s->turn, v;
    s->hands[seat] &= ~BIT(c);
    s->hash ^= g->zob[c][seat];
    s->trick[s->k] = c;
    s->seats[s->k] = seat;
    s->k++;
    if (s->k < g->players) {
        s->turn = (seat + 1) % g->players;
        v = search(s, alpha, beta);
    } else {
        int w = s->seats[winning_index(g, s->trick, s->k)];
        int gain = 0;
        int saved[MAXTRICK], seats[MAXTRICK], k = s->k;
        for (int i = 0; i < k; i++) gain += g->value[s->trick[i]];
        gain += s->bonus;
        int won = in_team(s, w);
        memcpy(saved, s->trick, sizeof(int) * k);
        memcpy(seats, s->seats, sizeof(int) * k);
        s->k = 0;
        s->turn = w;
        if ((won && s->stop_win) || (!won && s->stop_loss)) {
            v = 0;
        } else {
            int h = s->horizon;
            if (h > 0) s->horizon--;
            v = search(s, alpha - (won ? gain : 0), beta - (won ? gain : 0));
            s->horizon = h;
        }
        if (won) v += gain;
        memcpy(s->trick, saved, sizeof(int) * k);
        memcpy(s->seats, seats, sizeof(int) * k);
        s->k = k;
    }
    s->k--;
    s->turn = seat;
    s->hands[seat] |= BIT(c);
    s->hash ^= g->zob[c][seat];
    return v;
}

static int search(Search *s, int alpha, int beta) {
    Game *g = s->g;
    if (++s->nodes > s->limit && s->limit > 0) {
        s->aborted = 1;
        return 0;
    }
    if (s->deadline > 0 && !(s->nodes & 1023) && monotonic() > s->deadline) {
        s->aborted = 1;
        return 0;
    }
    mask_t hand = s->hands[s->turn];
    if (!s->k) {
        int any = 0;
        for (int p = 0; p < g->players; p++) any |= s->hands[p] != 0;
        if (!any) return 0;
        if (s->horizon == 0) return estimate(s);
    }
    if (!hand) return 0; /* cannot happen in a consistent deal */
    Entry *e = NULL;
    uint64_t key = 0;
    int best_hint = -1;
    if (!s->k) {
        key = s->hash ^ g->zlead[s->turn] ^ g->zhorizon[s->horizon < 0 ? 63 : s->horizon & 63];
        e = &g->tt[key & g->ttmask];
        if (e->key == key && e->gen == g->gen) {
            if (e->lo >= beta) return e->lo;
            if (e->hi <= alpha) return e->hi;
            if (e->lo == e->hi) return e->lo;
            if (e->lo > alpha) alpha = e->lo;
            if (e->hi < beta) beta = e->hi;
            best_hint = e->best;
        }
    }
    int a0 = alpha, b0 = beta;
    mask_t cards = merged(s, legal(g, hand, s->trick, s->k, s->held[s->turn]));
    int order[MAXC];
    int n = ordered(s, cards, order);
    if (best_hint >= 0 && (cards & BIT(best_hint))) {
        for (int i = 0; i < n; i++)
            if (order[i] == best_hint) {
                memmove(order + 1, order, sizeof(int) * i);
                order[0] = best_hint;
                break;
            }
    }
    int maxing = in_team(s, s->turn);
    int best = maxing ? -INF : INF, best_card = -1;
    for (int i = 0; i < n; i++) {
        int v = play(s, order[i], alpha, beta);
        if (s->aborted) return 0;
        if (maxing ? v > best : v < best) best = v, best_card = order[i];
        if (maxing) {
            if (best > alpha) alpha = best;
        } else if (best < beta) {
            beta = best;
        }
        if (alpha >= beta) break;
    }
    if (e) {
        if (e->key != key || e->gen != g->gen) {
            e->key = key;
            e->gen = g->gen;
            e->lo = -INF;
            e->hi = INF;
        }
        if (best <= a0) e->hi = best;
        else if (best >= b0) e->lo = best;
        else e->lo = e->hi = best;
        e->best = (int8_t)best_card;
    }
    return best;
}

/* --- Python binding -------------------------------------------------------------------- */

static int read_cards(Game *g, PyObject *seq, int *out, int max, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > max) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (c == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (c < 0 || c >= g->n) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "%s: card %ld is not in the deck", what, c);
            return -1;
        }
        out[i] = (int)c;
    }
    Py_DECREF(fast);
    return (int)n;
}

static int read_mask(Game *g, PyObject *seq, mask_t *out, const char *what) {
    int cards[MAXC];
    int n = read_cards(g, seq, cards, MAXC, what);
    if (n < 0) return -1;
    *out = 0;
    for (int i = 0; i < n; i++) *out |= BIT(cards[i]);
    return n;
}

static PyObject *mask_list(mask_t m) {
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    while (m) {
        int c = lowest(m);
        m &= m - 1;
        PyObject *v = PyLong_FromLong(c);
        if (!v || PyList_Append(out, v) < 0) {
            Py_XDECREF(v);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(v);
    }
    return out;
}

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int Game_init(Game *g, PyObject *args, PyObject *kw) {
    static char *names[] = {"players", "suits", "ranks", "packs", "values", "trump", "flags",
                            "excuse", "table_bits", NULL};
    PyObject *suits, *ranks, *packs, *values, *flags;
    int players, trump, excuse, bits = 20;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "iOOOOiOi|i", names, &players, &suits, &ranks,
                                     &packs, &values, &trump, &flags, &excuse, &bits))
        return -1;
    if (players < 2 || players > MAXP) {
        PyErr_SetString(PyExc_ValueError, "players: 2 to 8");
        return -1;
    }
    if (bits < 10 || bits > 26) {
        PyErr_SetString(PyExc_ValueError, "table_bits: 10 to 26");
        return -1;
    }
    PyObject *lists[4] = {suits, ranks, packs, values};
    int *arrays[4] = {g->suit, g->rank, g->pack, g->value};
    Py_ssize_t n = PySequence_Size(suits);
    if (n < 0) return -1;
    if (n > MAXC) {
        PyErr_SetString(PyExc_ValueError, "at most 128 cards");
        return -1;
    }
    g->n = (int)n;  /* read_cards checks cards against it */
    for (int a = 0; a < 4; a++) {
        if (PySequence_Size(lists[a]) != n) {
            PyErr_SetString(PyExc_ValueError, "card tables of different lengths");
            return -1;
        }
        PyObject *fast = PySequence_Fast(lists[a], "card table");
        if (!fast) return -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
            if (v == -1 && PyErr_Occurred()) {
                Py_DECREF(fast);
                return -1;
            }
            arrays[a][i] = (int)v;
        }
        Py_DECREF(fast);
    }
    int fl[10];
    PyObject *ff = PySequence_Fast(flags, "flags");
    if (!ff) return -1;
    if (PySequence_Fast_GET_SIZE(ff) != 10) {
        Py_DECREF(ff);
        PyErr_SetString(PyExc_ValueError, "flags: 10 integers");
        return -1;
    }
    for (int i = 0; i < 10; i++) {
        fl[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(ff, i));
    }
    Py_DECREF(ff);
    if (PyErr_Occurred()) return -1;
    g->trumps_win = fl[0];
    g->must_overtake = fl[1];
    g->pagat_last = fl[2];
    g->emperor = fl[3];
    g->emperor_needs_tarok_lead = fl[4];
    g->emperor_order = fl[5];
    g->tie = fl[6];
    g->pagat_last_tarok = fl[7];
    g->mond_not_under_skis = fl[8];
    g->suits_before_trump_lead = fl[9];
    g->players = players;
    g->trump = trump;
    g->excuse = excuse;
    g->nsuits = 0;
    memset(g->suitmask, 0, sizeof g->suitmask);
    g->pagat = g->mond = g->skis = 0;
    for (int i = 0; i < g->n; i++) {
        if (g->suit[i] < 0 || g->suit[i] >= MAXS) {
            PyErr_SetString(PyExc_ValueError, "suits: 0 to 15");
            return -1;
        }
        if (g->suit[i] >= g->nsuits) g->nsuits = g->suit[i] + 1;
        g->suitmask[g->suit[i]] |= BIT(i);
        if (g->suit[i] == trump) {
            if (g->rank[i] == PAGAT) g->pagat |= BIT(i);
            if (g->rank[i] == MOND) g->mond |= BIT(i);
            if (g->rank[i] == SKIS) g->skis |= BIT(i);
        }
    }
    if (excuse >= g->n) {
        PyErr_SetString(PyExc_ValueError, "excuse: not a card of the deck");
        return -1;
    }
    g->special = g->pagat | g->mond | g->skis | (excuse >= 0 ? BIT(excuse) : 0);
    for (int s = 0; s < g->nsuits; s++) {
        int len = 0;
        for (int i = 0; i < g->n; i++)
            if (g->suit[i] == s) {
                int j = len++;
                while (j > 0 && (g->rank[g->order[s][j - 1]] > g->rank[i] ||
                                 (g->rank[g->order[s][j - 1]] == g->rank[i] &&
                                  g->pack[g->order[s][j - 1]] > g->pack[i]))) {
                    g->order[s][j] = g->order[s][j - 1];
                    j--;
                }
                g->order[s][j] = i;
            }
        g->order_len[s] = len;
    }
    uint64_t seed = 0x7A20C0DEull;
    for (int i = 0; i < MAXC; i++)
        for (int p = 0; p < MAXP; p++) g->zob[i][p] = splitmix(&seed);
    for (int p = 0; p < MAXP; p++) g->zlead[p] = splitmix(&seed);
    for (int h = 0; h < 64; h++) g->zhorizon[h] = splitmix(&seed);
    free(g->tt);
    if (!g->lock) g->lock = PyThread_allocate_lock();
    if (!g->lock) {
        PyErr_NoMemory();
        return -1;
    }
    g->sig = 0;
    g->ttmask = (1ull << bits) - 1;
    g->tt = calloc((size_t)1 << bits, sizeof(Entry));
    if (!g->tt) {
        PyErr_NoMemory();
        return -1;
    }
    g->gen = 0;
    return 0;
}

static void Game_dealloc(Game *g) {
    free(g->tt);
    if (g->lock) PyThread_free_lock(g->lock);
    Py_TYPE(g)->tp_free((PyObject *)g);
}

static PyObject *Game_legal(Game *g, PyObject *args) {
    PyObject *hand, *trick, *held = NULL;
    if (!PyArg_ParseTuple(args, "OO|O", &hand, &trick, &held)) return NULL;
    mask_t h, hd = 0;
    int t[MAXTRICK];
    if (read_mask(g, hand, &h, "hand") < 0) return NULL;
    int k = read_cards(g, trick, t, g->players - 1, "trick");
    if (k < 0) return NULL;
    if (held && read_mask(g, held, &hd, "held") < 0) return NULL;
    return mask_list(legal(g, h, t, k, hd));
}

static PyObject *Game_winner(Game *g, PyObject *args) {
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "O", &trick)) return NULL;
    int t[MAXTRICK];
    int k = read_cards(g, trick, t, MAXTRICK, "trick");
    if (k < 0) return NULL;
    if (k < 1) {
        PyErr_SetString(PyExc_ValueError, "trick: no card");
        return NULL;
    }
    return PyLong_FromLong(winning_index(g, t, k));
}

/* solve(hands, trick, turn, team, held=(), bonus=0, stop_win=False, stop_loss=False,
 *       horizon=-1, node_limit=0, seconds=0) -> ([(card, value)] for each legal card of the
 * seat to play, nodes searched), or None past the node limit or the time limit. */
static PyObject *Game_solve(Game *g, PyObject *args, PyObject *kw) {
    static char *names[] = {"hands", "trick", "turn", "team", "held", "bonus", "stop_win",
                            "stop_loss", "horizon", "node_limit", "seconds", NULL};
    PyObject *hands, *trick, *held = NULL;
    int turn, team, bonus = 0, stop_win = 0, stop_loss = 0, horizon = -1;
    long limit = 0;
    double seconds = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "OOii|Oippild", names, &hands, &trick, &turn,
                                     &team, &held, &bonus, &stop_win, &stop_loss, &horizon,
                                     &limit, &seconds))
        return NULL;
    Search s;
    memset(&s, 0, sizeof s);
    s.g = g;
    if (turn < 0 || turn >= g->players) {
        PyErr_SetString(PyExc_ValueError, "turn: not a seat");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(hands, "hands");
    if (!fast) return NULL;
    if (PySequence_Fast_GET_SIZE(fast) != g->players) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "hands: one per seat");
        return NULL;
    }
    mask_t all = 0;
    int sizes[MAXP];
    for (int p = 0; p < g->players; p++) {
        sizes[p] = read_mask(g, PySequence_Fast_GET_ITEM(fast, p), &s.hands[p], "hand");
        if (sizes[p] < 0 || (all & s.hands[p])) {
            Py_DECREF(fast);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "hands: a card twice");
            return NULL;
        }
        all |= s.hands[p];
    }
    Py_DECREF(fast);
    s.k = read_cards(g, trick, s.trick, g->players - 1, "trick");
    if (s.k < 0) return NULL;
    for (int i = 0; i < s.k; i++) {
        s.seats[i] = ((turn - s.k + i) % g->players + g->players) % g->players;
        if (all & BIT(s.trick[i])) {
            PyErr_SetString(PyExc_ValueError, "trick: a card also in a hand");
            return NULL;
        }
    }
    if (held && held != Py_None) {
        PyObject *hf = PySequence_Fast(held, "held");
        if (!hf) return NULL;
        Py_ssize_t hn = PySequence_Fast_GET_SIZE(hf);
        for (Py_ssize_t p = 0; p < hn && p < g->players; p++)
            if (read_mask(g, PySequence_Fast_GET_ITEM(hf, p), &s.held[p], "held") < 0) {
                Py_DECREF(hf);
                return NULL;
            }
        Py_DECREF(hf);
    }
    s.turn = turn;
    s.team = team;
    s.bonus = bonus;
    s.stop_win = stop_win;
    s.stop_loss = stop_loss;
    s.horizon = horizon;
    s.limit = limit;
    s.deadline = seconds > 0 ? monotonic() + seconds : 0;
    for (int p = 0; p < g->players; p++) {
        mask_t h = s.hands[p];
        while (h) {
            int c = lowest(h);
            h &= h - 1;
            s.hash ^= g->zob[c][p];
        }
    }
    /* the table's entries stay valid while the objective and the held cards are the same
     * (the values are the Game's own; hands, leader and horizon are in each key) */
    uint64_t sig = 0x5EEDull;
    uint64_t parts[4] = {(uint64_t)team, (uint64_t)(int64_t)bonus, (uint64_t)stop_win,
                         (uint64_t)stop_loss};
    for (int i = 0; i < 4; i++) sig = (sig ^ parts[i]) * 0x100000001B3ull + i;
    for (int p = 0; p < g->players; p++)
        sig = (sig ^ (uint64_t)s.held[p] ^ (uint64_t)(s.held[p] >> 64)) * 0x100000001B3ull + p;
    int values[MAXC];
    int order[MAXC];
    mask_t options, tried;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(g->lock, WAIT_LOCK);
    if (sig != g->sig || !g->gen) {
        g->gen++;
        g->sig = sig;
    }
    options = legal(g, s.hands[turn], s.trick, s.k, s.held[turn]);
    tried = merged(&s, options);
    int n = ordered(&s, tried, order);
    for (int i = 0; i < n && !s.aborted; i++) values[order[i]] = play(&s, order[i], -INF, INF);
    PyThread_release_lock(g->lock);
    Py_END_ALLOW_THREADS
    if (s.aborted) Py_RETURN_NONE;
    /* each merged card takes the value of the tried card below it in its run */
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    mask_t rest = options;
    while (rest) {
        int c = lowest(rest);
        rest &= rest - 1;
        int from = c;
        if (!(tried & BIT(c))) {
            int su = g->suit[c];
            for (int i = 0; i < g->order_len[su]; i++) {
                int d = g->order[su][i];
                if (d == c) break;
                if (tried & BIT(d)) from = d;
            }
        }
        PyObject *item = Py_BuildValue("(ii)", c, values[from]);
        if (!item || PyList_Append(out, item) < 0) {
            Py_XDECREF(item);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(item);
    }
    PyObject *result = Py_BuildValue("(Nl)", out, s.nodes);
    return result;
}

static PyMethodDef Game_methods[] = {
    {"legal", (PyCFunction)Game_legal, METH_VARARGS,
     "legal(hand, trick, held=()) -> the legal cards (deck indices) of `hand`."},
    {"winner", (PyCFunction)Game_winner, METH_VARARGS,
     "winner(trick) -> the index of the winning card in the trick (playing order)."},
    {"solve", (PyCFunction)(void (*)(void))Game_solve, METH_VARARGS | METH_KEYWORDS,
     "solve(hands, trick, turn, team, held=(), bonus=0, stop_win=False, stop_loss=False, "
     "horizon=-1, node_limit=0, seconds=0) -> ([(card, value)], nodes), or None past the "
     "node limit or the time limit."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject GameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tarok_service.bots.solver._dds.Game",
    .tp_basicsize = sizeof(Game),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "One rule set's trick play as tables, with its transposition table.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Game_init,
    .tp_dealloc = (destructor)Game_dealloc,
    .tp_methods = Game_methods,
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_dds", "Perfect-information trick-play solver.", -1, NULL, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__dds(void) {
    if (PyType_Ready(&GameType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    Py_INCREF(&GameType);
    if (PyModule_AddObject(m, "Game", (PyObject *)&GameType) < 0) {
        Py_DECREF(&GameType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
