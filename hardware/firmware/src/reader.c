/* Settle, lift and fault detection (see reader.h for the state diagram). */
#include "reader.h"
#include "zones.h"
#include <string.h>

void reader_init(reader_t *r)
{
    memset(r, 0, sizeof *r);
    r->state = BG_STATE_IDLE;
}

static void emit(reader_out_t *out, uint8_t type, uint16_t roll_id, const reader_t *r)
{
    if (out->n >= READER_MAX_EVENTS)
        return;
    bg_msg_t *m = &out->ev[out->n++];
    memset(m, 0, sizeof *m);
    m->type = type;
    if (type == BG_ROLL_SETTLED) {
        m->u.settled.roll_id = roll_id;
        m->u.settled.n_dice = r->n_settled;
        memcpy(m->u.settled.dice, r->settled, sizeof r->settled);
    } else {
        m->u.roll.roll_id = roll_id;
    }
}

static void emit_fault(reader_out_t *out, uint8_t code, uint8_t arg)
{
    if (out->n >= READER_MAX_EVENTS)
        return;
    bg_msg_t *m = &out->ev[out->n++];
    memset(m, 0, sizeof *m);
    m->type = BG_FAULT;
    m->u.fault.code = code;
    m->u.fault.arg = arg;
}

static uint8_t same_die(const bg_die_t *a, const bg_die_t *b)
{
    return a->value == b->value && a->flags == b->flags && a->x == b->x && a->y == b->y;
}

/* Every die seen now is one of the settled dice (a touch, or one die picked up first). */
static uint8_t subset_of_settled(const reader_t *r)
{
    uint8_t used = 0;
    for (uint8_t i = 0; i < r->n_seen; i++) {
        uint8_t found = 0;
        for (uint8_t j = 0; j < r->n_settled && !found; j++)
            if (!(used & (1u << j)) && same_die(&r->seen[i], &r->settled[j])) {
                used |= (uint8_t)(1u << j);
                found = 1;
            }
        if (!found)
            return 0;
    }
    return 1;
}

static void next_roll(reader_t *r)
{
    if (r->roll_id == 0xFFFF) {
        r->roll_id = 0; /* PROTOCOL.md 5.1: a new boot id, roll ids restart at 1 */
        r->rekey = 1;
    }
    r->roll_id++;
}

static void settle(reader_t *r, reader_out_t *out)
{
    r->n_settled = r->n_seen;
    memcpy(r->settled, r->seen, sizeof r->seen);
    r->state = BG_STATE_SETTLED;
    r->disturbed = 0;
    emit(out, BG_ROLL_SETTLED, r->roll_id, r);
}

static void watch_faults(reader_t *r, const scan_t *s, uint32_t now, reader_out_t *out)
{
    uint16_t total = 0;
    for (uint8_t ch = 0; ch < N_CHANNELS; ch++) {
        uint16_t bit = (uint16_t)(1u << ch);
        uint8_t bad = s->amb[ch] > TH_AMBIENT_FAULT;
        total = (uint16_t)(total + s->sig[ch]);
        if (bad && !(r->fault_mask & bit)) {
            if (!(r->fault_pending & bit)) {
                r->fault_pending |= bit;
                r->fault_since[ch] = now;
            } else if (now - r->fault_since[ch] >= FAULT_MS) {
                r->fault_mask |= bit;
                r->fault_pending &= (uint16_t)~bit;
                emit_fault(out, BG_FAULT_SENSOR, ch);
            }
        } else if (!bad) {
            r->fault_pending &= (uint16_t)~bit;
            if (r->fault_mask & bit) {
                r->fault_mask &= (uint16_t)~bit;
                emit_fault(out, BG_FAULT_SENSOR_RECOVERED, ch);
            }
        }
    }
    /* with the LEDs lit even an empty tray reflects ~25 counts per sensor off the window */
    uint8_t dark = total < (uint16_t)N_CHANNELS * TH_LED_DEAD;
    if (dark && !r->led_fault) {
        if (!r->led_dark) {
            r->led_dark = 1;
            r->led_dark_since = now;
        } else if (now - r->led_dark_since >= FAULT_MS) {
            r->led_fault = 1;
            emit_fault(out, BG_FAULT_LED, 0);
        }
    } else if (!dark) {
        r->led_dark = 0;
        r->led_fault = 0;
    }
}

