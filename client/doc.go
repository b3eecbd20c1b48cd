// Package client speaks the Model Context Protocol to one server: JSON-RPC
// envelopes, the transports, per-request `_meta`, era detection (revision
// 2026-07-28 or the initialize-based legacy ones), pagination, multi
// round-trip requests (input_required), tasks and result caching.
//
// # Use
//
// Make a Transport to the server and give it to New; the Client owns it
// from then on, and Close shuts it down:
//
//   - NewStdio runs the server as a subprocess (newline-delimited JSON-RPC
//     on its stdin and stdout);
//   - NewHTTP reaches it over Streamable HTTP; era detection moves to the
//     legacy Streamable HTTP (sessions) or to HTTP+SSE when the server
//     turns out to speak one;
//   - NewConn speaks newline-delimited JSON-RPC over a connection the
//     caller made (a local socket, a pipe); client/mcptest gives an
//     in-process server to test against.
//
// A transport written elsewhere implements Transport: RoundTrip, Close,
// and Capabilities, which says what it can do besides (carry the server's
// own requests, hand on or watch its notifications tied to no request,
// show a stderr tail, dry-run).
// The Client uses a transport for what it says it is, and fails with a
// *CapabilityError where a request needs what it lacks.
//
// Then call: Call sends any request and returns its raw result; List
// follows nextCursor; CallTool, Listen, WaitTask and Resume do what their
// names say. Options configures the client (who it is, which revision, the
// bounds, the cache, who answers the server's questions); the zero value
// works.
//
// The examples, which go test runs (example_test.go; this paragraph names
// them, pkgsite shows them whole): ExampleNewConn (a stdio-like call to
// an in-process server), ExampleNewHTTP (a call over Streamable HTTP),
// ExampleClient_List (a list with pagination) and ExampleInputHandler (an
// input_required round answered).
//
// # What it promises
//
// It is a library. It never prints, never reads flags or the environment,
// never names a program or a flag in its messages, and never exits the
// process: callers receive errors as typed values (ConnError, RPCError,
// ProtocolError, HTTPError, InputRequiredError, ...) whose fields say what
// happened (the limit that was hit, the login that is needed), for the
// caller to word its own way out. Anything the caller may want to show a
// user (wire traces, server notifications, warnings) reaches it through
// callbacks (Tracer, Hooks): a notification once, at the hook of the
// request it belongs to or, tied to none, at Hooks.OnNotify, however many
// requests share the connection.
//
// Results stay raw: a server's result is returned as the json.RawMessage it
// sent, so unknown fields, vendor `_meta` and schema keywords survive. The
// engine decodes only the few fields it must act on (resultType, nextCursor,
// error codes).
//
// One thing is process-wide, and so never done behind the caller's back:
// ReapOrphans makes the process a child subreaper (Linux), so that a stdio
// server's orphaned descendants come to it and StdioOptions.TrackDescendants
// can end them at Close. A command-line program calls it before it starts a
// server; a library embedding this one should leave it to its program.
// Without it, TrackDescendants still uses a cgroup of the server's own
// where cgroup v2 allows one, and whatever it finds below the server in
// /proc.
package client
