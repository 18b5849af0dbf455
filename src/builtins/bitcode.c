/* bitcode.c - the embedded built-in library (see builtins.h).
 *
 * The assembler's .incbin pulls the files of parts that CMake builds from
 * the *.cl files (split.cpp) into .rodata; CPUCL_BUILTINS_DIR is their
 * directory. */
#include <string.h>

#include "builtins/builtins.h"
#include "identity.h" /* generated: BUILTINS_SHA256_* */

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

#define EMBED(symbol, file)                                                                        \
    __asm__(".pushsection .rodata\n"                                                               \
            ".balign 16\n"                                                                         \
            ".hidden " #symbol "\n"                                                                \
            ".globl " #symbol "\n" #symbol ":\n"                                                   \
            ".incbin \"" CPUCL_BUILTINS_DIR "/" file "\"\n"                                        \
            ".hidden " #symbol "_end\n"                                                            \
            ".globl " #symbol "_end\n" #symbol "_end:\n"                                           \
            ".popsection\n");                                                                      \
    extern const char symbol[], symbol##_end[];

EMBED(builtins_x86_64, "x86-64.parts")
EMBED(builtins_x86_64_v3, "x86-64-v3.parts")
EMBED(builtins_x86_64_v4, "x86-64-v4.parts")

static const struct {
    const char *cpu;
    const char *start, *end;
    const char *sha256;
} levels[] = {
    {"x86-64", builtins_x86_64, builtins_x86_64_end, BUILTINS_SHA256_X86_64},
    {"x86-64-v3", builtins_x86_64_v3, builtins_x86_64_v3_end, BUILTINS_SHA256_X86_64_V3},
    {"x86-64-v4", builtins_x86_64_v4, builtins_x86_64_v4_end, BUILTINS_SHA256_X86_64_V4},
};

const void *builtins_parts(const char *abi_cpu, size_t *size)
{
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++) {
        if (!strcmp(abi_cpu, levels[i].cpu)) {
            *size = (size_t)(levels[i].end - levels[i].start);
            return levels[i].start;
        }
    }
    return NULL;
}

const char *builtins_identity(const char *abi_cpu)
{
    for (size_t i = 0; i < sizeof levels / sizeof levels[0]; i++)
        if (!strcmp(abi_cpu, levels[i].cpu))
            return levels[i].sha256;
    return NULL;
}
