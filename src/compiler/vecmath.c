/* vecmath.c - vector variants of math calls for the loop vectorizer.
 *
 * Takes the module after the work-group functions are made (every math
 * built-in inlined: calls of LLVM's math intrinsics such as llvm.sin.f32 and
 * of the C library's functions such as erfcf) and gives each such call the
 * "vector-function-abi-variant" attribute (the vector function ABI, VFABI)
 * naming glibc's libmvec functions of the same computation for the widths
 * the host runs: _ZGVbN4v_sinf (SSE, 4 floats), _ZGVdN8v_sinf (AVX2),
 * _ZGVeN16v_sinf (AVX-512), and 2/4/8 doubles. The loop vectorizer then
 * turns a work-item loop's scalar call into one call of the vector
 * function instead of a call per lane. The variants are declared in the
 * module and kept (llvm.compiler.used) until the vectorizer has run; the
 * JIT binds those it calls from libmvec.so.1 (jit.c).
 *
 * Accuracy: libmvec's functions are within 1-4 ulp, not always inside
 * OpenCL C 7.4's bound for the function: each variant used was measured
 * (the table below). Where libmvec has no variant inside the bound, or
 * none at all, SLEEF's (libsleef.so.3, Debian's
 * libsleef3) serves: its _u10 functions are documented within 1.0 ulp,
 * inside every bound they are used for, and are named
 * Sleef_<stem><f|d><lanes>_u10<isa>, which the VFABI attribute maps the
 * vector ABI name to. SLEEF's log1p is infinite above 1e38 (float) and
 * 1e307 (double), where OpenCL wants a finite result: it serves double
 * only, which math.cl computes as log(x) above 2^60 (float has libmvec's
 * AVX2 variant). Not SLEEF's tgamma (29 ulp, float, and 1621 ulp, double,
 * on negative arguments whose results are denormal; OpenCL's bound is 16):
 * math.cl computes float tgamma itself from log, exp and sin, and double's
 * stays scalar; nor SLEEF's lgamma (1277 ulp near its zeros at negative
 * arguments, where glibc's is accurate; OpenCL sets no bound) nor its
 * fmodf (wrong for quotients above about 2^128: math.cl has an exact
 * float fmod, remainder and remquo of its own). Checked with the
 * CTS's test_bruteforce -w: cbrt 0.91/0.56 ulp (float/double), exp 0.83
 * (double), exp10 0.78 (float), expm1 2.35/1.96, log 0.78 (float), log10
 * 1.91 (float). A variant is offered only when this process's
 * library has it, so an older glibc or no SLEEF means fewer vectorized
 * calls, never an unresolved symbol. Where neither library has an accurate
 * variant (double remainder and tgamma, lgamma), lanes.c's call the C
 * library per lane: the loop around the call still vectorizes. Where a
 * libmvec variant is chosen and guards.c has a wrapper of it, the wrapper
 * is named instead: it keeps the lanes libmvec would compute with a call
 * of the scalar function each (asin of |x| > 1, exp that overflows, ...)
 * off that slow path.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler/internal.h"

/* libmvec's name stem, LLVM's intrinsic (NULL: none), arity, the ISAs
 * (b, d, e: see isas below) whose libmvec float and double variants are
 * accurate enough, and whether SLEEF's 1-ulp variant may serve where
 * libmvec does not. Measured against glibc 2.36 (Debian 12), float inputs
 * every 61st bit pattern and, for the functions within half an ulp of
 * their bound, all 2^32 of them; double 20 million inputs, half of them of
 * magnitude 2^-7..2^8; the worst error in ulps against a double (float)
 * or long double (double) reference, and OpenCL C 7.4's bound:
 *   float  log 3.92 of 3 (every ISA), log10 3.26 (e) and 2.78 (d) of 3,
 *          exp10 3.76 (e) of 3, exp 2.93 (b, all inputs) of 3: left out;
 *          exp 2.64 (d, e, all inputs) of 3 and the rest at least 0.5
 *          ulp inside their bounds: used.
 *   double exp 3.09 (b), 2.86 (d), 2.74 (e) of 3 and expm1 2.95 (b), 2.93
 *          (d) of 3: left out; cos 3.65 (b) of 4 is the closest used.
 *   log1p  (ninth session, AVX2 Zen 3) float over all 2^32 inputs: 1.957
 *          (d) and 2.105 (b) of 2, so d only (e unmeasured: no AVX-512
 *          host); double 2.35 (b, d) of 2, and SLEEF's is infinite from
 *          about 1e307: scalar.
 * An ISA left out here means the call stays scalar (or another ISA's
 * variant serves when the host has it: the vectorizer takes any listed
 * width). */
