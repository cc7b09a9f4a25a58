/* The roll state machine: scans in, protocol events out.
 *
 *   IDLE/LIFTED --motion with a die present--> ROLLING            emits ROLL_STARTED
 *   ROLLING --quiet SETTLE_MS, dice present--> SETTLED            emits ROLL_SETTLED
 *   (ROLLING with nothing left in the tray stays ROLLING until dice rest in the pockets)
 *   IDLE with dice left from power-up behaves like SETTLED but emits no DICE_LIFTED
 *   SETTLED --motion, then quiet, nothing--> LIFTED               emits DICE_LIFTED
 *   SETTLED --motion, then quiet, same dice or a subset--> SETTLED (a touch, or a partial lift)
 *   SETTLED --motion, then quiet, other dice--> SETTLED (new roll) emits ROLL_STARTED, ROLL_SETTLED
 * "Quiet" means no channel changed by more than TH_MOTION between scans.  Sensor and LED
 * faults are watched here too.  Pure: time and scans are passed in. */
#ifndef BG_READER_H
#define BG_READER_H
#include <stdint.h>
#include "config.h"
#include "msg.h"
#include "sense.h"

typedef struct {
    uint8_t state;          /* enum bg_state */
    uint8_t disturbed;      /* SETTLED: motion seen since the roll settled */
    uint8_t have_prev;
    uint8_t rekey;          /* set when roll ids wrapped: the app must pick a new boot id */
    uint16_t roll_id;
    uint32_t last_change_ms;
    scan_t prev;
    uint8_t n_settled;      /* the settled roll's dice (SETTLED/LIFTED) */
    bg_die_t settled[2];
    uint8_t n_seen;         /* what the pockets hold now */
    bg_die_t seen[2];
    uint16_t fault_mask;    /* sensors currently failed */
    uint16_t fault_pending; /* sensors out of range, not yet for FAULT_MS */
    uint32_t fault_since[N_CHANNELS];
    uint8_t led_fault;
    uint32_t led_dark_since;
    uint8_t led_dark;
} reader_t;

#define READER_MAX_EVENTS 4
typedef struct {
    uint8_t n;
    bg_msg_t ev[READER_MAX_EVENTS]; /* FAULT events carry fault_id 0: the app numbers them */
} reader_out_t;

void reader_init(reader_t *r);
void reader_step(reader_t *r, const scan_t *s, uint32_t now, reader_out_t *out);
/* Faults currently active (for SNAPSHOT). */
uint8_t reader_active_faults(const reader_t *r);
/* Fill a SNAPSHOT's state, roll_id, faults and dice. */
void reader_snapshot(const reader_t *r, bg_msg_t *m);

#endif
