/* Zone rectangles (PROTOCOL.md 6.4): a die's (x, y) in mm gives its zone. */
#ifndef BG_ZONES_H
#define BG_ZONES_H
#include <stdint.h>

void zones_init(void);  /* the reference board's defaults (see sensing.md) */
/* Set zone 0..3's rectangle (corners in any order); all four zero disables it. */
void zones_set(uint8_t zone, int16_t x0, int16_t y0, int16_t x1, int16_t y1);
/* tray if inside the tray rectangle, else left, else right, else outside; edges inclusive. */
uint8_t zones_classify(int16_t x, int16_t y);

#endif
