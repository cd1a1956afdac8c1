/* The double-dummy search of `solver.py`, in C: the same null-window alpha-beta driven
 * MTD(f)-style to the exact value, over a transposition table keyed by the four hands (runs of
 * equal cards moved to the top of their run), the leader and the aces still banned, holding
 * bounds on the points N/S take from a trick's start on. Cards are bits 9*suit+rank (suits
 * C D H S, ranks 6 7 8 9 T J Q K A) as in `cards.py`; the trick ladders are built here the way
 * `ladder.py` builds them, and the tests check every answer against the Python solver.
 *
 * Built by `python -m gameplay.engine build-native` (`native.py`) into `_dds.*.so`; without it
 * `solver.py` searches in Python. The table lives in a `Search` object as long as the Python
 * `Solver` that owns it; it grows with the search up to a cap of 6 MB, then a new entry replaces
 * the one nearby with the fewest cards left (it only holds bounds: forgetting one costs time,
 * never correctness). A table that fits the processor's cache is faster than one that keeps
 * everything: a look-up that misses the cache costs more than searching a small subtree again.
 * Over 400 lines because an extension module is one translation unit: the tables, the table of
 * bounds, the search and its Python type are kept together so the compiler can inline across them.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "structmember.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;
#define BIT(c) ((u64)1 << (c))
#define JACKS (BIT(5) | BIT(14) | BIT(23) | BIT(32))
#define ZERO ((u64)0xF | (u64)0xF << 9 | (u64)0xF << 18 | (u64)0xF << 27)
#define LOW(x) __builtin_ctzll(x)

static int VALUE[36];
static int STR4[16][36];     /* 4 * strength in the trick ladder, -4: cannot win */
static u64 FOLLOW[16];       /* the cards that follow a lead, by trump * 4 + lead key */
static u64 PLAIN_SUIT[4];    /* a suit less its jack */
static int LEAD_KEY[4][36];  /* the led "suit": the trump for a trump lead */
static u64 BEATS[16][48];    /* the cards stronger than strength s in ladder idx */
static u64 BY_VALUE[6];      /* aces, tens, kings, queens, jacks, 6-9 */
static u64 RANK_MASK[9];
static uint8_t ZERO_RED[256], ZERO_TOP[256], LOOSE[16], LOOSE_J[16];
static u64 JACK_RED[256], JACK_TOP[256];
static const int JACK_BITS[4] = {5, 32, 23, 14}; /* JC JS JH JD, strongest first */
static const int ZERO_ORDER[4] = {3, 2, 1, 0};
static const int PLAIN_HIGH_FIRST[8] = {8, 4, 7, 6, 3, 2, 1, 0}; /* A 10 K Q 9 8 7 6 */

static uint8_t CHUNK[3][4096]; /* the points of each 12-card slice of a mask */

static int points(u64 m) { return CHUNK[0][m & 0xFFF] + CHUNK[1][m >> 12 & 0xFFF] + CHUNK[2][m >> 24 & 0xFFF]; }

static unsigned jack_pattern(u64 m) {
    return (unsigned)((m >> 5 & 1) | (m >> 31 & 2) | (m >> 21 & 4) | (m >> 11 & 8));
}

static u64 jack_mask(unsigned p) {
    u64 out = 0;
    for (int i = 0; i < 4; i++)
        if (p >> i & 1) out |= BIT(JACK_BITS[i]);
    return out;
}

/* The cards of `hand` whose nearest stronger live card of the run is in the same hand. */
static u64 run_redundant(const int *order, int n, u64 alive, u64 hand) {
    u64 red = 0;
    int above = -1;
    for (int i = 0; i < n; i++) {
        int b = order[i];
        if (alive >> b & 1) {
            if ((hand >> b & 1) && above >= 0 && (hand >> above & 1)) red |= BIT(b);
            above = b;
        }
    }
    return red;
}

