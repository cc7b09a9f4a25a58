/* Message layouts (little-endian, fixed per type) and the frame codec. */
#include "msg.h"
#include "cobs.h"
#include "crc32.h"
#include <string.h>

static uint8_t *put16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); return p + 2; }
static uint8_t *put32(uint8_t *p, uint32_t v) { p = put16(p, (uint16_t)v); return put16(p, (uint16_t)(v >> 16)); }
static uint16_t get16(const uint8_t *p) { return (uint16_t)(p[0] | ((uint16_t)p[1] << 8)); }
static uint32_t get32(const uint8_t *p) { return get16(p) | ((uint32_t)get16(p + 2) << 16); }

static int die_ok(const bg_die_t *d)
{
    return d->value <= 6 && d->zone <= BG_ZONE_TRAY && !(d->flags & ~(BG_FLAG_COCKED | BG_FLAG_ON_CHECKER));
}

static uint8_t *put_dice(uint8_t *p, const bg_die_t *d, uint8_t n)
{
    for (uint8_t i = 0; i < n; i++, d++) {
        *p++ = d->value; *p++ = d->flags; *p++ = d->zone;
        p = put16(p, (uint16_t)d->x); p = put16(p, (uint16_t)d->y);
        *p++ = d->confidence;
    }
    return p;
}

static int get_dice(const uint8_t *p, size_t len, uint8_t n, bg_die_t *d)
{
    if (len != (size_t)n * BG_DIE_SIZE)
        return -1;
    for (uint8_t i = 0; i < n; i++, d++, p += BG_DIE_SIZE) {
        d->value = p[0]; d->flags = p[1]; d->zone = p[2];
        d->x = (int16_t)get16(p + 3); d->y = (int16_t)get16(p + 5);
        d->confidence = p[7];
        if (!die_ok(d))
            return -1;
    }
    return 0;
}

int bg_pack_payload(const bg_msg_t *m, uint8_t *out)
{
    uint8_t *p = out;
    switch (m->type) {
    case BG_HEARTBEAT: p = put32(p, m->u.heartbeat.uptime_ms); break;
    case BG_ACK: *p++ = m->u.ack.acked_seq; *p++ = m->u.ack.acked_type; break;
    case BG_HELLO:
        if (m->u.hello.nonce == 0) return -1;
        p = put32(p, m->u.hello.nonce);
        break;
    case BG_REQUEST_SNAPSHOT: break;
    case BG_SET_LEDS: *p++ = m->u.set_leds.on; *p++ = m->u.set_leds.blink; break;
    case BG_SET_ZONE:
        if (m->u.set_zone.zone > 3) return -1;
        *p++ = m->u.set_zone.zone;
        p = put16(p, (uint16_t)m->u.set_zone.x0); p = put16(p, (uint16_t)m->u.set_zone.y0);
        p = put16(p, (uint16_t)m->u.set_zone.x1); p = put16(p, (uint16_t)m->u.set_zone.y1);
        break;
    case BG_PING: case BG_PONG: p = put16(p, m->u.ping.token); break;
    case BG_INFO:
        if (m->u.info.max_dice < 1 || m->u.info.max_dice > 2) return -1;
        *p++ = m->u.info.proto_version; *p++ = m->u.info.fw_major;
        *p++ = m->u.info.fw_minor; *p++ = m->u.info.fw_patch;
        p = put16(p, m->u.info.capabilities); p = put32(p, m->u.info.boot_id);
        *p++ = m->u.info.max_dice;
        p = put32(p, m->u.info.session_nonce);
        break;
    case BG_SNAPSHOT:
        if (m->u.snapshot.state > 3 || m->u.snapshot.n_dice > 2) return -1;
        for (uint8_t i = 0; i < m->u.snapshot.n_dice; i++)
            if (!die_ok(&m->u.snapshot.dice[i])) return -1;
        *p++ = m->u.snapshot.state; p = put16(p, m->u.snapshot.roll_id);
        *p++ = m->u.snapshot.leds; *p++ = m->u.snapshot.faults; *p++ = m->u.snapshot.pending;
        *p++ = m->u.snapshot.n_dice;
        p = put_dice(p, m->u.snapshot.dice, m->u.snapshot.n_dice);
        break;
    case BG_ROLL_SETTLED: case BG_ROLL_DONE:
        if (m->u.settled.roll_id == 0 || m->u.settled.n_dice < 1 || m->u.settled.n_dice > 2) return -1;
        for (uint8_t i = 0; i < m->u.settled.n_dice; i++)
            if (!die_ok(&m->u.settled.dice[i])) return -1;
        p = put16(p, m->u.settled.roll_id); *p++ = m->u.settled.n_dice;
        p = put_dice(p, m->u.settled.dice, m->u.settled.n_dice);
        break;
    case BG_ROLL_STARTED: case BG_DICE_LIFTED:
        if (m->u.roll.roll_id == 0) return -1;
        p = put16(p, m->u.roll.roll_id);
        break;
    case BG_FAULT:
        if (m->u.fault.fault_id == 0) return -1;
        p = put16(p, m->u.fault.fault_id); *p++ = m->u.fault.code; *p++ = m->u.fault.arg;
        break;
    default: return -1;
    }
    return (int)(p - out);
}

