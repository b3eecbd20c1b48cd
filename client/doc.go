// Package client is mcpctl's Model Context Protocol engine: JSON-RPC
// envelopes, the stdio and Streamable HTTP transports, per-request `_meta`,
// protocol-version negotiation and pagination.
//
// It is a library. It never prints, never reads flags or the environment and
// never exits the process: callers pass Options and receive errors as typed
// values (ConnError, RPCError, ProtocolError, HTTPError, ...). Anything the
// caller may want to show a user (wire traces, server notifications,
// warnings) reaches it through callbacks.
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
