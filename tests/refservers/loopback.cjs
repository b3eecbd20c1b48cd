// Preload (`node -r /path/to/loopback.cjs server.js ...`) that forces every TCP
// listen without an explicit host, or with a wildcard host (0.0.0.0, ::, ""),
// onto 127.0.0.1, and reports the address actually bound on stderr:
//
//   listening on http://127.0.0.1:PORT
//
// (one line per listening TCP server, printed once it is listening). With this,
// PORT=0 works: the kernel picks a free port and the line tells which one.
//
// Why: @modelcontextprotocol/server-everything's HTTP modes call
// `app.listen(process.env.PORT || 3001)` (Express), which binds all interfaces
// and has no host option. http.Server inherits net.Server.prototype.listen,
// so patching that one method covers Express, http and https servers.
// Unix sockets, handles and fds are passed through untouched, as are explicit
// non-wildcard hosts (e.g. "localhost", "::1").
"use strict";

const net = require("node:net");

const LOOPBACK = "127.0.0.1";
const wildcard = (h) => h === undefined || h === null || h === "" || h === "0.0.0.0" || h === "::" || h === "[::]";
// Node treats a string as a pipe path unless it converts to a number >= 0.
const isPipeName = (s) => typeof s === "string" && !(Number(s) >= 0);

const origListen = net.Server.prototype.listen;

net.Server.prototype.listen = function listen(...args) {
	const first = args[0];
	if (first !== null && typeof first === "object") {
		// listen(options[, cb]) or listen(handle[, backlog][, cb])
		const isHandle = "_handle" in first || "fd" in first || "handle" in first;
		if (!isHandle && first.path === undefined && wildcard(first.host)) {
			args[0] = { ...first, host: LOOPBACK };
		}
	} else if (first === undefined || first === null || typeof first === "function") {
		// listen() or listen(cb): random port on all interfaces.
		args = [0, LOOPBACK, ...args.slice(first === undefined || first === null ? 1 : 0)];
	} else if (typeof first === "number" || (typeof first === "string" && !isPipeName(first))) {
		// listen(port[, host][, backlog][, cb])
		if (typeof args[1] === "string" || args[1] === null || (args.length > 1 && args[1] === undefined)) {
			if (wildcard(args[1])) {
				args[1] = LOOPBACK;
			}
		} else {
			args.splice(1, 0, LOOPBACK);
		}
	}
	this.once("listening", () => {
		const a = this.address();
		if (a && typeof a === "object") {
			const host = a.family === "IPv6" || a.family === 6 ? `[${a.address}]` : a.address;
			process.stderr.write(`listening on http://${host}:${a.port}\n`);
		}
	});
	return origListen.apply(this, args);
};