void reader_step(reader_t *r, const scan_t *s, uint32_t now, reader_out_t *out)
{
    out->n = 0;
    uint8_t moved = r->have_prev && sense_moved(s, &r->prev);
    if (!r->have_prev)
        r->last_change_ms = now;
    r->prev = *s;
    r->have_prev = 1;
    if (moved)
        r->last_change_ms = now;
    uint8_t quiet = now - r->last_change_ms >= SETTLE_MS;

    r->n_seen = sense_dice(s, r->seen);
    for (uint8_t i = 0; i < r->n_seen; i++)
        r->seen[i].zone = zones_classify(r->seen[i].x, r->seen[i].y);

    switch (r->state) {
    case BG_STATE_IDLE:
        /* dice left in the pockets at power-up belong to no roll: remember them at rest */
        if (!r->disturbed && !moved && quiet) {
            r->n_settled = r->n_seen;
            memcpy(r->settled, r->seen, sizeof r->seen);
        }
        if (moved && r->n_settled) {
            r->disturbed = 1;
        } else if (moved && r->n_seen) {
            next_roll(r);
            r->state = BG_STATE_ROLLING;
            emit(out, BG_ROLL_STARTED, r->roll_id, r);
        } else if (r->disturbed && quiet) {
            r->disturbed = 0;
            if (r->n_seen && !subset_of_settled(r)) {
                next_roll(r);
                emit(out, BG_ROLL_STARTED, r->roll_id, r);
                settle(r, out);
            } else {
                r->n_settled = r->n_seen;
                memcpy(r->settled, r->seen, sizeof r->seen);
            }
        }
        break;
    case BG_STATE_LIFTED:
        if (moved && r->n_seen) {
            next_roll(r);
            r->state = BG_STATE_ROLLING;
            emit(out, BG_ROLL_STARTED, r->roll_id, r);
        }
        break;
    case BG_STATE_ROLLING:
        /* quiet with nothing in the tray: the dice left it; the roll stays open until dice
         * come to rest in the pockets */
        if (quiet && r->n_seen)
            settle(r, out);
        break;
    case BG_STATE_SETTLED:
        if (moved)
            r->disturbed = 1;
        if (r->disturbed && quiet) {
            r->disturbed = 0;
            if (!r->n_seen) {
                r->state = BG_STATE_LIFTED;
                emit(out, BG_DICE_LIFTED, r->roll_id, r);
            } else if (!subset_of_settled(r)) {
                next_roll(r);
                emit(out, BG_ROLL_STARTED, r->roll_id, r);
                settle(r, out);
            }
        }
        break;
    default:
        r->state = BG_STATE_IDLE;
        break;
    }
    watch_faults(r, s, now, out);
}

uint8_t reader_active_faults(const reader_t *r)
{
    uint8_t n = r->led_fault;
    for (uint16_t m = r->fault_mask; m; m &= (uint16_t)(m - 1))
        n++;
    return n;
}

void reader_snapshot(const reader_t *r, bg_msg_t *m)
{
    m->type = BG_SNAPSHOT;
    m->u.snapshot.state = r->state;
    m->u.snapshot.roll_id = r->roll_id;
    m->u.snapshot.faults = reader_active_faults(r);
    m->u.snapshot.n_dice = 0;
    if (r->state == BG_STATE_SETTLED || r->state == BG_STATE_LIFTED) {
        m->u.snapshot.n_dice = r->n_settled;
        memcpy(m->u.snapshot.dice, r->settled, sizeof r->settled);
    } else if (r->state == BG_STATE_IDLE) {
        m->u.snapshot.n_dice = r->n_seen;
        memcpy(m->u.snapshot.dice, r->seen, sizeof r->seen);
    }
}
