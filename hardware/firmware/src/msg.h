/* The protocol's messages (firmware_bridge/PROTOCOL.md) as C structs, and the frame codec:
 * COBS(version, type, seq, payload..., crc32 little-endian) 0x00, payload little-endian.
 * Pure and hardware-independent: the same file builds for the AVR and for the host tests. */
#ifndef BG_MSG_H
#define BG_MSG_H
#include <stdint.h>
#include <stddef.h>

#define BG_PROTOCOL_VERSION 2
#define BG_MAX_PAYLOAD 48
#define BG_HEADER_SIZE 3
#define BG_CRC_SIZE 4
#define BG_MAX_FRAME (BG_HEADER_SIZE + BG_MAX_PAYLOAD + BG_CRC_SIZE)  /* decoded bytes: 55 */
#define BG_MAX_ENCODED (BG_MAX_FRAME + 1)                              /* COBS bytes: 56 */
#define BG_MAX_WIRE (BG_MAX_ENCODED + 1)                               /* with delimiter */

enum bg_type {
    BG_HEARTBEAT = 0x01, BG_ACK = 0x02,
    BG_HELLO = 0x10, BG_REQUEST_SNAPSHOT = 0x11, BG_SET_LEDS = 0x12, BG_SET_ZONE = 0x13, BG_PING = 0x14,
    BG_INFO = 0x20, BG_PONG = 0x21, BG_SNAPSHOT = 0x22,
    BG_ROLL_STARTED = 0x30, BG_ROLL_SETTLED = 0x31, BG_DICE_LIFTED = 0x32, BG_FAULT = 0x33,
    BG_ROLL_DONE = 0x34, /* ROLL_SETTLED + DICE_LIFTED coalesced (PROTOCOL.md 5.4) */
};

enum bg_zone { BG_ZONE_LEFT = 0, BG_ZONE_RIGHT = 1, BG_ZONE_OUTSIDE = 2, BG_ZONE_TRAY = 3 };
#define BG_FLAG_COCKED 0x01
#define BG_FLAG_ON_CHECKER 0x02

#define BG_CAP_POSITION 0x0001
#define BG_CAP_COCKED 0x0002
#define BG_CAP_ON_CHECKER 0x0004
#define BG_CAP_LEDS 0x0008
#define BG_CAP_ZONES 0x0010
#define BG_CAP_CONFIDENCE 0x0020

#define BG_LED_REROLL 0x01
#define BG_LED_READY 0x02
#define BG_LED_FAULT 0x04
#define BG_LED_LINK 0x08

enum bg_state { BG_STATE_IDLE = 0, BG_STATE_ROLLING = 1, BG_STATE_SETTLED = 2, BG_STATE_LIFTED = 3 };
enum bg_fault {
    BG_FAULT_SENSOR = 1, BG_FAULT_SENSOR_RECOVERED = 2, BG_FAULT_QUEUE_OVERFLOW = 3,
    BG_FAULT_LED = 4, BG_FAULT_RESET = 5,
};

/* One die record, 8 bytes on the wire: value 0 = unreadable. */
typedef struct {
    uint8_t value;      /* top face 1..6, 0 = unreadable */
    uint8_t flags;      /* BG_FLAG_* */
    uint8_t zone;       /* enum bg_zone */
    int16_t x, y;       /* mm from the board centre */
    uint8_t confidence; /* 0..255 */
} bg_die_t;
#define BG_DIE_SIZE 8

typedef struct {
    uint8_t type; /* enum bg_type */
    uint8_t seq;
    union {
        struct { uint32_t uptime_ms; } heartbeat;
        struct { uint32_t nonce; } hello;
        struct { uint8_t acked_seq, acked_type; } ack;
        struct { uint8_t on, blink; } set_leds;
        struct { uint8_t zone; int16_t x0, y0, x1, y1; } set_zone;
        struct { uint16_t token; } ping; /* PING and PONG */
        struct {
            uint8_t proto_version, fw_major, fw_minor, fw_patch;
            uint16_t capabilities;
            uint32_t boot_id;
            uint8_t max_dice;
            uint32_t session_nonce; /* nonce of the boot's first HELLO, 0 before */
        } info;
        struct {
            uint8_t state; uint16_t roll_id; uint8_t leds, faults, pending, n_dice;
            bg_die_t dice[2];
        } snapshot;
        struct { uint16_t roll_id; uint8_t n_dice; bg_die_t dice[2]; } settled; /* and ROLL_DONE */
        struct { uint16_t roll_id; } roll; /* ROLL_STARTED and DICE_LIFTED */
        struct { uint16_t fault_id; uint8_t code, arg; } fault;
    } u;
} bg_msg_t;

/* The payload of m into out (room for BG_MAX_PAYLOAD); returns its length, or -1 for an
 * unknown type or fields outside their ranges (never sent). */
int bg_pack_payload(const bg_msg_t *m, uint8_t *out);
/* Parse a payload of message type `type`; returns 0 and fills m, or -1 when the payload does
 * not fit the type's layout or ranges (the receiver drops the frame). */
int bg_unpack_payload(uint8_t type, const uint8_t *p, size_t n, bg_msg_t *m);

/* The full on-wire frame (COBS + 0x00) of m with its seq into out (room for BG_MAX_WIRE);
 * returns the length or -1. */
int bg_encode_frame(const bg_msg_t *m, uint8_t *out);

/* Why a received frame was dropped (or BG_RX_OK). */
enum bg_rx_result {
    BG_RX_OK = 0, BG_RX_OVERSIZE, BG_RX_BAD_COBS, BG_RX_SHORT, BG_RX_BAD_CRC, BG_RX_BAD_VERSION,
    BG_RX_UNKNOWN_TYPE, BG_RX_BAD_PAYLOAD,
};
/* Decode one frame's encoded bytes (without the delimiter). */
enum bg_rx_result bg_decode_frame(const uint8_t *enc, size_t n, bg_msg_t *m);

/* Streaming receiver: feed bytes one at a time; returns 1 when a frame completed (in *m),
 * 0 when more bytes are needed, -1 (reason in last) when a frame was dropped. */
typedef struct {
    uint8_t buf[BG_MAX_ENCODED];
    uint8_t len;
    uint8_t overflow;
    enum bg_rx_result last;
} bg_rx_t;
void bg_rx_init(bg_rx_t *rx);
int bg_rx_feed(bg_rx_t *rx, uint8_t byte, bg_msg_t *m);

#endif
