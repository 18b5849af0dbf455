// split.cpp - cuts the built-in library's bitcode into parts, at cpucl's
// build time, so that a kernel build parses only the parts it calls into.
//
// Reading the whole library lazily still makes a Function for each of its
// ~13,000 definitions (the module-level records): 16-20 ms of every build,
// most of a small program's build time. Split into parts with an index of
// which part defines which name, a build reads the few parts its calls
// name (src/compiler/library.c).
//
// usage: cpucl_split_library LIBRARY.bc OUT.parts PART_SIZE
//
// The container (all integers little-endian, as the host):
//   "cpuclLP\n"                        magic, 8 bytes
//   u32 parts, u32 names
//   parts x {u64 offset, u64 size}     each part's bitcode, from the start
//   names x {u32 name, u32 part}       sorted by name (strcmp); name is an
//                                      offset into the strings
//   strings                            NUL-terminated names
//   the parts' bitcode, each at an offset that is a multiple of 16
//
// Reading costs about the same for each function a part defines or
// declares, so the parts are cut along the library's own calls: every
// overload of one built-in (the name inside the Itanium mangling: all of
// _Z3powff, _Z3powDv4_fS_, ...) goes in one group, since vector forms call
// the scalar one; whatever uses a local function or constant joins its
// group, so each part is whole. Groups in name order are packed into
// parts of about PART_SIZE definitions. Calls between parts stay
// declarations and are resolved by linking the callee's part too;
// declarations a part does not use are dropped.
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

struct Name {
    std::string text;
    uint32_t part;
};

// Drops the declarations nothing in the part uses, and the CPU attributes
// of its functions: the compiler gives every function the host's own when
// it links them (library.c), and each part would otherwise carry its own
// copy of the long target-features strings, whose parsing cost more than
// the rest of a part.
void trim(llvm::Module &part)
{
    for (llvm::Function &fn : part.functions()) {
        fn.removeFnAttr("target-cpu");
        fn.removeFnAttr("target-features");
        fn.removeFnAttr("tune-cpu");
    }
    // (dead constant expressions left by the cloning count as uses)
    for (llvm::Function &fn : llvm::make_early_inc_range(part.functions())) {
        fn.removeDeadConstantUsers();
        if (fn.isDeclaration() && fn.use_empty())
            fn.eraseFromParent();
    }
    for (llvm::GlobalVariable &global : llvm::make_early_inc_range(part.globals())) {
        global.removeDeadConstantUsers();
        if (global.isDeclaration() && global.use_empty())
            global.eraseFromParent();
    }
}

// The built-in's name inside an Itanium mangling (_Z3powff -> pow); other
// names as they are.
std::string base_name(llvm::StringRef name)
{
    if (!name.starts_with("_Z"))
        return name.str();
    size_t i = 2, length = 0;
    while (i < name.size() && isdigit((unsigned char)name[i]))
        length = length * 10 + (size_t)(name[i++] - '0');
    if (!length || i + length > name.size())
        return name.str();
    return name.substr(i, length).str();
}

struct Groups {
    std::map<const llvm::GlobalValue *, const llvm::GlobalValue *> parent;

    const llvm::GlobalValue *find(const llvm::GlobalValue *value)
    {
        const llvm::GlobalValue *&up = parent[value];
        if (!up || up == value)
            return up = value;
        return up = find(up);
    }
    void join(const llvm::GlobalValue *a, const llvm::GlobalValue *b)
    {
        a = find(a), b = find(b);
        if (a != b)
            parent[a] = b;
    }
};

// Joins `user` with every local global value that `value` names, looking
// through constant expressions and initializers.
void join_locals(Groups &groups, const llvm::GlobalValue *user, const llvm::Value *value,
                 std::vector<const llvm::Value *> &seen)
{
    if (std::find(seen.begin(), seen.end(), value) != seen.end())
        return;
    seen.push_back(value);
    if (auto *global = llvm::dyn_cast<llvm::GlobalValue>(value)) {
        if (global->hasLocalLinkage() && !global->isDeclaration()) {
            groups.join(user, global);
            if (auto *variable = llvm::dyn_cast<llvm::GlobalVariable>(global))
                if (variable->hasInitializer())
                    join_locals(groups, user, variable->getInitializer(), seen);
        }
        return;
    }
    if (auto *constant = llvm::dyn_cast<llvm::Constant>(value))
        for (const llvm::Use &operand : constant->operands())
            join_locals(groups, user, operand.get(), seen);
}

void put32(std::string &out, uint32_t value) { out.append((const char *)&value, 4); }
void put64(std::string &out, uint64_t value) { out.append((const char *)&value, 8); }

} // namespace

