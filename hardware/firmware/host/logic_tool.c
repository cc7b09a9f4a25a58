/* The whole firmware logic (src/app.c and below) on a virtual clock, for deterministic tests.
 *
 * The HAL is implemented here: the ADC reads the scene model (sim/scene.c), the UART is two
 * byte queues, time advances only when told.  Commands on stdin, one per line:
 *   run <ms>          advance the clock, calling app_poll() once per ms; every frame the
 *                     firmware sent is printed as "TX <ms> <hex with its 00>"
 *   rx <hex>          bytes arriving from the host (processed on the next poll)
 *   boot [fault]      (re)start the firmware: statics reset, EEPROM kept; "fault" makes the
 *                     reset look like a watchdog reset
 *   entropy <n>       the noise the next boot will gather
 *   rollid <n>        set the roll counter (the next roll is n + 1; tests the 65535 wrap)
 *   <scene command>   die/tumble/short/unshort/leds/noise, as for the simavr harness
 * Each command ends with "ok <ms>" (or "err <why>"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "app.h"
#include "hal.h"
#include "../sim/scene.h"

static uint32_t now_ms;
static uint64_t now_us;
static uint8_t mux, led, panel, status;
static uint8_t rxq[4096];
static size_t rx_head, rx_tail;
static uint8_t frame[256];
static size_t frame_len;
static uint32_t eeprom[2] = {0xFFFFFFFFu, 0xFFFFFFFFu};
static uint32_t entropy = 12345;
static uint8_t fault_reset;

void hal_init(void) {}
uint32_t hal_millis(void) { return now_ms; }
void hal_mux_select(uint8_t channel) { mux = channel & 15; }
void hal_ir_leds(uint8_t on) { led = on; }
uint16_t hal_adc_read(void) { return scene_read(mux, led, now_us); }
void hal_delay_us(uint16_t us) { (void)us; }
void hal_status_led(uint8_t on) { status = on; }
void hal_panel_leds(uint8_t bits) { panel = bits; }
uint32_t hal_boot_entropy(void) { return entropy; }
uint32_t hal_eeprom_read32(uint8_t slot) { return slot < 2 ? eeprom[slot] : 0xFFFFFFFFu; }
void hal_eeprom_write32(uint8_t slot, uint32_t v) { if (slot < 2) eeprom[slot] = v; }
uint8_t hal_reset_was_fault(void) { return fault_reset; }
void hal_watchdog_kick(void) {}
void hal_idle(void) {}

int16_t hal_uart_get(void)
{
    if (rx_head == rx_tail)
        return -1;
    uint8_t b = rxq[rx_tail];
    rx_tail = (rx_tail + 1) % sizeof rxq;
    return b;
}

uint8_t hal_uart_room(void) { return 255; }

uint8_t hal_uart_put(const uint8_t *data, uint8_t n)
{
    for (uint8_t i = 0; i < n; i++) {
        if (frame_len < sizeof frame)
            frame[frame_len++] = data[i];
        if (data[i] == 0) {
            if (frame_len > 1) {
                printf("TX %lu ", (unsigned long)now_ms);
                for (size_t k = 0; k < frame_len; k++)
                    printf("%02x", frame[k]);
                printf("\n");
            }
            frame_len = 0;
        }
    }
    return n;
}

static void boot(void)
{
    app_init();
    fault_reset = 0;
}

int main(void)
{
    char line[2048], reply[256];
    scene_init(1);
    boot();
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\r\n")] = 0;
        char word[16] = "";
        sscanf(line, "%15s", word);
        if (!strcmp(word, "quit"))
            break;
        if (!strcmp(word, "run")) {
            long ms = atol(line + 3);
            for (long i = 0; i < ms; i++) {
                now_ms++;
                now_us += 1000;
                app_poll();
            }
        } else if (!strcmp(word, "rx")) {
            unsigned b;
            const char *p = line + 3;
            while (p[0] && p[1] && sscanf(p, "%2x", &b) == 1) {
                rxq[rx_head] = (uint8_t)b;
                rx_head = (rx_head + 1) % sizeof rxq;
                p += 2;
            }
        } else if (!strcmp(word, "boot")) {
            fault_reset = strstr(line, "fault") != NULL;
            frame_len = 0;
            rx_head = rx_tail = 0;
            boot();
        } else if (!strcmp(word, "rollid")) {
            app_test_set_roll_id((uint16_t)strtoul(line + 6, NULL, 0));
        } else if (!strcmp(word, "entropy")) {
            entropy = (uint32_t)strtoul(line + 8, NULL, 0);
        } else if (!strcmp(word, "leds?")) {
            printf("LEDS %u STATUS %u\n", panel, status);
        } else if (scene_command(line, now_us, reply, sizeof reply) != 0) {
            printf("%s\n", reply);
            fflush(stdout);
            continue;
        }
        printf("ok %lu\n", (unsigned long)now_ms);
        fflush(stdout);
    }
    return 0;
}
