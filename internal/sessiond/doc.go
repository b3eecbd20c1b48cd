// Package sessiond is mcpctl's session daemon: a process that holds one
// server's connection and relays newline-delimited JSON-RPC between it
// and every invocation that connects to its Unix socket
// (docs/sessions.md says what a user sees of it).
//
// The command line is its only user, through a small seam:
//
//   - the session process calls Serve with a Config: where its files go
//     (Paths), what it is called, and two functions of the CLI's,
//     Connect (the held connection, built as a one-shot run builds it)
//     and Explain (an error in the CLI's words, with its exit code);
//   - an invocation calls Dial to find the session of its server, and
//     speaks to it through NewTransport, which is a client.Transport like
//     any other: the Client needs no change and no probe (the Hello
//     gives the era);
//   - the session commands use List, Status and Stop, and OpenDir for
//     the folder, which is checked before anything in it is trusted.
//
// What the daemon does on the wire:
//
//   - request ids are rewritten to ids of the daemon's own, and so are
//     progress tokens, so that invocations never collide; responses,
//     progress and a subscription's notifications go back to the
//     invocation whose request they belong to, under its own ids;
//   - a log message not tied to a request (stdio ties none) goes once to
//     each invocation connection with a request in flight that asked for
//     logs (a modern request with a log level in its _meta; any request
//     of a legacy server, whose level is the connection's); what else
//     the server says unasked (list changes, resource updates) goes to
//     the invocations that watch (WatchMethod); a legacy Streamable HTTP
//     server's own stream (its GET stream) is kept open, and what comes
//     on it goes the same ways (stream.go);
//   - a legacy server's initialize was done once: an invocation's
//     initialize is answered from it, its notifications/initialized
//     dropped, so no stateful server is initialized twice; its lists are
//     remembered until it announces a change;
//   - a server's requests to the client (elicitation, sampling, roots) go
//     to the invocation whose request is in flight. The legacy protocol
//     cannot say which request such a question belongs to, so a legacy
//     server is sent one request at a time: there is then always exactly
//     one to ask. With none in flight nobody asked for anything: sampling
//     and elicitation are refused, roots answered with the session's own;
//   - the session's own methods (mcpctl/session/…) are never relayed:
//     status and stop are answered only on a connection whose first line
//     says it is the session commands' (Status, Stop), and refused on an
//     invocation's, so no request relayed for a command is taken for one;
//   - notifications/cancelled from an invocation (Ctrl-C, a timeout) or
//     its disconnecting cancels only its own requests;
//   - when the server dies, the requests in flight are answered with an
//     error that says its state is gone, and the next request connects
//     again (Config.Connect). Nothing is ever sent twice.
//
// Nothing found in the sessions folder is trusted before it is checked:
// the owner and mode of the folder and of the one that holds it, the
// socket's type and owner, and the user of the process at the other end
// of every connection, on both sides. The folder is held open once
// checked (Dir), and the session's other files are made relative to it.
// A session process that does not answer is not waited for long
// (UnresponsiveError), and is stopped by its recorded pid once that is
// known to still be its process.
//
// What the server sends, the daemon holds little of for a caller that
// does not read it (queue.go), and of a listing that fails (lists.go).
//
// Sessions work on Linux and macOS (Supported).
package sessiond