static const struct function {
    const char *stem;
    const char *intrinsic;
    int arity;
    const char *float_isas, *double_isas;
    const char *sleef; /* the types (f, d) SLEEF's variant may serve */
    const char *lanes; /* the types lanes.c's per-lane variants serve, failing both */
} functions[] = {
    {"sin", "llvm.sin", 1, "bde", "bde", "", ""},
    {"cos", "llvm.cos", 1, "bde", "bde", "", ""},
    {"tan", "llvm.tan", 1, "bde", "bde", "", ""},
    {"asin", "llvm.asin", 1, "bde", "bde", "", ""},
    {"acos", "llvm.acos", 1, "bde", "bde", "", ""},
    {"atan", "llvm.atan", 1, "bde", "bde", "", ""},
    {"sinh", "llvm.sinh", 1, "bde", "bde", "", ""},
    {"cosh", "llvm.cosh", 1, "bde", "bde", "", ""},
    {"tanh", "llvm.tanh", 1, "bde", "bde", "", ""},
    {"asinh", NULL, 1, "bde", "bde", "", ""},
    {"acosh", NULL, 1, "bde", "bde", "", ""},
    {"atanh", NULL, 1, "bde", "bde", "", ""},
    {"exp", "llvm.exp", 1, "de", "", "fd", ""},
    {"exp2", "llvm.exp2", 1, "bde", "bde", "", ""},
    {"exp10", "llvm.exp10", 1, "bd", "bde", "fd", ""},
    {"expm1", NULL, 1, "bde", "e", "fd", ""},
    {"log", "llvm.log", 1, "", "bde", "fd", ""},
    {"log2", "llvm.log2", 1, "bde", "bde", "", ""},
    {"log10", "llvm.log10", 1, "b", "bde", "fd", ""},
    {"erf", NULL, 1, "bde", "bde", "", ""},
    {"erfc", NULL, 1, "bde", "bde", "", ""},
    {"pow", "llvm.pow", 2, "bde", "bde", "", ""},
    {"atan2", NULL, 2, "bde", "bde", "", ""},
    {"hypot", NULL, 2, "bde", "bde", "", ""},
    {"remainder", NULL, 2, "", "", "", "d"},
    {"tgamma", NULL, 1, "", "", "", "d"},
    {"lgamma", NULL, 1, "", "", "", "fd"},
    {"log1p", NULL, 1, "d", "", "d", ""},
    {"cbrt", NULL, 1, "", "", "fd", ""},
};
enum { NUM_FUNCTIONS = sizeof functions / sizeof functions[0] };

/* The x86-64 VFABI ISAs: b SSE, d AVX2, e AVX-512; lanes of float; and
 * the suffix of SLEEF's function for the ISA. */
static const struct isa {
    char letter;
    unsigned float_lanes;
    const char *feature; /* in LLVM's host feature string */
    const char *sleef;
} isas[] = {{'b', 4, "+sse2", "sse2"}, {'d', 8, "+avx2", "avx2"}, {'e', 16, "+avx512f", "avx512f"}};
enum { NUM_ISAS = sizeof isas / sizeof isas[0] };

/* variant[f][i][d]: the function that computes function f for ISA i's
 * vector (d = 1: of doubles), libmvec's or SLEEF's; "" if none */
static char variant[NUM_FUNCTIONS][NUM_ISAS][2][40];
static pthread_once_t once = PTHREAD_ONCE_INIT;

