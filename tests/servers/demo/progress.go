package main

// long_job: a slow tool that reports notifications/progress (when the
// request carries _meta.progressToken) and notifications/message (at or
// above the request's _meta["io.modelcontextprotocol/logLevel"]; none when
// it is absent, as the spec requires; the SDK does the filtering).

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var longJobSchema = json.RawMessage(`{
  "type": "object",
  "properties": {
    "steps": {"type": "integer", "description": "Number of steps", "minimum": 1, "maximum": 50, "default": 5},
    "delay_ms": {"type": "integer", "description": "Pause before each step, in milliseconds", "minimum": 0, "maximum": 10000, "default": 100}
  },
  "additionalProperties": false
}`)

type longJobInput struct {
	Steps   int `json:"steps"`
	DelayMs int `json:"delay_ms"`
}

func longJob(ctx context.Context, req *mcp.CallToolRequest, in longJobInput) (*mcp.CallToolResult, any, error) {
	ss := req.Session
	token := req.Params.GetProgressToken()
	logf := func(level mcp.LoggingLevel, format string, args ...any) {
		ss.Log(ctx, &mcp.LoggingMessageParams{Level: level, Logger: "long_job", Data: fmt.Sprintf(format, args...)})
	}
	logf("info", "starting %d steps", in.Steps)
	for i := 1; i <= in.Steps; i++ {
		logf("debug", "step %d: waiting %d ms", i, in.DelayMs)
		select {
		case <-time.After(time.Duration(in.DelayMs) * time.Millisecond):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		if token != nil {
			ss.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: token,
				Progress:      float64(i),
				Total:         float64(in.Steps),
				Message:       fmt.Sprintf("step %d of %d", i, in.Steps),
			})
		}
		logf("info", "step %d of %d done", i, in.Steps)
	}
	return textResult("done after %d steps", in.Steps), nil, nil
}

var logLevels = map[string]bool{
	"debug": true, "info": true, "notice": true, "warning": true,
	"error": true, "critical": true, "alert": true, "emergency": true,
}

// checkLogLevel rejects requests whose _meta asks for a log level the spec
// does not define (the SDK would accept any string).
func checkLogLevel(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		// Params may be a typed nil pointer when a request has none.
		if p := req.GetParams(); p != nil && !reflect.ValueOf(p).IsNil() {
			if v, ok := p.GetMeta()["io.modelcontextprotocol/logLevel"]; ok {
				if s, _ := v.(string); !logLevels[s] {
					return nil, invalidParams(fmt.Sprintf("invalid log level %v in _meta[\"io.modelcontextprotocol/logLevel\"]", v))
				}
			}
		}
		return next(ctx, method, req)
	}
}
