package client

// Dry runs. A transport in dry-run mode (Capabilities.DryRun) shows each
// request instead of sending it; the Client makes sure that what it shows
// is what a real run would send: the era remembered from an earlier run
// (EraStore is read, never written), the legacy handshake before a legacy
// request, and, for a caller that asks with CallOptions.CacheOnly, what
// the cache holds (a tool's definition, which types the arguments and
// names the Mcp-Param-* headers). Nothing is written: no era, no cache
// entry, no cache entry dropped.

import (
	"context"
	"encoding/json"
	"errors"
)

// ErrNotCached is returned for a request made with CallOptions.CacheOnly
// when the cache holds no fresh answer to it.
var ErrNotCached = errors.New("no fresh answer in the cache")

// dryLegacyCall shows a legacy request as a real run sends it: after the
// initialize request and notifications/initialized, which open the
// session once. server/discover is answered by the initialize result in a
// real run, so it shows the handshake alone.
func (c *Client) dryLegacyCall(ctx context.Context, method string, params json.RawMessage, co *CallOptions) (json.RawMessage, error) {
	if err := c.dryHandshake(ctx); err != nil {
		return nil, err
	}
	if method == "server/discover" {
		return nil, ErrDryRun
	}
	_, err := c.roundTrip(ctx, method, params, c.Version(), co)
	return nil, err
}

// dryHandshake shows the handshake, once per session. The initialize
// request asks for the version a real run asks for; the notification
// and the requests after it carry the version the server agreed to last
// time (the remembered era's), as a real run's do when it agrees again.
func (c *Client) dryHandshake(ctx context.Context) error {
	c.legacy.mu.Lock()
	defer c.legacy.mu.Unlock()
	if c.legacy.ready {
		return nil
	}
	c.legacy.ready = true
	if _, err := c.roundTrip(ctx, "initialize", c.initializeParams(c.initializeVersion()), "", &CallOptions{}); !errors.Is(err, ErrDryRun) {
		return err
	}
	n := &Request{Method: "notifications/initialized", Version: c.Version(), Legacy: true}
	if _, err := c.transport().RoundTrip(ctx, n, nil); err != nil && !errors.Is(err, ErrDryRun) {
		return err
	}
	return nil
}