/* `hand`'s cards of a run moved to the run's top slots, keeping the live cards' order. */
static u64 to_top(const int *order, int n, u64 alive, u64 hand) {
    u64 out = 0;
    int k = 0;
    for (int i = 0; i < n; i++) {
        int b = order[i];
        if (alive >> b & 1) {
            if (hand >> b & 1) out |= BIT(order[k]);
            k++;
        }
    }
    return out;
}

static int strength(int trump, int lead, int card) {
    static const int plain_order[9] = {0, 1, 2, 3, 6, -1, 4, 5, 7};
    static const int jack_order[4] = {3, 0, 1, 2};
    int suit = card / 9, rank = card % 9;
    if (rank == 5) return 40 + jack_order[suit];
    if (suit == trump) return 20 + plain_order[rank];
    if (suit == lead) return plain_order[rank];
    return -1;
}

static void build_tables(void) {
    static const int rank_value[9] = {0, 0, 0, 0, 10, 2, 3, 4, 11};
    for (int c = 0; c < 36; c++) VALUE[c] = rank_value[c % 9];
    for (int r = 0; r < 9; r++) {
        RANK_MASK[r] = 0;
        for (int s = 0; s < 4; s++) RANK_MASK[r] |= BIT(9 * s + r);
    }
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 4096; i++) {
            int p = 0;
            for (int b = 0; b < 12; b++)
                if (i >> b & 1) p += VALUE[12 * k + b];
            CHUNK[k][i] = (uint8_t)p;
        }
    for (int s = 0; s < 4; s++) PLAIN_SUIT[s] = ((u64)0x1FF << (9 * s)) & ~JACKS;
    for (int t = 0; t < 4; t++) {
        for (int c = 0; c < 36; c++) LEAD_KEY[t][c] = (c % 9 == 5 || c / 9 == t) ? t : c / 9;
        for (int lead = 0; lead < 4; lead++) {
            int idx = t * 4 + lead;
            FOLLOW[idx] = lead == t ? (JACKS | PLAIN_SUIT[t]) : PLAIN_SUIT[lead];
            for (int c = 0; c < 36; c++) STR4[idx][c] = 4 * strength(t, lead, c);
            for (int s = 0; s < 48; s++) {
                u64 m = 0;
                for (int c = 0; c < 36; c++)
                    if (strength(t, lead, c) > s) m |= BIT(c);
                BEATS[idx][s] = m;
            }
        }
    }
    static const int by_value_rank[5] = {8, 4, 7, 6, 5};
    for (int i = 0; i < 5; i++) BY_VALUE[i] = RANK_MASK[by_value_rank[i]];
    BY_VALUE[5] = ZERO;
    for (unsigned i = 0; i < 256; i++) {
        ZERO_RED[i] = (uint8_t)run_redundant(ZERO_ORDER, 4, (i >> 4) | (i & 15), i & 15);
        JACK_RED[i] = run_redundant(JACK_BITS, 4, jack_mask((i >> 4) | (i & 15)), jack_mask(i & 15));
        ZERO_TOP[i] = (uint8_t)to_top(ZERO_ORDER, 4, i >> 4, i & 15);
        JACK_TOP[i] = to_top(JACK_BITS, 4, jack_mask(i >> 4), jack_mask(i & 15));
    }
    for (unsigned a = 0; a < 16; a++) {
        LOOSE[a] = to_top(ZERO_ORDER, 4, a, a) != a;
        LOOSE_J[a] = to_top(JACK_BITS, 4, jack_mask(a), jack_mask(a)) != jack_mask(a);
    }
}

/* `legal` less the cards equivalent to a stronger legal card of the same hand. */
static u64 representatives(u64 legal, u64 alive) {
    u64 z = legal & ZERO;
    if (z & (z - 1)) {
        for (int shift = 0; shift < 36; shift += 9) {
            unsigned zs = (unsigned)(z >> shift & 15);
            if (zs & (zs - 1)) legal &= ~((u64)ZERO_RED[(unsigned)(alive >> shift & 15) << 4 | zs] << shift);
        }
    }
    u64 j = legal & JACKS;
    if (j & (j - 1)) legal &= ~JACK_RED[jack_pattern(alive) << 4 | jack_pattern(j)];
    return legal;
}