int bg_unpack_payload(uint8_t type, const uint8_t *p, size_t n, bg_msg_t *m)
{
    memset(m, 0, sizeof *m);
    m->type = type;
    switch (type) {
    case BG_HEARTBEAT: if (n != 4) return -1; m->u.heartbeat.uptime_ms = get32(p); return 0;
    case BG_ACK: if (n != 2) return -1; m->u.ack.acked_seq = p[0]; m->u.ack.acked_type = p[1]; return 0;
    case BG_HELLO:
        if (n != 4) return -1;
        m->u.hello.nonce = get32(p);
        return m->u.hello.nonce ? 0 : -1;
    case BG_REQUEST_SNAPSHOT: return n == 0 ? 0 : -1;
    case BG_SET_LEDS: if (n != 2) return -1; m->u.set_leds.on = p[0]; m->u.set_leds.blink = p[1]; return 0;
    case BG_SET_ZONE:
        if (n != 9 || p[0] > 3) return -1;
        m->u.set_zone.zone = p[0];
        m->u.set_zone.x0 = (int16_t)get16(p + 1); m->u.set_zone.y0 = (int16_t)get16(p + 3);
        m->u.set_zone.x1 = (int16_t)get16(p + 5); m->u.set_zone.y1 = (int16_t)get16(p + 7);
        return 0;
    case BG_PING: case BG_PONG: if (n != 2) return -1; m->u.ping.token = get16(p); return 0;
    case BG_INFO:
        if (n != 15 || p[10] < 1 || p[10] > 2) return -1;
        m->u.info.proto_version = p[0]; m->u.info.fw_major = p[1];
        m->u.info.fw_minor = p[2]; m->u.info.fw_patch = p[3];
        m->u.info.capabilities = get16(p + 4); m->u.info.boot_id = get32(p + 6);
        m->u.info.max_dice = p[10];
        m->u.info.session_nonce = get32(p + 11);
        return 0;
    case BG_SNAPSHOT:
        if (n < 7 || p[0] > 3 || p[6] > 2) return -1;
        m->u.snapshot.state = p[0]; m->u.snapshot.roll_id = get16(p + 1);
        m->u.snapshot.leds = p[3]; m->u.snapshot.faults = p[4]; m->u.snapshot.pending = p[5];
        m->u.snapshot.n_dice = p[6];
        return get_dice(p + 7, n - 7, p[6], m->u.snapshot.dice);
    case BG_ROLL_SETTLED: case BG_ROLL_DONE:
        if (n < 3 || p[2] < 1 || p[2] > 2) return -1;
        m->u.settled.roll_id = get16(p); m->u.settled.n_dice = p[2];
        if (m->u.settled.roll_id == 0) return -1;
        return get_dice(p + 3, n - 3, p[2], m->u.settled.dice);
    case BG_ROLL_STARTED: case BG_DICE_LIFTED:
        if (n != 2) return -1;
        m->u.roll.roll_id = get16(p);
        return m->u.roll.roll_id ? 0 : -1;
    case BG_FAULT:
        if (n != 4) return -1;
        m->u.fault.fault_id = get16(p); m->u.fault.code = p[2]; m->u.fault.arg = p[3];
        return m->u.fault.fault_id ? 0 : -1;
    default: return -1;
    }
}

