package commands

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// explain adds to an error what the user can do about it: the
// continuation document for a call stopped for input, the flag that
// supplies a capability the server requires, how to pick up a task.
func (s *connection) Explain(err error) error {
	if err == nil {
		return nil
	}
	var ire *client.InputRequiredError
	if errors.As(err, &ire) && ire.TaskID != "" && s.ServerEndsWithRun() {
		// A continuation would name a task that ends with the server.
		return &hintError{err, "the task ends with its server, so there is nothing to resume: answer on the command line (--answer KEY.FIELD=VALUE, --answers FILE, --elicit); " + sessionForTasks}
	}
	if errors.As(err, &ire) && ire.Method != "" {
		doc, how, derr := s.newContinuation(ire)
		if derr == nil {
			_ = output.WriteJSONLine(s.ios.Out, doc, s.ios.IsStdoutTTY())
			return &hintError{err, how}
		}
	}
	var ns *client.NotServerError
	if errors.As(err, &ns) && ns.Server == "" {
		// Named as the user gave it: the command line, the URL.
		ns.Server = s.shownTarget()
	}
	var rpc *client.RPCError
	if errors.As(err, &rpc) && (rpc.Code == client.CodeMissingClientCapability || rpc.Code == -32003) {
		return &hintError{err, capabilityHint(rpc.Data)}
	}
	if h := taskHint(err); h != "" {
		return &hintError{err, h}
	}
	if h := transportHint(err); h != "" {
		return &hintError{err, h}
	}
	if s.http {
		if h := pathHint(err, s.target); h != "" {
			return &hintError{err, h}
		}
	}
	if h := listHint(err, s.pageable); h != "" {
		return &hintError{err, h}
	}
	return err
}

// shownTarget is the server as the user gave it: the stdio command line,
// or the URL without the credentials it may hold.
func (s *connection) shownTarget() string {
	if s.http {
		return client.RedactURL(s.target)
	}
	return s.target
}

// listHint names the flag that bounds a listing's pages together, and,
// where the command has --cursor, the way round it.
func listHint(err error, pageable bool) string {
	var large *client.ListTooLargeError
	var slow *client.ListTimeoutError
	var h string
	switch {
	case errors.As(err, &large):
		h = "raise --max-message-size"
	case errors.As(err, &slow):
		h = "raise --timeout"
	default:
		return ""
	}
	if pageable {
		h += ", or page by hand with --cursor"
	}
	return h
}

// hasFlag reports whether cmd has a flag of that name.
func hasFlag(cmd *cli.Command, name string) bool {
	return cmd != nil && argv.FindFlag(cmd.Flags, name) != nil
}

// transportHint names the flag or setting that gets past a refusal of
// the transport's: a message over the size limit, a certificate that is
// not trusted, a redirect.
func transportHint(err error) string {
	var large *client.MessageTooLargeError
	var cert *tls.CertificateVerificationError
	var httpErr *client.HTTPError
	switch {
	case errors.As(err, &large):
		return "raise --max-message-size if it is expected"
	case errors.As(err, &cert):
		return "trust the server's CA (SSL_CERT_FILE), or for a test server only pass --insecure"
	case errors.As(err, &httpErr) && httpErr.Location() != "":
		return "mcpctl does not follow redirects: give the final URL to --url"
	}
	return ""
}

// pathHint asks after the path of a URL that got no MCP endpoint (404,
// 405, 410 without a JSON-RPC body) when the path does not look like one:
// a web server's page for /api or for the bare host is the usual sign of
// a URL missing its /mcp.
func pathHint(err error, rawURL string) string {
	var httpErr *client.HTTPError
	if !errors.As(err, &httpErr) {
		return ""
	}
	switch httpErr.Status {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusGone:
	default:
		return ""
	}
	u, perr := url.Parse(rawURL)
	if perr != nil || looksLikeMCPPath(u.Path) {
		return ""
	}
	return "is the path right? MCP servers usually serve /mcp"
}

// looksLikeMCPPath reports whether an URL path is where MCP servers serve:
// it ends in mcp or sse (/mcp, /api/mcp, /sse, /my-mcp/) or has an mcp
// segment (/mcp/v1).
func looksLikeMCPPath(p string) bool {
	p = strings.ToLower(strings.TrimRight(p, "/"))
	return strings.HasSuffix(p, "mcp") || strings.HasSuffix(p, "sse") || strings.Contains(p+"/", "/mcp/")
}

// hintError appends a way out to an error, keeping it for errors.As.
type hintError struct {
	err  error
	hint string
}

func (e *hintError) Error() string {
	if e.hint == "" {
		return e.err.Error()
	}
	return e.err.Error() + "; " + e.hint
}
func (e *hintError) Unwrap() error { return e.err }

// capabilityHint names the flag that supplies each capability a server
// says it requires (data.requiredCapabilities of -32021 / -32003).
func capabilityHint(data json.RawMessage) string {
	var d struct {
		Required map[string]json.RawMessage `json:"requiredCapabilities"`
	}
	_ = json.Unmarshal(data, &d)
	var hints []string
	for name, v := range d.Required {
		switch name {
		case "elicitation":
			hints = append(hints, "elicitation: run at a terminal, or pass --answer KEY.FIELD=VALUE, --answers FILE or --elicit")
		case "roots":
			hints = append(hints, "roots: pass --root PATH")
		case "sampling":
			hints = append(hints, "sampling: pass --sampling-cmd CMD")
		case "extensions":
			if strings.Contains(string(v), client.TasksExtension) {
				hints = append(hints, "the tasks extension: drop --no-tasks")
			} else {
				hints = append(hints, "extensions "+output.SanitizeLine(string(v))+": mcpctl does not offer them")
			}
		default:
			hints = append(hints, output.SanitizeLine(name)+": mcpctl does not offer it")
		}
	}
	if len(hints) == 0 {
		return "the server requires a client capability this invocation did not declare"
	}
	return fmt.Sprintf("the server requires %s", strings.Join(hints, "; "))
}
