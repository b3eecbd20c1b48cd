package client

// subscriptions/listen does not exist before 2026-07-28: legacy servers
// send change notifications whenever they like (on stdout, on the GET
// stream, on the HTTP+SSE stream) and take resources/subscribe for
// updates of one resource. Listen on a legacy server maps the filter onto
// those: it subscribes to each resource asked for, acknowledges what the
// server's capabilities and subscriptions allow, then hands over the
// notifications the filter selects, and unsubscribes at the end. There is
// no subscription id, so events carry null.

import (
	"context"
	"encoding/json"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
)

func (c *Client) legacyListen(ctx context.Context, filter json.RawMessage, onEvent func(ListenEvent)) (json.RawMessage, error) {
	if err := c.initialized(ctx); err != nil {
		return nil, err
	}
	tc := c.caps()
	if tc.Watch == nil {
		return nil, &CapabilityError{Binding: tc.Binding, Capability: "delivery of the server's own notifications"}
	}
	var f struct {
		Tools     bool     `json:"toolsListChanged"`
		Prompts   bool     `json:"promptsListChanged"`
		Resources bool     `json:"resourcesListChanged"`
		URIs      []string `json:"resourceSubscriptions"`
	}
	_ = json.Unmarshal(filter, &f)
	var init struct {
		Capabilities struct {
			Tools, Prompts *struct {
				ListChanged bool `json:"listChanged"`
			}
			Resources *struct {
				ListChanged bool `json:"listChanged"`
				Subscribe   bool `json:"subscribe"`
			}
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(c.InitializeResult(), &init)
	caps := init.Capabilities
	var ack ojson.Members
	on := json.RawMessage("true")
	tools := f.Tools && caps.Tools != nil && caps.Tools.ListChanged
	prompts := f.Prompts && caps.Prompts != nil && caps.Prompts.ListChanged
	resources := f.Resources && caps.Resources != nil && caps.Resources.ListChanged
	if tools {
		ack = append(ack, ojson.Member{Key: "toolsListChanged", Value: on})
	}
	if prompts {
		ack = append(ack, ojson.Member{Key: "promptsListChanged", Value: on})
	}
	if resources {
		ack = append(ack, ojson.Member{Key: "resourcesListChanged", Value: on})
	}
	subscribed := map[string]bool{}
	var uris []string
	if len(f.URIs) > 0 && caps.Resources != nil && caps.Resources.Subscribe {
		for _, uri := range f.URIs {
			p := ojson.Members{{Key: "uri", Value: mustJSON(uri)}}.JSON()
			if _, err := c.legacyCall(ctx, "resources/subscribe", p, &CallOptions{}); err != nil {
				c.warn("resources/subscribe " + uri + ": " + err.Error())
				continue
			}
			subscribed[uri] = true
			uris = append(uris, uri)
		}
		defer c.unsubscribe(ctx, uris)
	}
	if len(f.URIs) > 0 {
		ack = append(ack, ojson.Member{Key: "resourceSubscriptions", Value: mustJSON(append([]string{}, uris...))})
	}
	null := json.RawMessage("null")
	onEvent(ListenEvent{Kind: "acknowledged", SubscriptionID: null, Method: "notifications/subscriptions/acknowledged",
		Params: ojson.Members{{Key: "notifications", Value: ack.JSON()}}.JSON()})
	err := tc.Watch(ctx, func(n Notification) {
		wanted := false
		switch n.Method {
		case "notifications/tools/list_changed":
			wanted = tools
		case "notifications/prompts/list_changed":
			wanted = prompts
		case "notifications/resources/list_changed":
			wanted = resources
		case "notifications/resources/updated":
			var p struct {
				URI string `json:"uri"`
			}
			_ = json.Unmarshal(n.Params, &p)
			wanted = subscribed[p.URI]
		}
		if wanted {
			onEvent(ListenEvent{Kind: "notification", SubscriptionID: null, Method: n.Method, Params: n.Params, More: n.More})
		} else {
			c.untied(n) // log messages and the like still reach the caller
		}
	})
	return nil, err
}

// unsubscribe undoes resources/subscribe, briefly, even when the listen
// was stopped by its context.
func (c *Client) unsubscribe(ctx context.Context, uris []string) {
	uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
	defer cancel()
	for _, uri := range uris {
		p := ojson.Members{{Key: "uri", Value: mustJSON(uri)}}.JSON()
		_, _ = c.legacyCall(uctx, "resources/unsubscribe", p, &CallOptions{})
	}
}

// Ping checks that the server answers: ping on a legacy server; modern
// revisions have no ping, so there it is a server/discover that bypasses
// the cache. The result is the server's ({} on success).
func (c *Client) Ping(ctx context.Context) (json.RawMessage, error) {
	if err := c.ensureEra(ctx); err != nil {
		return nil, err
	}
	if c.Legacy() {
		return c.legacyCall(ctx, "ping", nil, &CallOptions{})
	}
	if _, err := c.call(ctx, "server/discover", nil, &CallOptions{}); err != nil {
		return nil, err
	}
	return json.RawMessage(`{}`), nil
}
