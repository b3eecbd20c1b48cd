package commands

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client/atomicfile"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/client/skills"
	"github.com/mcpctl/mcpctl/output"
)

func skillsCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "skills",
		Usage: "list, fetch and verify the server's skills (Skills extension)",
		Description: "Skills are directories of files (a SKILL.md and what it refers to) that a server\n" +
			"declaring io.modelcontextprotocol/skills publishes. Every file is checked against\n" +
			"the skill's entry (digest, size, SKILL.md frontmatter) before it is shown or\n" +
			"written; content that does not match is never used (exit 3). See docs/skills.md.",
		Subcommands: []*cli.Command{newCmdSkillsList(f, nil), newCmdSkillsGet(f, nil), newCmdSkillsDir(f, nil)},
	}
}

func newCmdSkillsList(f *Factory, runF func(*listOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list the server's skills (skills/list); no file is read",
		ArgsUsage: " ",
		Flags:     []cli.Flag{cursorFlag()},
		Action:    actionOf(parseList(f), runF, runSkillsList),
	}
}

func runSkillsList(o *listOptions) error {
	return o.withConnection(func(conn Connection) error {
		if _, err := skillsSupport(o.ctx(), conn); err != nil {
			return err
		}
		raw, err := conn.Client().List(o.ctx(), "skills/list", "skills", o.Cursor, o.All)
		if err != nil {
			return wrapOp("skills/list", err)
		}
		_, bad, err := skills.Entries(raw)
		if err != nil {
			return wrapOp("skills/list", err)
		}
		warnEntries(conn, bad)
		// Entries a name does not tell apart are shown by their skill
		// paths.
		render := conn.Output()
		render.SkillPath = func(uri string) string { return (&skills.Skill{URI: uri}).Path() }
		return output.Render(o.ctx(), o.IO, render, output.KindSkillsList, raw)
	})
}

type skillsGetOptions struct {
	invocation
	Skill string // a name, a skill path or the URI of a SKILL.md
	File  string // relative to the skill's root; "" for SKILL.md
	Out   string // --out DIR
}

func newCmdSkillsGet(f *Factory, runF func(*skillsGetOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "get",
		Usage:     "fetch a skill's SKILL.md or one of its files, verified (skills/get, resources/read)",
		ArgsUsage: "NAME|PATH|URI [FILE]",
		Description: "NAME is looked up in skills/list (a name two skills share needs their PATH, such\n" +
			"as acme/billing/refunds); a URI (skill://…/SKILL.md) is asked of the server with\n" +
			"skills/get. FILE is a path relative to the skill's root (references/GUIDE.md).\n" +
			"The file is read only now, and printed only once it matches the entry.\n" +
			"--out DIR fetches every file of the skill, verifies them all, and only then\n" +
			"writes them under DIR/SERVER/PATH/.",
		Flags: []cli.Flag{&cli.StringFlag{Name: "out", Usage: "write the verified skill's files under `DIR`/SERVER/PATH"}},
		Action: actionOf(func(c *cli.Context) (*skillsGetOptions, error) {
			if err := needArgs(c, 1, 2, "NAME|PATH|URI [FILE] [--out DIR]"); err != nil {
				return nil, err
			}
			o := &skillsGetOptions{invocation: invoked(f, c), Skill: c.Args().Get(0), File: c.Args().Get(1), Out: c.String("out")}
			if c.IsSet("out") && o.Out == "" {
				return nil, usagef("--out needs a directory")
			}
			if o.Out != "" && o.File != "" {
				return nil, usagef("--out writes the whole skill; give no FILE with it")
			}
			if o.File != "" {
				if _, err := cleanRel(o.File); err != nil {
					return nil, usagef("FILE %q: %v", o.File, err)
				}
			}
			return o, nil
		}, runF, runSkillsGet),
	}
}

func runSkillsGet(o *skillsGetOptions) error {
	return o.withConnection(func(conn Connection) error {
		if _, err := skillsSupport(o.ctx(), conn); err != nil {
			return err
		}
		sk, err := findSkill(o.ctx(), conn, o.Skill)
		if err != nil {
			return err
		}
		if o.Out != "" {
			return saveSkill(o.ctx(), conn, o.IO, sk, o.Out)
		}
		uri := sk.URI
		if o.File != "" {
			rel, _ := cleanRel(o.File)
			uri = sk.Root() + "/" + rel
		}
		raw, _, err := skills.ReadFile(o.ctx(), conn.Client(), sk, uri)
		if err != nil {
			return wrapOp("resources/read", err)
		}
		return conn.Print(o.ctx(), output.KindResourceRead, raw)
	})
}

