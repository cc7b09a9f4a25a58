/* A model of what the 16 phototransistors see: two pockets, each empty, holding a die flat on
 * a face (in one of two orientations), cocked, half over the rim, or a die on the apron;
 * dice tumbling; sensor faults; dead IR LEDs.  Shared by the simavr harness and the host build.
 * Readings are ADC counts (0..1023, AVcc = 5 V) for a channel with the IR LEDs on or off. */
#ifndef BG_SCENE_H
#define BG_SCENE_H
#include <stdint.h>
#include <stddef.h>

void scene_init(uint64_t seed);
/* Apply one text command (see sim/README in hardware/design/simulation.md); writes a reply
 * line (without newline) and returns 0, or -1 for a malformed command (reply says why). */
int scene_command(const char *line, uint64_t now_us, char *reply, size_t n);
uint16_t scene_read(uint8_t channel, uint8_t led_on, uint64_t now_us);

#endif