void cc_libmvec_name(char *out, size_t size, const char *stem, int arity, int isa, bool is_double)
{
    snprintf(out, size, "_ZGV%cN%u%s_%s%s", isas[isa].letter,
             isas[isa].float_lanes / (is_double ? 2 : 1), arity == 2 ? "vv" : "v", stem,
             is_double ? "" : "f");
}

void cc_sleef_name(char *out, size_t size, const char *stem, int isa, bool is_double)
{
    snprintf(out, size, "Sleef_%s%c%u_u10%s", stem, is_double ? 'd' : 'f',
             isas[isa].float_lanes / (is_double ? 2 : 1), isas[isa].sleef);
}

static void find_variants(void)
{
    const struct cc_host *host = cc_host();
    void *libmvec = dlopen("libmvec.so.1", RTLD_LAZY | RTLD_LOCAL);
    void *sleef = dlopen("libsleef.so.3", RTLD_LAZY | RTLD_LOCAL);
    if (!host)
        return;
    char name[sizeof variant[0][0][0]];
    for (int f = 0; f < NUM_FUNCTIONS; f++)
        for (int i = 0; i < NUM_ISAS; i++)
            for (int d = 0; d < 2; d++) {
                if (!strstr(host->features, isas[i].feature))
                    continue;
                const struct function *fn = &functions[f];
                cc_libmvec_name(name, sizeof name, fn->stem, fn->arity, i, d);
                const char *accurate = d ? fn->double_isas : fn->float_isas;
                if (libmvec && strchr(accurate, isas[i].letter) && dlsym(libmvec, name))
                    /* guards.c's wrapper, where it has one, in its place */
                    cc_guard_variant(fn->stem, isas[i].sleef, d, name, sizeof name);
                else {
                    cc_sleef_name(name, sizeof name, fn->stem, i, d);
                    if (!(strchr(fn->sleef, d ? 'd' : 'f') && sleef && dlsym(sleef, name))) {
                        snprintf(name, sizeof name, "cpucl_lanes_%s%c_%s", fn->stem, d ? 'd' : 'f',
                                 isas[i].sleef);
                        if (!(strchr(fn->lanes, d ? 'd' : 'f') && cc_is_lanes_symbol(name)))
                            continue;
                    }
                }
                snprintf(variant[f][i][d], sizeof variant[f][i][d], "%s", name);
            }
    /* the libraries stay loaded: the JIT binds the same functions */
}

bool cc_is_vmath_call(const char *name)
{
    return !strncmp(name, CC_VMATH_PREFIX, sizeof CC_VMATH_PREFIX - 1);
}

bool cc_vecmath_symbol(const char *name)
{
    return !strncmp(name, "_ZGV", 4) || !strncmp(name, "Sleef_", 6) || cc_is_lanes_symbol(name) ||
           cc_is_guard_symbol(name);
}

/* Which function and type a call computes: llvm.sin.f32, sinf, sin... */
static int match(const char *callee, bool *is_double)
{
    for (int f = 0; f < NUM_FUNCTIONS; f++) {
        const struct function *fn = &functions[f];
        char name[48];
        for (int d = 0; d < 2; d++) {
            snprintf(name, sizeof name, "%s%s", fn->stem, d ? "" : "f");
            if (!strcmp(callee, name)) {
                *is_double = d;
                return f;
            }
            if (fn->intrinsic) {
                snprintf(name, sizeof name, "%s.%s", fn->intrinsic, d ? "f64" : "f32");
                if (!strcmp(callee, name)) {
                    *is_double = d;
                    return f;
                }
            }
        }
    }
    return -1;
}

static LLVMValueRef declare(LLVMModuleRef module, const char *name, LLVMTypeRef element,
                            unsigned lanes, int arity, struct cc_values *kept)
{
    LLVMValueRef fn = LLVMGetNamedFunction(module, name);
    if (fn)
        return fn;
    LLVMTypeRef vector = LLVMVectorType(element, lanes);
    LLVMTypeRef params[2] = {vector, vector};
    fn = LLVMAddFunction(module, name, LLVMFunctionType(vector, params, (unsigned)arity, false));
    if (kept) /* out of memory: only not kept until the vectorizer */
        cc_values_add(kept, fn);
    return fn;
}

