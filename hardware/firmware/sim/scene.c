/* The simulated sensor array (see scene.h). */
#include "scene.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_CH 16
#define AMBIENT 40   /* LED-off reading */
#define BODY 700     /* white die body over a sensor (signal) */
#define PIP 150      /* a pip */
#define NOTHING 25   /* the window's own reflection */

enum { P_EMPTY, P_FACE, P_COCKED, P_OFFAREA, P_APRON };

static struct {
    uint8_t kind[2], bottom[2], rot[2];
    int16_t cocked_pips[2][5];
    uint64_t tumble_until_us, tumble_epoch_us;
    int16_t tumble[N_CH];
    uint16_t shorted;   /* channels whose LED-off reading is saturated */
    uint8_t leds_dead;
    int16_t noise;
    uint64_t rng;
} sc;

static uint32_t rnd(void)
{
    /* xorshift64* */
    sc.rng ^= sc.rng >> 12; sc.rng ^= sc.rng << 25; sc.rng ^= sc.rng >> 27;
    return (uint32_t)((sc.rng * 0x2545F4914F6CDD1DULL) >> 32);
}

static int16_t span(int16_t lo, int16_t hi) { return (int16_t)(lo + (int16_t)(rnd() % (uint32_t)(hi - lo + 1))); }

void scene_init(uint64_t seed)
{
    memset(&sc, 0, sizeof sc);
    sc.rng = seed ? seed : 0x9E3779B97F4A7C15ULL;
    sc.noise = 6;
}

/* Is grid position (row, col) a pip of `bottom`, rotated 90 degrees when rot? */
static int is_pip(uint8_t bottom, uint8_t rot, int row, int col)
{
    if (rot) { /* rotate the query back: (r, c) -> (2 - c, r) */
        int r = 2 - col, c = row;
        row = r; col = c;
    }
    int corner_main = (row == 0 && col == 0) || (row == 2 && col == 2);
    int corner_anti = (row == 0 && col == 2) || (row == 2 && col == 0);
    int centre = row == 1 && col == 1;
    switch (bottom) {
    case 1: return centre;
    case 2: return corner_main;
    case 3: return corner_main || centre;
    case 4: return corner_main || corner_anti;
    case 5: return corner_main || corner_anti || centre;
    case 6: return col != 1;
    default: return 0;
    }
}

/* sensor offset in a pocket -> grid position (S_TL, S_TC, S_TR, S_ML, S_C) */
static const int grid[5][2] = {{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}};

static int16_t pocket_signal(int p, int k)
{
    switch (sc.kind[p]) {
    case P_FACE:
        if (k < 5) return is_pip(sc.bottom[p], sc.rot[p], grid[k][0], grid[k][1]) ? PIP : BODY;
        return k < 7 ? BODY : NOTHING;
    case P_COCKED: /* tilted in the pocket: one side near the glass, the other lifted */
        if (k < 5) return sc.cocked_pips[p][k];
        return k == 5 ? 620 : k == 6 ? 300 : NOTHING;
    case P_OFFAREA: /* half over the rim: the far body reference sees nothing */
        if (k < 5) return sc.cocked_pips[p][k];
        return k == 5 ? NOTHING : k == 6 ? 450 : 500;
    case P_APRON:
        return k == 7 ? 550 : NOTHING;
    default:
        return NOTHING;
    }
}

uint16_t scene_read(uint8_t ch, uint8_t led_on, uint64_t now_us)
{
    ch &= 15;
    int32_t v = (sc.shorted & (1u << ch)) ? 1015 : AMBIENT;
    if (led_on && !sc.leds_dead) {
        int16_t s;
        if (now_us < sc.tumble_until_us) {
            if (now_us - sc.tumble_epoch_us >= 20000) { /* the dice move: new readings every 20 ms */
                sc.tumble_epoch_us = now_us;
                for (int i = 0; i < N_CH; i++)
                    sc.tumble[i] = span(NOTHING, BODY + 50);
            }
            s = sc.tumble[ch];
        } else {
            s = pocket_signal(ch / 8, ch % 8);
        }
        v += s;
    }
    if (sc.noise)
        v += span((int16_t)-sc.noise, sc.noise);
    return (uint16_t)(v < 0 ? 0 : v > 1023 ? 1023 : v);
}

int scene_command(const char *line, uint64_t now_us, char *reply, size_t n)
{
    char word[16] = "", what[16] = "";
    int a = -1, b = -1, c = 0;
    int got = sscanf(line, "%15s %d %15s %d %d", word, &a, what, &b, &c);
    if (got < 1 || word[0] == '#') {
        snprintf(reply, n, "ok");
        return 0;
    }
    if (!strcmp(word, "die") && got >= 3 && (a == 0 || a == 1)) {
        if (!strcmp(what, "empty")) sc.kind[a] = P_EMPTY;
        else if (!strcmp(what, "cocked")) sc.kind[a] = P_COCKED;
        else if (!strcmp(what, "offarea")) sc.kind[a] = P_OFFAREA;
        else if (!strcmp(what, "apron")) sc.kind[a] = P_APRON;
        else if ((!strcmp(what, "top") || !strcmp(what, "bottom")) && got >= 4 && b >= 1 && b <= 6) {
            sc.kind[a] = P_FACE;
            sc.bottom[a] = (uint8_t)(what[0] == 't' ? 7 - b : b);
            sc.rot[a] = (uint8_t)(c != 0);
        } else {
            snprintf(reply, n, "err die: expected 'die <0|1> empty|cocked|offarea|apron|top <1-6> [rot]|bottom <1-6> [rot]', got %s", line);
            return -1;
        }
        if (sc.kind[a] == P_COCKED || sc.kind[a] == P_OFFAREA)
            for (int k = 0; k < 5; k++)
                sc.cocked_pips[a][k] = span(180, 620);
    } else if (!strcmp(word, "tumble") && got >= 2 && a >= 0) {
        sc.tumble_until_us = now_us + (uint64_t)a * 1000;
        sc.tumble_epoch_us = 0;
    } else if (!strcmp(word, "short") && got >= 2 && a >= 0 && a < N_CH) {
        sc.shorted |= (uint16_t)(1u << a);
    } else if (!strcmp(word, "unshort") && got >= 2 && a >= 0 && a < N_CH) {
        sc.shorted &= (uint16_t)~(1u << a);
    } else if (!strcmp(word, "leds")) {
        char state[16] = "";
        sscanf(line, "%*s %15s", state);
        if (!strcmp(state, "dead")) sc.leds_dead = 1;
        else if (!strcmp(state, "ok")) sc.leds_dead = 0;
        else { snprintf(reply, n, "err leds: expected 'leds dead|ok', got %s", line); return -1; }
    } else if (!strcmp(word, "noise") && got >= 2 && a >= 0 && a < 200) {
        sc.noise = (int16_t)a;
    } else {
        snprintf(reply, n, "err unknown or malformed scene command: %s", line);
        return -1;
    }
    snprintf(reply, n, "ok");
    return 0;
}
