package client

// Era detection (2026-07-28 basic/versioning, "Backward Compatibility"). A
// modern server takes every request on its own, with the protocol fields
// in _meta; a legacy one (2025-11-25 and earlier) wants an initialize
// handshake first. The client probes with server/discover and goes by
// what the server says, never by the clock alone: a DiscoverResult or a
// recognised modern error means modern; any other JSON-RPC error (or an
// HTTP 4xx) means legacy, never keyed to one error code, since legacy
// servers answer unknown methods however they like.
//
// Silence is no answer. A stdio server that is still starting (go run,
// npx fetching a package, a JVM) has not even read the probe; one that
// read it and says nothing may be a legacy server that ignores requests
// before initialize (the spec allows that), so where the same connection
// carries both eras initialize follows, and the server's first answer to
// either decides. Over HTTP a legacy server always answers a POST, so a
// slow answer is waited for. What says nothing at all within
// ProbeTimeout is no server (NotServerError), and neither is one that
// sends the probe back (cat). The era is remembered per server
// (EraStore) once an answer proved it, so later runs skip the probe; a
// remembered era that stops working is probed again, once.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpctl/mcpctl/client/atomicfile"
)

// Era says which generation of MCP a server speaks.
type Era string

const (
	EraUnknown Era = ""
	EraModern  Era = "modern"
	EraLegacy  Era = "legacy"
)

// DefaultProbeTimeout bounds the wait for a first answer from a server
// whose era is not known: what answers nothing in that long is taken for
// no server. It is generous, since a server's own start (a package
// fetched, a runtime warmed up) counts in it.
const DefaultProbeTimeout = 15 * time.Second

// legacyAfter is how long server/discover may go unanswered by a server
// that has read it before initialize is sent too, for a legacy server
// that ignores requests before initialize (a fifth of the probe's bound
// when that is shorter, so that initialize is answered within it).
// readPoll is how often the probe looks whether a stdio server has read
// server/discover yet.
const (
	legacyAfter = 3 * time.Second
	readPoll    = 100 * time.Millisecond
)

// EraInfo is what was learnt about a server's era.
type EraInfo struct {
	Era Era `json:"era"`
	// Version is the negotiated (legacy) or selected (modern) revision.
	Version string `json:"version,omitempty"`
	// Transport is the binding the era was found on (Capabilities.Binding).
	Transport string    `json:"transport"`
	StoredAt  time.Time `json:"storedAt"`
}

// EraStore remembers servers' eras between runs.
type EraStore interface {
	LoadEra(server string) (EraInfo, bool)
	SaveEra(server string, e EraInfo) error
	ForgetEra(server string)
}

// FileEraStore keeps one small JSON file per server in Dir (0700), written
// atomically, so concurrent mcpctl processes never see half a file.
type FileEraStore struct{ Dir string }

func (s *FileEraStore) path(server string) string {
	sum := sha256.Sum256([]byte(server))
	return filepath.Join(s.Dir, hex.EncodeToString(sum[:16])+".json")
}

type eraFile struct {
	Server string `json:"server"`
	EraInfo
}

// LoadEra implements EraStore; anything unreadable counts as unknown.
func (s *FileEraStore) LoadEra(server string) (EraInfo, bool) {
	data, err := os.ReadFile(s.path(server))
	if err != nil {
		return EraInfo{}, false
	}
	var f eraFile
	if json.Unmarshal(data, &f) != nil || f.Server != server || (f.Era != EraModern && f.Era != EraLegacy) {
		return EraInfo{}, false
	}
	if f.Era == EraLegacy && !IsSupportedVersion(f.Version) {
		return EraInfo{}, false
	}
	return f.EraInfo, true
}

// SaveEra implements EraStore.
func (s *FileEraStore) SaveEra(server string, e EraInfo) error {
	data, _ := json.Marshal(eraFile{Server: server, EraInfo: e})
	return atomicfile.Write(s.path(server), data)
}

