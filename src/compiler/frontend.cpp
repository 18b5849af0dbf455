// frontend.cpp - Clang's cc1 in process (see frontend.h).
//
// Why in process: a clang-19 subprocess costs ~100 ms of process start per
// build (COMPILER-NOTES 1); a CompilerInstance in this process costs only the
// parse. The arguments are cc1 arguments, not driver arguments, so nothing of
// the host (system include directories, -fmath-errno) leaks in.
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include "compiler/frontend.h"

static char *copy_text(const std::string &text)
{
    char *copy = static_cast<char *>(std::malloc(text.size() + 1));
    if (copy)
        std::memcpy(copy, text.c_str(), text.size() + 1);
    return copy;
}

extern "C" int cc_frontend_compile(LLVMContextRef context, const char *source, size_t length,
                                   const char *prelude, const char *const *args, unsigned num_args,
                                   LLVMModuleRef *module, char **diagnostics)
{
    static const char main_file[] = "input.cl";
    std::string text;
    llvm::raw_string_ostream stream(text);
    int status = -1;
    *module = nullptr;
    {
        // Diagnostics of the argument parse itself (an unknown cc1 flag
        // would be a bug in options.c, but it must not crash).
        llvm::IntrusiveRefCntPtr<clang::DiagnosticOptions> parse_options =
            new clang::DiagnosticOptions();
        clang::DiagnosticsEngine parse_diags(
            llvm::IntrusiveRefCntPtr<clang::DiagnosticIDs>(new clang::DiagnosticIDs()),
            &*parse_options, new clang::TextDiagnosticPrinter(stream, &*parse_options), true);
        auto invocation = std::make_shared<clang::CompilerInvocation>();
        if (!clang::CompilerInvocation::CreateFromArgs(
                *invocation, llvm::ArrayRef<const char *>(args, num_args), parse_diags, "clang") ||
            parse_diags.hasErrorOccurred()) {
            status = -2;
            goto out;
        }

        clang::FrontendOptions &frontend = invocation->getFrontendOpts();
        frontend.Inputs.clear();
        frontend.Inputs.emplace_back(main_file, clang::InputKind(clang::Language::OpenCL));
        frontend.ProgramAction = clang::frontend::EmitLLVMOnly;
        // The source lives in memory under a name; the preprocessor owns
        // (and frees) the buffer.
        // The prelude goes first, then a #line that gives the source its own
        // line numbers in diagnostics.
        std::string text_in = prelude ? std::string(prelude) + "#line 1 \"input.cl\"\n" : "";
        text_in.append(source, length);
        invocation->getPreprocessorOpts().addRemappedFile(
            main_file, llvm::MemoryBuffer::getMemBufferCopy(text_in, main_file).release());
        invocation->getDiagnosticOpts().ShowColors = false;

        clang::CompilerInstance instance;
        instance.setInvocation(invocation);
        instance.createDiagnostics(
            new clang::TextDiagnosticPrinter(stream, &instance.getDiagnosticOpts()), true);
        // "N errors generated." goes to the log too, not to stderr.
        instance.setVerboseOutputStream(stream);

        clang::EmitLLVMOnlyAction action(llvm::unwrap(context));
        if (instance.ExecuteAction(action)) {
            std::unique_ptr<llvm::Module> result = action.takeModule();
            if (result) {
                *module = llvm::wrap(result.release());
                status = 0;
            }
        }
    }
out:
    stream.flush();
    *diagnostics = copy_text(text);
    return status;
}
