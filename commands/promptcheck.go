package commands

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
	"github.com/mcpctl/mcpctl/output"
)

// prompts get is checked before it is sent, as tools call is: the prompt
// must be one prompts/list names, its required arguments given and every
// argument one it declares. The list is one more request, or none when
// the cache holds it, fresh or stale (a hint: the server still checks);
// a cached list that disagrees is fetched again, once, before anything is
// refused.

// promptDef is what prompts/list says of one prompt.
type promptDef struct {
	Name      string `json:"name"`
	Arguments []struct {
		Name     string `json:"name"`
		Required bool   `json:"required"`
	} `json:"arguments"`
}

// checkPrompt checks name and args against the server's prompts/list.
// A list the server cannot give (an error answer, a result that is no
// list) leaves the check to the server; a connection that fails fails
// the command, as prompts/get would.
func checkPrompt(ctx context.Context, conn Connection, name string, args json.RawMessage, allowExtra bool) error {
	for attempt := 0; ; attempt++ {
		fromCache := false
		list, err := conn.Client().ListWith(ctx, "prompts/list", "prompts", "", true, &client.CallOptions{Refresh: attempt > 0, Hint: attempt == 0, FromCache: &fromCache})
		var rpc *client.RPCError
		var proto *client.ProtocolError
		if errors.As(err, &rpc) || errors.As(err, &proto) {
			conn.Trace("prompts/get " + name + ": prompts/list failed (" + err.Error() + "): the prompt is sent unchecked")
			return nil
		}
		if err != nil {
			return wrapOp("prompts/list", err)
		}
		prompts, ok := promptsOf(list)
		if !ok {
			conn.Trace("prompts/get " + name + ": the prompts/list result lists no prompts: the prompt is sent unchecked")
			return nil
		}
		err = checkPromptCall(prompts, name, args, allowExtra)
		if err != nil && attempt == 0 && fromCache {
			continue // the prompt may have changed since the list was cached
		}
		return err
	}
}

// promptsOf reads the prompts of a prompts/list result; false when it
// has no "prompts" array.
func promptsOf(list json.RawMessage) ([]promptDef, bool) {
	var l struct {
		Prompts *[]promptDef `json:"prompts"`
	}
	if json.Unmarshal(list, &l) != nil || l.Prompts == nil {
		return nil, false
	}
	return *l.Prompts, true
}

// checkPromptCall is the check itself: exit 2 for a prompt the list does
// not name, a required argument missing, or (unless allowExtra) an
// argument the prompt does not declare, each with the closest names.
func checkPromptCall(prompts []promptDef, name string, args json.RawMessage, allowExtra bool) error {
	var names []string
	var def *promptDef
	for i := range prompts {
		if prompts[i].Name == name {
			def = &prompts[i]
			break
		}
		names = append(names, prompts[i].Name)
	}
	if def == nil {
		msg := "the server has no prompt " + quoteName(name)
		if s := argv.Closest(name, names, 3); len(s) > 0 {
			msg += "; did you mean " + quoteNames(s) + "?"
		} else {
			msg += " ('mcpctl prompts list' shows them)"
		}
		return &UsageError{Msg: msg}
	}
	given, _ := ojson.SplitObject(args) // argv.ParseItems made it an object
	var declared []string
	var probs []string
	for _, a := range def.Arguments {
		declared = append(declared, a.Name)
		if a.Required && !given.Has(a.Name) {
			probs = append(probs, "missing required argument "+quoteName(a.Name))
		}
	}
	extraOnly := len(probs) == 0
	if !allowExtra {
		for _, k := range given.Keys() {
			if slices.Contains(declared, k) {
				continue
			}
			p := "unknown argument " + quoteName(k)
			switch s := argv.Closest(k, declared, 3); {
			case len(s) > 0:
				p += "; did you mean " + quoteNames(s) + "?"
			case len(declared) > 0:
				p += "; known arguments: " + quoteNames(declared)
			default:
				p += "; this prompt takes no arguments"
			}
			probs = append(probs, p)
		}
	}
	if len(probs) == 0 {
		return nil
	}
	way := "--no-validate sends them anyway"
	if extraOnly {
		way = "--allow-extra sends them anyway"
	}
	return &UsageError{Msg: fmt.Sprintf("invalid arguments: %s ('mcpctl prompts list' shows its arguments; %s)", strings.Join(probs, "; "), way)}
}

// quoteName quotes a name from the server, escapes and all, so that one
// with invisible characters cannot pass for another.
func quoteName(s string) string { return output.SanitizeLine(strconv.Quote(s)) }

func quoteNames(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quoteName(s)
	}
	return strings.Join(q, " or ")
}
