package argv

import (
	"reflect"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// reading is what a command line says: the server named, the command, the
// values of the flags that take one, and the positional arguments.
type reading struct {
	server     string
	command    string
	values     map[string][]string
	positional []string
}

// readNormalized reads the canonical line Normalize writes (global
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
			name, inline := SplitFlag(a)
			f := FindFlag(flags, name)
			if f == nil {
				f = FindFlag(app.Flags, name)
			}
			if f == nil || !TakesValue(f) {
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
			if c := FindCommand(cmds, a); c != nil {
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
		cur = FindCommand(cmds, p)
		cmds = cur.Subcommands
	}
	return cur
}

// readCompleted is what completion makes of the same words, as the words
// before the cursor: it reads them with Scan, partial (package commands,
// completer.parse).
func readCompleted(app *cli.App, args []string) reading {
	st := Scan(app, args, true)
	r := reading{values: map[string][]string{}, command: st.Command(), positional: st.Positional}
	for k, v := range st.Values {
		r.values[k] = v
	}
	r.server = st.Bare
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
// value, which Normalize refuses (TestNormalizeFlagWithoutValue)
// and completion reads as the flag whose value is being typed.
func TestNormalizeAndCompletionAgree(t *testing.T) {
	t.Parallel()
	app := testApp()
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
			line, err := Normalize(app, args)
			if err != nil {
				if Scan(app, args, true).Pending == nil {
					t.Errorf("Normalize refuses %q (%v), which completion reads as finished", args, err)
				}
				return
			}
			norm := readNormalized(app, line)
			comp := readCompleted(app, args)
			if !reflect.DeepEqual(norm, comp) {
				t.Errorf("%q\nNormalize reads %+v\n completion reads %+v", args, norm, comp)
			}
		})
	}
}
