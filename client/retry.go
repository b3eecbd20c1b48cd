package client

// Retry-After (RFC 9110 §10.2.3). A server that answers 429 Too Many
// Requests or 503 Service Unavailable with Retry-After says when to come
// back. mcpctl comes back only for the list requests, which read and
// change nothing, so sending one twice is harmless; a tools/call might run
// twice. The wait is bounded three ways: at most MaxRetries times, at most
// MaxRetryWait each (a longer wait is not started at all), and never past
// the request's own timeout, which cancels the sleep like any other wait.

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Defaults for HTTPOptions.MaxRetries and MaxRetryWait.
const (
	DefaultMaxRetries   = 3
	DefaultMaxRetryWait = 10 * time.Second
)

// retryMethods are the idempotent requests that may be sent again.
var retryMethods = map[string]bool{
	"tools/list": true, "prompts/list": true, "resources/list": true, "resources/templates/list": true,
}

// RetryRefusal says why a 429 or 503 with Retry-After was not sent again.
type RetryRefusal struct {
	// After is the wait the server asked for.
	After time.Duration
	// Reason is RetryNotIdempotent (only list requests are sent again),
	// RetryTooLong (After is over MaxWait) or RetryExhausted (Retries
	// were made).
	Reason  RetryReason
	MaxWait time.Duration
	Retries int
}

// RetryReason is why a request was not sent again.
type RetryReason int

const (
	RetryNotIdempotent RetryReason = iota + 1
	RetryTooLong
	RetryExhausted
)

func (r *RetryRefusal) String() string {
	switch r.Reason {
	case RetryNotIdempotent:
		return fmt.Sprintf("the server asks to retry after %s; only list requests are retried", seconds(r.After))
	case RetryTooLong:
		return fmt.Sprintf("the server asks to retry after %s; the longest wait allowed is %s", seconds(r.After), seconds(r.MaxWait))
	}
	return fmt.Sprintf("still after %d retries", r.Retries)
}

// postRetrying POSTs body, again after the server's Retry-After when a
// list request is refused with 429 or 503. note says why a 429 or 503
// that carried Retry-After was finally not retried.
func (t *httpConn) postRetrying(ctx context.Context, req *Request, h http.Header, body []byte) (resp *http.Response, note *RetryRefusal, err error) {
	for retries := 0; ; retries++ {
		resp, err := t.send(ctx, http.MethodPost, t.opts.URL, h, body)
		if err != nil {
			return nil, nil, err
		}
		if resp.StatusCode != http.StatusTooManyRequests && resp.StatusCode != http.StatusServiceUnavailable {
			return resp, nil, nil
		}
		wait, ok := parseRetryAfter(resp.Header.Get("Retry-After"), time.Now())
		switch {
		case !ok:
			return resp, nil, nil
		case !retryMethods[req.Method]:
			return resp, &RetryRefusal{After: wait, Reason: RetryNotIdempotent}, nil
		case wait > t.opts.MaxRetryWait:
			return resp, &RetryRefusal{After: wait, Reason: RetryTooLong, MaxWait: t.opts.MaxRetryWait}, nil
		case retries >= t.opts.MaxRetries:
			return resp, &RetryRefusal{After: wait, Reason: RetryExhausted, Retries: retries}, nil
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, nil, err
		}
	}
}

// parseRetryAfter reads delta-seconds or an HTTP date; a date in the past
// means now.
func parseRetryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if n, err := strconv.ParseUint(v, 10, 32); err == nil {
		return time.Duration(n) * time.Second, true
	}
	if strings.Trim(v, "0123456789") == "" {
		return time.Duration(1<<63 - 1), true // more seconds than fit: forever
	}
	when, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	return max(when.Sub(now), 0), true
}

func seconds(d time.Duration) string {
	return strconv.FormatInt(int64(d.Round(time.Second)/time.Second), 10) + "s"
}
