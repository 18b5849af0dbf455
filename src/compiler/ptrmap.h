/* ptrmap.h - a map from pointers to pointers (open addressing), for the
 * compiler's passes over LLVM values and blocks. Keys are never NULL. */
#ifndef CPUCL_COMPILER_PTRMAP_H
#define CPUCL_COMPILER_PTRMAP_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct map {
    void **keys, **values;
    size_t capacity, count;
};

static inline size_t map_slot(const struct map *m, const void *key)
{
    size_t h = ((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15u;
    size_t i = h & (m->capacity - 1);
    while (m->keys[i] && m->keys[i] != key)
        i = (i + 1) & (m->capacity - 1);
    return i;
}

static inline bool map_put(struct map *m, void *key, void *value)
{
    if (2 * (m->count + 1) > m->capacity) {
        struct map bigger = {0};
        bigger.capacity = m->capacity ? 2 * m->capacity : 64;
        bigger.keys = calloc(bigger.capacity, sizeof *bigger.keys);
        bigger.values = calloc(bigger.capacity, sizeof *bigger.values);
        if (!bigger.keys || !bigger.values) {
            free(bigger.keys), free(bigger.values);
            return false;
        }
        for (size_t i = 0; i < m->capacity; i++)
            if (m->keys[i]) {
                size_t j = map_slot(&bigger, m->keys[i]);
                bigger.keys[j] = m->keys[i];
                bigger.values[j] = m->values[i];
                bigger.count++;
            }
        free(m->keys), free(m->values);
        *m = bigger;
    }
    size_t i = map_slot(m, key);
    if (!m->keys[i])
        m->count++;
    m->keys[i] = key;
    m->values[i] = value;
    return true;
}

static inline void *map_get(const struct map *m, const void *key)
{
    if (!m->capacity)
        return NULL;
    size_t i = map_slot(m, key);
    return m->keys[i] ? m->values[i] : NULL;
}

static inline void map_free(struct map *m)
{
    free(m->keys), free(m->values);
    memset(m, 0, sizeof *m);
}

#endif
