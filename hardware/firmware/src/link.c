/* Reader-side session: see link.h. */
#include "link.h"
#include <string.h>

static const link_app_t *app;

void link_init(link_t *l, const link_app_t *a, uint32_t now)
{
    memset(l, 0, sizeof *l);
    app = a;
    bg_rx_init(&l->rx);
    l->last_hb_ms = now - HEARTBEAT_MS; /* first heartbeat at once */
    l->last_rx_ms = now;
}

uint8_t link_pending(const link_t *l) { return l->count; }

/* Send m as a new frame (fresh seq); returns 1 when it went out. */
static uint8_t send_new(link_t *l, bg_msg_t *m)
{
    uint8_t wire[BG_MAX_WIRE];
    m->seq = l->tx_seq++;
    int n = bg_encode_frame(m, wire);
    if (n < 0 || !app->send(wire, (uint8_t)n)) {
        l->tx_lost++;
        return 0;
    }
    return 1;
}

static void send_ack(link_t *l, uint8_t seq, uint8_t type)
{
    bg_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = BG_ACK;
    m.u.ack.acked_seq = seq;
    m.u.ack.acked_type = type;
    send_new(l, &m);
}

static void send_info_snapshot(link_t *l)
{
    bg_msg_t m;
    memset(&m, 0, sizeof m);
    m.type = BG_INFO;
    app->fill_info(&m);
    m.u.info.session_nonce = l->session_nonce;
    send_new(l, &m);
    memset(&m, 0, sizeof m);
    app->fill_snapshot(&m);
    m.type = BG_SNAPSHOT;
    m.u.snapshot.pending = l->count;
    send_new(l, &m);
}

static void send_head(link_t *l, uint32_t now)
{
    uint8_t wire[BG_MAX_WIRE];
    bg_msg_t *h = &l->fifo[l->head];
    if (!l->head_sent)
        h->seq = l->tx_seq++;
    int n = bg_encode_frame(h, wire);
    if (n >= 0 && app->send(wire, (uint8_t)n)) {
        l->head_sent = 1;
        l->head_sent_ms = now;
    } else if (!l->head_sent) {
        l->tx_seq--; /* never went out: keep the seq for the real first transmission */
    }
}

static bg_msg_t *fifo_at(link_t *l, uint8_t i) { return &l->fifo[(l->head + i) % EVENT_QUEUE_LEN]; }

static uint16_t roll_of(const bg_msg_t *m)
{
    switch (m->type) {
    case BG_ROLL_STARTED: case BG_DICE_LIFTED: return m->u.roll.roll_id;
    case BG_ROLL_SETTLED: case BG_ROLL_DONE: return m->u.settled.roll_id;
    default: return 0;
    }
}

/* Merge a new event into the queued ones behind the head (PROTOCOL.md 5.4): a queued
 * ROLL_STARTED goes once anything later happens to a roll; a queued ROLL_SETTLED and its
 * DICE_LIFTED become one ROLL_DONE.  Returns 1 when the event was absorbed. */
static uint8_t coalesce(link_t *l, const bg_msg_t *event)
{
    const uint8_t first = 1; /* the head (in flight, or next to go) is never changed */
    uint16_t rid = roll_of(event);
    if (!rid)
        return 0;
    for (uint8_t i = l->count; i-- > first;) {
        const bg_msg_t *e = fifo_at(l, i);
        uint16_t r = roll_of(e);
        if (e->type == BG_ROLL_STARTED && (r < rid || (r == rid && event->type != BG_ROLL_STARTED))) {
            for (uint8_t j = i; j + 1 < l->count; j++)
                *fifo_at(l, j) = *fifo_at(l, (uint8_t)(j + 1));
            l->count--;
        }
    }
    if (event->type == BG_DICE_LIFTED) {
        for (uint8_t i = first; i < l->count; i++) {
            bg_msg_t *e = fifo_at(l, i);
            if (e->type == BG_ROLL_SETTLED && e->u.settled.roll_id == rid) {
                e->type = BG_ROLL_DONE;
                return 1;
            }
        }
    }
    return 0;
}