int main(int argc, char **argv)
{
    if (argc != 4 || atoi(argv[3]) < 1) {
        fprintf(stderr, "usage: %s LIBRARY.bc OUT.parts PART_SIZE\n", argv[0]);
        return 2;
    }
    llvm::LLVMContext context;
    auto buffer = llvm::MemoryBuffer::getFile(argv[1]);
    if (!buffer) {
        fprintf(stderr, "%s: cannot read %s\n", argv[0], argv[1]);
        return 1;
    }
    auto parsed = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), context);
    if (!parsed) {
        llvm::consumeError(parsed.takeError());
        fprintf(stderr, "%s: %s is not bitcode\n", argv[0], argv[1]);
        return 1;
    }
    std::unique_ptr<llvm::Module> library = std::move(*parsed);

    // Groups: one per built-in name, locals with their users.
    Groups groups;
    std::map<std::string, const llvm::GlobalValue *> by_name;
    std::vector<const llvm::GlobalValue *> definitions;
    for (const llvm::GlobalValue &value : library->global_values()) {
        if (value.isDeclaration())
            continue;
        definitions.push_back(&value);
        groups.find(&value);
        if (value.hasLocalLinkage())
            continue;
        auto [entry, fresh] = by_name.emplace(base_name(value.getName()), &value);
        if (!fresh)
            groups.join(&value, entry->second);
    }
    for (const llvm::GlobalAlias &alias : library->aliases())
        if (const llvm::GlobalObject *target = alias.getAliaseeObject())
            groups.join(&alias, target);
    for (const llvm::Function &fn : library->functions()) {
        std::vector<const llvm::Value *> seen;
        for (const llvm::BasicBlock &block : fn)
            for (const llvm::Instruction &inst : block)
                for (const llvm::Use &operand : inst.operands())
                    if (llvm::isa<llvm::Constant>(operand.get()))
                        join_locals(groups, &fn, operand.get(), seen);
    }
    // Parts: the groups in order of their first name, packed.
    std::map<const llvm::GlobalValue *, std::vector<const llvm::GlobalValue *>> members;
    for (const llvm::GlobalValue *value : definitions)
        members[groups.find(value)].push_back(value);
    std::vector<std::pair<std::string, const llvm::GlobalValue *>> ordered;
    for (auto &[root, list] : members) {
        std::string first;
        for (const llvm::GlobalValue *value : list)
            if (first.empty() || base_name(value->getName()) < first)
                first = base_name(value->getName());
        ordered.push_back({first, root});
    }
    std::sort(ordered.begin(), ordered.end());
    size_t part_size = (size_t)atoi(argv[3]);
    std::map<const llvm::GlobalValue *, uint32_t> part_of;
    uint32_t num_parts = 0;
    size_t filled = 0;
    for (auto &[first, root] : ordered) {
        if (filled && filled + members[root].size() > part_size)
            num_parts++, filled = 0;
        for (const llvm::GlobalValue *value : members[root])
            part_of[value] = num_parts;
        filled += members[root].size();
    }
    if (filled)
        num_parts++;

    std::vector<std::string> blobs;
    std::vector<Name> names;
    for (uint32_t p = 0; p < num_parts; p++) {
        llvm::ValueToValueMapTy map;
        std::unique_ptr<llvm::Module> part =
            llvm::CloneModule(*library, map, [&](const llvm::GlobalValue *value) {
                auto found = part_of.find(value);
                return found != part_of.end() && found->second == p;
            });
        trim(*part);
        for (llvm::GlobalValue &value : part->global_values())
            if (!value.isDeclaration() && !value.hasLocalLinkage())
                names.push_back({value.getName().str(), p});
        std::string bitcode;
        llvm::raw_string_ostream stream(bitcode);
        llvm::WriteBitcodeToFile(*part, stream);
        stream.flush();
        blobs.push_back(std::move(bitcode));
    }
    std::sort(names.begin(), names.end(),
              [](const Name &a, const Name &b) { return strcmp(a.text.c_str(), b.text.c_str()) < 0; });

    std::string strings;
    std::string index;
    for (const Name &name : names) {
        put32(index, (uint32_t)strings.size());
        put32(index, name.part);
        strings.append(name.text).push_back('\0');
    }
    size_t header = 8 + 8 + blobs.size() * 16;
    size_t offset = header + index.size() + strings.size();
    std::string table;
    std::vector<size_t> offsets;
    for (const std::string &blob : blobs) {
        offset = (offset + 15) & ~(size_t)15;
        offsets.push_back(offset);
        put64(table, offset);
        put64(table, blob.size());
        offset += blob.size();
    }
    std::string out = "cpuclLP\n";
    put32(out, (uint32_t)blobs.size());
    put32(out, (uint32_t)names.size());
    out += table;
    out += index;
    out += strings;
    for (size_t i = 0; i < blobs.size(); i++) {
        out.resize(offsets[i], '\0');
        out += blobs[i];
    }

    std::error_code error;
    llvm::raw_fd_ostream file(argv[2], error);
    if (error) {
        fprintf(stderr, "%s: cannot write %s\n", argv[0], argv[2]);
        return 1;
    }
    file << out;
    return 0;
}
