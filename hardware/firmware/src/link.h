/* The protocol session on the reader's side (PROTOCOL.md section 5): the receive path,
 * HELLO/INFO/SNAPSHOT, PING, SET_LEDS/SET_ZONE with ACKs, heartbeats, and the in-order
 * reliable event FIFO with stop-and-wait retransmission, coalescing queued events that a later
 * one makes redundant.  Pure: bytes and time are passed in,
 * frames go out through link_send_hook (the HAL's UART in the firmware). */
#ifndef BG_LINK_H
#define BG_LINK_H
#include <stdint.h>
#include "config.h"
#include "msg.h"

typedef struct {
    uint8_t tx_seq;                 /* seq of the next new frame */
    bg_rx_t rx;
    bg_msg_t fifo[EVENT_QUEUE_LEN]; /* reliable events, oldest first at head */
    uint8_t head, count;
    uint8_t head_sent;              /* the head went out at least once (its seq is fixed) */
    uint32_t head_sent_ms;
    uint8_t dropped;                /* events lost to overflow, not yet reported */
    uint32_t last_rx_ms, last_hb_ms;
    uint8_t host_seen;              /* a valid frame arrived within LINK_TIMEOUT_MS */
    uint32_t session_nonce;         /* the nonce of the first HELLO since boot (0: none yet) */
    uint8_t greeted;                /* a HELLO arrived since boot (or since the boot id changed) */
    uint16_t rx_frames, rx_dropped, tx_lost; /* counters for diagnosis */
} link_t;

/* What the link needs from the application. */
typedef struct {
    void (*fill_info)(bg_msg_t *m);
    void (*fill_snapshot)(bg_msg_t *m);   /* everything but `pending` */
    void (*set_leds)(uint8_t on, uint8_t blink);
    void (*set_zone)(uint8_t zone, int16_t x0, int16_t y0, int16_t x1, int16_t y1);
    uint16_t (*next_fault_id)(void);
    /* write a whole frame or nothing; returns 1 when written */
    uint8_t (*send)(const uint8_t *frame, uint8_t n);
} link_app_t;

void link_init(link_t *l, const link_app_t *app, uint32_t now);
void link_rx_byte(link_t *l, uint8_t byte, uint32_t now);
/* Queue a reliable event (FAULT ids must be set by the caller). */
void link_post(link_t *l, const bg_msg_t *event);
/* Heartbeats and (re)transmission of the FIFO head; call often. */
void link_poll(link_t *l, uint32_t now);
/* Send INFO then SNAPSHOT unasked (at boot, after a boot id change); events then wait for a HELLO. */
void link_announce(link_t *l, uint32_t now);
uint8_t link_pending(const link_t *l);

#endif