static void annotate(LLVMModuleRef module, LLVMValueRef call, int f, bool is_double,
                     struct cc_values *kept)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef element =
        is_double ? LLVMDoubleTypeInContext(context) : LLVMFloatTypeInContext(context);
    size_t length;
    const char *callee = LLVMGetValueName2(LLVMGetCalledValue(call), &length);
    char text[1024] = "", item[160];
    for (int i = 0; i < NUM_ISAS; i++) {
        const char *name = variant[f][i][is_double];
        if (!*name)
            continue;
        unsigned lanes = isas[i].float_lanes / (is_double ? 2 : 1);
        declare(module, name, element, lanes, functions[f].arity, kept);
        snprintf(item, sizeof item, "%s_ZGV_LLVM_N%u%s_%.*s(%s)", *text ? "," : "", lanes,
                 functions[f].arity == 2 ? "vv" : "v", (int)length, callee, name);
        if (strlen(text) + strlen(item) < sizeof text)
            strcat(text, item);
    }
    if (!*text)
        return;
    static const char key[] = "vector-function-abi-variant";
    LLVMAttributeRef attribute =
        LLVMCreateStringAttribute(context, key, sizeof key - 1, text, (unsigned)strlen(text));
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex, attribute);
}

/* @llvm.compiler.used keeps the declarations through the passes before the
 * vectorizer, which would drop them as unused. */
static void keep(LLVMModuleRef module, const struct cc_values *kept)
{
    if (!kept->count || LLVMGetNamedGlobal(module, "llvm.compiler.used"))
        return;
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef ptr = LLVMPointerTypeInContext(context, 0);
    LLVMValueRef array = LLVMConstArray2(ptr, kept->items, kept->count);
    LLVMValueRef used = LLVMAddGlobal(module, LLVMTypeOf(array), "llvm.compiler.used");
    LLVMSetInitializer(used, array);
    LLVMSetLinkage(used, LLVMAppendingLinkage);
    LLVMSetSection(used, "llvm.metadata");
}

/* --- calls on vector types ---
 *
 * The loop vectorizer leaves loops of vector-typed code (float4 ...)
 * alone, so their math calls need variants of their own: the vector
 * overloads of math.cl call LLVM's vector intrinsics (llvm.sin.v4f32) or,
 * for functions only the C library has, CC_VMATH_PREFIX<stem>.v4f32
 * (cpucl.vmath.erf.v4f32). Each such call becomes calls of the variants
 * of the same function and type: the widest variant no wider than the
 * vector, chunk by chunk, or, for a vector narrower than every variant
 * (float2, float3 on AVX2), one call with the vector padded. Without a
 * variant (or under -cl-opt-disable), an intrinsic stays as it is (the
 * back end calls the C library per lane) and a cpucl.vmath call becomes
 * calls of the C library's function per lane. */
/* A vector-typed math call: the function, its type and lanes, and whether
 * it is a cpucl.vmath one; -1 if it is none. */
static int match_vector(const char *callee, bool *is_double, unsigned *lanes, bool *vmath)
{
    for (int f = 0; f < NUM_FUNCTIONS; f++) {
        const struct function *fn = &functions[f];
        char prefix[48];
        for (int v = 0; v < 2; v++) {
            if (v)
                snprintf(prefix, sizeof prefix, "%s%s.v", CC_VMATH_PREFIX, fn->stem);
            else if (fn->intrinsic)
                snprintf(prefix, sizeof prefix, "%s.v", fn->intrinsic);
            else
                continue;
            size_t n = strlen(prefix);
            if (strncmp(callee, prefix, n))
                continue;
            char *end;
            unsigned long count = strtoul(callee + n, &end, 10);
            if (count < 2 || count > 16 || (strcmp(end, "f32") && strcmp(end, "f64")))
                continue;
            *is_double = !strcmp(end, "f64");
            *lanes = (unsigned)count;
            *vmath = v;
            return f;
        }
    }
    return -1;
}

