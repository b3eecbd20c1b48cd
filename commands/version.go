package commands

// mcpctl version: what a bug report needs (issue 15 item 6). --version
// stays the one word it always was; this command adds the commit, the Go
// release and platform, and the protocol revisions the build speaks. It
// reads no config and reaches no server, so it works right after an
// install, whatever state the config is in.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

// Commit and CommitTime are stamped by the release build (-ldflags -X
// github.com/mcpctl/mcpctl/commands.Commit=…, .goreleaser.yaml), which
// does not rely on Go's own VCS stamping: GOFLAGS=-buildvcs=false, as on
// some machines, turns that off. Without them the build's VCS settings
// are used, if any.
var (
	Commit     = ""
	CommitTime = ""
)

// versionOptions are mcpctl version's: the global -o and --jq, read here
// since the command reads no config that could give them defaults.
type versionOptions struct {
	invocation
	Output string
	JQ     string
}

func newCmdVersion(f *Factory, runF func(*versionOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "version",
		Usage:     "print mcpctl's version and commit, the Go version and the protocol revisions it speaks",
		ArgsUsage: " ",
		Description: "Text by default, on a terminal or not (scripts that want fields use -o json or --jq):\n\n" +
			"   mcpctl v1.4.0\n" +
			"   commit:   0123456789ab… (2026-11-30T12:00:00Z)\n" +
			"   go:       go1.27.3 linux/amd64\n" +
			"   protocol: 2026-07-28; legacy 2025-11-25, 2025-06-18, 2025-03-26, 2024-11-05\n" +
			"   stdio:    how a stdio server's children are ended on this system\n\n" +
			"-o json (or yaml) gives the same as an object: version, commit, commitTime, modified,\n" +
			"go, platform, protocol {latest, legacy} and stdioChildren. --version prints the version\n" +
			"alone, as before.\n\n" +
			"The version and commit are stamped by the release build (-ldflags -X\n" +
			"github.com/mcpctl/mcpctl/commands.Version=…, and .Commit, .CommitTime: .goreleaser.yaml);\n" +
			"else the version is the module's (go install …@v1.4.0) or \"dev\", and the commit the one Go\n" +
			"records when it builds from a git checkout (modified: the tree had uncommitted changes),\n" +
			"empty when there was none.\n\n" +
			"Release packages (archives for Linux, macOS and Windows, .deb, .rpm, a Homebrew formula and a\n" +
			"Scoop manifest) are made by GoReleaser; tests/release.sh makes a snapshot release and checks\n" +
			"every package (docs/release.md).",
		Action: actionOf(func(c *cli.Context) (*versionOptions, error) {
			if err := needArgs(c, 0, 0, ""); err != nil {
				return nil, err
			}
			return &versionOptions{invocation: invoked(f, c), Output: c.String("output"), JQ: c.String("jq")}, nil
		}, runF, runVersion),
	}
}

func runVersion(o *versionOptions) error {
	ios := o.f.IOStreams
	raw, err := json.Marshal(buildVersion())
	if err != nil {
		return err
	}
	format, err := output.ParseFormat(o.Output)
	if err != nil {
		return usagef("%v", err)
	}
	// No config is read: -o and --jq are taken as given, and text is the
	// default even on a pipe (as gh and kubectl do).
	var opts output.Options
	if o.JQ != "" {
		if err := jqFormatUsable(format); err != nil {
			return err
		}
		opts.Format = format
		if opts.Query, err = output.CompileQuery(o.JQ); err != nil {
			return usagef("%v", err)
		}
		return output.Render(o.ctx(), ios, opts, output.KindGeneric, raw)
	}
	switch format {
	case "", output.FormatText:
		_, err := ios.Out.Write(versionText(buildVersion()))
		return err
	case output.FormatTable:
		return usagef("mcpctl version has no table; use -o text, json or yaml")
	}
	opts.Format = format
	return output.Render(o.ctx(), ios, opts, output.KindGeneric, raw)
}

// versionInfo is what mcpctl version prints; its JSON field names are an
// interface (scripts read them).
type versionInfo struct {
	Version       string          `json:"version"`
	Commit        string          `json:"commit"`
	CommitTime    string          `json:"commitTime"`
	Modified      bool            `json:"modified"`
	Go            string          `json:"go"`
	Platform      string          `json:"platform"`
	Protocol      versionProtocol `json:"protocol"`
	StdioChildren string          `json:"stdioChildren"`
}

type versionProtocol struct {
	Latest string   `json:"latest"`
	Legacy []string `json:"legacy"`
}

func buildVersion() versionInfo {
	v := versionInfo{
		Version:       version(),
		Go:            runtime.Version(),
		Platform:      runtime.GOOS + "/" + runtime.GOARCH,
		Protocol:      versionProtocol{Latest: client.LatestVersion, Legacy: client.LegacyVersions()},
		StdioChildren: stdioChildren(runtime.GOOS),
	}
	if Commit != "" {
		v.Commit, v.CommitTime = Commit, CommitTime
	} else if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				v.Commit = s.Value
			case "vcs.time":
				v.CommitTime = s.Value
			case "vcs.modified":
				v.Modified = s.Value == "true"
			}
		}
	}
	return v
}

// stdioChildren says, for the system mcpctl runs on, what is ended with a
// stdio server (docs/reliability.md, "Processes a stdio server leaves
// behind"): on Windows the server alone, which a user there must know.
func stdioChildren(goos string) string {
	switch goos {
	case "linux":
		return "the server's process group, and what left it (a cgroup of the server's own where cgroup v2 is delegated, else orphans adopted as a subreaper)"
	case "windows":
		return "the server process only: Windows has no process groups, so what the server started is not ended with it"
	default:
		return "the server's process group (not what leaves it: setsid, setpgid)"
	}
}

func versionText(v versionInfo) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "mcpctl %s\n", v.Version)
	commit := "unknown (built without git)"
	if v.Commit != "" {
		commit = v.Commit
		if v.CommitTime != "" {
			commit += " (" + v.CommitTime + ")"
		}
		if v.Modified {
			commit += ", modified"
		}
	}
	fmt.Fprintf(&b, "commit:   %s\n", commit)
	fmt.Fprintf(&b, "go:       %s %s\n", v.Go, v.Platform)
	fmt.Fprintf(&b, "protocol: %s; legacy %s\n", v.Protocol.Latest, strings.Join(v.Protocol.Legacy, ", "))
	fmt.Fprintf(&b, "stdio:    %s\n", v.StdioChildren)
	return b.Bytes()
}
