/* sha256.c - SHA-256 (FIPS 180-4), for the kernel cache's keys and
 * checksums (cache.c).
 *
 * A strong hash because the key stands for everything that changes the
 * code: two builds whose keys collide would share machine code. Written
 * here rather than taken from a library because none of cpucl's
 * dependencies offers one through a C interface it already uses.
 */
#include <string.h>

#include "compiler/internal.h"

static const uint32_t round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

static inline uint32_t rotate_right(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static void compress(uint32_t state[8], const unsigned char block[64])
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)block[4 * i] << 24 | (uint32_t)block[4 * i + 1] << 16 |
               (uint32_t)block[4 * i + 2] << 8 | block[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = rotate_right(w[i - 15], 7) ^ rotate_right(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = rotate_right(w[i - 2], 17) ^ rotate_right(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
    uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
    for (int i = 0; i < 64; i++) {
        uint32_t s1 = rotate_right(e, 6) ^ rotate_right(e, 11) ^ rotate_right(e, 25);
        uint32_t choice = (e & f) ^ (~e & g);
        uint32_t t1 = h + s1 + choice + round_constants[i] + w[i];
        uint32_t s0 = rotate_right(a, 2) ^ rotate_right(a, 13) ^ rotate_right(a, 22);
        uint32_t majority = (a & b) ^ (a & c) ^ (b & c);
        uint32_t t2 = s0 + majority;
        h = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    state[0] += a;
    state[1] += b;
    state[2] += c;
    state[3] += d;
    state[4] += e;
    state[5] += f;
    state[6] += g;
    state[7] += h;
}

void cc_sha256_init(struct cc_sha256 *s)
{
    static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                        0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(s->state, initial, sizeof initial);
    s->length = 0;
}

void cc_sha256_update(struct cc_sha256 *s, const void *data, size_t size)
{
    const unsigned char *p = data;
    size_t used = (size_t)(s->length % 64);
    s->length += size;
    if (used) {
        size_t n = 64 - used < size ? 64 - used : size;
        memcpy(s->block + used, p, n);
        p += n;
        size -= n;
        if (used + n < 64)
            return;
        compress(s->state, s->block);
    }
    for (; size >= 64; p += 64, size -= 64)
        compress(s->state, p);
    memcpy(s->block, p, size);
}

void cc_sha256_final(struct cc_sha256 *s, unsigned char digest[CC_SHA256_SIZE])
{
    uint64_t bits = s->length * 8;
    static const unsigned char padding[64] = {0x80};
    size_t used = (size_t)(s->length % 64);
    cc_sha256_update(s, padding, used < 56 ? 56 - used : 120 - used);
    unsigned char length[8];
    for (int i = 0; i < 8; i++)
        length[i] = (unsigned char)(bits >> (56 - 8 * i));
    cc_sha256_update(s, length, 8);
    for (int i = 0; i < 8; i++) {
        digest[4 * i] = (unsigned char)(s->state[i] >> 24);
        digest[4 * i + 1] = (unsigned char)(s->state[i] >> 16);
        digest[4 * i + 2] = (unsigned char)(s->state[i] >> 8);
        digest[4 * i + 3] = (unsigned char)s->state[i];
    }
}

void cc_sha256(const void *data, size_t size, unsigned char digest[CC_SHA256_SIZE])
{
    struct cc_sha256 s;
    cc_sha256_init(&s);
    cc_sha256_update(&s, data, size);
    cc_sha256_final(&s, digest);
}

void cc_name_uuid(const void *name, size_t size, unsigned char uuid[16])
{
    unsigned char digest[CC_SHA256_SIZE];
    cc_sha256(name, size, digest);
    memcpy(uuid, digest, 16);
    uuid[6] = (unsigned char)((uuid[6] & 0x0f) | 0x80); /* version 8 */
    uuid[8] = (unsigned char)((uuid[8] & 0x3f) | 0x80); /* variant 10 */
}
