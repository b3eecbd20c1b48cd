package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

// A dry run shows what a real run would send, and sends nothing: the
// client reads the era remembered from an earlier run (and shows the
// legacy handshake when that era is legacy), and tools call takes the
// tool's definition from the cached tool list, which types the arguments
// and names the Mcp-Param-* headers as a real call's would. Neither the
// era nor the cache is written.

// dryToolCall shows a tools/call as CallTool would send it. The tool's
// definition comes from the cached tools/list only, fresh or stale (a
// real run builds its call from a stale one too): fetching it would send
// a request. Without it the arguments are shown as given, and a note
// on stderr says so.
func dryToolCall(ctx context.Context, conn Connection, ios *output.IOStreams, name string, args json.RawMessage, co *client.CallOptions) (json.RawMessage, error) {
	cl := conn.Client()
	list, err := cl.ListWith(ctx, "tools/list", "tools", "", true, &client.CallOptions{CacheOnly: true, Hint: true})
	if err == nil {
		tool, ferr := client.FindTool(list, name)
		if ferr == nil {
			co.Tool = tool
			return cl.CallTool(ctx, name, args, co)
		}
		err = ferr
	}
	var unknown *client.UnknownToolError
	if !errors.Is(err, client.ErrNotCached) && !errors.As(err, &unknown) {
		return nil, err
	}
	// A real run needs the definition to type the arguments, and over HTTP
	// to mirror them into headers; otherwise there is nothing to say.
	http := cl.Binding() == client.BindingStreamable || cl.Binding() == client.BindingSSE
	if co.PrepareArgs != nil || http {
		shown := "arguments shown as given, untyped"
		if http {
			shown += " and without Mcp-Param-* headers"
		}
		why := "no cached tool list for this server"
		how := "run 'mcpctl tools list' first"
		if unknown != nil {
			why = fmt.Sprintf("the cached tool list has no tool %q", name)
			how = "'mcpctl tools list' refreshes it"
		}
		fmt.Fprintln(ios.ErrOut, output.SanitizeLine("mcpctl: note: "+why+": "+shown+"; "+how))
	}
	return cl.Call(ctx, "tools/call", toolCallParams(name, args), &client.CallOptions{NoWait: co.NoWait})
}

// dryRunPrinter shows each request a dry run would send, on w: an HTTP
// request as its method, URL, headers and body (a blank line between
// requests), a stdio line under the command that would be started, which
// is named once.
type dryRunPrinter struct {
	w     io.Writer
	shown int
}

func (p *dryRunPrinter) print(r client.DryRunRequest) {
	if r.HTTPMethod != "" && p.shown > 0 {
		fmt.Fprintln(p.w)
	}
	if r.HTTPMethod != "" || p.shown == 0 {
		printDryRun(p.w, r)
	} else {
		fmt.Fprintf(p.w, "%s\n", r.Body)
	}
	p.shown++
}
