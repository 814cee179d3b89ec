// Copyright 2026 The arenaplan Authors. SPDX-License-Identifier: Apache-2.0
//
// Text that untrusted input (tensor names, file names, ids) may put into
// generated C++: comment text, string literals, namespace names and include
// guards. Every emitter that writes C++ (emit/header.cpp, emit/tflm_shim.cpp,
// compile/) goes through these, so no byte sequence in a model or a file
// name can end a comment, splice a line, or otherwise add code.
#ifndef ARENAPLAN_CODEGEN_EMIT_CPP_TEXT_HPP_
#define ARENAPLAN_CODEGEN_EMIT_CPP_TEXT_HPP_

#include <string>
#include <string_view>

namespace arenaplan {

/// `text` made safe inside a `//` or `/* */` comment: printable ASCII is
/// kept; every other byte, a backslash, a '?' that follows a '?' (no
/// trigraph such as "??/" can form) and a '/' that follows a '*' (no "*/")
/// become "\xNN" (two lowercase hex digits). The result holds only bytes
/// 0x20..0x7e, never ends in a backslash, and reads back unambiguously.
[[nodiscard]] std::string CommentText(std::string_view text);

/// A C++ string literal (with its quotes) spelling `text` byte for byte:
/// '"' and '\\' escaped with a backslash, every byte outside printable
/// ASCII and every '?' as a three-digit octal escape (a following digit is
/// never absorbed; no trigraph can form).
[[nodiscard]] std::string StringLiteral(std::string_view text);

/// Escapes for one line of terminal output: printable ASCII and valid
/// UTF-8 are kept, every control byte (C0 including newline, DEL, and the
/// C1 range U+0080..U+009F) and every byte of invalid UTF-8 becomes "\xNN",
/// so no escape sequence reaches the terminal and the text stays one line.
/// Idempotent (a backslash is kept), so text escaped once may pass again.
[[nodiscard]] std::string TerminalText(std::string_view text);

/// True for a C++20 keyword or alternative token ("and", "bitor", ...).
[[nodiscard]] bool IsCppKeyword(std::string_view word);

/// Why `name` cannot be the namespace of generated code, or "" when it
/// can. A namespace path "a" or "a::b": each part an ASCII identifier that
/// is not a keyword, not reserved (no "__", no leading '_' + capital, no
/// leading '_' at global scope), not a macro the standard headers the
/// generated code includes may define (NULL, SIZE_MAX, INT8_C, ...), not a
/// macro GCC or Clang predefine on common hosts (linux, unix, i386, ...),
/// not `main`, and no part named `std` or `arenaplan` (the generated code
/// names ::std and ::arenaplan and would find the nested one instead).
[[nodiscard]] std::string NamespaceProblem(std::string_view name);

/// An include guard for a file whose identity is `key` (e.g. a namespace
/// or a file name): "ARENAPLAN_GENERATED_" + the key's letters and digits
/// upper-cased + "_" + 16 hex digits of a hash of the exact key + "_". Two
/// keys that differ in any byte (case, "_" against "::") get different
/// guards (up to a 64-bit hash collision).
[[nodiscard]] std::string IncludeGuard(std::string_view prefix,
                                       std::string_view key);

}  // namespace arenaplan

#endif  // ARENAPLAN_CODEGEN_EMIT_CPP_TEXT_HPP_