void link_post(link_t *l, const bg_msg_t *event)
{
    if (coalesce(l, event))
        return;
    if (l->count == EVENT_QUEUE_LEN) {
        /* still full: drop the oldest (PROTOCOL.md 5.4), report it later as FAULT code 3 */
        l->head = (uint8_t)((l->head + 1) % EVENT_QUEUE_LEN);
        l->count--;
        l->head_sent = 0;
        if (l->dropped < 255)
            l->dropped++;
    }
    *fifo_at(l, l->count) = *event;
    l->count++;
}

void link_announce(link_t *l, uint32_t now)
{
    (void)now;
    /* a new boot id: until a host greets it, no event goes out (PROTOCOL.md 5.2 step 4), so no
     * event of this boot can be taken for one of the last */
    l->greeted = 0;
    l->session_nonce = 0;
    send_info_snapshot(l);
}

static void on_frame(link_t *l, const bg_msg_t *m, uint32_t now)
{
    bg_msg_t reply;
    l->rx_frames++;
    l->last_rx_ms = now;
    l->host_seen = 1;
    switch (m->type) {
    case BG_HELLO:
        l->greeted = 1;
        if (!l->session_nonce)
            l->session_nonce = m->u.hello.nonce; /* the boot's first HELLO names this run (5.1) */
        send_info_snapshot(l);
        if (l->count)
            send_head(l, now); /* resume retransmitting at once */
        break;
    case BG_REQUEST_SNAPSHOT:
        memset(&reply, 0, sizeof reply);
        app->fill_snapshot(&reply);
        reply.type = BG_SNAPSHOT;
        reply.u.snapshot.pending = l->count;
        send_new(l, &reply);
        break;
    case BG_PING:
        memset(&reply, 0, sizeof reply);
        reply.type = BG_PONG;
        reply.u.ping.token = m->u.ping.token;
        send_new(l, &reply);
        break;
    case BG_SET_LEDS:
        app->set_leds(m->u.set_leds.on, m->u.set_leds.blink);
        send_ack(l, m->seq, m->type);
        break;
    case BG_SET_ZONE:
        app->set_zone(m->u.set_zone.zone, m->u.set_zone.x0, m->u.set_zone.y0,
                      m->u.set_zone.x1, m->u.set_zone.y1);
        send_ack(l, m->seq, m->type);
        break;
    case BG_ACK:
        if (l->count && l->head_sent && m->u.ack.acked_seq == l->fifo[l->head].seq
            && m->u.ack.acked_type == l->fifo[l->head].type) {
            l->head = (uint8_t)((l->head + 1) % EVENT_QUEUE_LEN);
            l->count--;
            l->head_sent = 0;
            if (l->count && l->greeted)
                send_head(l, now); /* the next event goes out without waiting */
        }
        break;
    default:
        break; /* HEARTBEAT: a sign of life; reader-to-host types: ignored */
    }
}

void link_rx_byte(link_t *l, uint8_t byte, uint32_t now)
{
    bg_msg_t m;
    int r = bg_rx_feed(&l->rx, byte, &m);
    if (r > 0)
        on_frame(l, &m, now);
    else if (r < 0)
        l->rx_dropped++;
}

void link_poll(link_t *l, uint32_t now)
{
    if (l->dropped && l->count < EVENT_QUEUE_LEN) {
        bg_msg_t f;
        memset(&f, 0, sizeof f);
        f.type = BG_FAULT;
        f.u.fault.fault_id = app->next_fault_id();
        f.u.fault.code = BG_FAULT_QUEUE_OVERFLOW;
        f.u.fault.arg = l->dropped;
        l->dropped = 0;
        link_post(l, &f);
    }
    if (l->host_seen && now - l->last_rx_ms >= LINK_TIMEOUT_MS)
        l->host_seen = 0;
    if (l->greeted && l->count && (!l->head_sent || now - l->head_sent_ms >= RETRANSMIT_MS))
        send_head(l, now);
    if (now - l->last_hb_ms >= HEARTBEAT_MS) {
        bg_msg_t hb;
        memset(&hb, 0, sizeof hb);
        if (l->greeted) {
            hb.type = BG_HEARTBEAT;
            hb.u.heartbeat.uptime_ms = now;
        } else {
            hb.type = BG_INFO; /* not greeted since boot: INFO instead, so a host learns the boot id */
            app->fill_info(&hb);
            hb.u.info.session_nonce = 0;
        }
        send_new(l, &hb);
        l->last_hb_ms = now;
    }
}