/* ------------------------------------------------------------------ the table */
/* The key packs the position in two words: which cards are live, and two bits of each live
 * card's holder (seats 1 and 3, seats 2 and 3), with the leader and the banned aces; `b` is
 * never 0 for a used entry. */
typedef struct {
    u64 a, b;
    uint8_t lo, hi;
    int8_t best;
    uint8_t cards; /* cards left in the hands */
} Entry;

#define TABLE_START ((size_t)1 << 14)
#ifndef TABLE_CAP
#define TABLE_CAP ((size_t)1 << 18)
#endif

typedef struct {
    PyObject_HEAD
    int trump;
    int nxt[4];
    int trump_order[12];
    int classes[4][12]; /* each class's cards strongest first: the trumps, the plain suits */
    int class_len[4];
    u64 h[4];
    Entry *table;
    size_t mask;
    size_t count;
    size_t cap;  /* the most entries (TABLE_CAP, or less for the tests) */
    int capped; /* no memory for a bigger table */
    unsigned gen; /* changes when the entries move (a bigger table) or go (a fresh one) */
    long long nodes;
    PyObject *stop; /* a callable asked every STOP_EVERY positions whether to give up, or NULL */
    int stopped;    /* it said yes (or raised): every search unwinds at once, storing nothing */
} Search;

/* Positions between two questions to `stop`: a few hundred microseconds of search. */
#define STOP_EVERY 1024

static size_t slot_of(u64 a, u64 b, size_t mask) {
    u64 x = a * 0x9E3779B97F4A7C15ULL ^ b * 0xC2B2AE3D27D4EB4FULL;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ULL;
    x ^= x >> 32;
    return (size_t)x & mask;
}

/* Each key lives in one of the WINDOW slots from its hash's: a look-up never reads more. */
#define WINDOW 8

static void table_grow(Search *S) {
    size_t cap = (S->mask + 1) * 2;
    Entry *fresh = calloc(cap, sizeof(Entry));
    if (fresh == NULL) { /* no memory for a bigger one: keep replacing in this one */
        S->capped = 1;
        return;
    }
    for (size_t i = 0; i <= S->mask; i++) {
        Entry *e = &S->table[i];
        if (!e->b) continue;
        size_t s = slot_of(e->a, e->b, cap - 1);
        for (int k = 0; k < WINDOW; k++, s = (s + 1) & (cap - 1)) {
            if (!fresh[s].b) {
                fresh[s] = *e;
                break;
            }
        } /* an entry with no room is forgotten: it only held bounds */
    }
    free(S->table);
    S->table = fresh;
    S->mask = cap - 1;
    S->gen++;
}

/* The entry for the key, a new one ([0, total], no best card) if there was none. Below the cap
 * the table doubles when half full or when a window has no room; at the cap the new entry
 * replaces the one of its window with the fewest cards left (the cheapest to search again). */
static Entry *table_get(Search *S, u64 a, u64 b, int total, int cards, int *found) {
    for (;;) {
        size_t s = slot_of(a, b, S->mask);
        Entry *victim = NULL;
        for (int k = 0; k < WINDOW; k++, s = (s + 1) & S->mask) {
            Entry *e = &S->table[s];
            if (!e->b) {
                victim = e;
                break;
            }
            if (e->a == a && e->b == b) {
                *found = 1;
                return e;
            }
            if (victim == NULL || e->cards < victim->cards) victim = e;
        }
        int room = !victim->b;
        if (!S->capped && S->mask + 1 < S->cap && (!room || 2 * (S->count + 1) > S->mask + 1)) {
            table_grow(S);
            continue;
        }
        *found = 0;
        if (room)
            S->count++;
        else
            S->gen++; /* a frame may hold the entry it replaces */
        victim->a = a;
        victim->b = b;
        victim->lo = 0;
        victim->hi = (uint8_t)total;
        victim->best = -1;
        victim->cards = (uint8_t)cards;
        return victim;
    }
}

