/* Glue: every SCAN_PERIOD_MS a sensor scan goes through the roll state machine; its events go
 * into the link's reliable FIFO; received bytes go to the link; LEDs follow the host. */
#include "app.h"
#include "config.h"
#include "hal.h"
#include "link.h"
#include "reader.h"
#include "sense.h"
#include "zones.h"
#include <string.h>

static reader_t reader;
static link_t link;
static scan_t scan;
static uint32_t boot_id;
static uint32_t last_scan_ms;
static uint16_t fault_id;
static uint8_t leds_on, leds_blink;

/* murmur3's 32-bit finaliser: a bijection with good mixing */
static uint32_t fmix32(uint32_t h)
{
    h ^= h >> 16; h *= 0x85ebca6bUL;
    h ^= h >> 13; h *= 0xc2b2ae35UL;
    h ^= h >> 16;
    return h;
}

uint32_t app_make_boot_id(uint32_t counter, uint32_t salt)
{
    uint32_t id = fmix32(counter ^ salt);
    return id ? id : 1; /* the one counter mapping to 0 borrows 1 (fmix32(0) = 0 never recurs) */
}

/* A new boot id from the EEPROM boot counter and the device salt (made once from noise). */
static void new_boot_id(void)
{
    uint32_t salt = hal_eeprom_read32(1);
    if (salt == 0xFFFFFFFFUL || salt == 0) {
        salt = fmix32(hal_boot_entropy() ^ 0x5bd1e995UL);
        hal_eeprom_write32(1, salt);
    }
    uint32_t counter = hal_eeprom_read32(0);
    counter = (counter == 0xFFFFFFFFUL ? 0 : counter) + 1; /* erased EEPROM reads all ones */
    hal_eeprom_write32(0, counter);
    boot_id = app_make_boot_id(counter, salt);
}

uint32_t app_boot_id(void) { return boot_id; }

#ifdef BG_HOST_BUILD
/* Test hook of the host build: jump the roll counter (to test the 65535 wrap). */
void app_test_set_roll_id(uint16_t roll_id) { reader.roll_id = roll_id; }
#endif

static uint8_t leds_now(uint32_t now)
{
    uint8_t on = leds_on | leds_blink;
    if ((now % 1000) >= 500)
        on &= (uint8_t)~leds_blink;
    if (!link.host_seen)
        on &= (uint8_t)~BG_LED_LINK;
    return on;
}

static void fill_info(bg_msg_t *m)
{
    m->u.info.proto_version = BG_PROTOCOL_VERSION;
    m->u.info.fw_major = FW_MAJOR;
    m->u.info.fw_minor = FW_MINOR;
    m->u.info.fw_patch = FW_PATCH;
    m->u.info.capabilities = BG_CAP_POSITION | BG_CAP_COCKED | BG_CAP_LEDS | BG_CAP_ZONES | BG_CAP_CONFIDENCE;
    m->u.info.boot_id = boot_id;
    m->u.info.max_dice = 2;
}

static void fill_snapshot(bg_msg_t *m)
{
    reader_snapshot(&reader, m);
    m->u.snapshot.leds = (uint8_t)((leds_on | leds_blink) & (link.host_seen ? 0xFF : ~BG_LED_LINK));
}

static void set_leds(uint8_t on, uint8_t blink)
{
    leds_on = on;
    leds_blink = blink;
}

static uint16_t next_fault_id(void)
{
    if (fault_id == 0xFFFF)
        fault_id = 0;
    return ++fault_id;
}

static uint8_t send(const uint8_t *frame, uint8_t n)
{
    if (hal_uart_room() < n)
        return 0;
    return hal_uart_put(frame, n) == n;
}

static const link_app_t link_app = {fill_info, fill_snapshot, set_leds, zones_set, next_fault_id, send};

void app_init(void)
{
    uint32_t now = hal_millis();
    fault_id = 0;
    leds_on = leds_blink = 0;
    zones_init();
    reader_init(&reader);
    new_boot_id();
    link_init(&link, &link_app, now);
    static const uint8_t zero = 0;
    hal_uart_put(&zero, 1); /* flush any partial frame at the host (PROTOCOL.md section 2) */
    /* announce the new boot: a host already online sees a new boot id and handshakes again
     * (otherwise it would take this boot's roll 1 for a duplicate of the last boot's) */
#ifndef BG_CALIBRATE
    link_announce(&link, now);
#endif
    if (hal_reset_was_fault()) {
        bg_msg_t f;
        memset(&f, 0, sizeof f);
        f.type = BG_FAULT;
        f.u.fault.fault_id = next_fault_id();
        f.u.fault.code = BG_FAULT_RESET;
        link_post(&link, &f);
    }
    last_scan_ms = now - SCAN_PERIOD_MS;
}

#ifdef BG_CALIBRATE
/* Calibration build (make calibrate): instead of the protocol, every 100 ms one text line
 * "sig s0..s15 amb a0..a15" of the raw signals, for setting the thresholds in config.h. */
static uint8_t put_num(char *out, uint16_t v)
{
    char tmp[6];
    uint8_t n = 0, k = 0;
    do { tmp[n++] = (char)('0' + v % 10); v /= 10; } while (v);
    out[k++] = ' ';
    while (n)
        out[k++] = tmp[--n];
    return k;
}

static void print_scan(void)
{
    char line[200];
    uint8_t n = 0;
    line[n++] = 's'; line[n++] = 'i'; line[n++] = 'g';
    for (uint8_t ch = 0; ch < N_CHANNELS; ch++)
        n = (uint8_t)(n + put_num(line + n, (uint16_t)scan.sig[ch]));
    line[n++] = ' '; line[n++] = 'a'; line[n++] = 'm'; line[n++] = 'b';
    for (uint8_t ch = 0; ch < N_CHANNELS; ch++)
        n = (uint8_t)(n + put_num(line + n, scan.amb[ch]));
    line[n++] = '\r'; line[n++] = '\n';
    if (hal_uart_room() >= n)
        hal_uart_put((const uint8_t *)line, n);
}

void app_poll(void)
{
    uint32_t now = hal_millis();
    if (now - last_scan_ms >= 100) {
        last_scan_ms = now;
        sense_scan(&scan);
        print_scan();
    }
    hal_panel_leds(leds_now(now));
    hal_watchdog_kick();
    hal_idle();
}
#else
void app_poll(void)
{
    int16_t c;
    uint32_t now = hal_millis();
    while ((c = hal_uart_get()) >= 0)
        link_rx_byte(&link, (uint8_t)c, now);
    if (now - last_scan_ms >= SCAN_PERIOD_MS) {
        reader_out_t out;
        last_scan_ms = now;
        sense_scan(&scan);
        reader_step(&reader, &scan, now, &out);
        if (reader.rekey) {
            /* roll ids wrapped (PROTOCOL.md 5.1): a new boot id, told to the host at once */
            reader.rekey = 0;
            fault_id = 0;
            new_boot_id();
            link_announce(&link, now);
        }
        for (uint8_t i = 0; i < out.n; i++) {
            if (out.ev[i].type == BG_FAULT)
                out.ev[i].u.fault.fault_id = next_fault_id();
            link_post(&link, &out.ev[i]);
        }
    }
    link_poll(&link, now);
    hal_panel_leds(leds_now(now));
    hal_status_led(reader.state == BG_STATE_ROLLING || (now % 1000) < 50);
    hal_watchdog_kick();
    hal_idle();
}
#endif
