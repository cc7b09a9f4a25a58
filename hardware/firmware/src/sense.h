/* Sensor scanning and per-pocket decoding: signals in, dice out.  The decoding is pure
 * (no HAL) so the host tests drive it directly; sense_scan is the only part touching the HAL. */
#ifndef BG_SENSE_H
#define BG_SENSE_H
#include <stdint.h>
#include "config.h"
#include "msg.h"

typedef struct {
    int16_t sig[N_CHANNELS];  /* LED-on minus LED-off, ADC counts (reflected IR) */
    uint16_t amb[N_CHANNELS]; /* LED-off reading (ambient light + offset) */
} scan_t;

/* What one pocket holds. */
enum pocket_kind {
    POCKET_EMPTY = 0,   /* nothing on the pocket or its apron */
    POCKET_FLAT,        /* a die lying flat: its face is read */
    POCKET_COCKED,      /* a die tilted in the pocket, or a pattern no face has */
    POCKET_OFF_AREA,    /* a die half on the apron (rim): partly outside the reading area */
};

typedef struct {
    uint8_t kind;       /* enum pocket_kind */
    uint8_t top;        /* top face 1..6 when FLAT (7 - bottom), else 0 */
    uint8_t confidence; /* 0..255: how clearly the signals fit this kind (and face) */
    uint8_t apron_die;  /* 1 when a second object lies on the apron next to a flat die */
} pocket_t;

/* Scan all channels through the multiplexer (LED off, then on, per channel). */
void sense_scan(scan_t *s);

/* The bottom face shown by a 5-bit pip pattern (bit 0 TL, 1 TC, 2 TR, 3 ML, 4 C), 0 if none. */
uint8_t sense_face_of_pattern(uint8_t pattern);

/* Decode one pocket from its eight signals (config.h's S_* offsets). */
void sense_decode_pocket(const int16_t *sig, pocket_t *out);

/* The dice seen in both pockets as protocol DIE records (zone left unset: the caller
 * classifies by position); returns how many (0..2). */
uint8_t sense_dice(const scan_t *s, bg_die_t dice[2]);

/* True when the scans differ by more than TH_MOTION on any channel. */
uint8_t sense_moved(const scan_t *a, const scan_t *b);

#endif
