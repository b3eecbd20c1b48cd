package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// NewFileText is what a new config file starts with.
const NewFileText = `# mcpctl configuration: named servers and defaults ('mcpctl help config').
# Strings may use ${VAR} and ${VAR:-default}, expanded from the environment
# when a server is used, so that secrets stay out of this file.
#
# defaults:
#   output: table
#   timeout: 30s
servers:
`

// Doc is mcpctl's own config file opened for editing. It is edited as a
// yaml.Node tree, so comments and the order of keys survive.
type Doc struct {
	File string
	doc  *yaml.Node
}

// OpenDoc reads file for editing; a missing file starts from NewFileText.
// A file that does not parse is a *SyntaxError: it is never overwritten.
func OpenDoc(file string) (*Doc, error) {
	data, err := os.ReadFile(file)
	if errors.Is(err, fs.ErrNotExist) {
		data, err = []byte(NewFileText), nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := parseYAML(file, data); err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, yamlSyntaxError(file, data, err)
	}
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode, Tag: "!!map"}}}
	}
	if isNull(doc.Content[0]) {
		comment := doc.Content[0].HeadComment
		doc.Content[0] = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", HeadComment: comment}
	}
	return &Doc{File: file, doc: &doc}, nil
}

// servers returns the servers mapping, creating it when create is set.
func (d *Doc) servers(create bool) *yaml.Node {
	root := d.doc.Content[0]
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "servers" {
			v := root.Content[i+1]
			if isNull(v) && create {
				*v = yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", LineComment: v.LineComment}
			}
			return v
		}
	}
	if !create {
		return nil
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	root.Content = append(root.Content, str("servers"), m)
	return m
}

func (d *Doc) index(name string) int {
	m := d.servers(false)
	if m == nil || m.Kind != yaml.MappingNode {
		return -1
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			return i
		}
	}
	return -1
}

// Has reports whether the file defines name.
func (d *Doc) Has(name string) bool { return d.index(name) >= 0 }

// Put adds s under its name, or replaces the entry of that name in place
// (keeping the comments around it).
func (d *Doc) Put(s *Server) {
	v := serverNode(s)
	if i := d.index(s.Name); i >= 0 {
		old := d.servers(false).Content[i+1]
		v.HeadComment, v.LineComment, v.FootComment = old.HeadComment, old.LineComment, old.FootComment
		*old = *v
		return
	}
	m := d.servers(true)
	m.Content = append(m.Content, str(s.Name), v)
}

// Remove deletes the entry called name and reports whether there was one.
func (d *Doc) Remove(name string) bool {
	i := d.index(name)
	if i < 0 {
		return false
	}
	m := d.servers(false)
	m.Content = append(m.Content[:i], m.Content[i+2:]...)
	return true
}

// Save writes the file atomically (package atomicfile), 0600
// in a 0700 folder: it may hold header names and paths worth keeping
// private even when the secrets themselves are ${VAR}s.
func (d *Doc) Save() error {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(d.doc); err != nil {
		return err
	}
	if err := enc.Close(); err != nil {
		return err
	}
	return atomicfile.Write(d.File, buf.Bytes())
}

// serverNode renders an entry in mcpctl's format, keys in a fixed order
// and empty ones left out.
func serverNode(s *Server) *yaml.Node {
	typ, timeout, keep := "", "", ""
	if s.Type == "sse" {
		typ = "sse" // the others follow from url or command
	}
	if s.Timeout > 0 {
		timeout = FormatDuration(s.Timeout)
	}
	if s.KeepAlive > 0 {
		keep = FormatDuration(s.KeepAlive)
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, f := range []struct {
		key string
		val *yaml.Node
	}{
		{"description", optStr(s.Description)}, {"type", optStr(typ)}, {"url", optStr(s.URL)},
		{"headers", kvNode(s.Headers)}, {"auth", kvNode(s.Auth)},
		{"command", optStr(s.Command)}, {"args", listNode(s.Args)}, {"env", kvNode(s.Env)},
		{"envFile", optStr(s.EnvFile)}, {"cwd", optStr(s.Cwd)},
		{"protocolVersion", optStr(s.ProtocolVersion)}, {"timeout", optStr(timeout)}, {"roots", listNode(s.Roots)},
		{"keepAlive", optStr(keep)},
	} {
		if f.val != nil {
			m.Content = append(m.Content, str(f.key), f.val)
		}
	}
	for _, st := range s.Settings {
		m.Content = append(m.Content, str(st.Key), str(st.Value))
	}
	return m
}

// FormatDuration writes d as people do: 2m rather than 2m0s.
func FormatDuration(d time.Duration) string {
	switch {
	case d > 0 && d%time.Hour == 0:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d > 0 && d%time.Minute == 0:
		return fmt.Sprintf("%dm", d/time.Minute)
	}
	return d.String()
}

func str(s string) *yaml.Node { return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s} }

// optStr, kvNode and listNode return nil for nothing to write.
func optStr(s string) *yaml.Node {
	if s == "" {
		return nil
	}
	return str(s)
}

func kvNode(kvs []KV) *yaml.Node {
	if len(kvs) == 0 {
		return nil
	}
	m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, kv := range kvs {
		m.Content = append(m.Content, str(kv.Key), str(kv.Value))
	}
	return m
}

// listNode writes short lists of words on one line ([-y, server]), as
// people write args by hand.
func listNode(items []string) *yaml.Node {
	if len(items) == 0 {
		return nil
	}
	l := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, it := range items {
		l.Content = append(l.Content, str(it))
	}
	return l
}