/* ------------------------------------------------------------------ search */
static int follow(Search *S, int seat, int n, int idx, int best, int pts, u64 unled, u64 alive, int beta);

static int push_cards(int *out, int n, u64 m) {
    while (m) {
        out[n++] = LOW(m);
        m &= m - 1;
    }
    return n;
}

static u64 tops(Search *S, u64 alive) {
    u64 t = 0;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < S->class_len[k]; i++) {
            int c = S->classes[k][i];
            if (alive >> c & 1) {
                t |= BIT(c);
                break;
            }
        }
    return t;
}

/* A bound on the points N/S take from a trick's start: >= beta if they can take beta, else < beta. */
static int lead(Search *S, int leader, u64 unled, int beta) {
    if (S->stopped) return 0;
    u64 *h = S->h;
    u64 h0 = h[0], h1 = h[1], h2 = h[2], h3 = h[3];
    u64 alive = h0 | h1 | h2 | h3;
    int total = points(alive);
    if (beta > total) return total;
    if (beta <= 0) return 0;
    /* The highest live trumps down to the first of the other pair's fall to their pair. */
    int sure = 0, run = -1;
    u64 ns = h0 | h2;
    for (int i = 0; i < 12; i++) {
        int c = S->trump_order[i];
        if (alive >> c & 1) {
            int pair = (ns >> c & 1) ? 0 : 1;
            if (run != pair) {
                if (run >= 0) break;
                run = pair;
            }
            sure += VALUE[c];
        }
    }
    if (run == 0) {
        if (beta <= sure) return sure;
    } else if (beta > total - sure) {
        return total - sure;
    }
    const int *nxt = S->nxt;
    u64 hand = h[leader];
    if (!(hand & (hand - 1))) { /* the last trick: every card is forced */
        int s1 = nxt[leader], s2 = nxt[s1], s3 = nxt[s2];
        int c0 = LOW(hand);
        const int *row = STR4[S->trump * 4 + LEAD_KEY[S->trump][c0]];
        int b = row[c0] + leader, v;
        v = row[LOW(h[s1])] + s1;
        if (v > b) b = v;
        v = row[LOW(h[s2])] + s2;
        if (v > b) b = v;
        v = row[LOW(h[s3])] + s3;
        if (v > b) b = v;
        return (b & 1) ? 0 : total;
    }
    u64 k[4] = {h0, h1, h2, h3};
    for (int shift = 0; shift < 36; shift += 9) {
        unsigned a = (unsigned)(alive >> shift & 15);
        if (LOOSE[a]) {
            u64 m = ~((u64)15 << shift);
            for (int i = 0; i < 4; i++)
                k[i] = (k[i] & m) | (u64)ZERO_TOP[a << 4 | (unsigned)(k[i] >> shift & 15)] << shift;
        }
    }
    unsigned ja = jack_pattern(alive);
    if (LOOSE_J[ja])
        for (int i = 0; i < 4; i++) k[i] = (k[i] & ~JACKS) | JACK_TOP[ja << 4 | jack_pattern(k[i])];
    u64 meta = 1 + (u64)leader + 4 * ((unled >> 8 & 1) | (unled >> 16 & 2) | (unled >> 24 & 4) | (unled >> 32 & 8));
    u64 live = k[0] | k[1] | k[2] | k[3];
    u64 ka = (k[1] | k[3]) | (live & 0xFFFFFFF) << 36;
    u64 kb = (k[2] | k[3]) | (live >> 28) << 36 | meta << 44;
    int found;
    int cards = __builtin_popcountll(alive);
    Entry *e = table_get(S, ka, kb, total, cards, &found);
    unsigned gen = S->gen;
    int first = -1;
    if (found) {
        if (e->lo >= beta) return e->lo;
        if (e->hi < beta) return e->hi;
        first = e->best;
    }
    S->nodes++;
    if (S->stop != NULL && S->stop != Py_None && !(S->nodes & (STOP_EVERY - 1))) {
        PyObject *r = PyObject_CallNoArgs(S->stop);
        int yes = r == NULL ? 1 : PyObject_IsTrue(r);
        Py_XDECREF(r);
        if (yes) {
            S->stopped = yes < 0 ? 1 : yes;
            return 0;
        }
    }
    int moves[12], nm = 0;
    u64 reps = representatives(hand, alive);
    u64 top = reps & tops(S, alive), rest = reps & ~top;
    for (int i = 0; i < 6; i++) nm = push_cards(moves, nm, top & BY_VALUE[i]);
    for (int i = 0; i < 6; i++) nm = push_cards(moves, nm, rest & BY_VALUE[i]);
    if (first >= 0 && (reps >> first & 1)) {
        int i = 0;
        while (moves[i] != first) i++;
        for (; i > 0; i--) moves[i] = moves[i - 1];
        moves[0] = first;
    }
    int maximise = !(leader & 1);
    int best_v = maximise ? -1 : 999, best_card = -1;
    int s1 = nxt[leader], trump = S->trump;
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        h[leader] = hand ^ BIT(c);
        int lk = LEAD_KEY[trump][c];
        int idx = trump * 4 + lk;
        u64 u = (unled && lk != trump) ? unled & ~PLAIN_SUIT[lk] : unled;
        int v = follow(S, s1, 1, idx, STR4[idx][c] + leader, VALUE[c], u, alive, beta);
        if (S->stopped) break;
        if (maximise) {
            if (v > best_v) {
                best_v = v;
                best_card = c;
                if (v >= beta) break;
            }
        } else if (v < best_v) {
            best_v = v;
            best_card = c;
            if (v < beta) break;
        }
    }
    h[leader] = hand;
    if (S->stopped) return 0; /* a value cut short is no bound: keep it out of the table */
    if (S->gen != gen) e = table_get(S, ka, kb, total, cards, &found); /* the entries moved meanwhile */
    if (best_v >= beta) {
        if (best_v > e->lo) e->lo = (uint8_t)best_v;
    } else if (best_v < e->hi) {
        e->hi = (uint8_t)best_v;
    }
    e->best = (int8_t)best_card;
    return best_v;
}

