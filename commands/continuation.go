package commands

// A continuation document is what mcpctl prints on stdout when a call
// needs input it cannot get here (exit 6): the request, the server's
// questions and its requestState, and how to reach the server again.
// `mcpctl resume FILE --answers …` finishes the call. The document is
// sealed with an HMAC under a key kept in the state directory, so an
// edited document, or one from another machine or user, is refused; the
// server it names must be the one resume talks to.

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpctl/mcpctl/client"
	"github.com/mcpctl/mcpctl/client/atomicfile"
	"github.com/mcpctl/mcpctl/client/ojson"
	"github.com/mcpctl/mcpctl/internal/argv"
)

const continuationKind = "mcpctl.continuation/v1"

type continuation struct {
	Kind            string          `json:"kind"`
	Server          string          `json:"server"`
	ServerName      string          `json:"serverName,omitempty"` // a configured server, found again by name
	URL             string          `json:"url,omitempty"`
	Stdio           string          `json:"stdio,omitempty"`
	Env             []string        `json:"env,omitempty"`
	Cwd             string          `json:"cwd,omitempty"`
	ProtocolVersion string          `json:"protocolVersion"`
	Method          string          `json:"method"`
	Params          json.RawMessage `json:"params,omitempty"`
	InputRequests   json.RawMessage `json:"inputRequests"`
	RequestState    json.RawMessage `json:"requestState,omitempty"`
	TaskID          string          `json:"taskId,omitempty"`
	Round           int             `json:"round"`
	Reason          string          `json:"reason,omitempty"`
	MAC             string          `json:"mac,omitempty"`
}

// seal computes the document's MAC over everything but the MAC, with raw
// parts compacted so that re-indenting the file does not count as an edit.
func (k *continuation) seal(key []byte) (string, error) {
	c := *k
	c.MAC = ""
	for _, raw := range []*json.RawMessage{&c.Params, &c.InputRequests, &c.RequestState} {
		if len(*raw) == 0 {
			continue
		}
		var b bytes.Buffer
		if err := json.Compact(&b, *raw); err != nil {
			return "", err
		}
		*raw = b.Bytes()
	}
	data, err := json.Marshal(c)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, key)
	m.Write(data)
	return hex.EncodeToString(m.Sum(nil)), nil
}

// newContinuation builds the document for a call stopped by ire.
func (s *connection) newContinuation(ire *client.InputRequiredError) (json.RawMessage, error) {
	reqs := ojson.Members{}
	for _, r := range ire.Requests {
		o := ojson.Members{}
		o.Set("method", ojson.String(r.Method))
		if len(r.Params) > 0 {
			o.Set("params", r.Params)
		}
		reqs.Set(r.Key, o.JSON())
	}
	k := &continuation{
		Kind: continuationKind, Server: s.serverID, ServerName: s.conn.name, URL: s.conn.url, Stdio: s.conn.stdio, Env: s.conn.env, Cwd: s.conn.cwd,
		ProtocolVersion: s.client.Version(), Method: ire.Method, Params: ire.Params, InputRequests: reqs.JSON(),
		RequestState: ire.RequestState, TaskID: ire.TaskID, Round: ire.Round, Reason: ire.Reason,
	}
	key, err := s.f.stateKey()
	if err != nil {
		return nil, err
	}
	if k.MAC, err = k.seal(key); err != nil {
		return nil, err
	}
	return json.Marshal(k)
}

// readContinuation parses and checks a continuation document.
func readContinuation(f *Factory, data []byte) (*continuation, error) {
	var k continuation
	if err := json.Unmarshal(data, &k); err != nil || k.Kind != continuationKind {
		return nil, usagef("this is not an mcpctl continuation document (it is printed on stdout when a call exits 6)")
	}
	key, err := f.stateKey()
	if err != nil {
		return nil, err
	}
	want, err := k.seal(key)
	if err != nil || !hmac.Equal([]byte(want), []byte(k.MAC)) {
		return nil, usagef("the continuation document was edited, or was written by another user or machine: refusing to resume it")
	}
	return &k, nil
}

// clientContinuation converts the document for client.Resume.
func (k *continuation) clientContinuation() (client.Continuation, error) {
	out := client.Continuation{Method: k.Method, Params: k.Params, RequestState: k.RequestState, TaskID: k.TaskID, Round: k.Round}
	obj, err := argv.ParseObject("inputRequests", k.InputRequests)
	if err != nil {
		return out, err
	}
	for _, key := range obj.Keys() {
		var r struct {
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		if err := json.Unmarshal(obj.Get(key), &r); err != nil {
			return out, fmt.Errorf("inputRequests[%q]: %v", key, err)
		}
		out.Requests = append(out.Requests, client.InputRequest{Key: key, Method: r.Method, Params: r.Params})
	}
	if out.Method == "" {
		return out, errors.New("the continuation names no method")
	}
	return out, nil
}

// stateKey returns this user's secret for sealing continuation documents,
// creating it (0600) on first use.
func (f *Factory) stateKey() ([]byte, error) {
	dir, err := f.stateDir()
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, "continuation.key")
	if key, err := os.ReadFile(file); err == nil && len(key) == 32 {
		return key, nil
	}
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return nil, err
	}
	// Two processes racing here both write a key; the first one wins and
	// both read it back.
	if err := atomicfile.Create(file, key); err != nil && !errors.Is(err, os.ErrExist) {
		return nil, err
	}
	return os.ReadFile(file)
}