// ForgetEra implements EraStore.
func (s *FileEraStore) ForgetEra(server string) { _ = os.Remove(s.path(server)) }

// Clear removes every remembered era and returns how many there were.
func (s *FileEraStore) Clear() (int, error) { return clearDir(s.Dir) }

// clearDir removes the entries (and leftover temporary files) in dir and
// returns how many it removed.
func clearDir(dir string) (int, error) {
	files, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range files {
		if strings.HasSuffix(f.Name(), ".json") || atomicfile.IsTemp(f.Name()) {
			if os.Remove(filepath.Join(dir, f.Name())) == nil {
				n++
			}
		}
	}
	return n, nil
}

// modernErrorCodes are the errors only a modern server sends: they prove
// the era even when the request itself failed.
var modernErrorCodes = map[int64]bool{
	CodeHeaderMismatch:             true,
	CodeMissingClientCapability:    true,
	CodeUnsupportedProtocolVersion: true,
}

// isModernError reports whether err is a JSON-RPC error only a modern
// server would send.
func isModernError(err error) bool {
	var rpc *RPCError
	return errors.As(err, &rpc) && modernErrorCodes[rpc.Code]
}

// EraError means the era could not be determined: the server answered
// neither the probe nor initialize.
type EraError struct {
	Probe, Initialize error
}

func (e *EraError) Error() string {
	return fmt.Sprintf("the server answered neither server/discover (%s) nor initialize (%s); is it an MCP server?",
		withoutMethod(e.Probe), withoutMethod(e.Initialize))
}

func (e *EraError) Unwrap() []error { return []error{e.Probe, e.Initialize} }

// withoutMethod is err's message, without the method a timeout names:
// the EraError names it already.
func withoutMethod(err error) string {
	if te, ok := err.(*TimeoutError); ok {
		return te.short()
	}
	return err.Error()
}

// Era returns what is known of the server's era ("" before the first
// request).
func (c *Client) Era() EraInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.era
}

// Legacy reports whether the server turned out to speak a legacy
// (initialize-based) revision.
func (c *Client) Legacy() bool { return c.Era().Era == EraLegacy }

// recallEra sets the era without a request when it is already known: a
// legacy revision pinned by the caller, or an era remembered from an
// earlier run. Call does this before consulting the cache, whose keys
// hold the protocol version.
func (c *Client) recallEra() {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	c.recallEraLocked()
}

func (c *Client) recallEraLocked() {
	if c.Era().Era != EraUnknown {
		return
	}
	if IsLegacyVersion(c.opts.ProtocolVersion) || c.opts.Era == EraLegacy {
		v := c.opts.ProtocolVersion
		if !IsLegacyVersion(v) {
			v = legacyVersions[0]
		}
		if err := c.rebind(EraLegacy, c.base.Binding); err != nil {
			c.logf("era: %v", err)
		}
		c.setEra(EraInfo{Era: EraLegacy, Version: v, Transport: c.flavor()})
		return
	}
	if c.opts.Era == EraModern {
		c.setEra(EraInfo{Era: EraModern, Version: c.Version(), Transport: c.flavor()})
		return
	}
	// A dry run reads the era too (and never writes it): it shows the
	// requests of the era a real run would use.
	if c.opts.EraStore == nil || c.opts.ServerID == "" {
		return
	}
	e, ok := c.opts.EraStore.LoadEra(c.opts.ServerID)
	if !ok || (c.opts.PinVersion && e.Era == EraModern && e.Version != c.opts.ProtocolVersion) {
		return
	}
	if c.rebind(e.Era, e.Transport) != nil {
		return // remembered from another kind of transport
	}
	c.logf("era: %s (%s over %s), remembered from an earlier run", e.Era, e.Version, e.Transport)
	c.remembered = true
	c.setEra(e)
}