/* The n-th card (from 0) of a trick led to the ladder idx; `best` the best card so far * 4 + seat. */
static int follow(Search *S, int seat, int n, int idx, int best, int pts, u64 unled, u64 alive, int beta) {
    u64 *h = S->h;
    u64 hand = h[seat];
    u64 legal = hand & FOLLOW[idx];
    if (!legal) legal = hand & ~unled;
    if (!legal) legal = hand;
    u64 reps = representatives(legal, alive);
    const int *row = STR4[idx];
    int moves[12], nm = 0;
    if (reps & (reps - 1)) {
        u64 beats = BEATS[idx][best >> 2];
        int partner = (best & 1) == (seat & 1);
        if (partner && n == 2) {
            u64 last = h[S->nxt[seat]];
            u64 l = last & FOLLOW[idx];
            if (!l) l = last & ~unled;
            if (!l) l = last;
            partner = !(l & beats);
        }
        if (partner) {
            for (int i = 0; i < 6; i++) nm = push_cards(moves, nm, reps & BY_VALUE[i]);
        } else {
            u64 win = reps & beats, lose = reps & ~beats;
            if (win) {
                if (n == 3)
                    for (int i = 0; i < 6; i++) nm = push_cards(moves, nm, win & BY_VALUE[i]);
                else
                    for (int i = 5; i >= 0; i--) nm = push_cards(moves, nm, win & BY_VALUE[i]);
            }
            for (int i = 5; i >= 0; i--) nm = push_cards(moves, nm, lose & BY_VALUE[i]);
        }
    } else {
        moves[nm++] = LOW(reps);
    }
    int maximise = !(seat & 1);
    int best_v = maximise ? -1 : 999;
    int nxt = S->nxt[seat];
    for (int i = 0; i < nm; i++) {
        int c = moves[i];
        int v = row[c] + seat;
        int nb = v > best ? v : best;
        h[seat] = hand ^ BIT(c);
        if (n == 3) {
            int win = nb & 3;
            int tp = pts + VALUE[c];
            if (win & 1)
                v = lead(S, win, unled, beta);
            else
                v = tp + lead(S, win, unled, beta - tp);
        } else {
            v = follow(S, nxt, n + 1, idx, nb, pts + VALUE[c], unled, alive, beta);
        }
        if (S->stopped) break;
        if (maximise) {
            if (v > best_v) {
                best_v = v;
                if (v >= beta) break;
            }
        } else if (v < best_v) {
            best_v = v;
            if (v < beta) break;
        }
    }
    h[seat] = hand;
    return best_v;
}