static int known_type(uint8_t t)
{
    switch (t) {
    case BG_HEARTBEAT: case BG_ACK: case BG_HELLO: case BG_REQUEST_SNAPSHOT: case BG_SET_LEDS:
    case BG_SET_ZONE: case BG_PING: case BG_INFO: case BG_PONG: case BG_SNAPSHOT:
    case BG_ROLL_STARTED: case BG_ROLL_SETTLED: case BG_DICE_LIFTED: case BG_FAULT: case BG_ROLL_DONE:
        return 1;
    default:
        return 0;
    }
}

int bg_encode_frame(const bg_msg_t *m, uint8_t *out)
{
    uint8_t body[BG_MAX_FRAME];
    int n = bg_pack_payload(m, body + BG_HEADER_SIZE);
    if (n < 0)
        return -1;
    body[0] = BG_PROTOCOL_VERSION; body[1] = m->type; body[2] = m->seq;
    n += BG_HEADER_SIZE;
    put32(body + n, crc32(body, (size_t)n));
    n += BG_CRC_SIZE;
    size_t len = cobs_encode(body, (size_t)n, out);
    out[len++] = 0;
    return (int)len;
}

enum bg_rx_result bg_decode_frame(const uint8_t *enc, size_t n, bg_msg_t *m)
{
    uint8_t body[BG_MAX_ENCODED];
    if (n > BG_MAX_ENCODED)
        return BG_RX_OVERSIZE;
    int len = cobs_decode(enc, n, body);
    if (len < 0)
        return BG_RX_BAD_COBS;
    if (len < BG_HEADER_SIZE + BG_CRC_SIZE)
        return BG_RX_SHORT;
    if (crc32(body, (size_t)len - BG_CRC_SIZE) != get32(body + len - BG_CRC_SIZE))
        return BG_RX_BAD_CRC;
    if (body[0] != BG_PROTOCOL_VERSION)
        return BG_RX_BAD_VERSION;
    if (!known_type(body[1]))
        return BG_RX_UNKNOWN_TYPE;
    if (bg_unpack_payload(body[1], body + BG_HEADER_SIZE, (size_t)len - BG_HEADER_SIZE - BG_CRC_SIZE, m) < 0)
        return BG_RX_BAD_PAYLOAD;
    m->seq = body[2];
    return BG_RX_OK;
}

void bg_rx_init(bg_rx_t *rx)
{
    rx->len = 0;
    rx->overflow = 0;
    rx->last = BG_RX_OK;
}

int bg_rx_feed(bg_rx_t *rx, uint8_t byte, bg_msg_t *m)
{
    if (byte != 0) {
        if (rx->len >= BG_MAX_ENCODED)
            rx->overflow = 1;
        else
            rx->buf[rx->len++] = byte;
        return 0;
    }
    if (rx->overflow) {
        rx->overflow = 0;
        rx->len = 0;
        rx->last = BG_RX_OVERSIZE;
        return -1;
    }
    if (rx->len == 0)
        return 0; /* back-to-back delimiters: nothing */
    rx->last = bg_decode_frame(rx->buf, rx->len, m);
    rx->len = 0;
    return rx->last == BG_RX_OK ? 1 : -1;
}
