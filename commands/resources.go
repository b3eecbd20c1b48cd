package commands

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/internal/interact"
	"github.com/mcpctl/mcpctl/output"
)

func resourcesCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "resources",
		Usage: "list and read resources and resource templates",
		Subcommands: []*cli.Command{
			newCmdList(f, nil, "list", "list the server's resources", "resources/list", "resources", output.KindResourcesList),
			newCmdList(f, nil, "templates", "list the server's resource templates", "resources/templates/list", "resourceTemplates", output.KindTemplatesList),
			newCmdResourcesRead(f, nil),
		},
	}
}

type resourcesReadOptions struct {
	invocation
	URI string
	Out string // --out: a FILE, - for stdout, "" to print
}

func newCmdResourcesRead(f *Factory, runF func(*resourcesReadOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "read",
		Usage:     "read a resource (resources/read)",
		ArgsUsage: "URI",
		Description: "Text contents are printed. Binary contents are never written to a terminal:\n" +
			"--out FILE saves the decoded bytes (--out - writes them to a pipe).",
		Flags: []cli.Flag{&cli.StringFlag{Name: "out", Usage: "write the decoded contents to `FILE` (- for stdout)"}},
		Action: actionOf(func(c *cli.Context) (*resourcesReadOptions, error) {
			if err := needArgs(c, 1, 1, "URI [--out FILE]"); err != nil {
				return nil, err
			}
			o := &resourcesReadOptions{invocation: invoked(f, c), URI: c.Args().First(), Out: c.String("out")}
			if o.Out == "-" && f.IOStreams.IsStdoutTTY() {
				return nil, rawToTerminal()
			}
			return o, nil
		}, runF, runResourcesRead),
	}
}

func runResourcesRead(o *resourcesReadOptions) error {
	return o.withConnection(func(conn Connection) error {
		params := ojson.Members{}
		params.Set("uri", ojson.String(o.URI))
		raw, err := conn.Client().Call(o.ctx(), "resources/read", params.JSON(), nil)
		if err != nil {
			return wrapOp("resources/read "+o.URI, explainNotFound(err, func() []string { return nearURIs(conn, o.URI) }))
		}
		if o.Out == "" {
			return conn.Print(o.ctx(), output.KindResourceRead, raw)
		}
		return saveContents(o.IO, raw, o.URI, o.Out)
	})
}

// newCmdList builds a command for a paginated list method whose items
// are under key.
func newCmdList(f *Factory, runF func(*listOptions) error, name, usage, method, key string, kind output.Kind) *cli.Command {
	return &cli.Command{
		Name:      name,
		Usage:     usage + " (" + method + ")",
		ArgsUsage: " ",
		Flags:     []cli.Flag{cursorFlag()},
		Action:    actionOf(parseList(f), runF, runList(method, key, kind)),
	}
}

// runList is the run function of a listing: every page of method (or the
// one at --cursor), its items under key.
func runList(method, key string, kind output.Kind) func(*listOptions) error {
	return func(o *listOptions) error {
		return o.withConnection(func(conn Connection) error {
			raw, err := conn.Client().List(o.ctx(), method, key, o.Cursor, o.All)
			if err != nil {
				return wrapOp(method, err)
			}
			return conn.Print(o.ctx(), kind, raw)
		})
	}
}

// notFoundError keeps the server's error (and so its exit code) and adds
// what to do about it: the closest URIs of the cached resources/list, if
// any, or the command that lists them.
type notFoundError struct {
	*client.RPCError
	near []string
}

func (e notFoundError) Error() string {
	if len(e.near) > 0 {
		return e.RPCError.Error() + " (no such resource; did you mean " + quoteNames(e.near) + "?)"
	}
	return e.RPCError.Error() + " (no such resource; 'mcpctl resources list' shows what exists)"
}
func (e notFoundError) Unwrap() error { return e.RPCError }

// explainNotFound recognises "resource not found": -32602 in this revision,
// -32002 from older servers. near finds the URIs close to the one asked
// for; it is called only then.
func explainNotFound(err error, near func() []string) error {
	var rpc *client.RPCError
	if errors.As(err, &rpc) && (rpc.Code == client.CodeInvalidParams || rpc.Code == client.CodeResourceNotFoundLegacy) {
		return notFoundError{RPCError: rpc, near: near()}
	}
	return err
}

// nearURIs returns the URIs of the cached resources/list closest to uri,
// when conn keeps a cache (mcpctl's does).
func nearURIs(conn Connection, uri string) []string {
	cached, ok := conn.(interface {
		cachedItems(method, key string) []json.RawMessage
	})
	if !ok {
		return nil
	}
	var uris []string
	for _, item := range cached.cachedItems("resources/list", "resources") {
		var r struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(item, &r) == nil && r.URI != "" && r.URI != uri {
			uris = append(uris, r.URI)
		}
	}
	// URIs share long prefixes, so closest's allowance (half the length)
	// would take in most of a list: only the nearest ones are shown.
	near := argv.Closest(uri, uris, 3)
	for i := 1; i < len(near); i++ {
		if argv.EditDistance(uri, near[i]) > argv.EditDistance(uri, near[0]) {
			return near[:i]
		}
	}
	return near
}

// cachedItems are the items of this server's cached listing, whatever
// its age (as for completion): only read, and not with --no-cache, since
// what is sent does not depend on it.
func (s *connection) cachedItems(method, key string) []json.RawMessage {
	if s.opts.Cache.Mode == client.CacheOff {
		return nil
	}
	cache, err := s.f.openCache()
	if err != nil {
		return nil
	}
	return cache.CachedItems(s.serverID, s.credentialID, append([]string{client.CapabilitiesDigest(s.opts.Capabilities)}, interact.CapabilityDigests()...), method, key)
}

type resourceContents struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType"`
}

// saveContents writes the decoded contents of the item for uri (or the
// first one) to path, and says what it wrote on stderr.
func saveContents(ios *output.IOStreams, raw json.RawMessage, uri, path string) error {
	var r struct {
		Contents []resourceContents `json:"contents"`
	}
	if err := json.Unmarshal(raw, &r); err != nil || len(r.Contents) == 0 {
		return &client.ProtocolError{Msg: "resources/read returned no contents"}
	}
	item := r.Contents[0]
	for _, c := range r.Contents {
		if c.URI == uri {
			item = c
			break
		}
	}
	data, err := client.ResourceBytes(raw, item.URI)
	if err != nil {
		return err
	}
	if path == "-" {
		_, err := ios.Out.Write(data)
		return err
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return usagef("--out: %v", err)
	}
	var more string
	if len(r.Contents) > 1 {
		more = fmt.Sprintf("; %d more content items not saved", len(r.Contents)-1)
	}
	noteWrote(ios, len(data), item.MimeType, more, path)
	return nil
}