/* shufflevector of a and b (b NULL: poison) taking lane picks[i] for each
 * of the `count` result lanes; a pick < 0 is poison */
static LLVMValueRef shuffle(LLVMBuilderRef builder, LLVMValueRef a, LLVMValueRef b,
                            const int *picks, unsigned count)
{
    LLVMContextRef context = LLVMGetTypeContext(LLVMTypeOf(a));
    LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
    LLVMValueRef mask[32];
    for (unsigned i = 0; i < count; i++)
        mask[i] = picks[i] < 0 ? LLVMGetPoison(i32) : LLVMConstInt(i32, (unsigned)picks[i], false);
    if (!b)
        b = LLVMGetPoison(LLVMTypeOf(a));
    return LLVMBuildShuffleVector(builder, a, b, LLVMConstVector(mask, count), "");
}

/* Lanes [offset, offset + width) of an n-lane vector, past n poison. */
static LLVMValueRef chunk(LLVMBuilderRef builder, LLVMValueRef v, unsigned n, unsigned offset,
                          unsigned width)
{
    int picks[32];
    for (unsigned i = 0; i < width; i++)
        picks[i] = offset + i < n ? (int)(offset + i) : -1;
    return shuffle(builder, v, NULL, picks, width);
}

/* The call through variants: pieces of `width` lanes, put back together. */
static LLVMValueRef call_in_pieces(LLVMBuilderRef builder, LLVMValueRef variant,
                                   LLVMTypeRef variant_type, LLVMValueRef *args, int arity,
                                   unsigned n, unsigned width)
{
    LLVMValueRef whole = NULL;
    for (unsigned offset = 0; offset < n; offset += width) {
        LLVMValueRef pieces[2];
        for (int a = 0; a < arity; a++)
            pieces[a] = chunk(builder, args[a], n, offset, width);
        LLVMValueRef result =
            LLVMBuildCall2(builder, variant_type, variant, pieces, (unsigned)arity, "");
        /* the piece as n lanes (lanes past it poison), then merged in */
        int picks[32];
        for (unsigned i = 0; i < n; i++)
            picks[i] = i >= offset && i - offset < width ? (int)(i - offset) : -1;
        LLVMValueRef spread = shuffle(builder, result, NULL, picks, n);
        if (!whole) {
            whole = spread;
            continue;
        }
        for (unsigned i = 0; i < n; i++)
            picks[i] = i >= offset && i - offset < width ? (int)(n + i) : (int)i;
        whole = shuffle(builder, whole, spread, picks, n);
    }
    return whole;
}

/* The C library's function per lane: erff(x[0]), erff(x[1]), ... */
static LLVMValueRef call_per_lane(LLVMModuleRef module, LLVMBuilderRef builder, int f,
                                  bool is_double, LLVMValueRef *args, unsigned n)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef element =
        is_double ? LLVMDoubleTypeInContext(context) : LLVMFloatTypeInContext(context);
    LLVMTypeRef i32 = LLVMInt32TypeInContext(context);
    int arity = functions[f].arity;
    LLVMTypeRef params[2] = {element, element};
    LLVMTypeRef type = LLVMFunctionType(element, params, (unsigned)arity, false);
    char name[48];
    snprintf(name, sizeof name, "%s%s", functions[f].stem, is_double ? "" : "f");
    LLVMValueRef fn = LLVMGetNamedFunction(module, name);
    if (!fn) {
        /* as Clang declares a math built-in without errno (OpenCL C has
         * none): no memory touched, so the loop vectorizer can take it */
        fn = LLVMAddFunction(module, name, type);
        static const char *const kinds[] = {"nounwind", "willreturn", "nofree", "nosync", "memory"};
        for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
            unsigned kind = LLVMGetEnumAttributeKindForName(kinds[k], strlen(kinds[k]));
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                    LLVMCreateEnumAttribute(context, kind, 0)); /* memory(none) */
        }
    }
    LLVMValueRef whole = LLVMGetPoison(LLVMVectorType(element, n));
    for (unsigned i = 0; i < n; i++) {
        LLVMValueRef index = LLVMConstInt(i32, i, false), lane[2];
        for (int a = 0; a < arity; a++)
            lane[a] = LLVMBuildExtractElement(builder, args[a], index, "");
        LLVMValueRef r = LLVMBuildCall2(builder, type, fn, lane, (unsigned)arity, "");
        whole = LLVMBuildInsertElement(builder, whole, r, index, "");
    }
    return whole;
}

