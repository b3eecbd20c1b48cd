package commands

// A continuation document is what mcpctl prints on stdout when a call
// needs input it cannot get here (exit 6): the request, the server's
// questions and its requestState, and how to reach the server again.
// `mcpctl resume FILE --answers …` finishes the call. The document is
// sealed with an HMAC under a key kept in the state directory, so an
// edited document, or one from another machine or user, is refused; the
// server it names must be the one resume talks to.
//
// The document holds no secret (a server can make mcpctl print one at
// will, by asking for input nobody can give): a URL's password and
// credential parameters are redacted, --env values are left out, and both
// are listed under "withheld". Resume then takes them from the command
// line again (--url, --stdio, --env, as the call had them), which must
// name the same server; a configured server is found again by its name,
// with its entry's settings, and a token from the store.

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
	"strings"

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
	URL             string          `json:"url,omitempty"`        // redacted when it carries credentials
	Stdio           string          `json:"stdio,omitempty"`
	Cwd             string          `json:"cwd,omitempty"`
	Withheld        []string        `json:"withheld,omitempty"` // what reaching the server needs that the document does not hold
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

// newContinuation builds the document for a call stopped by ire, and
// says how to resume it.
func (s *connection) newContinuation(ire *client.InputRequiredError) (json.RawMessage, string, error) {
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
		Kind: continuationKind, Server: s.serverID, ServerName: s.conn.name, URL: client.RedactURL(s.conn.url), Stdio: s.conn.stdio, Cwd: s.conn.cwd,
		ProtocolVersion: s.client.Version(), Method: ire.Method, Params: ire.Params, InputRequests: reqs.JSON(),
		RequestState: ire.RequestState, TaskID: ire.TaskID, Round: ire.Round, Reason: ire.Reason,
	}
	if k.URL != s.conn.url {
		k.Withheld = append(k.Withheld, "the URL's credentials")
	}
	for _, kv := range s.conn.env {
		name, _, _ := strings.Cut(kv, "=")
		k.Withheld = append(k.Withheld, "--env "+name)
	}
	key, err := s.f.stateKey()
	if err != nil {
		return nil, "", err
	}
	if k.MAC, err = k.seal(key); err != nil {
		return nil, "", err
	}
	how := "the continuation is on stdout; finish with 'mcpctl resume FILE --answer KEY.FIELD=VALUE' (or --answers FILE)"
	if len(k.Withheld) > 0 {
		// The command quotes words of its own: not put in quotes.
		how = fmt.Sprintf("the continuation is on stdout, without the server's credentials (%s); finish with: %s --answer KEY.FIELD=VALUE (or --answers FILE)",
			strings.Join(k.Withheld, ", "), k.again())
	}
	doc, err := json.Marshal(k)
	return doc, how, err
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

// fallback is how resume reaches the document's server when the command
// line names none: by its configured name, its URL or its command. A
// document that withholds credentials has none to give: the command line
// must name the server again, with them.
func (k *continuation) fallback() (*connInfo, error) {
	if len(k.Withheld) == 0 {
		return &connInfo{url: k.URL, stdio: k.Stdio, cwd: k.Cwd, name: k.ServerName}, nil
	}
	return nil, usagef("the continuation does not keep the server's credentials (%s): name the server again as the call did, with them: %s",
		strings.Join(k.Withheld, ", "), k.again())
}

// again is how the document's server is named on a command line, with
// what the document withholds left to fill in (the URL's REDACTED parts,
// the --env values).
func (k *continuation) again() string {
	if k.Stdio == "" {
		return shellJoin([]string{"mcpctl", "--url", k.URL, "resume", "FILE"})
	}
	words := []string{"mcpctl", "--stdio", k.Stdio}
	for _, w := range k.Withheld {
		if name, ok := strings.CutPrefix(w, "--env "); ok {
			words = append(words, "--env", name+"=…")
		}
	}
	if k.Cwd != "" {
		words = append(words, "--cwd", k.Cwd)
	}
	return shellJoin(append(words, "resume", "FILE"))
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
