package client

// subscriptions/listen (basic/patterns/subscriptions): a request whose
// answer is a stream. The server first sends
// notifications/subscriptions/acknowledged with the filter it agreed to,
// then the notifications asked for, each tagged in _meta with
// io.modelcontextprotocol/subscriptionId (the listen request's id), and
// ends the subscription gracefully by answering the request. Over stdio
// several subscriptions share the process's output, so notifications are
// matched to their subscription by that id.

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"
	"time"

	"github.com/mcpctl/mcpctl/client/ojson"
)

// SubscriptionIDKey tags every notification of a subscription.
const SubscriptionIDKey = "io.modelcontextprotocol/subscriptionId"

// ListenEvent is one thing that happened on a subscription.
type ListenEvent struct {
	// Kind is "acknowledged" or "notification".
	Kind           string
	SubscriptionID json.RawMessage
	Method         string
	Params         json.RawMessage
	// More: further messages are already waiting (see Notification.More).
	More bool
}

// ListenOptions tunes Listen.
type ListenOptions struct {
	// AckTimeout bounds the wait for the acknowledgment (0: Options.Timeout).
	AckTimeout time.Duration
	// Stray receives notifications of other subscriptions or before the
	// acknowledgment, which are otherwise ignored (for a trace).
	Stray func(Notification, string)
}

// AckTimeoutError means the server never acknowledged a subscription.
type AckTimeoutError struct{ After time.Duration }

func (e *AckTimeoutError) Error() string {
	return "the server did not acknowledge the subscription within " + e.After.String()
}

// Listen opens a subscription with the given notifications filter and
// calls onEvent for the acknowledgment and each notification, in order,
// from the transport's reader: a slow onEvent slows the server down rather
// than piling events up in memory. It returns the graceful close result,
// or the error that ended the stream (ctx.Err() when the caller stopped).
func (c *Client) Listen(ctx context.Context, filter json.RawMessage, lo ListenOptions, onEvent func(ListenEvent)) (json.RawMessage, error) {
	if err := c.ensureEra(ctx); err != nil {
		return nil, err
	}
	if c.Legacy() {
		return c.legacyListen(ctx, filter, onEvent)
	}
	params := ojson.Members{{Key: "notifications", Value: filter}}.JSON()
	var mu sync.Mutex
	var subID string
	acked := false
	ackTimeout := lo.AckTimeout
	if ackTimeout == 0 {
		ackTimeout = c.opts.Timeout
	}
	listenCtx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var ackTimer *time.Timer
	if ackTimeout > 0 {
		ackTimer = time.AfterFunc(ackTimeout, func() { cancel(&AckTimeoutError{After: ackTimeout}) })
		defer ackTimer.Stop()
	}
	if lo.Stray != nil {
		// On a shared connection (stdio) what names another subscription,
		// or none, is tied to no request: it comes to the Client
		// (untied.go), which shows it to the trace here too.
		defer c.observe(func(n Notification) {
			why := "no subscription id"
			if subscriptionOf(n.Params) != nil {
				why = "another subscription"
			}
			lo.Stray(n, why)
		})()
	}
	co := &CallOptions{
		NoTimeout: true,
		OnID: func(id int64) {
			mu.Lock()
			subID = strconv.FormatInt(id, 10)
			mu.Unlock()
		},
		OnNotify: func(n Notification) {
			sid := subscriptionOf(n.Params)
			mu.Lock()
			mine := sid != nil && (string(sid) == subID || string(sid) == `"`+subID+`"`)
			isAck := n.Method == "notifications/subscriptions/acknowledged"
			ok := mine && (acked || isAck)
			if mine && isAck {
				acked = true
			}
			mu.Unlock()
			if !ok {
				if lo.Stray != nil {
					why := "another subscription"
					if mine {
						why = "before the acknowledgment"
					} else if sid == nil {
						why = "no subscription id"
					}
					lo.Stray(n, why)
				}
				if !mine && c.opts.Hooks.OnNotify != nil && sid == nil {
					c.opts.Hooks.OnNotify(n) // progress and logs still reach the caller
				}
				return
			}
			if isAck {
				if ackTimer != nil {
					ackTimer.Stop()
				}
				onEvent(ListenEvent{Kind: "acknowledged", SubscriptionID: sid, Method: n.Method, Params: n.Params})
				return
			}
			onEvent(ListenEvent{Kind: "notification", SubscriptionID: sid, Method: n.Method, Params: n.Params, More: n.More})
		},
	}
	res, err := c.Call(listenCtx, "subscriptions/listen", params, co)
	if err != nil {
		if cause := context.Cause(listenCtx); cause != nil && ctx.Err() == nil {
			if ate, ok := cause.(*AckTimeoutError); ok {
				return nil, ate
			}
		}
		return nil, err
	}
	return res, nil
}

// subscriptionOf returns params._meta[subscriptionId], raw, or nil.
func subscriptionOf(params json.RawMessage) json.RawMessage {
	var p struct {
		Meta struct {
			ID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
		} `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return nil
	}
	v := p.Meta.ID
	if len(bytes.TrimSpace(v)) == 0 {
		return nil
	}
	return v
}
