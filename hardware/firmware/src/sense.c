/* Sensor scanning (through the HAL) and the pure per-pocket decoding.
 *
 * Each pocket has five pip sensors at TL, TC, TR, ML and C of the die's 3x3 pip grid (seen
 * from below), two body references between pips (white on every face), and an apron sensor on
 * the pocket's rim.  Those five pip positions tell every face apart in any of its orientations:
 *   1: C            2: TL | TR        3: TL+C | TR+C        4: TL+TR
 *   5: TL+TR+C      6: TL+TR+ML (columns) | TL+TC+TR (rows)
 * Any other pattern is no face: a tilted die, one half over the rim, or a foreign object. */
#include "sense.h"
#include "hal.h"

void sense_scan(scan_t *s)
{
    for (uint8_t ch = 0; ch < N_CHANNELS; ch++) {
        hal_mux_select(ch);
        hal_ir_leds(0);
        hal_delay_us(MUX_SETTLE_US + LED_SETTLE_US);
        uint16_t off = hal_adc_read();
        hal_ir_leds(1);
        hal_delay_us(LED_SETTLE_US);
        uint16_t on = hal_adc_read();
        hal_ir_leds(0);
        s->amb[ch] = off;
        s->sig[ch] = on > off ? (int16_t)(on - off) : 0;
    }
}

uint8_t sense_face_of_pattern(uint8_t pattern)
{
    switch (pattern) {
    case 0x10: return 1;             /* C */
    case 0x01: case 0x04: return 2;  /* TL, or TR (rotated 90 degrees) */
    case 0x11: case 0x14: return 3;  /* TL+C, TR+C */
    case 0x05: return 4;             /* TL+TR */
    case 0x15: return 5;             /* TL+TR+C */
    case 0x0D: case 0x07: return 6;  /* TL+TR+ML (columns), TL+TC+TR (rows) */
    default: return 0;
    }
}

static uint8_t margin_conf(int16_t margin)
{
    if (margin <= 0)
        return 0;
    if (margin >= CONF_SPAN)
        return 255;
    return (uint8_t)((int32_t)margin * 255 / CONF_SPAN);
}

static int16_t iabs(int16_t v) { return v < 0 ? (int16_t)-v : v; }

void sense_decode_pocket(const int16_t *sig, pocket_t *out)
{
    int16_t bn = sig[S_BN], bs = sig[S_BS], ap = sig[S_AP];
    uint8_t lit = 0;
    for (uint8_t i = 0; i <= S_BS; i++)
        if (sig[i] > TH_PRESENT)
            lit++;
    uint8_t apron = ap > TH_PRESENT;
    out->top = 0;
    out->apron_die = 0;
    if (!lit && !apron) {
        /* confidence that it is empty: how far the brightest sensor is below TH_PRESENT */
        int16_t hi = ap;
        for (uint8_t i = 0; i <= S_BS; i++)
            if (sig[i] > hi)
                hi = sig[i];
        out->kind = POCKET_EMPTY;
        out->confidence = margin_conf((int16_t)(TH_PRESENT - hi) * 2);
        return;
    }
    uint8_t flat = bn >= TH_BODY && bs >= TH_BODY && iabs((int16_t)(bn - bs)) <= TH_ASYM;
    if (!flat) {
        if (apron) {
            out->kind = POCKET_OFF_AREA;
            out->confidence = margin_conf((int16_t)(ap - TH_PRESENT));
        } else {
            int16_t lo = bn < bs ? bn : bs;
            int16_t m1 = (int16_t)(TH_BODY - lo), m2 = (int16_t)(iabs((int16_t)(bn - bs)) - TH_ASYM);
            out->kind = POCKET_COCKED;
            out->confidence = margin_conf(m1 > m2 ? m1 : m2);
        }
        return;
    }
    /* flat: read the five pip positions */
    static const uint8_t pips[5] = {S_TL, S_TC, S_TR, S_ML, S_C};
    uint8_t pattern = 0;
    int16_t margin = (int16_t)((bn < bs ? bn : bs) - TH_BODY);
    for (uint8_t i = 0; i < 5; i++) {
        int16_t v = sig[pips[i]];
        if (v < TH_PIP)
            pattern |= (uint8_t)(1u << i);
        int16_t m = iabs((int16_t)(v - TH_PIP));
        if (m < margin)
            margin = m;
    }
    uint8_t bottom = sense_face_of_pattern(pattern);
    out->confidence = margin_conf(margin);
    out->apron_die = apron;
    if (bottom) {
        out->kind = POCKET_FLAT;
        out->top = (uint8_t)(7 - bottom);
    } else {
        out->kind = POCKET_COCKED; /* flat body but no face: report it as not lying flat */
        out->confidence /= 4;
    }
}

static const int16_t pocket_xy[N_CELLS][2] = {{POCKET0_X, POCKET0_Y}, {POCKET1_X, POCKET1_Y}};

static void put_die(bg_die_t *d, uint8_t value, uint8_t flags, int16_t x, int16_t y, uint8_t conf)
{
    d->value = value;
    d->flags = flags;
    d->zone = BG_ZONE_OUTSIDE;
    d->x = x;
    d->y = y;
    d->confidence = conf;
}

/* A die record's confidence is the confidence in its value: a flat die's pip margins; 0 for a
 * die whose face cannot be read (cocked, over the rim, on the apron), whose flags and zone
 * say why. */
uint8_t sense_dice(const scan_t *s, bg_die_t dice[2])
{
    uint8_t n = 0;
    pocket_t p[N_CELLS];
    for (uint8_t c = 0; c < N_CELLS; c++)
        sense_decode_pocket(&s->sig[c * CH_PER_CELL], &p[c]);
    /* dice in the pockets first, then dice on the aprons (reported beyond the pocket's rim) */
    for (uint8_t c = 0; c < N_CELLS && n < 2; c++) {
        int16_t x = pocket_xy[c][0], y = pocket_xy[c][1];
        if (p[c].kind == POCKET_FLAT)
            put_die(&dice[n++], p[c].top, 0, x, y, p[c].confidence);
        else if (p[c].kind == POCKET_COCKED)
            put_die(&dice[n++], 0, BG_FLAG_COCKED, x, y, 0);
    }
    for (uint8_t c = 0; c < N_CELLS && n < 2; c++) {
        int16_t x = (int16_t)(pocket_xy[c][0] + APRON_OFFSET_MM), y = pocket_xy[c][1];
        if (p[c].kind == POCKET_OFF_AREA)
            put_die(&dice[n++], 0, BG_FLAG_COCKED, x, y, 0);
        else if (p[c].apron_die)
            put_die(&dice[n++], 0, 0, x, y, 0);
    }
    return n;
}

uint8_t sense_moved(const scan_t *a, const scan_t *b)
{
    for (uint8_t ch = 0; ch < N_CHANNELS; ch++)
        if (iabs((int16_t)(a->sig[ch] - b->sig[ch])) > TH_MOTION)
            return 1;
    return 0;
}