/* ------------------------------------------------------------------ Python */
static int Search_init(Search *S, PyObject *args, PyObject *kwds) {
    int trump, n0, n1, n2, n3;
    Py_ssize_t cap = (Py_ssize_t)TABLE_CAP;
    static char *kwlist[] = {"trump", "next_seat", "capacity", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "i(iiii)|$n", kwlist, &trump, &n0, &n1, &n2, &n3, &cap))
        return -1;
    if (cap < 16 || (cap & (cap - 1))) {
        PyErr_SetString(PyExc_ValueError, "capacity is a power of two, at least 16");
        return -1;
    }
    if (trump < 0 || trump > 3 || n0 < 0 || n0 > 3 || n1 < 0 || n1 > 3 || n2 < 0 || n2 > 3 || n3 < 0 || n3 > 3) {
        PyErr_SetString(PyExc_ValueError, "trump and seats are 0..3");
        return -1;
    }
    S->trump = trump;
    S->nxt[0] = n0;
    S->nxt[1] = n1;
    S->nxt[2] = n2;
    S->nxt[3] = n3;
    static const int jack_suits[4] = {0, 3, 2, 1};
    for (int i = 0; i < 4; i++) S->trump_order[i] = 9 * jack_suits[i] + 5;
    for (int i = 0; i < 8; i++) S->trump_order[4 + i] = 9 * trump + PLAIN_HIGH_FIRST[i];
    memcpy(S->classes[0], S->trump_order, sizeof(S->trump_order));
    S->class_len[0] = 12;
    int k = 1;
    for (int s = 0; s < 4; s++) {
        if (s == trump) continue;
        for (int i = 0; i < 8; i++) S->classes[k][i] = 9 * s + PLAIN_HIGH_FIRST[i];
        S->class_len[k++] = 8;
    }
    S->cap = (size_t)cap;
    size_t start = S->cap < TABLE_START ? S->cap : TABLE_START;
    free(S->table);
    S->table = calloc(start, sizeof(Entry));
    if (S->table == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    S->mask = start - 1;
    S->count = 0;
    S->capped = 0;
    S->nodes = 0;
    return 0;
}

static void Search_dealloc(Search *S) {
    free(S->table);
    Py_XDECREF(S->stop);
    Py_TYPE(S)->tp_free((PyObject *)S);
}

