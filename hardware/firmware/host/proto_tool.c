/* Host-side check tool for the firmware's protocol code (test level 1).
 *
 * Reads lines on stdin, writes one answer line each on stdout:
 *   E <seq> <type> <field>...        -> the on-wire frame hex (COBS + 00), or "ERR"
 *   D <frame hex without the 00>     -> "OK <seq> <type> <field>..." or "DROP <reason>"
 *   S <hex bytes>                    -> streaming receiver fed the bytes: one line per frame
 *                                       event ("OK ..." / "DROP ..."), then "END"
 *   C <hex bytes>                    -> "CRC <8 hex digits>" (CRC-32)
 * Numbers are decimal.  Fields follow PROTOCOL.md's order; ROLL_SETTLED and SNAPSHOT give
 * (and ROLL_DONE) give their dice count then 6 numbers per die: value flags zone x y confidence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../src/crc32.h"
#include "../src/msg.h"

static const char *reasons[] = {"ok", "oversize", "bad_cobs", "short", "bad_crc", "bad_version",
                                "unknown_type", "bad_payload"};

static long nums[64];

static int parse_nums(char *s)
{
    int n = 0;
    for (char *tok = strtok(s, " \t\n"); tok && n < 64; tok = strtok(NULL, " \t\n"))
        nums[n++] = strtol(tok, NULL, 0);
    return n;
}

static int fill_dice(bg_die_t *d, int n, const long *v)
{
    for (int i = 0; i < n; i++, v += 6) {
        d[i].value = (uint8_t)v[0]; d[i].flags = (uint8_t)v[1]; d[i].zone = (uint8_t)v[2];
        d[i].x = (int16_t)v[3]; d[i].y = (int16_t)v[4]; d[i].confidence = (uint8_t)v[5];
    }
    return 0;
}

static int build(bg_msg_t *m, int n)
{
    const long *v = nums + 2;
    memset(m, 0, sizeof *m);
    m->seq = (uint8_t)nums[0];
    m->type = (uint8_t)nums[1];
    switch (m->type) {
    case BG_HEARTBEAT: m->u.heartbeat.uptime_ms = (uint32_t)v[0]; break;
    case BG_ACK: m->u.ack.acked_seq = (uint8_t)v[0]; m->u.ack.acked_type = (uint8_t)v[1]; break;
    case BG_HELLO: m->u.hello.nonce = (uint32_t)v[0]; break;
    case BG_REQUEST_SNAPSHOT: break;
    case BG_SET_LEDS: m->u.set_leds.on = (uint8_t)v[0]; m->u.set_leds.blink = (uint8_t)v[1]; break;
    case BG_SET_ZONE:
        m->u.set_zone.zone = (uint8_t)v[0]; m->u.set_zone.x0 = (int16_t)v[1]; m->u.set_zone.y0 = (int16_t)v[2];
        m->u.set_zone.x1 = (int16_t)v[3]; m->u.set_zone.y1 = (int16_t)v[4];
        break;
    case BG_PING: case BG_PONG: m->u.ping.token = (uint16_t)v[0]; break;
    case BG_INFO:
        m->u.info.proto_version = (uint8_t)v[0]; m->u.info.fw_major = (uint8_t)v[1];
        m->u.info.fw_minor = (uint8_t)v[2]; m->u.info.fw_patch = (uint8_t)v[3];
        m->u.info.capabilities = (uint16_t)v[4]; m->u.info.boot_id = (uint32_t)v[5];
        m->u.info.max_dice = (uint8_t)v[6]; m->u.info.session_nonce = (uint32_t)v[7];
        break;
    case BG_SNAPSHOT:
        m->u.snapshot.state = (uint8_t)v[0]; m->u.snapshot.roll_id = (uint16_t)v[1];
        m->u.snapshot.leds = (uint8_t)v[2]; m->u.snapshot.faults = (uint8_t)v[3];
        m->u.snapshot.pending = (uint8_t)v[4]; m->u.snapshot.n_dice = (uint8_t)v[5];
        if (v[5] > 2 || n < 8 + 6 * v[5]) return -1;
        fill_dice(m->u.snapshot.dice, (int)v[5], v + 6);
        break;
    case BG_ROLL_SETTLED: case BG_ROLL_DONE:
        m->u.settled.roll_id = (uint16_t)v[0]; m->u.settled.n_dice = (uint8_t)v[1];
        if (v[1] > 2 || n < 4 + 6 * v[1]) return -1;
        fill_dice(m->u.settled.dice, (int)v[1], v + 2);
        break;
    case BG_ROLL_STARTED: case BG_DICE_LIFTED: m->u.roll.roll_id = (uint16_t)v[0]; break;
    case BG_FAULT:
        m->u.fault.fault_id = (uint16_t)v[0]; m->u.fault.code = (uint8_t)v[1]; m->u.fault.arg = (uint8_t)v[2];
        break;
    default: return -1;
    }
    return 0;
}

static void print_dice(const bg_die_t *d, int n)
{
    for (int i = 0; i < n; i++)
        printf(" %u %u %u %d %d %u", d[i].value, d[i].flags, d[i].zone, d[i].x, d[i].y, d[i].confidence);
}

static void print_msg(const bg_msg_t *m)
{
    printf("OK %u %u", m->seq, m->type);
    switch (m->type) {
    case BG_HEARTBEAT: printf(" %lu", (unsigned long)m->u.heartbeat.uptime_ms); break;
    case BG_ACK: printf(" %u %u", m->u.ack.acked_seq, m->u.ack.acked_type); break;
    case BG_SET_LEDS: printf(" %u %u", m->u.set_leds.on, m->u.set_leds.blink); break;
    case BG_SET_ZONE:
        printf(" %u %d %d %d %d", m->u.set_zone.zone, m->u.set_zone.x0, m->u.set_zone.y0,
               m->u.set_zone.x1, m->u.set_zone.y1);
        break;
    case BG_HELLO: printf(" %lu", (unsigned long)m->u.hello.nonce); break;
    case BG_PING: case BG_PONG: printf(" %u", m->u.ping.token); break;
    case BG_INFO:
        printf(" %u %u %u %u %u %lu %u %lu", m->u.info.proto_version, m->u.info.fw_major, m->u.info.fw_minor,
               m->u.info.fw_patch, m->u.info.capabilities, (unsigned long)m->u.info.boot_id, m->u.info.max_dice,
               (unsigned long)m->u.info.session_nonce);
        break;
    case BG_SNAPSHOT:
        printf(" %u %u %u %u %u %u", m->u.snapshot.state, m->u.snapshot.roll_id, m->u.snapshot.leds,
               m->u.snapshot.faults, m->u.snapshot.pending, m->u.snapshot.n_dice);
        print_dice(m->u.snapshot.dice, m->u.snapshot.n_dice);
        break;
    case BG_ROLL_SETTLED: case BG_ROLL_DONE:
        printf(" %u %u", m->u.settled.roll_id, m->u.settled.n_dice);
        print_dice(m->u.settled.dice, m->u.settled.n_dice);
        break;
    case BG_ROLL_STARTED: case BG_DICE_LIFTED: printf(" %u", m->u.roll.roll_id); break;
    case BG_FAULT: printf(" %u %u %u", m->u.fault.fault_id, m->u.fault.code, m->u.fault.arg); break;
    default: break;
    }
    printf("\n");
}

static size_t unhex(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    unsigned b;
    while (s[0] && s[1] && n < cap && sscanf(s, "%2x", &b) == 1) {
        out[n++] = (uint8_t)b;
        s += 2;
    }
    return n;
}

int main(void)
{
    static char line[4096];
    static uint8_t bytes[2048];
    while (fgets(line, sizeof line, stdin)) {
        char *arg = line + 1;
        while (*arg == ' ')
            arg++;
        arg[strcspn(arg, "\r\n")] = 0;
        bg_msg_t m;
        if (line[0] == 'E') {
            uint8_t out[BG_MAX_WIRE];
            int n = parse_nums(arg);
            int len = (n >= 2 && build(&m, n) == 0) ? bg_encode_frame(&m, out) : -1;
            if (len < 0)
                printf("ERR\n");
            else {
                for (int i = 0; i < len; i++)
                    printf("%02x", out[i]);
                printf("\n");
            }
        } else if (line[0] == 'D') {
            size_t n = unhex(arg, bytes, sizeof bytes);
            enum bg_rx_result r = bg_decode_frame(bytes, n, &m);
            if (r == BG_RX_OK)
                print_msg(&m);
            else
                printf("DROP %s\n", reasons[r]);
        } else if (line[0] == 'S') {
            bg_rx_t rx;
            bg_rx_init(&rx);
            size_t n = unhex(arg, bytes, sizeof bytes);
            for (size_t i = 0; i < n; i++) {
                int r = bg_rx_feed(&rx, bytes[i], &m);
                if (r > 0)
                    print_msg(&m);
                else if (r < 0)
                    printf("DROP %s\n", reasons[rx.last]);
            }
            printf("END\n");
        } else if (line[0] == 'C') {
            size_t n = unhex(arg, bytes, sizeof bytes);
            printf("CRC %08lx\n", (unsigned long)crc32(bytes, n));
        } else {
            printf("ERR\n");
        }
        fflush(stdout);
    }
    return 0;
}