static unsigned lanes_of(int isa, bool is_double)
{
    return isas[isa].float_lanes / (is_double ? 2 : 1);
}

/* Rewrites one vector-typed call; false if it stays. */
static bool lower_vector_call(LLVMModuleRef module, LLVMValueRef call, int f, bool is_double,
                              unsigned n, bool vmath, bool use_variants)
{
    LLVMContextRef context = LLVMGetModuleContext(module);
    LLVMTypeRef element =
        is_double ? LLVMDoubleTypeInContext(context) : LLVMFloatTypeInContext(context);
    int arity = functions[f].arity, fit = -1, narrowest = -1;
    if ((unsigned)LLVMGetNumArgOperands(call) != (unsigned)arity)
        return false;
    /* the widest variant no wider than n, else the narrowest one */
    for (int i = 0; use_variants && i < NUM_ISAS; i++) {
        if (!*variant[f][i][is_double])
            continue;
        unsigned lanes = lanes_of(i, is_double);
        if (lanes <= n && (fit < 0 || lanes > lanes_of(fit, is_double)))
            fit = i;
        if (narrowest < 0 || lanes < lanes_of(narrowest, is_double))
            narrowest = i;
    }
    int best = fit >= 0 ? fit : narrowest;
    if (best < 0 && !vmath)
        return false;
    /* Clang passes a vector wider than the ABI's registers (float16 below
     * AVX-512, float8 below AVX) as a pointer to a copy (byval), and a
     * float2 as a double: loaded, or bitcast, to the vector */
    LLVMTypeRef vector = LLVMVectorType(element, n);
    unsigned vector_bits = n * (is_double ? 64 : 32);
    LLVMTypeRef returned = LLVMTypeOf(call);
    if (returned != vector && cc_type_bits(returned) != vector_bits)
        return false;
    for (int a = 0; a < arity; a++) {
        LLVMTypeRef type = LLVMTypeOf(LLVMGetOperand(call, (unsigned)a));
        if (type != vector && LLVMGetTypeKind(type) != LLVMPointerTypeKind &&
            cc_type_bits(type) != vector_bits)
            return false;
    }
    LLVMBuilderRef builder = LLVMCreateBuilderInContext(context);
    LLVMPositionBuilderBefore(builder, call);
    LLVMValueRef args[2];
    for (int a = 0; a < arity; a++) {
        args[a] = LLVMGetOperand(call, (unsigned)a);
        LLVMTypeRef type = LLVMTypeOf(args[a]);
        if (LLVMGetTypeKind(type) == LLVMPointerTypeKind)
            args[a] = LLVMBuildLoad2(builder, vector, args[a], "");
        else if (type != vector)
            args[a] = LLVMBuildBitCast(builder, args[a], vector, "");
    }
    LLVMValueRef result;
    if (best < 0) {
        result = call_per_lane(module, builder, f, is_double, args, n);
    } else {
        unsigned width = lanes_of(best, is_double);
        /* called directly: no need to keep the declaration */
        LLVMValueRef fn = declare(module, variant[f][best][is_double], element, width, arity, NULL);
        result = call_in_pieces(builder, fn, LLVMGlobalGetValueType(fn), args, arity, n, width);
    }
    if (returned != vector)
        result = LLVMBuildBitCast(builder, result, returned, "");
    LLVMDisposeBuilder(builder);
    LLVMReplaceAllUsesWith(call, result);
    LLVMInstructionEraseFromParent(call);
    return true;
}

