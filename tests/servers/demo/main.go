// Command demo is a small but complete MCP server used to exercise mcpctl:
// tools (one with an output schema, others that need elicitation, roots,
// sampling, progress and logging, or run as tasks), text and binary
// resources, a resource template, a prompt and argument completion, and
// change notifications on demand for subscriptions/listen (toggle_tool,
// toggle_prompt, toggle_resource, touch_resource, close_listeners and
// --notify-every).
//
// It speaks stdio by default, or stateless Streamable HTTP with --http. Both
// serve protocol revision 2026-07-28 as well as the legacy initialize-based
// revisions, because the SDK negotiates per request.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const instructions = "Demo server for MCP client testing. Use calculator_arithmetic for arithmetic and " +
	"weather_current for (fake, deterministic) weather. Resources and the weather_report prompt " +
	"are also available. The other tools exist to exercise client features (elicitation, roots, " +
	"sampling, progress, logging and tasks)."

// notifyEvery is the --notify-every interval (0: off).
var notifyEvery time.Duration

// cacheTTL is the ttlMs the demo puts on its cacheable results (lists,
// server/discover, resources/read); --ttl-ms changes it.
var cacheTTL = 60000

func newServer() *mcp.Server {
	s, _ := newDemo()
	return s
}

// newDemo returns the server and the notifier that changes its tools,
// prompts and resources on demand and tells subscriptions/listen streams.
func newDemo() (*mcp.Server, *notifier) {
	n := newNotifier()
	s := mcp.NewServer(&mcp.Implementation{
		Name:    "mcpctl-demo",
		Title:   "mcpctl demo server",
		Version: "1.0.0",
	}, &mcp.ServerOptions{
		Instructions:      instructions,
		CompletionHandler: complete,
		SetCacheable: func(_ context.Context, req mcp.Request, c *mcp.Cacheable) {
			c.TTLMs = cacheTTL
			// The counter changes whenever it is touched.
			if r, ok := req.(*mcp.ReadResourceRequest); ok && r.Params != nil && r.Params.URI == counterURI {
				c.TTLMs = 0
			}
		},
		// Needed for resources.subscribe, which subscriptions/listen's
		// resourceSubscriptions requires.
		SubscribeHandler:   n.subscribe,
		UnsubscribeHandler: n.unsubscribe,
		// Everything subscriptions/listen can deliver: the SDK acknowledges
		// exactly what is declared here.
		Capabilities: &mcp.ServerCapabilities{
			Logging:    &mcp.LoggingCapabilities{}, // long_job logs
			Extensions: map[string]any{tasksExtension: map[string]any{}},
			Tools:      &mcp.ToolCapabilities{ListChanged: true},
			Prompts:    &mcp.PromptCapabilities{ListChanged: true},
			Resources:  &mcp.ResourceCapabilities{ListChanged: true, Subscribe: true},
		},
	})
	n.attach(s)
	tasks := newTaskStore()
	tasks.register(s)
	addTools(s)
	addInteractiveTools(s, tasks)
	s.AddReceivingMiddleware(checkLogLevel, specShape, legacyRounds)
	addResources(s)
	addPrompts(s)
	return s, n
}

func main() {
	// stdout belongs to the protocol in stdio mode, so everything else goes
	// to stderr.
	log.SetOutput(os.Stderr)
	log.SetPrefix("demo: ")
	log.SetFlags(0)

	httpAddr := flag.String("http", "", "serve stateless Streamable HTTP on `host:port` (port 0 picks a free port) instead of stdio")
	flag.IntVar(&cacheTTL, "ttl-ms", cacheTTL, "ttlMs of cacheable results (0: never cache)")
	flag.DurationVar(&notifyEvery, "notify-every", 0, "increment demo://counter and toggle the tool \"ephemeral\" every `duration`, "+
		"for subscriptions/listen streams (0: off)")
	flag.BoolVar(&withAuth, "auth", false, "with --http: require OAuth bearer tokens, from an authorization server served alongside "+
		"(it approves every login at once, and its tokens live --token-ttl)")
	flag.DurationVar(&tokenTTL, "token-ttl", time.Hour, "with --auth: how long access tokens live (refresh tokens are issued too)")
	flag.StringVar(&authFault, "auth-fault", "", "with --auth: misbehave: prm-notjson, prm-missing, resource-mismatch, issuer-mismatch, iss-wrong, iss-missing, state-wrong, token-error, token-escape, "+
		"http-prm, http-issuer, http-authorize, http-token, http-register (a plain-HTTP URL on a host that is not loopback), pkce-absent or pkce-plain")
	flag.StringVar(&authDPoP, "auth-dpop", "", "with --auth: advertise DPoP with these comma-separated `ALGS` and bind tokens asked for with a proof")
	flag.StringVar(&authDPoPNonce, "auth-dpop-nonce", "", "with --auth-dpop: want DPoP nonces: required, as-forever or rs-forever (a new one asked for every time)")
	flag.Parse()
	if flag.NArg() > 0 {
		log.Fatalf("unexpected arguments: %q", flag.Args())
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	if notifyEvery < 0 {
		log.Fatalf("--notify-every must not be negative")
	}
	s, n := newDemo()
	if notifyEvery > 0 {
		go n.tick(ctx, notifyEvery)
	}
	var err error
	if *httpAddr != "" {
		err = serveHTTP(ctx, s, n, *httpAddr)
	} else {
		err = serveStdio(ctx, s, n, os.Stdin, os.Stdout)
	}
	// A signal or the client closing stdin are normal ways to stop.
	if err != nil && !errors.Is(err, context.Canceled) {
		log.Fatal(err)
	}
}

func serveHTTP(ctx context.Context, server *mcp.Server, n *notifier, addr string) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	handler := newHTTPHandler(server)
	if withAuth {
		handler = authHandler(handler, ln.Addr())
	}

	// Test harnesses read this single line to learn the port; nothing else
	// may be written to stdout.
	fmt.Printf("listening on %s\n", endpointURL(ln.Addr()))

	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	// Shutdown waits for idle connections; the subscriptions/listen streams
	// become idle once they have their result.
	srv.RegisterOnShutdown(func() { n.closeListeners() })
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()

	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return srv.Shutdown(shutdownCtx)
}

// endpointURL reports a dialable URL even when listening on a wildcard
// address such as ":0".
func endpointURL(addr net.Addr) string {
	tcp, ok := addr.(*net.TCPAddr)
	if !ok {
		return "http://" + addr.String() + "/mcp"
	}
	host := tcp.IP.String()
	if tcp.IP.IsUnspecified() {
		host = "127.0.0.1"
	}
	return fmt.Sprintf("http://%s/mcp", net.JoinHostPort(host, fmt.Sprint(tcp.Port)))
}
