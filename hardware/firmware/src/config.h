/* The dice reader's build-time configuration: sensor layout, thresholds and timing.
 * hardware/design/sensing.md explains every number here. */
#ifndef BG_CONFIG_H
#define BG_CONFIG_H

#define FW_MAJOR 2
#define FW_MINOR 0
#define FW_PATCH 0

/* Two sensing cells (pockets), eight mux channels each (CD74HC4067 channels 0..15). */
#define N_CELLS 2
#define CH_PER_CELL 8
#define N_CHANNELS (N_CELLS * CH_PER_CELL)
/* Channel offsets inside a cell: five pip positions, two body references, one apron sensor. */
#define S_TL 0 /* top-left pip position */
#define S_TC 1 /* top-centre */
#define S_TR 2 /* top-right */
#define S_ML 3 /* middle-left */
#define S_C 4  /* centre */
#define S_BN 5 /* body reference NE of centre (never under a pip) */
#define S_BS 6 /* body reference SW of centre (never under a pip) */
#define S_AP 7 /* apron: the pocket's rim, outside the die footprint */

/* Thresholds on the LED-on minus LED-off signal, in ADC counts (10 bits, AVcc = 5 V).
 * Nominal levels with the reference parts: white die body ~700, pip ~150, nothing ~25 (window reflection). */
#define TH_PRESENT 100    /* above: something reflects at this sensor */
#define TH_BODY 500       /* body references at least this for a flat die */
#define TH_ASYM 150       /* body references differing more than this: tilted */
#define TH_PIP 400        /* pip sensors below: a pip; above: die body */
#define CONF_SPAN 200     /* signal margin (counts) that earns full confidence */
#define TH_MOTION 40      /* a channel changing more than this between scans is motion */
#define TH_AMBIENT_FAULT 900 /* LED-off reading above this: sensor shorted or flooded */
#define TH_LED_DEAD 10       /* mean signal below this: the IR LEDs are not lighting */

/* Timing (ms). */
#define SCAN_PERIOD_MS 10   /* one scan of all 16 channels, LED off then on, each 10 ms */
#define SETTLE_MS 300       /* quiet this long after motion: the roll has settled */
#define FAULT_MS 1000       /* a sensor out of range this long raises a FAULT */
#define LED_SETTLE_US 40    /* IR LED and phototransistor rise time after switching */
#define MUX_SETTLE_US 10    /* after changing the multiplexer address */

/* Where the pockets are, in mm from the board centre (x to Dark's right, y away from Dark):
 * the reference tray sits beyond the right-hand end of the board, level with its centre line.
 * The default tray zone covers exactly the two pockets; a die on a pocket's rim (apron) is
 * reported APRON_OFFSET_MM further out, outside every default zone. */
#define POCKET0_X 275
#define POCKET0_Y (-12)
#define POCKET1_X 275
#define POCKET1_Y 12
#define APRON_OFFSET_MM 20
#define TRAY_X0 265
#define TRAY_Y0 (-22)
#define TRAY_X1 285
#define TRAY_Y1 22

/* Link timing (PROTOCOL.md). */
#define HEARTBEAT_MS 1000
#define RETRANSMIT_MS 250
#define LINK_TIMEOUT_MS 3000
#define EVENT_QUEUE_LEN 16 /* coalesced: about one entry per roll (PROTOCOL.md 5.4) */

#endif