void cc_lower_vector_math_in(LLVMValueRef fn, bool use_variants)
{
    pthread_once(&once, find_variants);
    LLVMModuleRef module = LLVMGetGlobalParent(fn);
    struct cc_values calls = {0};
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
             inst = LLVMGetNextInstruction(inst)) {
            LLVMValueRef callee = LLVMIsACallInst(inst) ? LLVMGetCalledValue(inst) : NULL;
            if (callee && LLVMIsAFunction(callee) &&
                (LLVMGetTypeKind(LLVMTypeOf(inst)) == LLVMVectorTypeKind ||
                 cc_is_vmath_call(LLVMGetValueName(callee))))
                cc_values_add(&calls, inst);
        }
    for (size_t i = 0; i < calls.count; i++) {
        LLVMValueRef call = calls.items[i];
        bool is_double, vmath;
        unsigned lanes;
        int f =
            match_vector(LLVMGetValueName(LLVMGetCalledValue(call)), &is_double, &lanes, &vmath);
        if (f >= 0)
            lower_vector_call(module, call, f, is_double, lanes, vmath, use_variants);
    }
    free(calls.items);
}

void cc_lower_vector_math(LLVMModuleRef module, bool use_variants)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn))
        cc_lower_vector_math_in(fn, use_variants);
}

void cc_add_vector_math(LLVMModuleRef module)
{
    pthread_once(&once, find_variants);
    struct cc_values kept = {0};
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(bb); inst;
                 inst = LLVMGetNextInstruction(inst)) {
                if (!LLVMIsACallInst(inst))
                    continue;
                LLVMValueRef callee = LLVMGetCalledValue(inst);
                if (!callee || !LLVMIsAFunction(callee))
                    continue;
                size_t length;
                const char *name = LLVMGetValueName2(callee, &length);
                bool is_double;
                int f = match(name, &is_double);
                if (f >= 0)
                    annotate(module, inst, f, is_double, &kept);
            }
    }
    keep(module, &kept);
    free(kept.items);
}

/* Whether a type is a vector of 512 bits or more. */
static bool is_wide_vector(LLVMTypeRef type)
{
    return LLVMGetTypeKind(type) == LLVMVectorTypeKind && cc_type_bits(type) >= 512;
}

/* After O3: a function whose code calls a variant taking or returning
 * 512-bit vectors (_ZGVe..., Sleef_..._u10avx512f) gets
 * "min-legal-vector-width"="512". Without it, on hosts where LLVM prefers
 * 256-bit vectors, the x86 back end passes a <8 x double> in two ymm
 * registers where the variant reads one zmm register: every result of such
 * a call was garbage (rootn and pow of double with varying exponents). */
void cc_fix_wide_vector_calls(LLVMModuleRef module)
{
    for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn; fn = LLVMGetNextFunction(fn)) {
        if (LLVMIsDeclaration(fn))
            continue;
        bool wide = false;
        for (LLVMBasicBlockRef block = LLVMGetFirstBasicBlock(fn); block && !wide;
             block = LLVMGetNextBasicBlock(block))
            for (LLVMValueRef inst = LLVMGetFirstInstruction(block); inst && !wide;
                 inst = LLVMGetNextInstruction(inst)) {
                LLVMValueRef callee = LLVMIsACallInst(inst) ? LLVMGetCalledValue(inst) : NULL;
                if (!callee || !LLVMIsAFunction(callee) || LLVMGetIntrinsicID(callee) ||
                    !cc_vecmath_symbol(LLVMGetValueName(callee)))
                    continue;
                LLVMTypeRef type = LLVMGlobalGetValueType(callee);
                wide = is_wide_vector(LLVMGetReturnType(type));
                unsigned n = LLVMCountParamTypes(type);
                LLVMTypeRef params[8];
                if (n <= 8) {
                    LLVMGetParamTypes(type, params);
                    for (unsigned i = 0; i < n; i++)
                        wide |= is_wide_vector(params[i]);
                }
            }
        if (wide)
            LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                                    LLVMCreateStringAttribute(LLVMGetModuleContext(module),
                                                              "min-legal-vector-width", 22, "512",
                                                              3));
    }
}
