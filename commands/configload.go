package commands

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/kballard/go-shellquote"

	"github.com/mcpctl/mcpctl/config"
	"github.com/mcpctl/mcpctl/internal/argv"
)

// Reading the config files: mcpctl's own and the other clients' (package
// config), once for all the commands of a factory.

// configLoader reads the config files once for a factory's commands and
// reports each warning once, on stderr (or nowhere: completion must stay
// silent). It is given where the files are and what their ${VAR} and ~
// expand to, and knows nothing else of the factory.
type configLoader struct {
	options    func(foreign bool) config.Options
	env        config.Env
	expandHome func(string) string
	ownFile    string
	errOut     io.Writer
	own        *config.Set
	all        *config.Set
	warned     map[string]bool
	// broken is mcpctl's own file when it does not parse: fatal to the
	// commands that need its servers, a warning to the others.
	broken *config.SyntaxError

	// keepAlive is defaults.keepAlive, checked where the defaults are
	// applied (0: none).
	keepAlive time.Duration
	// trustAll uses the project's files untrusted (--trust-project).
	trustAll bool
}

func newConfigLoader(options func(foreign bool) config.Options, env config.Env, expandHome func(string) string, ownFile string, errOut io.Writer) *configLoader {
	return &configLoader{options: options, env: env, expandHome: expandHome, ownFile: ownFile, errOut: errOut, warned: map[string]bool{}}
}

// load returns mcpctl's own file (foreign false) or every source.
func (l *configLoader) load(foreign bool) (*config.Set, error) {
	set := l.own
	if foreign {
		set = l.all
	}
	if set != nil {
		return set, nil
	}
	o := l.options(foreign)
	o.TrustAll = l.trustAll
	set, err := config.Load(o)
	if se := (*config.SyntaxError)(nil); errors.As(err, &se) && se.File == l.ownFile {
		l.broken = se
	}
	if err != nil {
		return nil, configError(err)
	}
	l.warn(set.Warnings)
	if foreign {
		l.all = set
	} else {
		l.own = set
	}
	return set, nil
}

func (l *configLoader) warn(ws []config.Warning) {
	for _, w := range ws {
		l.warnOnce(w.String())
	}
}

func (l *configLoader) warnOnce(msg string) {
	if !l.warned[msg] && l.errOut != nil {
		l.warned[msg] = true
		fmt.Fprintln(l.errOut, "mcpctl: warning: "+msg)
	}
}

// lookup finds a server by NAME in every source, or by FILE:NAME in one
// file.
func (l *configLoader) lookup(spec string) (*config.Server, error) {
	set, err := l.sourceOf(spec)
	if err != nil {
		return nil, err
	}
	name := spec
	_, n, pick := config.SplitPick(spec)
	if pick {
		name = n
	}
	srv, err := set.Lookup(name)
	if nf, ok := err.(*config.NotFoundError); ok && pick {
		nf.File = set.Read[0].File
	}
	if err != nil {
		return nil, configError(err)
	}
	if !pick {
		l.sayWhose(set, srv)
	}
	return srv, nil
}

// sayWhose warns, once, when the entry a name finds is not the one the
// user may expect: the user's own while a project file they have not
// trusted defines the name too, or a project file's that shadows the
// user's own.
func (l *configLoader) sayWhose(set *config.Set, srv *config.Server) {
	if ig := set.Ignored(srv.Name); ig != nil {
		why := "until you trust that file"
		if ig.Source.Trust == config.Changed {
			why = "until you trust it again (it changed since you trusted it)"
		}
		l.warnOnce(fmt.Sprintf("server %q: the one in %s is ignored %s ('mcpctl config trust %s' once you have reviewed it); using yours in %s",
			srv.Name, ig.Source.File, why, shellquote.Join(ig.Source.File), srv.Source.File))
	}
	if !srv.Source.InProject() {
		return
	}
	for _, o := range set.Shadows(srv) {
		if !o.Source.InProject() {
			l.warnOnce(fmt.Sprintf("server %q comes from the project's %s, which shadows yours in %s (-s %s picks yours)",
				srv.Name, srv.Source.File, o.Source.File, shellquote.Join(o.Pick())))
			return
		}
	}
}

// untrusted is the entry of an untrusted project file a plain name
// finds, for config show, or nil.
func (l *configLoader) untrusted(name string) *config.Server {
	set, err := l.load(true)
	if err != nil {
		return nil
	}
	for _, s := range set.Untrusted {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// sourceOf returns the set a spec is looked up in: one file for
// FILE:NAME, all sources otherwise.
func (l *configLoader) sourceOf(spec string) (*config.Set, error) {
	file, _, ok := config.SplitPick(spec)
	if !ok {
		return l.load(true)
	}
	set, err := config.ReadFile(l.expandHome(file), l.options(true))
	if err != nil {
		return nil, configError(err)
	}
	l.warn(set.Warnings)
	return set, nil
}

// configError turns config's errors into one-line usage errors that say
// what to do.
func configError(err error) error {
	switch e := err.(type) {
	case *config.NotFoundError:
		if len(e.Known) == 0 {
			return usagef("%v: no server is configured; add one with 'mcpctl config add %s --url URL' (or --stdio 'CMD ARGS…')", e, e.Name)
		}
		msg := e.Error()
		if s := argv.Closest(e.Name, e.Known, 3); len(s) > 0 {
			msg += "; did you mean " + strings.Join(s, " or ") + "?"
		}
		return usagef("%s (servers: %s; 'mcpctl config list' shows where each is defined)", msg, strings.Join(e.Known, ", "))
	case *config.SyntaxError:
		return usagef("%v; fix the file (for mcpctl's own: mcpctl config edit)", e)
	case *config.UntrustedError:
		again := ""
		if e.Changed {
			again = " again"
		}
		return usagef("%v; review it, then trust it%s with 'mcpctl config trust %s' (or pass --trust-project)", e, again, shellquote.Join(e.File))
	case *config.UnsafeFileError:
		return usagef("%v", e)
	case *config.VarError, *config.EntryError, *config.HeaderError, *config.EnvError:
		return usagef("%v", e)
	}
	if os.IsNotExist(err) || os.IsPermission(err) {
		return usagef("%v", err)
	}
	return err
}
