package commands

import (
	"reflect"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/output"
)

// reading is what a command line says: the server named, the command, the
// values of the flags that take one, and the positional arguments.
type reading struct {
	server     string
	command    string
	values     map[string][]string
	positional []string
}

// readNormalized reads the canonical line normalizeArgs writes (global
// flags, command words, command flags, -- positionals) the way urfave/cli
// then parses it.
func readNormalized(app *cli.App, args []string) reading {
	r := reading{values: map[string][]string{}}
	var path []string
	flags := app.Flags
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			r.positional = append(r.positional, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-':
			name, inline := flagName(a)
			f := findFlag(flags, name)
			if f == nil {
				f = findFlag(app.Flags, name)
			}
			if f == nil || !takesValue(f) {
				continue
			}
			key := f.Names()[0]
			switch {
			case inline:
				r.values[key] = append(r.values[key], a[strings.IndexByte(a, '=')+1:])
			case i+1 < len(args):
				r.values[key] = append(r.values[key], args[i+1])
				i++
			}
		default:
			cmds := app.Commands
			if cur := commandAt(app, path); cur != nil {
				cmds = cur.Subcommands
			}
			if c := findCommand(cmds, a); c != nil {
				path = append(path, c.Name)
				flags = c.Flags
				continue
			}
			r.positional = append(r.positional, a)
		}
	}
	r.command = strings.Join(path, " ")
	if vs := r.values["server"]; len(vs) > 0 {
		r.server = vs[len(vs)-1]
		delete(r.values, "server")
	}
	return r
}

func commandAt(app *cli.App, path []string) *cli.Command {
	var cur *cli.Command
	cmds := app.Commands
	for _, p := range path {
		cur = findCommand(cmds, p)
		cmds = cur.Subcommands
	}
	return cur
}

// readCompleted is what the completer makes of the same words, as the
// words before the cursor.
func readCompleted(app *cli.App, args []string) reading {
	st := (&completer{app: app}).parse(args)
	r := reading{values: map[string][]string{}, command: st.command(), positional: st.positional}
	for k, v := range st.values {
		r.values[k] = v
	}
	r.server = st.bare
	if vs := r.values["server"]; len(vs) > 0 {
		r.server = vs[len(vs)-1]
		delete(r.values, "server")
	}
	return r
}

// Flag normalisation (what runs) and completion (what TAB offers) read a
// command line alike: same server, command, flag values and positionals.
// Two kinds of unfinished line are left out, where the two differ on
// purpose: one that ends in a bare word (completion takes it for a server
// name, the command still to come) and one that ends in a flag wanting a
// value, which normalizeArgs refuses (TestNormalizeArgsFlagWithoutValue)
// and completion reads as the flag whose value is being typed.
func TestNormalizeAndCompletionAgree(t *testing.T) {
	t.Parallel()
	ios, _, _, _ := output.Test()
	app := NewApp(isolate(t).factory(ios))
	lines := []string{
		"tools|list",
		"-s|weather|tools|list",
		"tools|list|-s|weather",
		"--server=weather|tools|call|echo|a=1",
		"-s=weather|tools|call|echo",
		"weather|tools|call|echo|a=1",
		"-o|json|weather|tools|call|x",
		"weather|--timeout|5s|discover",
		"weather|-o|json|tools|list",
		"-s|a|weather|tools|list",
		"weather|-s|a|tools|list",
		"weather|list",
		"a|b|tools|list",
		"tools|weather|list",
		"tools|call|--dry-run|echo|a=1",
		"tools|call|echo|--no-validate|a=1",
		"tools|call|--json|-|echo",
		"tools|list|--jq|-r",
		"tools|list|--stdio|tools",
		"tools|list|-H|X-A: 1|-H|X-B: 2",
		"tools|call|echo|a=1|--json|{\"b\":2}",
		"tools|call|echo|--json={}",
		"tools|call|echo|--|--url|x|-o",
		"tools|call|--|--weird-tool-name|a=1",
		"--trace|call|ping|--url|u|--|--json",
		"tools|call|echo|--bogus|x",
		"call|ping|-",
		"tools|call|list|call",
		"resources|read|file:///x|--out|f.txt|--url|u",
		"complete|--context|a=1|x|--context|b=2",
		"--|weather|tools|list",
		"tools|call|--json",
	}
	for _, line := range lines {
		t.Run(line, func(t *testing.T) {
			args := split(line)
			line, err := normalizeArgs(app, args)
			if err != nil {
				if scanArgs(app, args, true).pending == nil {
					t.Errorf("normalizeArgs refuses %q (%v), which completion reads as finished", args, err)
				}
				return
			}
			norm := readNormalized(app, line)
			comp := readCompleted(app, args)
			if !reflect.DeepEqual(norm, comp) {
				t.Errorf("%q\nnormalizeArgs reads %+v\n    completer reads %+v", args, norm, comp)
			}
		})
	}
}