// ensureEra makes sure the era is known before a request goes out:
// recalled, or probed now. Only one goroutine probes; the others wait.
func (c *Client) ensureEra(ctx context.Context) error {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	c.recallEraLocked()
	if c.Era().Era != EraUnknown {
		return nil
	}
	if c.dryRun() {
		// Nothing may be sent, so nothing can be learnt: show the request
		// as a modern server would get it.
		c.setEra(EraInfo{Era: EraModern, Version: c.Version(), Transport: c.flavor()})
		return nil
	}
	return c.probe(ctx)
}

// shouldReprobe: a remembered era failed in a way a change of era would
// explain, and has not been probed again yet.
func (c *Client) shouldReprobe(err error) bool {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	if !c.remembered || c.reprobed {
		return false
	}
	if c.Era().Era == EraModern && isModernError(err) {
		return false // proof that it is still modern
	}
	return eraMismatch(err)
}

// reprobe forgets the remembered era and probes again.
func (c *Client) reprobe(ctx context.Context) error {
	c.eraMu.Lock()
	defer c.eraMu.Unlock()
	c.reprobed = true
	c.logf("era: the remembered era failed; probing again")
	c.forgetEra()
	c.legacy.mu.Lock()
	c.legacy.ready, c.legacy.result = false, nil
	c.legacy.mu.Unlock()
	if err := c.rebind(EraModern, c.base.Binding); err != nil {
		return err
	}
	return c.probe(ctx)
}

// legacyAnswer tells a probe failure that a legacy server gives (a
// JSON-RPC error, or an HTTP 4xx without a modern error) from one that
// no server of any era should (garbage, a dead process, a 5xx, 401).
func legacyAnswer(err error) bool {
	var rpc *RPCError
	var h *HTTPError
	switch {
	case errors.As(err, &rpc):
		return !modernErrorCodes[rpc.Code]
	case errors.As(err, &h):
		return h.Status >= 400 && h.Status < 500 && h.Status != http.StatusUnauthorized && h.Status != http.StatusForbidden
	}
	return false
}

// eraMismatch tells a failure that may mean the server changed era (worth
// one new probe) from one that would fail the same either way.
func eraMismatch(err error) bool {
	var rpc *RPCError
	var h *HTTPError
	var p *ProtocolError
	var v *VersionError
	switch {
	case isModernError(err):
		return true
	case errors.As(err, &rpc), errors.As(err, &p), errors.As(err, &v):
		return true
	case errors.As(err, &h):
		return h.Status >= 400 && h.Status < 500
	}
	return false
}

func (c *Client) forgetEra() {
	c.remembered = false
	c.mu.Lock()
	c.era = EraInfo{}
	c.version = c.opts.ProtocolVersion // the probe speaks modern again
	if !contains(modernVersions, c.version) {
		c.version = LatestVersion
	}
	c.mu.Unlock()
	if c.opts.EraStore != nil && c.opts.ServerID != "" && !c.dryRun() {
		c.opts.EraStore.ForgetEra(c.opts.ServerID)
	}
}

func (c *Client) setEra(e EraInfo) {
	c.mu.Lock()
	c.era = e
	if e.Version != "" {
		c.version = e.Version
	}
	c.mu.Unlock()
}

func (c *Client) saveEra(e EraInfo) {
	if c.opts.EraStore == nil || c.opts.ServerID == "" || c.dryRun() || c.pinned() {
		return // a pinned era says what this run wants, not what the server is
	}
	e.StoredAt = time.Now().UTC()
	if err := c.opts.EraStore.SaveEra(c.opts.ServerID, e); err != nil {
		c.logf("era: cannot remember the era: %v", err)
	}
}

func (c *Client) pinned() bool {
	return c.opts.Era != EraUnknown || IsLegacyVersion(c.opts.ProtocolVersion)
}

var errProbeTimeout = fmt.Errorf("era probe timed out: %w", context.DeadlineExceeded)

// flavor is the binding of the transport in use now.
func (c *Client) flavor() string { return c.caps().Binding }

// dryRun: nothing may be sent (Options.DryRun), or the transport shows
// requests instead of sending them.
func (c *Client) dryRun() bool { return c.opts.DryRun || c.caps().DryRun }
