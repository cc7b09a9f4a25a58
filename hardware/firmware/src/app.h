/* The dice reader application: scan, decide, report.  Runs on any HAL (hal.h). */
#ifndef BG_APP_H
#define BG_APP_H
#include <stdint.h>

void app_init(void);
void app_poll(void);          /* one main-loop iteration: never blocks */
uint32_t app_boot_id(void);
/* The boot id for a boot counter and a device salt: a bijection of the counter, so one
 * device's ids never repeat until the counter wraps; never 0. */
uint32_t app_make_boot_id(uint32_t counter, uint32_t salt);

#ifdef BG_HOST_BUILD
void app_test_set_roll_id(uint16_t roll_id);
#endif

#endif
