/* Zone rectangles and the classification order of PROTOCOL.md 6.4. */
#include "zones.h"
#include "config.h"
#include "msg.h"

typedef struct { int16_t x0, y0, x1, y1; uint8_t on; } rect_t;
static rect_t zones[4];

void zones_set(uint8_t zone, int16_t x0, int16_t y0, int16_t x1, int16_t y1)
{
    if (zone > 3)
        return;
    rect_t *r = &zones[zone];
    r->on = x0 || y0 || x1 || y1;
    r->x0 = x0 < x1 ? x0 : x1; r->x1 = x0 < x1 ? x1 : x0;
    r->y0 = y0 < y1 ? y0 : y1; r->y1 = y0 < y1 ? y1 : y0;
}

void zones_init(void)
{
    zones_set(BG_ZONE_LEFT, -250, -200, 0, 200);
    zones_set(BG_ZONE_RIGHT, 0, -200, 250, 200);
    zones_set(BG_ZONE_OUTSIDE, 0, 0, 0, 0);
    zones_set(BG_ZONE_TRAY, TRAY_X0, TRAY_Y0, TRAY_X1, TRAY_Y1);
}

static uint8_t inside(const rect_t *r, int16_t x, int16_t y)
{
    return r->on && x >= r->x0 && x <= r->x1 && y >= r->y0 && y <= r->y1;
}

uint8_t zones_classify(int16_t x, int16_t y)
{
    if (inside(&zones[BG_ZONE_TRAY], x, y)) return BG_ZONE_TRAY;
    if (inside(&zones[BG_ZONE_LEFT], x, y)) return BG_ZONE_LEFT;
    if (inside(&zones[BG_ZONE_RIGHT], x, y)) return BG_ZONE_RIGHT;
    return BG_ZONE_OUTSIDE;
}
