// Package ojson reads and writes JSON without losing what a Go map loses:
// the order of an object's keys and the exact text of its numbers. It is
// mcpctl's one ordered-JSON package, in two forms:
//
//   - Members, an object's members in wire order with their values left
//     as raw JSON: for splicing a field into a request or a result while
//     every other byte passes through as the server (or the user) wrote
//     it. SplitObject keeps duplicate keys; Get, Set and Keys read them
//     as encoding/json does (the last value wins). Its values are slices
//     of the text split, not copies: a large value is held once.
//
//   - a parsed tree (Parse): *Object, *Array, string, json.Number, bool
//     and nil, for walking a document: validating it against a schema,
//     rendering it as a table. An Object keeps its keys in order (a
//     duplicate keeps the first one's place and the last one's value);
//     numbers stay json.Number, so big integers and exact decimals are
//     never rounded through float64; with KeepText every member and item
//     also remembers the text it was parsed from. A tree may also hold
//     json.RawMessage leaves, values kept as written, which Encode writes
//     as they are (a tree built a level at a time, over raw input).
//
// Encode and String write JSON back without HTML escaping, so that `<`,
// `>` and `&` come back as they were given.
//
// The package is a library of the standard library alone, so that every
// part of mcpctl (client, config, commands, output) can use it.
package ojson
