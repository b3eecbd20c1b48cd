package commands

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/output"
)

// cacheDir is where cacheable results live (config.Dirs).
func (f *Factory) cacheDir() (string, error) { return f.Dirs().CacheDir() }

// eraDir is where the servers' eras are remembered, beside the results.
func (f *Factory) eraDir() (string, error) {
	dir, err := f.cacheDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "eras"), nil
}

func (f *Factory) openCache() (*client.Cache, error) {
	dir, err := f.cacheDir()
	if err != nil {
		return nil, err
	}
	return &client.Cache{Dir: dir, Version: version()}, nil
}

// serverID names the server in cache keys: its URL, or everything that
// decides which stdio process runs. The values of extra environment
// variables are hashed: they are often API keys (from --env or a config
// file's env), and the ID is written into cache entries and continuations.
func serverID(url string, argv, env []string, dir string) string {
	if url != "" {
		// A password or token in the URL stays off the disk (cache and era
		// files name their server): a hash of it keeps servers apart.
		if shown := client.RedactURL(url); shown != url {
			return shown + " (credentials " + client.HashCredential(url) + ")"
		}
		return url
	}
	parts := []string{"stdio:" + shellJoin(argv)}
	if len(env) > 0 {
		extra := make([]string, len(env))
		for i, kv := range env {
			k, v, _ := strings.Cut(kv, "=")
			extra[i] = k + "=" + client.HashCredential(v)[:12]
		}
		sort.Strings(extra)
		parts = append(parts, "env:"+strings.Join(extra, "\x00"))
	}
	if dir != "" {
		abs, err := filepath.Abs(dir)
		if err == nil {
			dir = abs
		}
		parts = append(parts, "cwd:"+dir)
	}
	return strings.Join(parts, " ")
}

// credentialID hashes the credentials sent with every request, so that
// results a server marks private are kept apart per credential and the
// secret itself never reaches the disk.
func credentialID(header map[string][]string) string {
	var parts []string
	for k, vs := range header {
		if secretHeader().MatchString(k) {
			parts = append(parts, k+":"+strings.Join(vs, ","))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	sort.Strings(parts)
	return client.HashCredential(parts...)
}

func cacheCommand(f *Factory) *cli.Command {
	return &cli.Command{
		Name:  "cache",
		Usage: "show or empty the cache of results (ttlMs / cacheScope)",
		Description: "server/discover, tools/list, prompts/list, resources/list, resources/templates/list and\n" +
			"resources/read results answer from disk while their ttlMs says they are fresh. Lists are\n" +
			"kept whatever their ttlMs (0, or none, as legacy servers send): a stale one is never an\n" +
			"answer, but tools call builds its call from it (retrying once after a fresh tools/list if\n" +
			"the server proves it wrong), and completion reads it. Legacy results are fresh only with\n" +
			"--cache-ttl. The cache lives in $MCPCTL_CACHE_DIR, else $XDG_CACHE_HOME/mcpctl/results.\n" +
			"Each server's era (modern or legacy, found by the first contact) is remembered in its\n" +
			"eras/ folder; clear forgets both.",
		Subcommands: []*cli.Command{newCmdCacheList(f, nil), newCmdCacheClear(f, nil)},
	}
}

// parseAny takes no options and, as the commands it parses for always
// have, ignores arguments.
func parseAny(f *Factory) func(*cli.Context) (*noOptions, error) {
	return func(c *cli.Context) (*noOptions, error) { return &noOptions{invoked(f, c)}, nil }
}

func newCmdCacheList(f *Factory, runF func(*noOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "list",
		Usage:     "list cached results with their age and TTL",
		ArgsUsage: " ",
		Action:    actionOf(parseAny(f), runF, runCacheList),
	}
}

func runCacheList(o *noOptions) error {
	ios := o.f.IOStreams
	render, err := o.renderOptions()
	if err != nil {
		return err
	}
	cache, err := o.f.openCache()
	if err != nil {
		return err
	}
	entries, err := cache.List()
	if err != nil {
		return fmt.Errorf("reading the cache: %w", err)
	}
	return output.Render(o.ctx(), ios, render, output.KindCacheList, cacheListing(entries, time.Now()))
}

func newCmdCacheClear(f *Factory, runF func(*noOptions) error) *cli.Command {
	return &cli.Command{
		Name:      "clear",
		Usage:     "remove every cached result and remembered server era",
		ArgsUsage: " ",
		Action:    actionOf(parseAny(f), runF, runCacheClear),
	}
}

func runCacheClear(o *noOptions) error {
	cache, err := o.f.openCache()
	if err != nil {
		return err
	}
	n, err := cache.Clear()
	if err != nil {
		return fmt.Errorf("clearing the cache: %w", err)
	}
	dir, _ := o.f.eraDir()
	eras, err := (&client.FileEraStore{Dir: dir}).Clear()
	if err != nil {
		return fmt.Errorf("clearing the remembered eras: %w", err)
	}
	notef(o.f.IOStreams, "removed %d cached results and %d remembered server eras from %s", n, eras, cache.Dir)
	return nil
}

type cacheListEntry struct {
	Method   string          `json:"method"`
	Params   json.RawMessage `json:"params"`
	Server   string          `json:"server"`
	Version  string          `json:"protocolVersion"`
	Scope    string          `json:"cacheScope"`
	StoredAt time.Time       `json:"storedAt"`
	Age      string          `json:"age"`
	TTLMs    int64           `json:"ttlMs"`
	TTL      string          `json:"ttl"`
	Fresh    bool            `json:"fresh"`
	File     string          `json:"file"`
}

func cacheListing(entries []*client.CacheEntry, now time.Time) json.RawMessage {
	out := struct {
		Entries []cacheListEntry `json:"entries"`
	}{Entries: []cacheListEntry{}}
	for _, e := range entries {
		params := json.RawMessage(e.Key.Params)
		if !json.Valid(params) {
			params = json.RawMessage("{}")
		}
		out.Entries = append(out.Entries, cacheListEntry{
			Method: e.Key.Method, Params: params, Server: e.Key.Server, Version: e.Key.Version,
			Scope: e.CacheScope, StoredAt: e.StoredAt, Age: now.Sub(e.StoredAt).Round(time.Second).String(),
			TTLMs: e.TTLMs, TTL: (time.Duration(e.TTLMs) * time.Millisecond).String(), Fresh: e.Fresh(now), File: e.File,
		})
	}
	b, _ := json.Marshal(out)
	return b
}