type skillsDirOptions struct {
	listOptions
	URI string
}

func newCmdSkillsDir(f *Factory, runF func(*skillsDirOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "dir",
		Usage:     "list a directory resource's children (resources/directory/read)",
		ArgsUsage: "URI",
		Description: "Only for a server that declares directoryRead. URI is a directory such as\n" +
			"skill://pdf-processing/templates (no trailing slash). A directory read is the\n" +
			"server's view now, not the skill's entry: what it lists is not verified.",
		Flags: []cli.Flag{cursorFlag()},
		Action: actionOf(func(c *cli.Context) (*skillsDirOptions, error) {
			if err := needArgs(c, 1, 1, "URI [--cursor CURSOR]"); err != nil {
				return nil, err
			}
			return &skillsDirOptions{listOptions: listOptions{invocation: invoked(f, c), Cursor: c.String("cursor"), All: !c.IsSet("cursor")}, URI: c.Args().First()}, nil
		}, runF, runSkillsDir),
	}
}

func runSkillsDir(o *skillsDirOptions) error {
	return o.withConnection(func(conn Connection) error {
		sup, err := skillsSupport(o.ctx(), conn)
		if err != nil {
			return err
		}
		if !sup.DirectoryRead {
			return &skills.NotDeclaredError{What: "directoryRead of the Skills extension", Method: "resources/directory/read"}
		}
		params := ojson.Members{}
		params.Set("uri", ojson.String(o.URI))
		raw, err := conn.Client().ListParams(o.ctx(), "resources/directory/read", "resources", params, o.Cursor, o.All, nil)
		if err != nil {
			return wrapOp("resources/directory/read "+o.URI, err)
		}
		return conn.Print(o.ctx(), output.KindResourcesList, raw)
	})
}

// skillsSupport asks the server what it declares (server/discover, or the
// legacy handshake's result) and refuses a server that does not declare
// the Skills extension: skills/list and skills/get are sent only to one
// that does.
func skillsSupport(ctx context.Context, conn Connection) (skills.Support, error) {
	raw, err := conn.Client().Call(ctx, "server/discover", nil, nil)
	if err != nil {
		return skills.Support{}, wrapOp("server/discover", err)
	}
	sup := skills.Declared(raw)
	if !sup.Declared {
		return sup, &skills.NotDeclaredError{What: "the Skills extension (" + skills.Extension + ")", Method: "skills/list"}
	}
	return sup, nil
}

// findSkill resolves what the user named: a URI with skills/get, a name
// or skill path from skills/list. A name two entries share is refused
// with their paths, never settled by picking one.
func findSkill(ctx context.Context, conn Connection, arg string) (*skills.Skill, error) {
	if strings.Contains(arg, "://") {
		sk, err := skills.Get(ctx, conn.Client(), arg)
		if err != nil {
			return nil, wrapOp("skills/get "+arg, err)
		}
		return sk, nil
	}
	raw, err := conn.Client().List(ctx, "skills/list", "skills", "", true)
	if err != nil {
		return nil, wrapOp("skills/list", err)
	}
	all, bad, err := skills.Entries(raw)
	if err != nil {
		return nil, wrapOp("skills/list", err)
	}
	warnEntries(conn, bad)
	var exact, byName []*skills.Skill
	for _, sk := range all {
		switch {
		case sk.Path() == arg:
			exact = append(exact, sk)
		case sk.Name == arg || strings.HasSuffix(sk.Path(), "/"+arg):
			byName = append(byName, sk)
		}
	}
	if len(exact) == 0 {
		exact = byName
	}
	switch len(exact) {
	case 0:
		return nil, usagef("no skill %q in skills/list ('mcpctl skills list' shows them; a skill not listed is fetched by its URI)", arg)
	case 1:
		return exact[0], nil
	}
	var uris []string
	for _, sk := range exact {
		uris = append(uris, sk.URI)
	}
	return nil, usagef("skill %q is ambiguous: %s; give its path or URI", arg, strings.Join(uris, ", "))
}

