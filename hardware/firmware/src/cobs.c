/* COBS encoder/decoder matching firmware_bridge/cobs.py byte for byte. */
#include "cobs.h"

size_t cobs_encode(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t code_at = 0, out = 1;
    uint8_t code = 1;
    for (size_t i = 0; i < n; i++) {
        if (src[i] == 0) {
            dst[code_at] = code;
            code_at = out++;
            code = 1;
        } else {
            dst[out++] = src[i];
            if (++code == 0xFF) {
                dst[code_at] = code;
                code_at = out++;
                code = 1;
            }
        }
    }
    dst[code_at] = code;
    return out;
}

int cobs_decode(const uint8_t *src, size_t n, uint8_t *dst)
{
    size_t i = 0, out = 0;
    if (n == 0)
        return -1;
    while (i < n) {
        uint8_t code = src[i];
        if (code == 0 || i + code > n)
            return -1;
        for (uint8_t k = 1; k < code; k++) {
            if (src[i + k] == 0)
                return -1;
            dst[out++] = src[i + k];
        }
        i += code;
        if (code != 0xFF && i < n)
            dst[out++] = 0;
    }
    return (int)out;
}
