// Package output turns raw MCP results into what a user sees: JSON, YAML,
// tables, human text, or the output of a jq filter. It also owns IOStreams,
// the only route to stdin, stdout, stderr and terminal state.
//
// The package never talks to a server; results arrive as the
// json.RawMessage the server sent. From mcpctl it imports only the
// client's data packages: client/ojson (ordered JSON) and client/schema,
// whose Read is how `tools describe` and the tools list read a tool's
// schemas (the one reader of a schema's structure).
//
// Contracts the CLI and its tests rely on:
//
//   - Terminal versus pipe. With no explicit format, a terminal gets text and
//     a pipe gets JSON (DefaultFormat). JSON on a terminal is indented; on a
//     pipe it is one compact line per result, byte for byte the server's
//     content apart from insignificant whitespace. Tables on a terminal are
//     padded to the terminal width with the last column cut with "…"; on a
//     pipe they are tab-separated, never truncated, and still start with a
//     header row so that columns can be picked by name. Colour (bold headers
//     and names only) appears only on a terminal, never in a pipe.
//
//   - Fidelity. JSON and YAML keep the server's key order, unknown fields and
//     number text exactly (9007199254740993 and 1.0e+2 stay as written): the
//     raw bytes are re-indented or walked token by token, never decoded into
//     Go maps or float64. On a terminal, JSON output writes C1 controls, DEL
//     and every invisible or direction-changing character (bidi controls
//     and marks, zero-width characters, U+2028/U+2029, the BOM, no-break
//     spaces…) as \u escapes; the value is the same but the terminal cannot
//     be steered nor a name hide a character. YAML always double-quotes and
//     escapes such strings (and quotes strings that would read back as
//     numbers, booleans or null, by YAML 1.2 and 1.1 rules alike).
//
//   - jq. Filters run through gojq on input decoded with UseNumber, so numbers
//     the filter does not touch keep their text. String results are written
//     raw (like jq -r and gh --jq), other values as JSON, one per line.
//     Objects built or passed through by jq come out with their keys sorted:
//     gojq represents objects as Go maps and cannot keep the server's order.
//     Use the json or yaml formats when order matters. $ENV and env are empty
//     (the environment may hold secrets; gojq keeps it out unless asked).
//     Through Render on a terminal, raw strings are sanitised and JSON gets
//     the same escaping as the json format, as through Query.Run told the
//     output is a terminal; to a pipe both write exactly.
//
//   - Untrusted text. Tool descriptions, resource text and every other
//     server prose printed as text or table on a terminal go through
//     Sanitize, which removes escape sequences and control characters and
//     shows as escapes what would hide text from a reader: bidi overrides,
//     tag characters, runs of invisible characters (prose keeps a joiner
//     or a mark on its own). Names, URIs and keys there go through SanitizeName, which
//     removes nothing and shows controls and invisible characters as
//     escapes, so that a name reads as what it is. Table cells always go
//     through SanitizeLine (or SanitizeName), terminal or not, because a tab
//     or newline inside a cell would break the one-row-per-line contract.
//     Text written to a pipe carries the server's text unchanged, except
//     that each block ends with a newline and one-line slots (names, URIs,
//     summaries) have their line breaks folded to spaces. LineSanitizer
//     passes another program's output (a stdio server's stderr) on to a
//     terminal the same way, a bounded line at a time.
//
//   - Shape. Text and table know the result shapes named by Kind. A result
//     without the expected shape (a task handle, a server's own extension)
//     is printed as indented JSON (text) or as a KEY/VALUE table rather than
//     half-rendered. Binary content is never printed in text: images, audio
//     and blobs are described by type and decoded size.
package output