// warnEntries says which entries of a listing are invalid, and so are
// neither fetched nor saved.
func warnEntries(conn Connection, bad []error) {
	msgs := make([]string, len(bad))
	for i, err := range bad {
		msgs[i] = err.Error() + "; it is left out"
	}
	conn.Warn(msgs...)
}

// saveSkill fetches and verifies every file of sk, then writes them under
// dir/SERVER/PATH. Nothing is written unless every file matches and every
// one can be written (atomicfile.WriteTree): the names are checked before
// any file is read, the disk before any file is written.
func saveSkill(ctx context.Context, conn Connection, ios *output.IOStreams, sk *skills.Skill, dir string) error {
	if sk.Dynamic {
		return &skills.VerifyError{URI: sk.URI, Problem: "the skill is dynamic: its entry lists no files to verify, so it is not saved"}
	}
	for _, seg := range strings.Split(sk.Path(), "/") {
		if err := safeSegment(seg); err != nil {
			return &skills.EntryError{URI: sk.URI, Problem: fmt.Sprintf("its path segment %q %v", seg, err)}
		}
	}
	if err := atomicfile.CheckTree([]string{sk.Path()}); err != nil {
		return &skills.EntryError{URI: sk.URI, Problem: "its path " + err.Error() + "; nothing is written"}
	}
	files := make([]atomicfile.TreeFile, len(sk.Files))
	rels := make([]string, len(sk.Files))
	for i, f := range sk.Files {
		rel, err := cleanRel(sk.Rel(f.URI))
		if err != nil {
			return &skills.EntryError{URI: sk.URI, Problem: fmt.Sprintf("file %s: %v", output.SanitizeName(f.URI), err)}
		}
		files[i].Path, rels[i] = rel, rel
	}
	if err := atomicfile.CheckTree(rels); err != nil {
		return &skills.EntryError{URI: sk.URI, Problem: err.Error() + "; nothing is written"}
	}
	var total int
	for i, f := range sk.Files {
		_, data, err := skills.ReadFile(ctx, conn.Client(), sk, f.URI)
		if err != nil {
			return wrapOp("resources/read", err)
		}
		files[i].Data = data
		total += len(data)
	}
	base := serverLabelOf(conn) + "/" + sk.Path()
	if err := atomicfile.WriteTree(dir, base, files, 0o755); err != nil {
		return outWriteError(dir, err)
	}
	notef(ios, "wrote %d verified files (%d bytes) to %s", len(files), total, output.SanitizeLine(filepath.Join(dir, filepath.FromSlash(base))))
	return nil
}

// cleanRel checks a path relative to a skill's root: "/"-separated
// segments, none empty, "." or "..".
func cleanRel(rel string) (string, error) {
	if rel == "" {
		return "", errors.New("is empty")
	}
	for _, seg := range strings.Split(rel, "/") {
		if err := safeSegment(seg); err != nil {
			return "", fmt.Errorf("segment %q %v", seg, err)
		}
	}
	return rel, nil
}

// safeSegment refuses a path segment that could leave its folder, that a
// file system reads otherwise than it is written, or that would show as
// another name (a control, a bidi override, a zero-width space: whatever
// a name shown at a terminal would escape).
func safeSegment(seg string) error {
	switch {
	case seg == "", seg == ".", seg == "..":
		return errors.New("is not a file name")
	case strings.ContainsAny(seg, `\:`):
		return errors.New(`holds a \ or a colon`)
	case output.SanitizeName(seg) != seg:
		return errors.New("holds an invisible, direction-changing or control character")
	}
	return nil
}

// serverLabel names the server in --out paths: its configured name, the
// URL's host (and port), or the command's base name, as one safe folder
// name.
// serverLabelOf is the folder name of conn's server (serverLabel), when
// conn knows its endpoint (mcpctl's does): else "server".
func serverLabelOf(conn Connection) string {
	if c, ok := conn.(interface{ endpoint() *endpoint }); ok {
		return serverLabel(c.endpoint())
	}
	return "server"
}

func serverLabel(ep *endpoint) string {
	label := ep.name
	switch {
	case label != "":
	case ep.url != "":
		if u, err := url.Parse(ep.url); err == nil && u.Host != "" {
			label = u.Host
		}
	case len(ep.argv) > 0:
		label = filepath.Base(ep.argv[0])
	}
	b := []byte(label)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '-' || c == '_') {
			b[i] = '_'
		}
	}
	label = string(b)
	if label == "" || label == "." || label == ".." {
		label = "server"
	}
	return label
}