/* exact(hands, leader, trick, unled, guess): the points N/S take from the position on (exact). */
static PyObject *Search_exact(Search *S, PyObject *args) {
    unsigned long long hs[4], unled;
    int leader, guess;
    PyObject *trick;
    if (!PyArg_ParseTuple(args, "(KKKK)iO!Ki", &hs[0], &hs[1], &hs[2], &hs[3], &leader, &PyTuple_Type, &trick,
                          &unled, &guess))
        return NULL;
    Py_ssize_t nt = PyTuple_GET_SIZE(trick);
    int cards[4];
    u64 all = 0;
    if (leader < 0 || leader > 3 || nt > 3) {
        PyErr_SetString(PyExc_ValueError, "not a position");
        return NULL;
    }
    for (int i = 0; i < 4; i++) all |= hs[i];
    if (all >> 36) {
        PyErr_SetString(PyExc_ValueError, "not a position");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nt; i++) {
        long c = PyLong_AsLong(PyTuple_GET_ITEM(trick, i));
        if (c == -1 && PyErr_Occurred()) return NULL;
        if (c < 0 || c > 35) {
            PyErr_SetString(PyExc_ValueError, "not a card");
            return NULL;
        }
        cards[i] = (int)c;
    }
    if (!all) return PyLong_FromLong(0);
    S->stopped = 0;
    for (int i = 0; i < 4; i++) S->h[i] = hs[i];
    int trick_points = 0;
    for (int i = 0; i < nt; i++) trick_points += VALUE[cards[i]];
    int lo = 0, hi = points(all) + trick_points;
    int near = lo < guess && guess <= hi;
    int g = near ? guess : (lo + hi + 1) / 2;
    while (lo < hi) {
        int v;
        if (nt == 0) {
            v = lead(S, leader, unled, g);
        } else {
            int idx = S->trump * 4 + LEAD_KEY[S->trump][cards[0]];
            int seat = leader, best = -1;
            u64 alive = all;
            for (int i = 0; i < nt; i++) {
                int sv = STR4[idx][cards[i]] + seat;
                if (sv > best) best = sv;
                seat = S->nxt[seat];
                alive |= BIT(cards[i]);
            }
            v = follow(S, seat, (int)nt, idx, best, trick_points, unled, alive, g);
        }
        if (S->stopped) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TimeoutError, "the search was stopped");
            return NULL;
        }
        if (v >= g)
            lo = v;
        else
            hi = v;
        if (near) {
            g = v >= g ? lo + 1 : hi;
            near = 0;
        } else {
            g = (lo + hi + 1) / 2;
        }
    }
    return PyLong_FromLong(lo);
}

static PyMethodDef Search_methods[] = {
    {"exact", (PyCFunction)Search_exact, METH_VARARGS,
     "exact(hands, leader, trick, unled_aces, guess) -> the points N/S take from the position on"},
    {NULL, NULL, 0, NULL}};

static PyMemberDef Search_members[] = {
    {"nodes", T_LONGLONG, offsetof(Search, nodes), READONLY, "positions searched at a trick's start"},
    {"stop", T_OBJECT, offsetof(Search, stop), 0,
     "None, or a callable asked every 1024 positions: true stops the search (exact raises TimeoutError)"},
    {NULL, 0, 0, 0, NULL}};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gameplay.engine._dds.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Search(trump, next_seat, *, capacity=2**18): a double-dummy search with its own table of at most capacity entries",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_members = Search_members,
};

static struct PyModuleDef dds_module = {PyModuleDef_HEAD_INIT, "_dds",
                                        "The double-dummy search of solver.py in C.", -1, NULL, NULL, NULL, NULL, NULL};

#ifndef DDS_INIT /* another name for the module: the benchmarks load two builds side by side */
#define DDS_INIT PyInit__dds
#endif

PyMODINIT_FUNC DDS_INIT(void) {
    build_tables();
    if (PyType_Ready(&SearchType) < 0) return NULL;
    PyObject *m = PyModule_Create(&dds_module);
    if (m == NULL) return NULL;
    Py_INCREF(&SearchType);
    if (PyModule_AddObject(m, "Search", (PyObject *)&SearchType) < 0) {
        Py_DECREF(&SearchType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
